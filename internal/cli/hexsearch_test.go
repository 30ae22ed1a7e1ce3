package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// `gpuisa search 0x160a04c1` decodes the word as /api/v1/search does: on
// CDNA 4 (and the families that share its VOP2 opcodes) it is v_max_f32.
func TestSearchDecodesMachineCode(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "search", "0x160a04c1", "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Hits []isa.SearchHit `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	hits := doc.Hits
	var maxHit *isa.SearchHit
	for i := range hits {
		if hits[i].Name == "v_max_f32" {
			maxHit = &hits[i]
		}
	}
	if maxHit == nil || maxHit.Why != "decodes as v_max_f32_e32 v5, -1, v2" || !slices.Contains(maxHit.Archs, "cdna4") {
		t.Fatalf("hits %+v: want v_max_f32 decoded on cdna4", hits)
	}
	out, _, code = run(t, "search", "0x160a04c1", "--arch", "gfx950", "--db", testDB)
	if code != 0 || !strings.Contains(out, "v_max_f32") || !strings.Contains(out, "cdna4") || !strings.Contains(out, "decodes as v_max_f32_e32 v5, -1, v2") {
		t.Errorf("text output on gfx950:\n%s", out)
	}
	if strings.Contains(out, "rdna") {
		t.Errorf("--arch gfx950 decoded on other families:\n%s", out)
	}
}

// Half of a 64-bit instruction (the first word of a VOP3A) is not "no
// matches": search says which families need the word that follows, in
// the text and in --json's incomplete, as /api/v1/search does.
func TestSearchSaysHalfAnInstruction(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "search", "0xd2800005", "--arch", "cdna4", "--db", testDB)
	if code != 0 || !strings.Contains(out, "truncated VOP3A instruction: needs 8 bytes, 4 left, on cdna4: paste the words that follow it too") || strings.Contains(errOut, "no matches") {
		t.Errorf("text: exit %d:\n%s%s", code, out, errOut)
	}
	out, errOut, code = run(t, "search", "0xd2800005", "--arch", "cdna4", "--json", "--db", testDB)
	var doc struct {
		Incomplete []struct {
			Message string   `json:"message"`
			Archs   []string `json:"archs"`
		} `json:"incomplete"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || len(doc.Incomplete) != 1 || !slices.Equal(doc.Incomplete[0].Archs, []string{"cdna4"}) {
		t.Errorf("--json: exit %d %v: %s%s", code, err, out, errOut)
	}
}

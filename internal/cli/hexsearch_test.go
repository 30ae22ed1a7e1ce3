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

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

func TestDiffCommand(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "diff", "rdna3", "rdna4", "--db", testDB)
	if code != 0 {
		t.Fatalf("diff rdna3 rdna4: exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "RDNA 3 -> RDNA 4: ") || !strings.Contains(out, "    v_max_f32 -> v_max_num_f32\n") ||
		!strings.Contains(out, "    DS (64 bits) -> VDS (64 bits)") {
		t.Errorf("diff rdna3 rdna4 text lacks the counts, the v_max_f32 rename or DS -> VDS:\n%.2000s", out)
	}
	out, errOut, code = run(t, "diff", "sm_80", "sm_90", "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("diff sm_80 sm_90: exit %d: %s", code, errOut)
	}
	var r famdiff.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Kind != famdiff.KindPTXTargets || r.Counts.Added == 0 || r.Renamed == nil || r.Formats == nil {
		t.Errorf("diff sm_80 sm_90 --json: kind %s, counts %+v, renamed %v, formats %v", r.Kind, r.Counts, r.Renamed, r.Formats)
	}
	// Mixed kinds and unknown sides are bad input.
	for _, args := range [][]string{{"rdna3", "sm_90"}, {"rdna3", "rdna9"}, {"ptx:7.8", "ptx:7.99"}} {
		if _, errOut, code := run(t, append([]string{"diff", "--db", testDB}, args...)...); code != 2 || strings.Count(errOut, "\n") != 1 {
			t.Errorf("diff %v: exit %d, stderr %q; want 2 and one line", args, code, errOut)
		}
	}
}

// A product name stands for its target wherever a family is accepted.
func TestShowByProduct(t *testing.T) {
	needDB(t)
	if in := showJSON(t, "mi300x", "v_max_f32"); in.Arch != "cdna3" {
		t.Errorf("show mi300x v_max_f32 resolved to %s, want cdna3", in.Arch)
	}
	if in := showJSON(t, "RX 7900 XTX", "v_max_f32"); in.Arch != "rdna3" {
		t.Errorf("show 'RX 7900 XTX' v_max_f32 resolved to %s, want rdna3", in.Arch)
	}
}

// "MI300X" finds CDNA 3's gfx942.
func TestSearchProduct(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "search", "MI300X", "--db", testDB)
	if code != 0 || !strings.Contains(out, "gfx942") || !strings.Contains(out, "cdna3") || !strings.Contains(out, "AMD Instinct MI300X") {
		t.Errorf("search MI300X: exit %d, %q, %q", code, out, errOut)
	}
}

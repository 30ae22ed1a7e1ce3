package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestMistypedPathIsNoSuchFile: a path that names no file is "no such
// file: PATH" for decode, explain and encode, not an instruction to read
// ("does not name its target"); a directory says it is one. Instructions,
// hex words and byte lists are still read as such.
func TestMistypedPathIsNoSuchFile(t *testing.T) {
	dir := t.TempDir()
	missing := []string{"kernel.hsaco", "build/kernel.o", "kernel.S", "matmul.ptx", filepath.Join(dir, "nothing")}
	for _, p := range missing {
		if err := missingFile([]string{p}); err == nil || !strings.Contains(err.Error(), "no such file: "+p) {
			t.Errorf("missingFile(%q) = %v", p, err)
		}
	}
	if err := missingFile([]string{dir}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("missingFile(dir) = %v", err)
	}
	for _, in := range []string{"0x160a04c1", "v_max_f32", "max.f32", "s_nop", "[0xc1,0x04,0x0a,0x16]", "v_add_f32 v1, v2, v3", "-"} {
		if err := missingFile([]string{in}); err != nil {
			t.Errorf("missingFile(%q) = %v, want it read as input", in, err)
		}
	}
	needDB(t)
	for _, args := range [][]string{
		{"decode", "--arch", "gfx942", "kernel.hsaco"},
		{"decode", "build/kernel.o"},
		{"explain", "kernel.s"},
		{"explain", "matmul.ptx"},
		{"encode", "--arch", "gfx1100", "kernel.s"},
	} {
		path := args[len(args)-1]
		_, errOut, code := run(t, append(args, "--db", testDB)...)
		if code == 0 || !strings.Contains(errOut, "no such file: "+path) || strings.Contains(errOut, "does not name its target") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if out, errOut, code := run(t, "decode", "--arch", "cdna4", "0x160a04c1", "--db", testDB); code != 0 || !strings.Contains(out, "v_max_f32") {
		t.Errorf("decode of a hex word: exit %d %q %q", code, out, errOut)
	}
}

// TestProductTypoSuggestsTarget: a family given as a product name a
// letter off ("mi300") suggests the target it may mean.
func TestProductTypoSuggestsTarget(t *testing.T) {
	needDB(t)
	_, errOut, code := run(t, "show", "mi300", "v_max_f32", "--db", testDB)
	if code != 2 || !strings.Contains(errOut, "gfx942") {
		t.Errorf("show mi300 v_max_f32: exit %d, stderr %q", code, errOut)
	}
}

// TestTargetNamesAreNotInstructions: search and show say that a target
// ("sm_90") is one, and what target a product a letter off ("mi300")
// may be.
func TestTargetNamesAreNotInstructions(t *testing.T) {
	needDB(t)
	_, errOut, code := run(t, "search", "mi300", "--db", testDB)
	if code != 0 || !strings.Contains(errOut, "did you mean the target gfx942 (AMD Instinct MI300X") {
		t.Errorf("search mi300: exit %d, stderr %q", code, errOut)
	}
	// The JSON says what the text says.
	out, _, code := run(t, "search", "mi300", "--json", "--db", testDB)
	var doc searchJSON
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.NearTargets) == 0 || doc.NearTargets[0].Target != "gfx942" {
		t.Errorf("search mi300 --json: exit %d, %s; want near_targets with gfx942", code, out)
	}
	_, errOut, code = run(t, "show", "ptx", "sm_90", "--db", testDB)
	if code != 2 || !strings.Contains(errOut, "sm_90 is a target") {
		t.Errorf("show ptx sm_90: exit %d, stderr %q", code, errOut)
	}
}

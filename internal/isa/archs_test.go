package isa

import (
	"os/exec"
	"regexp"
	"testing"
)

func TestLookupArch(t *testing.T) {
	for in, want := range map[string]string{
		"cdna4": "cdna4", "CDNA 4": "cdna4", "gfx950": "cdna4", "rdna35": "rdna3.5", "RDNA_3.5": "rdna3.5",
		"gfx1201": "rdna4", "vega20": "vega7", "PTX": "ptx", "gfx90a": "cdna2",
	} {
		if a, ok := LookupArch(in); !ok || a.ID != want {
			t.Errorf("LookupArch(%q) = %q %v, want %q", in, a.ID, ok, want)
		}
	}
	if _, ok := LookupArch("gfx9999"); ok {
		t.Error("gfx9999 found")
	}
}

// TestTargetsKnownToLLVM checks every gfx target against the installed
// assembler's processor list.
func TestTargetsKnownToLLVM(t *testing.T) {
	mc, err := exec.LookPath("llvm-mc-22")
	if err != nil {
		t.Skip("llvm-mc-22 not installed (apt-get install llvm-22): cannot check the gfx target list")
	}
	out, _ := exec.Command(mc, "-triple=amdgcn", "-mcpu=help").CombinedOutput()
	known := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(gfx[0-9a-z]+)\s+- Select`).FindAllStringSubmatch(string(out), -1) {
		known[m[1]] = true
	}
	if len(known) < 30 {
		t.Fatalf("could not read llvm-mc's processor list:\n%s", out)
	}
	for _, tgt := range AllGFXTargets {
		if !known[tgt] {
			t.Errorf("%s is not a processor llvm-mc knows", tgt)
		}
	}
	for _, a := range Archs() {
		for _, tgt := range a.Targets {
			if !known[tgt] {
				t.Errorf("%s target %s is not a processor llvm-mc knows", a.ID, tgt)
			}
		}
	}
}

package isa

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
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

// passLengthRe is the CDNA guides' definition of a pass in their tables of
// required independent instructions: "**PASS** 4 clock cycles".
var passLengthRe = regexp.MustCompile(`\*\*PASS\*\*\s+(\d+) clock cycles`)

// passCountRe is a guide's pass count of an instruction ("This instruction
// performs 8 passes", "16 pass").
var passCountRe = regexp.MustCompile(`performs (\d+) passes|(\d+) Blocks, (\d+) pass`)

// TestMatrixFactsEveryFamily walks every family: each AMD family says how
// many SIMDs a CU has; a family whose guide defines a pass has that pass
// length; a family whose guide counts instructions in passes has a pass
// length (CDNA 1-2 state none: theirs is the 4 cycles their product peaks
// imply, see ArchInfo.CyclesPerPass); and no other family has one.
func TestMatrixFactsEveryFamily(t *testing.T) {
	dir := filepath.Join(testenv.Upstream(t), "amd-isa-manuals")
	for _, a := range Archs() {
		if a.Vendor != VendorAMD {
			if a.CyclesPerPass != 0 || a.SIMDsPerCU != 0 {
				t.Errorf("%s: matrix facts on a non-AMD family", a.ID)
			}
			continue
		}
		if a.SIMDsPerCU <= 0 {
			t.Errorf("%s: no SIMDs per CU", a.ID)
		}
		b, err := os.ReadFile(filepath.Join(dir, a.ID, "README.md"))
		if err != nil {
			t.Fatalf("%s's guide: %v", a.ID, err)
		}
		text := string(b)
		if m := passLengthRe.FindStringSubmatch(text); m != nil {
			if n, _ := strconv.Atoi(m[1]); n != a.CyclesPerPass {
				t.Errorf("%s: CyclesPerPass %d, the guide's PASS is %d clock cycles", a.ID, a.CyclesPerPass, n)
			}
		}
		counts := passCountRe.MatchString(text)
		if counts != (a.CyclesPerPass > 0) {
			t.Errorf("%s: the guide counts passes: %v; CyclesPerPass %d", a.ID, counts, a.CyclesPerPass)
		}
	}
}

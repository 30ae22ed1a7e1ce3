package decode

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestTargetSpellingsMatchLLVM: on every target of every family, an
// instruction the target's llvm-mc knows under another name (spelledOn)
// decodes, from its example's bytes, to the name that target's llvm-mc
// prints; and the family decoder keeps the family's name.
func TestTargetSpellingsMatchLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to run the target spelling test")
	}
	checked := 0
	for _, fam := range allFamilies {
		d := loadFamily(t, fam.Arch)
		for _, target := range d.arch.Targets {
			td, err := d.ForTarget(target)
			if err != nil {
				t.Fatal(err)
			}
			var lines [][]byte
			var want []*isa.Instruction
			for in := range td.spelledOn {
				for _, ex := range in.Examples {
					if b, ok := asmtext.ParseBytes(ex.Encoding); ok && len(b) >= 4 {
						lines, want = append(lines, b), append(want, in)
						break
					}
				}
			}
			if len(lines) == 0 {
				continue
			}
			ref, err := decodetest.Disassemble(target, lines, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range lines {
				buf := append(slices.Clip(l), sentinels...)
				got, _, err := td.Decode(buf, 0)
				if err != nil || !ref[i].OK {
					t.Errorf("%s %s: %s % x: gpuisa %v, llvm-mc decoded %v", fam.Arch, target, want[i].Name, l, err, ref[i].OK)
					continue
				}
				gotName, _, _ := strings.Cut(got.Text(), " ")
				llvmName, _, _ := strings.Cut(ref[i].Text, " ")
				if gotName != llvmName {
					t.Errorf("%s %s: %s % x: gpuisa prints %s, llvm-mc %s", fam.Arch, target, want[i].Name, l, gotName, llvmName)
				}
				if fg, _, err := d.Decode(buf, 0); err == nil && strings.HasPrefix(fg.Text(), gotName+" ") && gotName != llvmName {
					t.Errorf("%s: the family decoder prints %s's target spelling", fam.Arch, target)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no instruction has a target-specific spelling on any target: the model's alias checks (isa.Alias.Targets) are missing")
	}
	t.Logf("%d target spellings agree with llvm-mc", checked)
}

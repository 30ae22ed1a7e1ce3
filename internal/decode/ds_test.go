package decode

import (
	"strings"
	"testing"
)

// TestDSOperandsByName checks the name rule CDNA 5 relies on for its LDS
// instructions against the operands LLVM's syntax pages give every LDS
// instruction of the families that have them.
func TestDSOperandsByName(t *testing.T) {
	for _, fam := range allFamilies {
		if fam.arch == "cdna5" {
			continue // no LLVM syntax: the family the rule is for
		}
		f := loadModel(t, fam.arch)
		n := 0
		for i := range f.Instrs {
			in := &f.Instrs[i]
			if !strings.HasPrefix(in.Name, "ds_") || len(in.Syntax) == 0 {
				continue
			}
			n++
			want := memOperands(&entry{name: in.Name, instr: in})
			if got := memOperandsByName(in.Name); got != want {
				t.Errorf("%s %s: by name %09b, LLVM syntax %v gives %09b", fam.arch, in.Name, got, in.Syntax[0].Operands, want)
			}
		}
		if n < 100 {
			t.Errorf("%s: only %d LDS instructions with LLVM syntax", fam.arch, n)
		}
	}
}

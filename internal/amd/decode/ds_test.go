package decode

import (
	"testing"
)

// TestMemOperandsByRule checks the rules-table classes a model without
// LLVM syntax lines (CDNA 5) relies on for its LDS instructions against the
// operands LLVM's syntax pages give every LDS instruction of the families
// that have them. (The FLAT and buffer pages name their operands in ways
// the renderer reads only in part, vdata for a load's result and rsrc, so
// those are held to llvm-mc by the differential test instead.)
func TestMemOperandsByRule(t *testing.T) {
	for _, fam := range allFamilies {
		if fam.Arch == "cdna5" {
			continue // no LLVM syntax: the family the rules are for
		}
		d := loadFamily(t, fam.Arch)
		n := map[Kind]int{}
		for _, g := range d.groups {
			for _, fm := range g.formats {
				if fm.kind != KindDS {
					continue
				}
				for _, en := range fm.byOpcode {
					if en.instr == nil || len(en.instr.Syntax) == 0 || en.memOps == 0 {
						continue
					}
					n[fm.kind]++
					if got := memOperandsByRule(fm.kind, en.facts); got != en.memOps {
						t.Errorf("%s %s %s: by rule %09b, LLVM syntax %v gives %09b", fam.Arch, fm.Name, en.name, got, en.syntaxOps, en.memOps)
					}
				}
			}
		}
		if n[KindDS] < 100 {
			t.Errorf("%s: only %d LDS instructions with LLVM syntax", fam.Arch, n[KindDS])
		}
	}
}

package concepts

import (
	"maps"
	"slices"
)

// VerdictTable is the assembler's answers for everything the catalogue
// proposes, as the build stores them in the database: every instruction
// line of a form or sequence step per gfx target, and per family the
// targets on which the assembler accepts each AMD member (from the member's
// verified examples).
type VerdictTable struct {
	// Assembler is the llvm-mc version line that gave the answers.
	Assembler string `json:"assembler"`
	// Targets are the gfx targets the lines were assembled for.
	Targets []string `json:"targets"`
	// Lines maps an instruction line to gfx target -> "" when it
	// assembles, else the assembler's message.
	Lines map[string]map[string]string `json:"lines"`
	// Members maps family -> AMD mnemonic -> gfx target -> whether the
	// assembler accepts it there; a target it could not tell about (no
	// example of the instruction could be checked) is absent.
	Members map[string]map[string]map[string]bool `json:"members"`
}

var _ Verdicts = (*VerdictTable)(nil)

// NewVerdictTable returns an empty table for an assembler version.
func NewVerdictTable(assembler string, targets []string) *VerdictTable {
	return &VerdictTable{Assembler: assembler, Targets: append([]string{}, targets...),
		Lines: map[string]map[string]string{}, Members: map[string]map[string]map[string]bool{}}
}

// SetLine records the verdict for one line on one target ("" = assembles).
func (v *VerdictTable) SetLine(asm, target, msg string) {
	if v.Lines[asm] == nil {
		v.Lines[asm] = map[string]string{}
	}
	v.Lines[asm][target] = msg
}

// SetMember records whether mnemonic of family assembles on a target.
func (v *VerdictTable) SetMember(family, mnemonic, target string, ok bool) {
	if v.Members[family] == nil {
		v.Members[family] = map[string]map[string]bool{}
	}
	if v.Members[family][mnemonic] == nil {
		v.Members[family][mnemonic] = map[string]bool{}
	}
	v.Members[family][mnemonic][target] = ok
}

// Line implements Verdicts.
func (v *VerdictTable) Line(target, asm string) (ok, known bool, msg string) {
	m, found := v.Lines[asm][target]
	if !found {
		return false, false, ""
	}
	return m == "", true, m
}

// Member implements Verdicts.
func (v *VerdictTable) Member(family, mnemonic, target string) (ok, known bool) {
	ok, known = v.Members[family][mnemonic][target]
	return ok, known
}

// ProposedLines returns every instruction line the catalogue proposes (the
// relations' forms and the alternatives of their sequence steps, remarks
// removed), sorted and without duplicates: what the build assembles.
func ProposedLines(c *Catalogue) []string {
	set := map[string]bool{}
	for _, k := range c.Concepts {
		for _, rel := range k.Relations {
			for _, f := range rel.Forms {
				if asm, _ := SplitStep(f); asm != "" {
					set[asm] = true
				}
			}
			for _, s := range rel.Sequence {
				for _, alt := range s.Alternatives {
					if asm, _ := SplitStep(alt); asm != "" {
						set[asm] = true
					}
				}
			}
		}
	}
	out := slices.Sorted(maps.Keys(set))
	return out
}

// AMDMembers returns every AMD mnemonic the catalogue's concepts name,
// sorted.
func AMDMembers(c *Catalogue) []string {
	out := slices.Sorted(maps.Keys(c.byAMD))
	return out
}

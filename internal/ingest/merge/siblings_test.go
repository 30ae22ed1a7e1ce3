package merge

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestOptionalLikeSiblingsIsStable: the note names the same sibling
// whatever order the siblings come in (it named the first of a map's
// iteration, so two builds of the same sources differed).
func TestOptionalLikeSiblingsIsStable(t *testing.T) {
	sib := func(name string) *isa.Instruction {
		return &isa.Instruction{Name: name, Operands: []isa.Operand{{Name: "vdst", Optional: true}, {Name: "vaddr"}}}
	}
	var notes []string
	for _, order := range [][]string{{"flat_atomic_or_b32", "flat_atomic_and_b32", "flat_atomic_xor_b32"}, {"flat_atomic_xor_b32", "flat_atomic_or_b32", "flat_atomic_and_b32"}} {
		var sibs []*isa.Instruction
		for _, n := range order {
			sibs = append(sibs, sib(n))
		}
		in := &isa.Instruction{Name: "flat_atomic_max_num_f32", Operands: []isa.Operand{{Name: "vdst"}, {Name: "vaddr"}}}
		optionalLikeSiblings([]*isa.Instruction{in}, map[string][]*isa.Instruction{"flat_atomic": sibs})
		if !in.Operands[0].Optional {
			t.Fatal("vdst not marked optional")
		}
		notes = append(notes, in.Operands[0].Note)
	}
	if notes[0] != notes[1] || !strings.Contains(notes[0], "flat_atomic_and_b32") {
		t.Errorf("notes differ by order or name another sibling: %q", notes)
	}
}

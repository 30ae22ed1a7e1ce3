package merge

import (
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// ApplyConcepts links every instruction to the concepts it belongs to: AMD
// pages list the PTX side, PTX pages the AMD side (with the families each AMD
// member exists in).
func ApplyConcepts(c *concepts.Catalogue, insts []*isa.Instruction, ix *concepts.NameIndex) {
	for _, in := range insts {
		var matches []concepts.Match
		if in.Arch == "ptx" {
			matches = c.ForPTX(in.Name)
		} else {
			matches = c.ForAMD(in.Arch, in.Name)
		}
		in.Concepts = []isa.ConceptRef{}
		for _, m := range matches {
			in.Concepts = append(in.Concepts, conceptRefs(m, in, ix)...)
		}
	}
}

// conceptRefs turns one match into one reference per distinct relation (kind,
// restrictions, sequence), each listing the other side's members it covers.
func conceptRefs(m concepts.Match, in *isa.Instruction, ix *concepts.NameIndex) []isa.ConceptRef {
	type key struct{ kind, restr, seq string }
	byKey := map[key]*isa.ConceptRef{}
	var order []key
	for _, r := range m.Relations {
		k := key{string(r.Kind), strings.Join(r.Restrictions, "\x00"), strings.Join(r.SequenceText(), "\x00")}
		ref, ok := byKey[k]
		if !ok {
			ref = &isa.ConceptRef{ID: m.Concept.ID, Name: m.Concept.Name, Relation: string(r.Kind),
				Restrictions: r.Restrictions, Sequence: strings.Join(r.SequenceText(), "\n"), Members: []isa.Member{}}
			byKey[k] = ref
			order = append(order, k)
		}
		// Relations folded into one reference serve every variant of any
		// of them; a relation that serves all variants makes the
		// reference serve all.
		switch {
		case !ok:
			ref.Variants = slices.Clone(r.Variants)
		case len(ref.Variants) == 0: // serves all already
		case len(r.Variants) == 0:
			ref.Variants = nil
		default:
			ref.Variants = appendNew(ref.Variants, r.Variants...)
		}
		ref.Forms = appendNew(ref.Forms, r.Forms...)
		if in.Arch == "ptx" {
			// The families where the relation is in force: where the AMD
			// member exists and the relation (or the member) applies.
			mem, _ := amdMember(m.Concept, r.AMD)
			var archs []string
			for _, a := range ix.AMDArchs(r.AMD) {
				if r.AppliesOn(a, mem) {
					archs = append(archs, a)
				}
			}
			for _, a := range archs {
				ref.Members = appendMember(ref.Members, isa.Member{Arch: a, Name: r.AMD})
			}
			if len(archs) == 0 {
				ref.Members = appendMember(ref.Members, isa.Member{Name: r.AMD})
			}
		} else {
			ref.Members = appendMember(ref.Members, isa.Member{Arch: "ptx", Name: r.PTX})
		}
	}
	out := make([]isa.ConceptRef, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	return out
}

func amdMember(k *concepts.Concept, name string) (concepts.Member, bool) {
	for _, m := range k.AMD {
		if m.Mnemonic == name {
			return m, true
		}
	}
	return concepts.Member{}, false
}

func appendMember(list []isa.Member, m isa.Member) []isa.Member {
	for _, x := range list {
		if x == m {
			return list
		}
	}
	return append(list, m)
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}

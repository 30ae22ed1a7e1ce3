package merge

import (
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// NameIndex answers which instructions exist, for the concept validator and
// the porting helper. It implements concepts.Resolver.
type NameIndex struct {
	amd map[string]map[string]bool // mnemonic -> arch set (names and aliases)
	ptx map[string]bool            // true for instructions and special registers, false for directives
}

var _ concepts.Resolver = (*NameIndex)(nil)

// NewNameIndex indexes instructions by name.
func NewNameIndex(insts []*isa.Instruction) *NameIndex {
	ix := &NameIndex{amd: map[string]map[string]bool{}, ptx: map[string]bool{}}
	for _, in := range insts {
		if in.Arch == "ptx" && in.Entry == "directive" {
			ix.ptx[in.Name] = false
			continue
		}
		ix.Add(in.Arch, in.Name)
	}
	return ix
}

// Add records one instruction.
func (ix *NameIndex) Add(arch, name string) {
	if arch == "ptx" {
		ix.ptx[name] = true
		return
	}
	if ix.amd[name] == nil {
		ix.amd[name] = map[string]bool{}
	}
	ix.amd[name][arch] = true
}

// HasAMD reports whether arch has mnemonic.
func (ix *NameIndex) HasAMD(arch, mnemonic string) bool { return ix.amd[mnemonic][arch] }

// AMDArchs lists the families that have mnemonic, in display order.
func (ix *NameIndex) AMDArchs(mnemonic string) []string {
	var out []string
	for _, a := range isa.AMDArchIDs() {
		if ix.amd[mnemonic][a] {
			out = append(out, a)
		}
	}
	return out
}

// HasPTX reports whether mnemonic is a PTX instruction, special register or
// directive.
func (ix *NameIndex) HasPTX(mnemonic string) bool {
	_, ok := ix.ptx[mnemonic]
	return ok
}

// PTXMnemonics lists the PTX instructions and special registers (directives
// have no AMD counterpart to map and are left out).
func (ix *NameIndex) PTXMnemonics() []string {
	var out []string
	for m, mapped := range ix.ptx {
		if mapped {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// AMDNames returns arch -> names, for concept suggestions.
func (ix *NameIndex) AMDNames() map[string][]string {
	out := map[string][]string{}
	for name, archs := range ix.amd {
		for a := range archs {
			out[a] = append(out[a], name)
		}
	}
	for a := range out {
		sort.Strings(out[a])
	}
	return out
}

// ApplyConcepts links every instruction to the concepts it belongs to: AMD
// pages list the PTX side, PTX pages the AMD side (with the families each AMD
// member exists in).
func ApplyConcepts(c *concepts.Catalogue, insts []*isa.Instruction, ix *NameIndex) {
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
func conceptRefs(m concepts.Match, in *isa.Instruction, ix *NameIndex) []isa.ConceptRef {
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

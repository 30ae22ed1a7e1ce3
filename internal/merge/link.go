package merge

import (
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Rename is a documented change of an instruction's name between families.
type Rename struct {
	Old, New string
	Archs    []string // families that use New
	Note     string
}

// renames are the instruction names RDNA 4 (and CDNA 5) changed: the guides document only
// the new names, and LLVM accepts the old ones as aliases
// (`v_max_f32` assembles for gfx1200 and prints as `v_max_num_f32`), which the
// verification pass confirms per target.
var renames = []Rename{
	{"v_max_f32", "v_max_num_f32", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_min_f32", "v_min_num_f32", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_max_f16", "v_max_num_f16", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_min_f16", "v_min_num_f16", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_max_f64", "v_max_num_f64", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_min_f64", "v_min_num_f64", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_pk_max_f16", "v_pk_max_num_f16", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_pk_min_f16", "v_pk_min_num_f16", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_max3_f32", "v_max3_num_f32", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_min3_f32", "v_min3_num_f32", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_max3_f16", "v_max3_num_f16", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_min3_f16", "v_min3_num_f16", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_med3_f32", "v_med3_num_f32", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
	{"v_med3_f16", "v_med3_num_f16", []string{"rdna4", "cdna5"}, "renamed in RDNA 4 and CDNA 5"},
}

// canonicalGroup returns the name that links an instruction across families:
// the old name of a renamed instruction, or the name itself.
func canonicalGroup(name string) string {
	for _, r := range renames {
		if r.New == name && r.Old != r.New {
			return r.Old
		}
	}
	return name
}

// LinkFamilies fills Opcodes, Related and rename aliases for every AMD
// instruction: the same mnemonic (or a documented rename) in every family.
func LinkFamilies(insts []*isa.Instruction) {
	order := map[string]int{}
	for _, a := range isa.Archs() {
		order[a.ID] = a.Order
	}
	groups := map[string][]*isa.Instruction{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		g := canonicalGroup(in.Name)
		groups[g] = append(groups[g], in)
	}
	for _, members := range groups {
		sort.Slice(members, func(i, j int) bool { return order[members[i].Arch] < order[members[j].Arch] })
		opcodes := map[string]map[string]int{}
		for _, m := range members {
			op := map[string]int{}
			for _, e := range m.Encodings {
				if _, dup := op[e.Name]; !dup {
					op[e.Name] = e.Opcode
				}
			}
			opcodes[m.Arch] = op
		}
		for _, m := range members {
			m.Opcodes = opcodes
			m.Related = nil
			for _, o := range members {
				if o == m {
					continue
				}
				m.Related = append(m.Related, isa.Related{
					Arch: o.Arch, Name: o.Name,
					Same:    sameEncodings(opcodes[m.Arch], opcodes[o.Arch]),
					Renamed: o.Name != m.Name,
				})
			}
			for _, r := range renames {
				if r.Old == r.New {
					continue
				}
				if m.Name == r.New && containsString(r.Archs, m.Arch) {
					m.Aliases = appendAlias(m.Aliases, isa.Alias{
						Name: r.Old,
						Note: r.Note + "; earlier families and LLVM's assembler use " + r.Old,
						Prov: isa.Prov{Source: isa.SourceGPUISA, File: "internal/merge/link.go"},
					})
				}
			}
		}
	}
}

// sameEncodings reports whether two families give an instruction the same
// formats with the same opcodes.
func sameEncodings(a, b map[string]int) bool {
	if len(a) == 0 || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// AppendAlias adds an alias unless the list has that name already.
func AppendAlias(list []isa.Alias, a isa.Alias) []isa.Alias { return appendAlias(list, a) }

func appendAlias(list []isa.Alias, a isa.Alias) []isa.Alias {
	for _, x := range list {
		if strings.EqualFold(x.Name, a.Name) {
			return list
		}
	}
	return append(list, a)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

package merge

import (
	"slices"
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

// renames are the instruction names RDNA 4 (and CDNA 5) changed
// (isa.TraitNumMinMax): the guides document only
// the new names, and LLVM accepts the old ones as aliases
// (`v_max_f32` assembles for gfx1200 and prints as `v_max_num_f32`), which the
// verification pass confirms per target.
var renames = numRenames([][2]string{
	{"v_max_f32", "v_max_num_f32"},
	{"v_min_f32", "v_min_num_f32"},
	{"v_max_f16", "v_max_num_f16"},
	{"v_min_f16", "v_min_num_f16"},
	{"v_max_f64", "v_max_num_f64"},
	{"v_min_f64", "v_min_num_f64"},
	{"v_pk_max_f16", "v_pk_max_num_f16"},
	{"v_pk_min_f16", "v_pk_min_num_f16"},
	{"v_max3_f32", "v_max3_num_f32"},
	{"v_min3_f32", "v_min3_num_f32"},
	{"v_max3_f16", "v_max3_num_f16"},
	{"v_min3_f16", "v_min3_num_f16"},
	{"v_med3_f32", "v_med3_num_f32"},
	{"v_med3_f16", "v_med3_num_f16"},
})

// numRenames makes the renames of the families with isa.TraitNumMinMax.
func numRenames(pairs [][2]string) []Rename {
	archs := isa.ArchIDsWith(isa.TraitNumMinMax)
	names := make([]string, len(archs))
	for i, a := range archs {
		names[i] = isa.MustArch(a).Name
	}
	note := "renamed in " + strings.Join(names, " and ")
	out := make([]Rename, len(pairs))
	for i, p := range pairs {
		out[i] = Rename{p[0], p[1], archs, note}
	}
	return out
}

// Lineage says that two instructions of different families are one
// instruction spelled differently (RDNA 2's buffer_atomic_umax_x2 and
// RDNA 3's buffer_atomic_max_u64), and how a machine knows it.
type Lineage struct {
	Arch, Name           string // one spelling
	OtherArch, OtherName string // the other
	Evidence             string // in words: what llvm-mc did
	// Strong links have more than the alias: the same opcode in the same
	// format, or the same line accepted on both families. They are joined
	// before the others, so where llvm-mc maps two old instructions onto
	// one new one, the strong link wins.
	Strong bool
}

// lineageGroups puts every AMD instruction into its lineage: the same
// mnemonic in every family, joined across a documented rename (renames)
// or a machine-checked Lineage. A join that would put two instructions of
// one family into one lineage is refused and returned: one family has one
// instruction of a lineage. Evidence is keyed by the two names, sorted.
func lineageGroups(insts []*isa.Instruction, links []Lineage) (groups map[*isa.Instruction]int, evidence map[[2]string]string, refused []Lineage) {
	parent := map[string]string{} // union-find over names
	var find func(string) string
	find = func(n string) string {
		p, ok := parent[n]
		if !ok || p == n {
			parent[n] = n
			return n
		}
		r := find(p)
		parent[n] = r
		return r
	}
	archsOf := map[string]map[string]bool{} // root -> families
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		r := find(in.Name)
		if archsOf[r] == nil {
			archsOf[r] = map[string]bool{}
		}
		archsOf[r][in.Arch] = true
	}
	evidence = map[[2]string]string{}
	join := func(a, b, why string) bool {
		ra, rb := find(a), find(b)
		if ra == rb {
			return true
		}
		for arch := range archsOf[rb] {
			if archsOf[ra][arch] {
				return false
			}
		}
		parent[rb] = ra
		if archsOf[ra] == nil {
			archsOf[ra] = map[string]bool{}
		}
		for arch := range archsOf[rb] {
			archsOf[ra][arch] = true
		}
		delete(archsOf, rb)
		evidence[namePair(a, b)] = why
		return true
	}
	for _, r := range renames {
		if r.Old != r.New {
			join(r.Old, r.New, r.Note)
		}
	}
	sorted := append([]Lineage(nil), links...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Strong != sorted[j].Strong {
			return sorted[i].Strong
		}
		return sorted[i].Name+" "+sorted[i].OtherName < sorted[j].Name+" "+sorted[j].OtherName
	})
	for _, l := range sorted {
		if l.Name == l.OtherName {
			continue
		}
		if !join(l.Name, l.OtherName, l.Evidence) {
			refused = append(refused, l)
		}
	}
	groups = map[*isa.Instruction]int{}
	ids := map[string]int{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		r := find(in.Name)
		if _, ok := ids[r]; !ok {
			ids[r] = len(ids)
		}
		groups[in] = ids[r]
	}
	return groups, evidence, refused
}

func namePair(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// LinkFamilies fills Opcodes, Related and rename aliases for every AMD
// instruction: the same instruction in every family, by mnemonic, across
// the documented renames and across links (renames a machine checked, see
// Lineage). It returns the links it refused because they would give one
// family two instructions of one lineage.
func LinkFamilies(insts []*isa.Instruction, links ...Lineage) []Lineage {
	order := map[string]int{}
	for _, a := range isa.Archs() {
		order[a.ID] = a.Order
	}
	ids, evidence, refused := lineageGroups(insts, links)
	groups := map[int][]*isa.Instruction{}
	for _, in := range insts {
		if id, ok := ids[in]; ok {
			groups[id] = append(groups[id], in)
		}
	}
	for _, members := range groups {
		sort.Slice(members, func(i, j int) bool { return order[members[i].Arch] < order[members[j].Arch] })
		why := map[[2]string]string{} // the lineage's evidence between two names, once per pair
		whyOf := func(a, b string) string {
			k := [2]string{a, b}
			if w, ok := why[k]; ok {
				return w
			}
			w := renameEvidence(a, b, members, evidence)
			why[k] = w
			return w
		}
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
				rel := isa.Related{
					Arch: o.Arch, Name: o.Name,
					Same:    sameEncodings(opcodes[m.Arch], opcodes[o.Arch]),
					Renamed: o.Name != m.Name,
				}
				if rel.Renamed {
					rel.Evidence = whyOf(m.Name, o.Name)
				}
				m.Related = append(m.Related, rel)
			}
			for _, r := range renames {
				if r.Old == r.New {
					continue
				}
				if m.Name == r.New && slices.Contains(r.Archs, m.Arch) {
					m.Aliases = appendAlias(m.Aliases, isa.Alias{
						Name: r.Old,
						Note: r.Note + "; earlier families and LLVM's assembler use " + r.Old,
						Prov: isa.Prov{Source: isa.SourceGPUISA, File: "internal/ingest/merge/link.go"},
					})
				}
			}
		}
	}
	return refused
}

// renameEvidence says how two spellings of one lineage are known to be the
// same instruction: the link between them, or the chain of links through
// the lineage's other spellings.
func renameEvidence(a, b string, members []*isa.Instruction, evidence map[[2]string]string) string {
	if e, ok := evidence[namePair(a, b)]; ok {
		return e
	}
	// A breadth-first walk over the lineage's names.
	names := map[string]bool{}
	for _, m := range members {
		names[m.Name] = true
	}
	prev := map[string]string{a: ""}
	queue := []string{a}
	for len(queue) > 0 && prev[b] == "" {
		n := queue[0]
		queue = queue[1:]
		for o := range names {
			if _, seen := prev[o]; seen || o == a {
				continue
			}
			if _, ok := evidence[namePair(n, o)]; ok {
				prev[o] = n
				queue = append(queue, o)
			}
		}
	}
	if _, ok := prev[b]; !ok || b == a {
		return ""
	}
	var steps []string
	for n := b; n != a; n = prev[n] {
		steps = append([]string{evidence[namePair(prev[n], n)]}, steps...)
	}
	return strings.Join(steps, "; ")
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

// Package concepts loads, validates and queries the cross-vendor concept
// catalogue: hand-written YAML files (concepts/*.yaml at the repository root)
// that say which AMD GPU instructions correspond to which PTX instructions,
// how closely (equivalent, equivalent with restrictions, partial, sequence),
// and which PTX instructions have no AMD counterpart and why.
//
// The catalogue is authored by this project; it never contains vendor text.
// Whether the mnemonics it names are real is checked by Validate against a
// Resolver, which the caller implements over its own instruction database.
package concepts

// KnownArchs lists the AMD architecture ids a catalogue may name in
// "families", in the order pages show them.
var KnownArchs = []string{
	"cdna1", "cdna2", "cdna3", "cdna4", "cdna5",
	"rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4",
	"vega", "vega7",
}

// RelationKind says how closely a PTX instruction and an AMD instruction match.
type RelationKind string

// The relation kinds a catalogue may use.
const (
	Equivalent                 RelationKind = "equivalent"
	EquivalentWithRestrictions RelationKind = "equivalent with restrictions"
	Partial                    RelationKind = "partial"
	Sequence                   RelationKind = "sequence"
)

var relationKinds = []RelationKind{Equivalent, EquivalentWithRestrictions, Partial, Sequence}

// Catalogue is every concept and no-counterpart entry of a catalogue directory.
type Catalogue struct {
	Concepts      []*Concept
	NoCounterpart []*NoCounterpart

	byPTX map[string][]*Concept
	byAMD map[string][]*Concept
	noCP  map[string]*NoCounterpart
}

// Concept is one operation both vendors can express, with its members on each
// side and one relation per PTX–AMD member pair.
type Concept struct {
	ID          string
	Name        string
	Description string
	PTX         []Member
	AMD         []Member
	Relations   []Relation
	Pos         Pos
}

// Member is one instruction (or special register) of a concept. PTX members
// use Variants (the types and modifiers the concept covers; empty means all);
// AMD members use Families (empty means every family whose guide has it).
type Member struct {
	Mnemonic string
	Variants []string
	Families []string
	Note     string
	Pos      Pos
}

// Relation links one PTX member to one AMD member. A YAML relation may name
// several members on either side; the loader expands it to one Relation per
// pair so that lookups never have to.
type Relation struct {
	PTX          string
	AMD          string
	Kind         RelationKind
	Variants     []string // PTX types/modifiers this pair covers; empty: all
	Restrictions []string
	Sequence     []string
	Pos          Pos
}

// NoCounterpart records a PTX mnemonic with no AMD counterpart, and why.
type NoCounterpart struct {
	Mnemonic string
	Reason   string
	Pos      Pos
}

// Pos is where a catalogue item was written.
type Pos struct {
	File string
	Line int
}

// Covers reports whether a member (or relation) with these variants applies
// to an instruction carrying the given modifiers, and how specifically: 0 when
// variants is empty (applies to everything), the number of shared modifiers
// otherwise, and -1 when it does not apply.
func covers(variants, modifiers []string) int {
	if len(variants) == 0 {
		return 0
	}
	n := 0
	for _, v := range variants {
		for _, m := range modifiers {
			if v == m {
				n++
			}
		}
	}
	if n == 0 {
		return -1
	}
	return n
}

// AppliesOn reports whether an AMD member is declared for arch: true when the
// member lists no families or lists arch.
func (m Member) AppliesOn(arch string) bool {
	if len(m.Families) == 0 || arch == "" {
		return true
	}
	for _, f := range m.Families {
		if f == arch {
			return true
		}
	}
	return false
}

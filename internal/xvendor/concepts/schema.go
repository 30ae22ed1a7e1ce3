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

import (
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// KnownArchs lists the AMD architecture ids a catalogue may name in
// "families" (isa.AMDArchIDs), sorted.
var KnownArchs = func() []string {
	ids := isa.AMDArchIDs()
	slices.Sort(ids)
	return ids
}()

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
	// Except lists PTX modifiers that take an instruction out of the
	// concept (max.NaN is not Maximum but Maximum, NaN-propagating).
	Except   []string
	Families []string
	Note     string
	Pos      Pos
}

// Relation links one PTX member to one AMD member. A YAML relation may name
// several members on either side; the loader expands it to one Relation per
// pair so that lookups never have to.
type Relation struct {
	PTX      string
	AMD      string
	Kind     RelationKind
	Variants []string // PTX types/modifiers this pair covers; empty: all
	// Families limits the relation to these AMD families; empty means every
	// family the AMD member applies on. One pair may have several relations
	// on disjoint families, because a relation can change between
	// generations (RDNA 3 v_max_f32 obeys MODE.IEEE, RDNA 4 v_max_num_f32
	// does not).
	Families []string
	// Requires lists PTX modifiers an instruction must all carry for the
	// relation to apply (a state space: .global); Except lists modifiers
	// that rule it out. Variants, by contrast, pick the best fit.
	Requires     []string
	Except       []string
	Restrictions []string
	// Forms are whole AMD instructions showing the counterpart in use (a DPP
	// modifier, an operand order); port shows those the target assembles.
	Forms    []string
	Sequence []Step
	Pos      Pos
}

// Step is one step of a sequence: an AMD instruction line, optionally
// followed by "// remark", or a remark alone in parentheses. A step with
// several alternatives (a renamed instruction, vcc or vcc_lo by wave size)
// is done by the first alternative the target has.
type Step struct {
	Alternatives []string
}

// String is the step as written: its alternatives separated by " or ".
func (s Step) String() string { return strings.Join(s.Alternatives, " or ") }

// SequenceText is the sequence as lines, one step per line.
func (r Relation) SequenceText() []string {
	out := make([]string, len(r.Sequence))
	for i, s := range r.Sequence {
		out[i] = s.String()
	}
	return out
}

// fits reports whether an instruction's modifiers meet the relation's
// Requires and Except.
func (r Relation) fits(modifiers []string) bool {
	for _, m := range r.Requires {
		if !slices.Contains(modifiers, m) {
			return false
		}
	}
	for _, m := range r.Except {
		if slices.Contains(modifiers, m) {
			return false
		}
	}
	return true
}

// AppliesOn reports whether the relation holds on arch for an AMD member
// m (the relation's own families, else the member's; arch "" is any).
func (r Relation) AppliesOn(arch string, m Member) bool {
	if arch == "" {
		return true
	}
	if len(r.Families) > 0 {
		return slices.Contains(r.Families, arch)
	}
	return m.AppliesOn(arch)
}

// SplitStep separates an instruction line from its remark: "v_add_u32 v0,
// v1, v2 // low half" gives ("v_add_u32 v0, v1, v2", "low half"); a step in
// parentheses is all remark.
func SplitStep(line string) (asm, remark string) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "(") {
		return "", line
	}
	asm, remark, _ = strings.Cut(line, "//")
	return strings.TrimSpace(asm), strings.TrimSpace(remark)
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

// excludes reports whether modifiers carry one the member excepts.
func (m Member) excludes(modifiers []string) bool {
	for _, x := range m.Except {
		if slices.Contains(modifiers, x) {
			return true
		}
	}
	return false
}

// AppliesOn reports whether an AMD member is declared for arch: true when the
// member lists no families or lists arch.
func (m Member) AppliesOn(arch string) bool {
	if len(m.Families) == 0 || arch == "" {
		return true
	}
	return slices.Contains(m.Families, arch)
}

package codec

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Notes is a family's annotation table: per instruction what a listing
// says beside it.
type Notes struct {
	Arch string
	// Targets are every gfx target an instruction has a verdict for; the
	// bitsets of Note index into it.
	Targets []string
	Notes   []Note // sorted by name
	index   map[string]int
}

// Note is one instruction's annotation facts.
type Note struct {
	Name     string
	Summary  string
	Category string
	Unit     string // the guide's unit: "Vector", "Scalar", "Memory", ...
	Section  string
	// Supported and Unsupported are llvm-mc's verdicts per target
	// (bitsets over Notes.Targets); a target in neither was not verified.
	Supported, Unsupported []uint64
	// Cost is LLVM's scheduling model on the family's own targets.
	Cost []TargetCost
	// Counterparts are the concept catalogue's links to the other vendor.
	Counterparts []Counterpart
	Aliases      []string
}

// TargetCost is the scheduling model of an instruction on one target.
type TargetCost struct {
	Target string
	Cost   isa.Cost
}

// Counterpart is one concept linking the instruction to the other ISA.
type Counterpart struct {
	Concept  string // "maximum"
	Name     string // "Maximum"
	Relation string // "equivalent with restrictions"
	Members  []isa.Member
}

// Verdict is llvm-mc's answer for one target: "supported", "unsupported"
// or "" (not verified).
func (ns *Notes) Verdict(n *Note, target string) string {
	i := -1
	for j, t := range ns.Targets {
		if t == target {
			i = j
			break
		}
	}
	switch {
	case i < 0:
		return ""
	case bit(n.Supported, i):
		return "supported"
	case bit(n.Unsupported, i):
		return "unsupported"
	}
	return ""
}

// CostOn returns the model's cost on target, if it has one.
func (n *Note) CostOn(target string) (isa.Cost, bool) {
	for _, c := range n.Cost {
		if c.Target == target {
			return c.Cost, true
		}
	}
	return isa.Cost{}, false
}

func bit(set []uint64, i int) bool { return i/64 < len(set) && set[i/64]>>(uint(i)%64)&1 == 1 }

func setBit(set []uint64, i int) []uint64 {
	for len(set) <= i/64 {
		set = append(set, 0)
	}
	set[i/64] |= 1 << (uint(i) % 64)
	return set
}

// Lookup finds an instruction by the name the decoder gives it or as
// written in assembly: case-insensitive, through aliases, with LLVM's
// encoding suffixes (_e32, _e64, _sdwa, _dpp, ...) stripped.
func (ns *Notes) Lookup(name string) (*Note, bool) {
	if ns == nil {
		return nil, false
	}
	name = strings.ToLower(strings.TrimSpace(name))
	if i, ok := ns.index[name]; ok {
		return &ns.Notes[i], true
	}
	if b := isa.BaseMnemonic(name); b != name {
		if i, ok := ns.index[b]; ok {
			return &ns.Notes[i], true
		}
	}
	return nil, false
}

func (ns *Notes) buildIndex() {
	ns.index = make(map[string]int, len(ns.Notes)*2)
	for i, n := range ns.Notes {
		ns.index[strings.ToLower(n.Name)] = i
	}
	for i, n := range ns.Notes {
		for _, a := range n.Aliases {
			if _, taken := ns.index[strings.ToLower(a)]; !taken {
				ns.index[strings.ToLower(a)] = i
			}
		}
	}
}

// PrepareNotes encodes a family's annotation table for the database.
func PrepareNotes(a isa.Architecture, ins []*isa.Instruction) ([]byte, error) {
	ns := NotesOf(a, ins)
	return pack(ns)
}

// NotesOf builds the table from the model (for sources without prepared
// tables).
func NotesOf(a isa.Architecture, ins []*isa.Instruction) *Notes {
	ns := &Notes{Arch: a.ID}
	tix := map[string]int{}
	target := func(t string) int {
		if i, ok := tix[t]; ok {
			return i
		}
		tix[t] = len(ns.Targets)
		ns.Targets = append(ns.Targets, t)
		return tix[t]
	}
	own := map[string]bool{}
	for _, t := range a.Targets {
		own[t] = true
		target(t)
	}
	for _, in := range ins {
		if in.Arch != a.ID {
			continue
		}
		n := Note{Name: in.Name, Summary: in.Summary, Category: in.Category, Unit: in.Unit, Section: in.Section}
		tgs := slices.Sorted(maps.Keys(in.Targets))
		for _, t := range tgs {
			switch in.Targets[t] {
			case "supported":
				n.Supported = setBit(n.Supported, target(t))
			case "unsupported":
				n.Unsupported = setBit(n.Unsupported, target(t))
			}
		}
		for _, t := range a.Targets {
			if c, ok := in.Cost[t]; ok {
				c.Asm, c.Opcode = "", ""
				n.Cost = append(n.Cost, TargetCost{Target: t, Cost: c})
			}
		}
		for _, c := range in.Concepts {
			n.Counterparts = append(n.Counterparts, Counterpart{Concept: c.ID, Name: c.Name, Relation: c.Relation, Members: c.Members})
		}
		for _, al := range in.Aliases {
			n.Aliases = append(n.Aliases, al.Name)
		}
		ns.Notes = append(ns.Notes, n)
	}
	sort.Slice(ns.Notes, func(i, j int) bool { return ns.Notes[i].Name < ns.Notes[j].Name })
	ns.buildIndex()
	return ns
}

// LoadNotes decodes what PrepareNotes wrote.
func LoadNotes(b []byte) (*Notes, error) {
	var ns Notes
	if err := unpack(b, &ns); err != nil {
		return nil, fmt.Errorf("prepared notes table: %w", err)
	}
	ns.buildIndex()
	return &ns, nil
}

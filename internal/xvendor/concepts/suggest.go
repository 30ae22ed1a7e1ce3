package concepts

import (
	"slices"
	"sort"
	"strings"
)

// Suggestions is work left for catalogue authors: AMD instructions that
// probably belong to an existing concept, and instructions of either vendor
// that no concept mentions yet.
type Suggestions struct {
	Candidates   []Candidate
	UncoveredPTX []string
	UncoveredAMD []Uncovered
}

// Candidate proposes adding Mnemonic to Concept; From is the member whose
// name it was derived from (same operation, other type or packing).
type Candidate struct {
	ConceptID string
	Mnemonic  string
	From      string
	Archs     []string
}

// Uncovered is an AMD instruction no concept lists, with the families that
// have it.
type Uncovered struct {
	Mnemonic string
	Archs    []string
}

// typeTokens are the operand-type suffixes AMD mnemonics end with; swapping
// one for another keeps the operation and changes the type.
var typeTokens = []string{
	"f16", "f32", "f64", "bf16", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
	"b8", "b16", "b32", "b64", "b96", "b128", "i4", "u4",
}

// Type classes: a float operation has float siblings, an integer one integer
// siblings; swapping across classes names a different operation.
var (
	floatTypes = []string{"f16", "bf16", "f32", "f64"}
	intTypes   = []string{"i4", "u4", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"}
	bitTypes   = []string{"b8", "b16", "b32", "b64", "b96", "b128"}
)

func sameClass(t string) []string {
	for _, class := range [][]string{floatTypes, intTypes, bitTypes} {
		if slices.Contains(class, t) {
			return class
		}
	}
	return nil
}

// Suggest proposes, for each concept, AMD instructions whose names differ
// from a member's only by type suffix, packing (v_pk_), scalar/vector prefix
// or the RDNA 4 "num" rename, and lists instructions in no concept.
// amdNames maps arch id to that arch's mnemonics; ptxNames lists PTX
// mnemonics. When either is nil, r supplies it (r may be nil otherwise).
func Suggest(c *Catalogue, r Resolver, amdNames map[string][]string, ptxNames []string) Suggestions {
	archsOf := map[string][]string{}
	for arch, names := range amdNames {
		for _, n := range names {
			archsOf[n] = append(archsOf[n], arch)
		}
	}
	for n := range archsOf {
		sort.Strings(archsOf[n])
	}
	if ptxNames == nil && r != nil {
		ptxNames = r.PTXMnemonics()
	}
	exists := func(name string) ([]string, bool) {
		if a, ok := archsOf[name]; ok {
			return a, true
		}
		if amdNames == nil && r != nil {
			a := r.AMDArchs(name)
			return a, len(a) > 0
		}
		return nil, false
	}
	inConcept := map[string]bool{}
	for _, k := range c.Concepts {
		for _, m := range k.AMD {
			inConcept[m.Mnemonic] = true
		}
	}

	var s Suggestions
	for _, k := range c.Concepts {
		proposed := map[string]bool{}
		for _, m := range k.AMD {
			for _, cand := range nameVariants(m.Mnemonic) {
				if inConcept[cand] || proposed[cand] {
					continue
				}
				archs, ok := exists(cand)
				if !ok {
					continue
				}
				proposed[cand] = true
				s.Candidates = append(s.Candidates, Candidate{ConceptID: k.ID, Mnemonic: cand, From: m.Mnemonic, Archs: archs})
			}
		}
	}

	covered := map[string]bool{}
	for _, m := range c.PTXMnemonics() {
		covered[m] = true
	}
	for _, m := range ptxNames {
		if !covered[m] {
			s.UncoveredPTX = append(s.UncoveredPTX, m)
		}
	}
	sort.Strings(s.UncoveredPTX)
	for name, archs := range archsOf {
		if !inConcept[name] {
			s.UncoveredAMD = append(s.UncoveredAMD, Uncovered{Mnemonic: name, Archs: archs})
		}
	}
	sort.Slice(s.UncoveredAMD, func(i, j int) bool { return s.UncoveredAMD[i].Mnemonic < s.UncoveredAMD[j].Mnemonic })
	return s
}

// nameVariants derives plausible sibling mnemonics of an AMD mnemonic.
func nameVariants(name string) []string {
	parts := strings.Split(name, "_")
	var out []string
	add := func(p []string) {
		v := strings.Join(p, "_")
		if v != name {
			out = append(out, v)
		}
	}
	// Same operation, other type: swap each type token, and all of them at once.
	var typed []int
	for i, p := range parts {
		if i > 0 && slices.Contains(typeTokens, p) {
			typed = append(typed, i)
		}
	}
	for _, i := range typed {
		for _, t := range sameClass(parts[i]) {
			q := append([]string(nil), parts...)
			q[i] = t
			add(q)
		}
	}
	if len(typed) > 1 {
		for _, t := range sameClass(parts[typed[0]]) {
			q := append([]string(nil), parts...)
			for _, i := range typed {
				q[i] = t
			}
			add(q)
		}
	}
	if len(parts) < 2 {
		return out
	}
	// Packed forms and back.
	if parts[0] == "v" && parts[1] != "pk" {
		q := append([]string{"v", "pk"}, parts[1:]...)
		add(q)
		if slices.Contains(typeTokens, q[len(q)-1]) {
			for _, t := range sameClass(q[len(q)-1]) {
				r := append([]string(nil), q...)
				r[len(r)-1] = t
				add(r)
			}
		}
	}
	if parts[0] == "v" && parts[1] == "pk" && len(parts) > 2 {
		add(append([]string{"v"}, parts[2:]...))
	}
	// Scalar <-> vector ALU.
	if parts[0] == "v" {
		add(append([]string{"s"}, parts[1:]...))
	}
	if parts[0] == "s" {
		add(append([]string{"v"}, parts[1:]...))
	}
	// RDNA 4 / CDNA 5 "num" renames of float min/max.
	if parts[0] == "v" && len(parts) > 2 {
		if parts[2] == "num" {
			add(append(append([]string{}, parts[:2]...), parts[3:]...))
		} else {
			add(append(append(append([]string{}, parts[:2]...), "num"), parts[2:]...))
		}
	}
	return out
}

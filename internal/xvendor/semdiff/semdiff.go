// Package semdiff derives the differences between the two sides of the
// concept catalogue's relations by evaluation: the AMD instruction's
// pseudocode (package sem) and the PTX instruction's model (package
// semptx) run on the same special-value corpus, and the inputs where they
// return different results are grouped by what the inputs are ("a is a
// signalling NaN") and what each side returns ("AMD returns the quieted
// NaN of a, PTX returns b"). The groups are compared with the relation's
// hand-written restrictions: a difference no restriction mentions, or a
// NaN restriction evaluation does not bear out, is a contradiction.
package semdiff

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx/semptx"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// Pair is one relation evaluated on one AMD family and PTX type.
type Pair struct {
	Concept  string `json:"concept"`
	Relation string `json:"relation"` // the catalogue's kind
	PTX      string `json:"ptx"`      // "max"
	Variant  string `json:"variant"`  // ".f32"
	Arch     string `json:"arch"`
	AMD      string `json:"amd"`
	Cases    int    `json:"cases"`
	Differ   int    `json:"differ"`
	// Differences are the groups of differing inputs, largest first.
	Differences []Group `json:"differences"`
	// Restrictions are the relation's hand-written ones, for comparison.
	Restrictions []string `json:"restrictions"`
	// From is what the PTX model follows in NVIDIA's text.
	From string `json:"from"`
	// Operands says how PTX's operands map to AMD's sources.
	Operands string `json:"operands"`
}

// Group is the inputs of one kind where the two sides differ.
type Group struct {
	When    string `json:"when"` // "a is a signalling NaN"
	AMD     string `json:"amd"`  // "returns the quieted NaN of a"
	PTX     string `json:"ptx"`  // "returns b"
	Count   int    `json:"count"`
	Example string `json:"example"` // "max(snan:0x200000, 1): AMD nan:0x200000, PTX 1"
}

// Sentence is the group as one line for pages and port.
func (g Group) Sentence() string {
	return fmt.Sprintf("differs when %s (%d inputs, e.g. %s): AMD %s, PTX %s", g.When, g.Count, g.Example, g.AMD, g.PTX)
}

// Contradiction is a hand-written claim evaluation does not bear out.
type Contradiction struct {
	Concept string `json:"concept"`
	PTX     string `json:"ptx"`
	Variant string `json:"variant"`
	Arch    string `json:"arch"`
	AMD     string `json:"amd"`
	Claim   string `json:"claim"` // the relation or restriction as written
	Finding string `json:"finding"`
	// Known is why the difference comes from a defect of the guide's
	// pseudocode that the LLVM comparison found too, when it does.
	Known string `json:"known,omitempty"`
}

// Result is every pair evaluated and the contradictions found.
type Result struct {
	Pairs          []Pair          `json:"pairs"`
	Contradictions []Contradiction `json:"contradictions"`
	// Skipped counts the relations not evaluated, by reason.
	Skipped map[string]int `json:"skipped"`
}

// Families are the AMD families with executable pseudocode
// (isa.TraitPseudocode), line by line (isa.Lines), oldest first.
var Families = func() []string {
	var out []string
	for _, l := range isa.Lines() {
		for _, id := range isa.LineFamilies(l.ID) {
			if isa.MustArch(id).Has(isa.TraitPseudocode) {
				out = append(out, id)
			}
		}
	}
	return out
}()

// Options tune Derive.
type Options struct {
	Random int // random cases per pair; 0 means 200
	// Known returns the reason a difference of a kind ("zero-sign",
	// "input:NaN") on an AMD instruction is a known defect of its guide's
	// pseudocode (semoracle's tolerated table), "" when it is not.
	Known func(arch, name, kind string) string
}

// Derive evaluates every equivalent (with or without restrictions)
// relation of the catalogue whose PTX type has a model and whose AMD
// instruction runs in a family of libs.
func Derive(cat *concepts.Catalogue, libs map[string]*sem.Library, opts Options) *Result {
	res := &Result{Pairs: []Pair{}, Contradictions: []Contradiction{}, Skipped: map[string]int{}}
	random := opts.Random
	if random == 0 {
		random = 200
	}
	for _, c := range cat.Concepts {
		for _, r := range c.Relations {
			if r.Kind != concepts.Equivalent && r.Kind != concepts.EquivalentWithRestrictions {
				res.Skipped["not an equivalence ("+string(r.Kind)+")"]++
				continue
			}
			variants := r.Variants
			if len(variants) == 0 {
				res.Skipped["no PTX type named"]++
				continue
			}
			for _, v := range variants {
				m := semptx.Lookup(r.PTX, v)
				if m == nil {
					res.Skipped["no PTX model for the type"]++
					continue
				}
				for _, fam := range Families {
					if len(r.Families) > 0 && !slices.Contains(r.Families, fam) {
						continue
					}
					if amdMember := member(c, r.AMD); amdMember != nil && len(amdMember.Families) > 0 && !slices.Contains(amdMember.Families, fam) {
						continue
					}
					lib := libs[fam]
					if lib == nil {
						continue
					}
					in := lib.Get(r.AMD)
					if in == nil {
						continue
					}
					if !in.Executable() {
						res.Skipped["AMD pseudocode not executable"]++
						continue
					}
					p, ok := evaluate(c, r, v, m, in, random)
					if !ok {
						res.Skipped["operands do not match"]++
						continue
					}
					res.Pairs = append(res.Pairs, p)
					for _, c := range contradictions(p) {
						if opts.Known != nil {
							kind := "input:NaN"
							if strings.Contains(c.Claim, "zeros") {
								kind = "zero-sign"
							}
							c.Known = opts.Known(p.Arch, p.AMD, kind)
						}
						res.Contradictions = append(res.Contradictions, c)
					}
				}
			}
		}
	}
	return res
}

func member(c *concepts.Concept, amd string) *concepts.Member {
	for i := range c.AMD {
		if c.AMD[i].Mnemonic == amd {
			return &c.AMD[i]
		}
	}
	return nil
}

// reversed reports AMD's reversed-operand instructions (v_subrev,
// v_lshlrev_b32: S1 op S0).
func reversed(name string) bool { return strings.Contains(name, "rev_") }

var operandNames = []string{"a", "b", "c"}

// evaluate runs both sides on the corpus of the PTX model's operand types.
func evaluate(c *concepts.Concept, r concepts.Relation, variant string, m *semptx.Model, in *sem.Instruction, random int) (Pair, bool) {
	srcs := in.Info.Sources()
	if len(srcs) != len(m.Srcs) {
		return Pair{}, false
	}
	order := make([]int, len(m.Srcs)) // PTX operand i is AMD source order[i]
	for i := range order {
		order[i] = i
	}
	mapping := "a, b, c are S0, S1, S2"
	var mods sem.Modifiers
	if r.PTX == "sub" && strings.Contains(in.Name, "_add_") {
		// The catalogue pairs sub with an add whose second source is
		// negated (the neg modifier), as its restriction says.
		mods.Neg[1] = true
	}
	if reversed(in.Name) && len(order) >= 2 {
		order[0], order[1] = 1, 0
		mapping = "a is S1, b is S0 (AMD's reversed operands)"
	}
	if len(order) == 1 {
		mapping = "a is S0"
	} else if len(order) == 2 && !reversed(in.Name) {
		mapping = "a is S0, b is S1"
	}
	if mods.Neg[1] {
		mapping += ", S1 negated (neg modifier)"
	}
	amdRet := amdResult(in)
	h := fnv.New64a()
	// The same corpus in every family, so equal behaviour reads equal.
	h.Write([]byte(c.ID + r.PTX + variant + in.Name))
	cases := m.Corpus(random, h.Sum64())
	p := Pair{Concept: c.ID, Relation: string(r.Kind), PTX: r.PTX, Variant: variant, Arch: in.Arch, AMD: in.Name,
		Restrictions: append([]string{}, r.Restrictions...), From: m.From, Operands: mapping, Differences: []Group{}}
	groups := map[string]*Group{}
	var keys []string
	for _, a := range cases {
		amdSrcs := make([]uint64, len(a))
		for i := range a {
			amdSrcs[order[i]] = a[i]
		}
		w, err := in.EvalMods(amdSrcs, sem.DefaultMode, mods)
		if err != nil {
			continue
		}
		amd, ok := amdRet(w)
		if !ok {
			continue
		}
		amd &= sem.WidthMask(m.Ret.Bits())
		ptx := m.Eval(a) & sem.WidthMask(m.Ret.Bits())
		p.Cases++
		if same(m, amd, ptx) {
			continue
		}
		p.Differ++
		when, names := describeInputs(m, a)
		amdSays := describeResult(m, a, names, amd)
		ptxSays := describeResult(m, a, names, ptx)
		k := when + "|" + amdSays + "|" + ptxSays
		g := groups[k]
		if g == nil {
			g = &Group{When: when, AMD: amdSays, PTX: ptxSays, Example: example(m, a, amd, ptx)}
			groups[k] = g
			keys = append(keys, k)
		}
		g.Count++
	}
	for _, k := range keys {
		p.Differences = append(p.Differences, *groups[k])
	}
	sort.SliceStable(p.Differences, func(i, j int) bool { return p.Differences[i].Count > p.Differences[j].Count })
	return p, true
}

// amdResult reads the AMD side's result: D0, or its lane's bit of a lane
// mask (a VOPC), at the width the program writes.
func amdResult(in *sem.Instruction) func(w *sem.Wave) (uint64, bool) {
	return func(w *sem.Wave) (uint64, bool) {
		v, ok := in.Dest(w, "D0")
		if !ok {
			return 0, false
		}
		if r := in.Info.Regs["D0"]; r != nil && r.LaneMask {
			return v.Uint() & 1, true
		}
		return v.Uint(), true
	}
}

// same compares results: bit for bit, except that two NaNs are the same
// when PTX leaves its NaN unspecified.
func same(m *semptx.Model, amd, ptx uint64) bool {
	if amd == ptx {
		return true
	}
	f := m.Ret.Float
	return f != nil && m.NaNUnspecified && f.IsNaN(amd) && f.IsNaN(ptx)
}

func classWord(f *sem.FloatFormat, b uint64) string {
	switch sem.ClassOf(f, b) {
	case sem.ClassSNaN:
		return "a signalling NaN"
	case sem.ClassQNaN:
		return "a quiet NaN"
	case sem.ClassInf:
		return "an infinity"
	case sem.ClassZero:
		return "+0"
	case sem.ClassNegZero:
		return "-0"
	case sem.ClassSubnormal:
		return "subnormal"
	}
	return ""
}

func intWord(o semptx.Operand, b uint64, result int) string {
	w := o.Width
	limit := min(w, result) // a shift amount against the shifted width
	switch {
	case b == 0:
		return "0"
	case b == sem.WidthMask(w):
		return "all ones (-1)"
	case limit >= 8 && b >= uint64(limit) && b < 1<<31:
		return fmt.Sprintf("at least %d", limit)
	case b>>uint(w-1)&1 == 1 && o.Signed:
		return "negative"
	case b>>uint(w-1)&1 == 1:
		return "has the top bit set"
	}
	return ""
}

var plural = map[string]string{"a signalling NaN": "signalling NaNs", "a quiet NaN": "quiet NaNs", "an infinity": "infinities",
	"+0": "+0", "-0": "-0", "subnormal": "subnormal"}

// roles names the inputs in a group's sentences: when exactly one of two
// inputs is special, "that input" and "the other input"; else a, b, c.
type roles []string

// special picks the inputs a difference is about: the NaNs when there are
// any, else the zeros, infinities, subnormals and notable integers.
func special(m *semptx.Model, a []uint64) (idx []int, words []string) {
	word := func(i int) string {
		o := m.Srcs[i]
		if o.Float != nil {
			return classWord(o.Float, a[i])
		}
		return intWord(o, a[i], m.Ret.Bits())
	}
	for i := range a {
		if o := m.Srcs[i]; o.Float != nil && o.Float.IsNaN(a[i]) {
			idx, words = append(idx, i), append(words, word(i))
		}
	}
	if len(idx) > 0 {
		return idx, words
	}
	for i := range a {
		if w := word(i); w != "" {
			idx, words = append(idx, i), append(words, w)
		}
	}
	return idx, words
}

// describeInputs says what is special about the inputs ("one input is a
// signalling NaN") and how the results name them.
func describeInputs(m *semptx.Model, a []uint64) (string, roles) {
	names := roles(append([]string(nil), operandNames[:len(a)]...))
	idx, words := special(m, a)
	verb := func(w string) string {
		if strings.HasPrefix(w, "has ") {
			return " " + w
		}
		return " is " + w
	}
	switch {
	case len(idx) == 0:
		if m.Srcs[0].Float != nil {
			return "the inputs are ordinary numbers", names
		}
		return "the inputs are ordinary values", names
	case len(a) == 2 && len(idx) == 1:
		names[idx[0]], names[1-idx[0]] = "that input", "the other input"
		return "one input" + verb(words[0]), names
	case len(a) == 2 && len(idx) == 2 && words[0] == words[1] && plural[words[0]] != "":
		return "both inputs are " + plural[words[0]], names
	case len(a) == 2 && len(idx) == 2 && words[0] == words[1]:
		return "a and b are " + words[0], names
	}
	var parts []string
	for k, i := range idx {
		parts = append(parts, operandNames[i]+verb(words[k]))
	}
	return strings.Join(parts, " and "), names
}

// describeResult says what a side returns in terms of the inputs.
func describeResult(m *semptx.Model, a []uint64, names roles, r uint64) string {
	f := m.Ret.Float
	if f != nil {
		for i, b := range a {
			if m.Srcs[i].Float != f {
				continue
			}
			if r == b {
				if f.IsNaN(b) {
					return "returns " + names[i] + ", its NaN unchanged"
				}
				return "returns " + names[i]
			}
			if f.IsSignalingNaN(b) && r == f.Quiet(b) {
				return "returns the quieted NaN of " + names[i]
			}
		}
		if f.IsNaN(r) {
			if m.NaNUnspecified && r == semptx.CanonicalNaN(f) {
				return "returns a NaN"
			}
			return "returns the NaN " + fmt.Sprintf("0x%0*x", f.Bits/4, r)
		}
		return "returns " + sem.FormatFloat(r, f)
	}
	if m.Ret.Width == 1 {
		return map[uint64]string{0: "returns false", 1: "returns true"}[r&1]
	}
	for i, b := range a {
		if m.Srcs[i].Float == nil && m.Srcs[i].Width == m.Ret.Width && r == b {
			return "returns " + names[i]
		}
	}
	return fmt.Sprintf("returns 0x%0*x", (m.Ret.Width+3)/4, r)
}

func example(m *semptx.Model, a []uint64, amd, ptx uint64) string {
	show := func(o semptx.Operand, b uint64) string {
		if o.Float != nil {
			return sem.FormatFloat(b, o.Float)
		}
		if o.Width == 1 {
			return map[uint64]string{0: "false", 1: "true"}[b&1]
		}
		return fmt.Sprintf("0x%x", b)
	}
	args := make([]string, len(a))
	for i, b := range a {
		args[i] = show(m.Srcs[i], b)
	}
	return fmt.Sprintf("%s%s(%s): AMD %s, PTX %s", m.Mnemonic, m.Variant, strings.Join(args, ", "), show(m.Ret, amd), show(m.Ret, ptx))
}

// mentions says whether a relation's restrictions talk about a topic.
func mentions(restrictions []string, words ...string) bool {
	for _, r := range restrictions {
		l := strings.ToLower(r)
		for _, w := range words {
			if strings.Contains(l, w) {
				return true
			}
		}
	}
	return false
}

// contradictions holds a pair's differences to its relation's claims.
func contradictions(p Pair) []Contradiction {
	var out []Contradiction
	mk := func(claim, finding string) Contradiction {
		return Contradiction{Concept: p.Concept, PTX: p.PTX, Variant: p.Variant, Arch: p.Arch, AMD: p.AMD, Claim: claim, Finding: finding}
	}
	nanDiff, zeroDiff, otherDiff := []Group{}, []Group{}, []Group{}
	for _, g := range p.Differences {
		switch {
		case strings.Contains(g.When, "NaN"):
			nanDiff = append(nanDiff, g)
		case strings.Contains(g.When, "0") && !strings.Contains(g.When, "width"):
			zeroDiff = append(zeroDiff, g)
		default:
			otherDiff = append(otherDiff, g)
		}
	}
	if p.Relation == string(concepts.Equivalent) && len(p.Differences) > 0 {
		out = append(out, mk("equivalent", "evaluation finds "+fmt.Sprint(p.Differ)+" differing inputs: "+p.Differences[0].Sentence()))
	}
	nanClaim := mentions(p.Restrictions, "nan")
	if nanClaim && len(nanDiff) == 0 && p.Relation == string(concepts.EquivalentWithRestrictions) {
		for _, r := range p.Restrictions {
			if strings.Contains(strings.ToLower(r), "nan") {
				out = append(out, mk(r, "no input with a NaN gives different results in "+p.Arch))
				break
			}
		}
	}
	if !nanClaim && len(nanDiff) > 0 && p.Relation == string(concepts.EquivalentWithRestrictions) {
		out = append(out, mk("no restriction about NaNs", nanDiff[0].Sentence()))
	}
	if len(zeroDiff) > 0 && !mentions(p.Restrictions, "-0", "+0", "zero") && p.Relation == string(concepts.EquivalentWithRestrictions) {
		out = append(out, mk("no restriction about zeros", zeroDiff[0].Sentence()))
	}
	if len(otherDiff) > 0 && p.Relation == string(concepts.EquivalentWithRestrictions) {
		g := otherDiff[0]
		if strings.Contains(g.When, "width") && !mentions(p.Restrictions, "shift", "amount", "width") ||
			!strings.Contains(g.When, "width") && len(p.Restrictions) == 0 {
			out = append(out, mk("no restriction about these inputs", g.Sentence()))
		}
	}
	return out
}

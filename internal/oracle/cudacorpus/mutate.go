package cudacorpus

import (
	"math/rand"
	"regexp"
	"strings"
)

// Mutation is one PTX file derived from a real one by one change.
type Mutation struct {
	Kind string // MutTarget, MutVersion, ...
	Line int    // the changed line (1-based); 0 for the header
	What string // "sm_90 -> sm_80", "shfl.sync.bfly.b32 -> shfl.bfly.b32"
	Src  string
}

// Kinds of mutation.
const (
	MutTarget     = "target lowered"
	MutVersion    = "version lowered"
	MutDropSync   = ".sync dropped"
	MutDropAlign  = ".aligned dropped"
	MutType       = "type changed"
	MutOperand    = "operand dropped"
	MutStateSpace = "state space changed"
)

var (
	targetLineRe  = regexp.MustCompile(`(?m)^\.target\s+(sm_\w+)`)
	versionLineRe = regexp.MustCompile(`(?m)^\.version\s+(\d+\.\d+)`)
	// An instruction line: indented, a mnemonic with modifiers, operands.
	instrLineRe = regexp.MustCompile(`^(\s*(?:@!?%\w+\s+)?)([a-z][\w]*(?:\.[\w:]+)+)(\s+)([^;]*);\s*$`)
	typeTokRe   = regexp.MustCompile(`^(?:[bsuf](?:8|16|32|64)|f16x2|bf16|bf16x2|pred)$`)
)

// typeSwap gives each type a replacement of another width or kind.
var typeSwap = map[string][]string{
	"b16": {"b32", "b64"}, "b32": {"b64", "b16", "f64"}, "b64": {"b32", "b16"},
	"u16": {"u32", "u64"}, "u32": {"u64", "u16", "f64"}, "u64": {"u32", "f32"},
	"s16": {"s32", "s64"}, "s32": {"s64", "s16", "f64"}, "s64": {"s32", "f32"},
	"f16": {"f32", "f64"}, "f32": {"f64", "f16", "u64"}, "f64": {"f32", "u32"},
	"bf16": {"f16", "f32"}, "f16x2": {"bf16x2", "f32"}, "bf16x2": {"f16x2", "f32"},
	"pred": {"b32"}, "s8": {"s32"}, "u8": {"u32"},
}

var spaceSwap = map[string]string{"global": "shared", "shared": "global", "local": "global", "param": "global", "const": "global", "shared::cta": "global", "shared::cluster": "global"}

// Mutations derives up to perKind mutants of each kind from a PTX file:
// its .target lowered to each of lower (targets nvcc supports below it),
// its .version lowered to each of versions below it, and statements
// changed as the kinds say; rnd picks the statements.
func Mutations(src string, lower, versions []string, perKind int, rnd *rand.Rand) []Mutation {
	var out []Mutation
	if m := targetLineRe.FindStringSubmatchIndex(src); m != nil {
		have := src[m[2]:m[3]]
		for _, t := range lower {
			out = append(out, Mutation{Kind: MutTarget, What: have + " -> " + t, Src: src[:m[2]] + t + src[m[3]:]})
		}
	}
	if m := versionLineRe.FindStringSubmatchIndex(src); m != nil {
		have := src[m[2]:m[3]]
		for _, v := range versions {
			out = append(out, Mutation{Kind: MutVersion, What: have + " -> " + v, Src: src[:m[2]] + v + src[m[3]:]})
		}
	}
	lines := strings.Split(src, "\n")
	byKind := map[string][]Mutation{}
	for i, l := range lines {
		m := instrLineRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		for _, mu := range lineMutations(m) {
			mu.Line = i + 1
			byKind[mu.Kind] = append(byKind[mu.Kind], mu)
			lines2 := append([]string(nil), lines...)
			lines2[i] = mu.Src
			byKind[mu.Kind][len(byKind[mu.Kind])-1].Src = strings.Join(lines2, "\n")
		}
	}
	for _, k := range []string{MutDropSync, MutDropAlign, MutType, MutOperand, MutStateSpace} {
		cands := byKind[k]
		rnd.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		if len(cands) > perKind {
			cands = cands[:perKind]
		}
		out = append(out, cands...)
	}
	return out
}

// lineMutations lists the one-change variants of one instruction line
// (m: lead, opcode, blank, operands); Src holds the new line.
func lineMutations(m []string) []Mutation {
	lead, op, sp, ops := m[1], m[2], m[3], m[4]
	toks := strings.Split(op, ".")
	line := func(t []string, o string) string { return lead + strings.Join(t, ".") + sp + o + ";" }
	var out []Mutation
	add := func(kind string, t []string, o string) {
		out = append(out, Mutation{Kind: kind, What: op + " " + ops + " -> " + strings.Join(t, ".") + " " + o, Src: line(t, o)})
	}
	without := func(i int) []string { return append(append([]string(nil), toks[:i]...), toks[i+1:]...) }
	for i := 1; i < len(toks); i++ {
		switch {
		case toks[i] == "sync":
			add(MutDropSync, without(i), ops)
		case toks[i] == "aligned":
			add(MutDropAlign, without(i), ops)
		case spaceSwap[toks[i]] != "":
			t := append([]string(nil), toks...)
			t[i] = spaceSwap[toks[i]]
			add(MutStateSpace, t, ops)
		}
	}
	for i := len(toks) - 1; i > 0; i-- {
		if typeTokRe.MatchString(toks[i]) {
			if sw := typeSwap[toks[i]]; len(sw) > 0 {
				t := append([]string(nil), toks...)
				t[i] = sw[(len(op)+i)%len(sw)]
				add(MutType, t, ops)
			}
			break
		}
	}
	if parts := splitOperands(ops); len(parts) >= 2 {
		add(MutOperand, toks, strings.Join(parts[:len(parts)-1], ", "))
	}
	return out
}

// splitOperands splits at top-level commas (not inside {} [] ()).
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

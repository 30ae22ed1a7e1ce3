package concepts

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"regexp"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The operand types of both sides, read from the names themselves: PTX type
// modifiers (".u64", ".f16x2", ".f32.f16.f16.f32") and AMD type suffixes
// ("v_mul_hi_u32", "v_pk_max_f16", "v_mfma_f32_16x16x16_f16"). The checks
// below hold a relation to what those names promise: a 64-bit PTX operation
// is never "equivalent" to a 32-bit AMD one, and an f16 accumulator is not
// silently an f32 one.

// opType is one operand type: its class, element width and lane count.
type opType struct {
	Name  string // as written, without the dot: "f16x2", "u32", "fp8"
	Class byte   // 'f' float, 's' signed, 'u' unsigned, 'i' integer of either sign, 'b' bits, 'p' predicate
	Bits  int    // element width
	Lanes int    // elements per operand (2 for .f16x2 and v_pk_)
	Elem  string // the element type: "f16" for "f16x2", "bf16", "e4m3"
}

func (t opType) total() int { return t.Bits * t.Lanes }

var (
	ptxTypeWord = lazyre.New(`^(bf|tf|f|s|u|b)(1|4|8|16|32|64|128)(x2|x4)?$|^(ue|e)[0-9]m[0-9](x2|x4)?$|^pred$`)
	amdTypeWord = lazyre.New(`^(bf|f|i|u|b)(4|8|16|24|32|64|96|128)$|^(fp8|bf8|fp6|bf6|fp4|xf32|iu8|iu4|f8f6f4)$`)
	lanesSuffix = lazyre.New(`x(2|4)$`)
	digits      = lazyre.New(`[0-9]+`)
)

// ptxType parses one PTX type word ("f16x2", ".u64"); ok is false for other
// modifiers.
func ptxType(w string) (opType, bool) {
	w = strings.TrimPrefix(w, ".")
	if !ptxTypeWord.MatchString(w) {
		return opType{}, false
	}
	t := opType{Name: w, Lanes: 1, Elem: w}
	if m := lanesSuffix.FindStringSubmatch(w); m != nil && w != "pred" {
		t.Elem = strings.TrimSuffix(w, "x"+m[1])
		t.Lanes = int(m[1][0] - '0')
	}
	switch e := t.Elem; {
	case e == "pred":
		t.Class, t.Bits = 'p', 1
	case strings.HasPrefix(e, "e") || strings.HasPrefix(e, "ue"):
		// FP8/FP6/FP4 formats: e4m3 is 1+4+3 bits; ue8m0 has no sign bit.
		n := digits.FindAllString(e, -1)
		t.Class, t.Bits = 'f', atoi(n[0])+atoi(n[1])
		if !strings.HasPrefix(e, "u") {
			t.Bits++
		}
	case strings.HasPrefix(e, "bf"), strings.HasPrefix(e, "tf"), strings.HasPrefix(e, "f"):
		t.Class, t.Bits = 'f', atoi(digits.FindString(e))
	default:
		t.Class, t.Bits = e[0], atoi(digits.FindString(e))
	}
	return t, true
}

// amdTypes returns the type suffixes of an AMD mnemonic in order (result
// type first, as AMD names them): "v_mad_u64_u32" gives u64, u32. Packed
// instructions (v_pk_, v_cvt_pk_) have two lanes.
func amdTypes(mnemonic string) []opType {
	parts := strings.Split(mnemonic, "_")
	packed := slices.Contains(parts, "pk")
	var out []opType
	for _, p := range parts[1:] {
		if !amdTypeWord.MatchString(p) {
			continue
		}
		t := opType{Name: p, Lanes: 1, Elem: p}
		switch {
		case p == "xf32":
			t.Class, t.Bits = 'f', 32
		case p == "f8f6f4":
			t.Class, t.Bits = 'f', 8
		case strings.HasPrefix(p, "fp"), strings.HasPrefix(p, "bf") && p != "bf16":
			t.Class, t.Bits = 'f', atoi(digits.FindString(p))
		case strings.HasPrefix(p, "iu"):
			t.Class, t.Bits = 'i', atoi(digits.FindString(p))
		case p[0] == 'i':
			t.Class, t.Bits = 's', atoi(digits.FindString(p))
		case strings.HasPrefix(p, "bf"):
			t.Class, t.Bits = 'f', 16
		default:
			t.Class, t.Bits = p[0], atoi(digits.FindString(p))
		}
		// v_pk_ packs every operand; v_cvt_pk_ packs the result only.
		if packed && (parts[1] == "pk" || len(out) == 0) {
			t.Lanes = 2
		}
		out = append(out, t)
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// typeRun returns the PTX types of a variant made of type words only
// (".f32.f16.f16.f32" -> four types); ok is false when any word is not a
// type.
func typeRun(variant string) ([]opType, bool) {
	words := strings.Split(strings.TrimPrefix(variant, "."), ".")
	var out []opType
	for _, w := range words {
		t, ok := ptxType(w)
		if !ok {
			return nil, false
		}
		out = append(out, t)
	}
	return out, len(out) > 0
}

// runRoles names the operands a PTX type run describes, per mnemonic: cvt
// gives destination and source; the matrix instructions give D, A, B, C (a
// two-type wmma.mma run is D and C, its A and B being implied by the
// concept).
func runRoles(ptxMnemonic string, n int) []string {
	switch {
	case ptxMnemonic == "cvt" || ptxMnemonic == "cvt.pack":
		return []string{"d", "a"}
	case ptxMnemonic == "wmma.mma" && n == 2:
		return []string{"d", "c"}
	case strings.HasPrefix(ptxMnemonic, "wgmma.mma_async"):
		return []string{"d", "a", "b"}
	case strings.HasPrefix(ptxMnemonic, "mma"), ptxMnemonic == "wmma.mma":
		return []string{"d", "a", "b", "c"}
	}
	return nil
}

// amdRoles maps AMD type suffixes to the same operand roles: a matrix
// instruction names its accumulator (D and C) then its inputs (A and B); a
// conversion its destination then its source.
func amdRoles(amd string, ts []opType) map[string]opType {
	out := map[string]opType{}
	if len(ts) == 0 {
		return out
	}
	out["d"] = ts[0]
	if isa.IsMatrix(amd) {
		out["c"] = ts[0]
		if len(ts) > 1 {
			out["a"], out["b"] = ts[1], ts[len(ts)-1]
		}
		return out
	}
	if len(ts) > 1 {
		out["a"] = ts[1]
	}
	return out
}

// relationTypes returns the PTX types a relation covers: the single type
// words and the type runs among its variants, else (a relation that names
// no type) those of its PTX member.
func relationTypes(rel Relation, member Member) (singles []opType, runs [][]opType) {
	read := func(vs []string) {
		for _, v := range vs {
			if run, ok := typeRun(v); ok && len(run) > 1 {
				runs = append(runs, run)
				continue
			}
			// ".u32", or a modifier pair such as ".hi.u64" or ".wide.u32":
			// its type word (a .wide operation's result is twice as wide).
			words := strings.Split(strings.TrimPrefix(v, "."), ".")
			for _, w := range words {
				if t, ok := ptxType(w); ok {
					if slices.Contains(words, "wide") {
						t.Bits *= 2
					}
					singles = append(singles, t)
				}
			}
		}
	}
	read(rel.Variants)
	if len(singles) == 0 && len(runs) == 0 {
		read(member.Variants)
	}
	return singles, runs
}

// mentionsBoth reports whether some restriction names both type words, the
// way an author says "AMD accumulates in f32; PTX .f16 ...".
func mentionsBoth(restrictions []string, a, b string) bool {
	for _, r := range restrictions {
		if hasWord(r, a) && hasWord(r, b) {
			return true
		}
	}
	return false
}

func hasWord(text, word string) bool {
	re := regexp.MustCompile(`(^|[^a-z0-9])` + regexp.QuoteMeta(word) + `([^a-z0-9]|$)`)
	return re.MatchString(strings.ToLower(text))
}

// checkTypes holds one relation to its operand types. An "equivalent" pair
// has the same type and width; "equivalent with restrictions" never narrows
// (a 64-bit PTX operation is not one 32-bit AMD instruction) nor changes a
// float format; a partial relation that changes the float format or width
// says so in a restriction naming both types. A relation to an AMD matrix
// instruction names the PTX type runs (accumulator first) it covers.
func checkTypes(k *Concept, rel Relation) []string {
	member, _ := k.ptxMember(rel.PTX)
	amdTs := amdTypes(rel.AMD)
	if len(amdTs) == 0 || rel.Kind == Sequence {
		return nil
	}
	singles, runs := relationTypes(rel, member)
	var out []string
	roles := runRoles(rel.PTX, 0)
	if isa.IsMatrix(rel.AMD) && len(runs) == 0 {
		out = append(out, fmt.Sprintf("%s <-> %s: a matrix relation names the PTX type runs it covers (accumulator first, e.g. .f32.f16.f16.f32)", rel.PTX, rel.AMD))
	}
	exact := rel.Kind == Equivalent
	direct := rel.Kind == Equivalent || rel.Kind == EquivalentWithRestrictions
	if roles == nil {
		widest := amdTs[0]
		for _, t := range amdTs {
			if t.total() > widest.total() {
				widest = t
			}
		}
		for _, t := range singles {
			if t.Class == 'p' {
				continue
			}
			switch {
			case direct && t.total() > widest.total():
				out = append(out, fmt.Sprintf("%s.%s <-> %s: a %d-bit PTX operation is not one %d-bit AMD instruction (make it a sequence or partial)", rel.PTX, t.Name, rel.AMD, t.total(), widest.total()))
			case exact && t.total() != widest.total():
				out = append(out, fmt.Sprintf("%s.%s <-> %s: %d-bit PTX operands against %d-bit AMD operands are not \"equivalent\"", rel.PTX, t.Name, rel.AMD, t.total(), widest.total()))
			}
			// A PTX instruction type names its source operands; AMD names
			// the result first and the sources last (v_clz_i32_u32).
			if msg := classMismatch(rel, t, amdTs[len(amdTs)-1], direct); msg != "" {
				out = append(out, msg)
			}
		}
	}
	amd := amdRoles(rel.AMD, amdTs)
	for _, run := range runs {
		rr := runRoles(rel.PTX, len(run))
		if rr == nil {
			continue
		}
		for i, t := range run {
			if i >= len(rr) {
				break
			}
			a, ok := amd[rr[i]]
			if !ok {
				continue
			}
			if msg := classMismatch(rel, t, a, direct); msg != "" {
				out = append(out, fmt.Sprintf("%s (%s operand of %s)", msg, strings.ToUpper(rr[i]), runName(run)))
			}
		}
	}
	return out
}

// classMismatch compares one PTX type with the AMD type in the same role.
func classMismatch(rel Relation, p, a opType, direct bool) string {
	if p.Class == 'p' || a.Class == 'b' || p.Class == 'b' || movesBits[rel.PTX] {
		return ""
	}
	pf, af := p.Class == 'f', a.Class == 'f'
	switch {
	case direct && !pf && !af && p.Class != a.Class && a.Class != 'i' && !signAgnostic[rel.PTX] && !lowHalf(rel):
		return fmt.Sprintf("%s.%s <-> %s: a %s PTX operation against an %s AMD one", rel.PTX, p.Name, rel.AMD, signName(p), signName(a))
	case pf != af:
		if direct {
			return fmt.Sprintf("%s.%s <-> %s: a %s PTX type against an %s AMD type", rel.PTX, p.Name, rel.AMD, className(p), className(a))
		}
	case pf && p.Elem != amdElem(a):
		if direct {
			return fmt.Sprintf("%s.%s <-> %s: .%s is not %s (a different float format is never equivalent)", rel.PTX, p.Name, rel.AMD, p.Elem, a.Name)
		}
		if !mentionsBoth(rel.Restrictions, p.Elem, a.Name) {
			return fmt.Sprintf("%s.%s <-> %s: the AMD instruction works in %s, not .%s; a restriction must say so (naming both)", rel.PTX, p.Name, rel.AMD, a.Name, p.Elem)
		}
	}
	return ""
}

// amdElem spells an AMD float type as PTX does: fp8 is e4m3, bf8 e5m2.
func amdElem(a opType) string {
	switch a.Name {
	case "fp8":
		return "e4m3"
	case "bf8":
		return "e5m2"
	case "fp4":
		return "e2m1"
	}
	return a.Name
}

// signAgnostic lists the PTX operations whose result bits do not depend on
// signedness (two's-complement wrapping arithmetic and moves).
var signAgnostic = map[string]bool{"add": true, "sub": true, "mov": true, "neg": true, "shl": true, "popc": true, "brev": true}

// movesBits lists the PTX instructions that move bits without looking at
// them: a .f16 load is a 16-bit load, whatever AMD calls it.
var movesBits = map[string]bool{"ld": true, "st": true, "ldu": true, "ld.global.nc": true, "mov": true}

// signFreeOp lists the operation words whose result bits do not depend on
// signedness: the low half of a product, equality tests and the wrapping
// or bitwise atomic operations.
var signFreeOp = map[string]bool{"lo": true, "eq": true, "ne": true, "add": true, "sub": true, "exch": true, "cas": true, "and": true, "or": true, "xor": true}

// lowHalf reports whether a relation's variants name an operation whose
// result does not depend on signedness (see signFreeOp).
func lowHalf(rel Relation) bool {
	for _, v := range rel.Variants {
		words := strings.Split(strings.TrimPrefix(v, "."), ".")
		for _, w := range words {
			if signFreeOp[w] {
				return true
			}
		}
	}
	return false
}

func signName(t opType) string {
	if t.Class == 's' {
		return "signed"
	}
	return "unsigned"
}

func className(t opType) string {
	switch t.Class {
	case 'f':
		return "floating-point"
	case 's', 'u', 'i':
		return "integer"
	}
	return "bit"
}

func runName(run []opType) string {
	var b strings.Builder
	for _, t := range run {
		b.WriteString("." + t.Name)
	}
	return b.String()
}

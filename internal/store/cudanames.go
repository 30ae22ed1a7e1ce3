package store

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// CUDA's intrinsics are named by rule: conversions are __<from>2<to>
// with a rounding suffix (__float2uint_rn, __double2float_rz,
// __half2float), and many operations have rounding (__fmul_rn) and
// unsigned (__umul24, __usad) spellings of one intrinsic. Search reads
// these names by the rule, so that every spelling finds what the
// synonym table gives for one.

// cudaTypes are CUDA's type words in intrinsic names and the type each is
// in AMD's names.
// A vector type (half2, float2) converts lane by lane: its lane's type.
var cudaTypes = map[string]string{
	"float": "f32", "double": "f64", "half": "f16", "bfloat16": "bf16",
	"int": "i32", "uint": "u32", "ll": "i64", "ull": "u64", "short": "i16", "ushort": "u16",
	"float2": "f32", "half2": "f16", "bfloat162": "bf16",
	// Two scalars made one vector (__floats2half2_rn, __halves2bfloat162).
	"floats": "f32", "halves": "f16",
}

// cudaVector says whether a CUDA type word is a vector of two lanes
// (half2, bfloat162), which AMD converts to by a packed conversion.
func cudaVector(word string) bool {
	return strings.HasSuffix(word, "2") && cudaTypes[word] != ""
}

// cudaConversion matches a conversion intrinsic's shape, __<from>2<to>
// with an optional rounding suffix; cudaConversionTypes finds where the
// "2" between the types is (__half22float2, __bfloat162float).
var cudaConversion = regexp.MustCompile(`^__([a-z0-9]+)(?:_r[nzud])?$`)

// cudaConversionTypes splits a conversion intrinsic's name at the "2"
// between two of CUDA's type words, returning AMD's types.
func cudaConversionTypes(name string) (from, to string, packed, ok bool) {
	for i := 1; i < len(name)-1; i++ {
		if name[i] != '2' {
			continue
		}
		f, ok1 := cudaTypes[name[:i]]
		t, ok2 := cudaTypes[name[i+1:]]
		if ok1 && ok2 {
			return f, t, cudaVector(name[i+1:]), true
		}
	}
	return "", "", false, false
}

// cudaSuffixes are the suffixes of intrinsics' names that vary one
// operation: rounding and saturation (__fmul_rn is __fmul rounded to
// nearest), a ReLU (__hfma2_relu) and a half of the operands (__dp2a_lo).
var cudaSuffixes = []string{"_rn", "_rz", "_ru", "_rd", "_sat", "_relu", "_lo", "_hi"}

// cudaTypeSuffixes are the type suffixes of CUDA's DPX and SIMD
// functions (__vimax3_s32, __viaddmax_u16x2) and the qualifiers each says.
var cudaTypeSuffixes = []struct {
	suffix string
	quals  []string
}{
	{"_s32", []string{"signed", "32-bit"}}, {"_u32", []string{"unsigned", "32-bit"}},
	{"_s16x2", []string{"signed", "16-bit", "packed"}}, {"_u16x2", []string{"unsigned", "16-bit", "packed"}},
}

// cudaSIMD is a SIMD-within-a-word intrinsic: "v", the operation, its
// signedness (u, s, ss, us) and its lane count (__vmaxu4, __vaddss2).
var cudaSIMD = regexp.MustCompile(`^__v([a-z]+?)(u|s|ss|us)([24])$`)

// cudaSIMDCompare is a SIMD compare: __vcmp, the relation, its
// signedness and its lane count (__vcmpeq4, __vcmpgtu2).
var cudaSIMDCompare = regexp.MustCompile(`^__vcmp(?:eq|ne|lt|le|gt|ge)[us]?([24])$`)

// cudaReading is another spelling of an intrinsic and the qualifier words
// its spelling implies.
type cudaReading struct {
	text  string
	quals []string
}

// cudaReadings are the other spellings of an intrinsic the synonym table
// may list, by CUDA's naming rules: without its suffix, without the "u" of
// its unsigned spelling (__umul24 is __mul24 on unsigned ints), without
// the underscores, a half function's "h" (and half2's "2" or "h2") read
// as the half (and packed) qualifier (__hneg is neg of f16, __hmax2 and
// __h2div packed),
// a float function's "f" as float (__tanhf is tanh of f32).
func cudaReadings(q string) []cudaReading {
	if !strings.HasPrefix(q, "__") || len(q) < 4 || strings.ContainsAny(q, " \t") {
		return nil
	}
	var out []cudaReading
	base := q
	for _, suf := range cudaSuffixes {
		if b, ok := strings.CutSuffix(q, suf); ok && len(b) > 2 {
			base = b
			out = append(out, cudaReading{text: b})
			break
		}
	}
	for _, ts := range cudaTypeSuffixes {
		if b, ok := strings.CutSuffix(base, ts.suffix); ok && len(b) > 2 {
			// DPX functions spell the type after the operation, and an
			// "i" for integer before it: __vimax3_s32 is max3 of i32.
			op := strings.TrimPrefix(b[2:], "vi")
			return append(out, cudaReading{text: "__" + op, quals: ts.quals}, cudaReading{text: op, quals: ts.quals})
		}
	}
	if m := cudaSIMDCompare.FindStringSubmatch(base); m != nil {
		// Every SIMD compare is PTX's vset with the relation as its
		// modifier: __vcmpgtu4 is vset4.u32.u32.gt.
		return append(out, cudaReading{text: "vset" + m[1]})
	}
	if m := cudaSIMD.FindStringSubmatch(base); m != nil {
		// A SIMD intrinsic's signedness before its lane count is PTX's
		// type, not its name: __vmaxu4 is vmax4 on unsigned bytes.
		quals := []string{"unsigned"}
		if strings.HasPrefix(m[2], "s") {
			quals = []string{"signed"}
		}
		out = append(out, cudaReading{text: "v" + m[1] + m[3], quals: quals})
	}
	if rest, ok := strings.CutPrefix(base, "__u"); ok && rest != "" {
		out = append(out, cudaReading{text: "__" + rest})
	}
	name := base[2:]
	out = append(out, cudaReading{text: name})
	if h2, ok := strings.CutPrefix(name, "h2"); ok && len(h2) > 1 {
		out = append(out, cudaReading{text: h2, quals: []string{"half", "packed"}}) // __h2div
	}
	if h, ok := strings.CutPrefix(name, "h"); ok && len(h) > 1 {
		if p, ok := strings.CutSuffix(h, "2"); ok && p != "" {
			out = append(out, cudaReading{text: p, quals: []string{"half", "packed"}})
		}
		out = append(out, cudaReading{text: h, quals: []string{"half"}})
	}
	if f, ok := strings.CutSuffix(name, "f"); ok && len(f) > 2 {
		out = append(out, cudaReading{text: f, quals: []string{"float"}})
	}
	return out
}

// conversionHits are the conversions a CUDA conversion intrinsic names:
// AMD's from its type to the other (v_cvt_u32_f32 for __float2uint_rn:
// AMD names the result first), the vector unit's first, and PTX's cvt.
func (s *DB) conversionHits(arch, lower string) []isa.SearchHit {
	m := cudaConversion.FindStringSubmatch(lower)
	if m == nil {
		return nil
	}
	from, to, packed, ok := cudaConversionTypes(m[1])
	if !ok {
		return nil
	}
	isPacked := func(n string) bool {
		return slices.ContainsFunc(nameParts(n), func(p string) bool { return strings.HasPrefix(p, "pk") })
	}
	var names []string
	for _, n := range s.names {
		parts := nameParts(n)
		if !slices.Contains(parts, "cvt") {
			continue
		}
		var types []string
		for _, p := range parts {
			if typePart.MatchString(p) {
				types = append(types, p)
			}
		}
		if slices.Equal(types, []string{to, from}) {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if pa, pb := isPacked(a), isPacked(b); packed && pa != pb {
			// A vector result is both lanes at once: the packed
			// conversion (v_cvt_pk_f16_f32 for __floats2half2_rn).
			if pa {
				return -1
			}
			return 1
		}
		if va, vb := strings.HasPrefix(a, "v_"), strings.HasPrefix(b, "v_"); va != vb {
			if va {
				return -1
			}
			return 1
		}
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	names = append(names, "cvt")
	var hits []isa.SearchHit
	for i, n := range names {
		for _, k := range s.byName[n] {
			if e := &s.entries[k]; arch == "" || e.Arch == arch {
				hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: 95 - 0.1*float64(i), Why: "CUDA conversion " + lower})
			}
		}
	}
	return hits
}

// cudaNameHits are the instructions a CUDA intrinsic's reading names
// exactly: PTX spells many of them without the underscores (__vsub4 is
// vsub4, __vmaxu4 vmax4 on unsigned bytes, __fns fns). They rank below
// an exact name; the reading's qualifiers rank the variants.
func (s *DB) cudaNameHits(arch, lower string, qw *queryWords) []isa.SearchHit {
	var hits []isa.SearchHit
	readings := cudaReadings(lower)
	if head, _, ok := strings.Cut(strings.TrimPrefix(lower, "__"), "_"); ok && strings.HasPrefix(lower, "__") {
		// An intrinsic named by an instruction and its operands' spaces
		// or kind: __cvta_generic_to_shared is cvta, __shfl_xor_sync shfl.
		readings = append(readings, cudaReading{text: head})
	}
	for _, r := range readings {
		if _, ok := s.byName[r.text]; !ok || r.text == lower {
			continue
		}
		qw.addQualifiers(r.quals)
		for _, k := range s.byName[r.text] {
			if e := &s.entries[k]; arch == "" || e.Arch == arch {
				hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: 92, Why: "CUDA spelling of " + r.text})
			}
		}
	}
	return hits
}

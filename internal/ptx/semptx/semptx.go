// Package semptx is the PTX side of the cross-vendor comparison: what the
// PTX members of the concept catalogue return, written by gpuisa from
// NVIDIA's PTX ISA documentation (each instruction's Semantics,
// Description and Notes, and the floating-point chapter's rules), in Go
// over the same soft-float as package sem. A model covers one mnemonic
// and type (max .f32); the modifiers the concepts exclude (.NaN for
// Maximum) and the ones that change modes (.ftz, .sat, .rz) are not
// modelled: each model is the instruction without them, as the concept
// pairs it.
package semptx

import (
	"math/bits"
	"sort"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
)

// Operand is a source or result: a float format, or an integer width (1
// for a predicate).
type Operand struct {
	Float  *sem.FloatFormat
	Width  int
	Signed bool
}

// Bits is the operand's width.
func (o Operand) Bits() int {
	if o.Float != nil {
		return o.Float.Bits
	}
	return o.Width
}

// Model is one PTX instruction and type.
type Model struct {
	Mnemonic string // "max"
	Variant  string // ".f32"
	Srcs     []Operand
	Ret      Operand
	Eval     func(a []uint64) uint64
	// NaNUnspecified: NVIDIA leaves the bits of a single- or
	// half-precision NaN result unspecified (the floating-point chapter),
	// so a comparison holds only that it is a NaN.
	NaNUnspecified bool
	// From says which of NVIDIA's text the model follows.
	From string
}

// Corpus is the model's test inputs: the special values of each source
// operand, paired, then random cases drawn from seed (sem.Cases), each
// source cut to its width.
func (m *Model) Corpus(random int, seed uint64) [][]uint64 {
	var sp [][]sem.Special
	for _, o := range m.Srcs {
		if o.Float != nil {
			sp = append(sp, sem.FloatSpecials(o.Float))
		} else {
			sp = append(sp, sem.IntSpecials(o.Width))
		}
	}
	cases := sem.Cases(sp, random, seed)
	out := make([][]uint64, len(cases))
	for i, c := range cases {
		out[i] = make([]uint64, len(c.Bits))
		for j, v := range c.Bits {
			out[i][j] = v & sem.WidthMask(m.Srcs[j].Bits())
		}
	}
	return out
}

var models = map[string]*Model{}

func key(m, v string) string { return m + v }

func add(m *Model) { models[key(m.Mnemonic, m.Variant)] = m }

// Lookup returns the model of a mnemonic and type ("max", ".f32").
func Lookup(mnemonic, variant string) *Model { return models[key(mnemonic, variant)] }

// Models lists every model, sorted.
func Models() []*Model {
	out := make([]*Model, 0, len(models))
	for _, m := range models {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		return key(out[i].Mnemonic, out[i].Variant) < key(out[j].Mnemonic, out[j].Variant)
	})
	return out
}

// CanonicalNaN is PTX's canonical NaN of a format: every fraction bit set,
// positive (0x7fffffff in f32), as max.NaN and min.NaN return it.
func CanonicalNaN(f *sem.FloatFormat) uint64 {
	return uint64(1)<<uint(f.Bits-1) - 1
}

// env is PTX's default: round to nearest even (.rn), subnormals kept on
// sm_20 and later without .ftz; the NaN an invalid operation gives is
// unspecified for f32 and f16 (the canonical one is used).
var env = sem.Env{Round: sem.RoundNearestEven, NaN: sem.NaNCanonical}

var formats = []struct {
	suffix string
	f      *sem.FloatFormat
	half   bool // a half-precision instruction (chapter 9.7.4)
}{{".f32", &sem.F32, false}, {".f64", &sem.F64, false}, {".f16", &sem.F16, true}, {".bf16", &sem.BF16, true}}

func init() {
	for _, ft := range formats {
		f := ft.f
		op := Operand{Float: f}
		// NVIDIA leaves single- and half-precision NaN results unspecified
		// and supports payloads in double precision without saying which
		// input's NaN an operation returns: only NaN-ness is compared.
		unspecified := true
		// max and min, without .NaN: max_num / min_num of NVIDIA's
		// Semantics: a NaN input gives the other input, both NaN give NaN,
		// and +0.0 > -0.0.
		for _, name := range []string{"max", "min"} {
			isMax := name == "max"
			add(&Model{Mnemonic: name, Variant: ft.suffix, Srcs: []Operand{op, op}, Ret: op, NaNUnspecified: unspecified,
				From: "NVIDIA's Semantics (" + name + "_num): a NaN input gives the other input, two NaNs give NaN, +0.0 > -0.0; the canonical NaN stands for the unspecified one",
				Eval: func(a []uint64) uint64 { return minMax(f, a[0], a[1], isMax, false) }})
			if f != &sem.F64 { // .NaN is an f32, f16 and bf16 modifier
				add(&Model{Mnemonic: name, Variant: ".NaN" + ft.suffix, Srcs: []Operand{op, op}, Ret: op,
					From: "NVIDIA's Description of .NaN: the result is the canonical NaN if any input is NaN",
					Eval: func(a []uint64) uint64 { return minMax(f, a[0], a[1], isMax, true) }})
			}
		}
		// add, sub, mul, fma: IEEE 754 operations rounded to nearest even
		// (the default .rn), subnormals kept.
		arith := map[string]func(a []uint64) uint64{
			"add": func(a []uint64) uint64 { return f.Add(a[0], a[1], env) },
			"sub": func(a []uint64) uint64 { return f.Sub(a[0], a[1], env) },
			"mul": func(a []uint64) uint64 { return f.Mul(a[0], a[1], env) },
		}
		for name, fn := range arith {
			add(&Model{Mnemonic: name, Variant: ft.suffix, Srcs: []Operand{op, op}, Ret: op, NaNUnspecified: unspecified, Eval: fn,
				From: "NVIDIA's Semantics (d = a " + map[string]string{"add": "+", "sub": "-", "mul": "*"}[name] + " b) with the default rounding .rn and subnormals kept (sm_20 and later without .ftz)"})
		}
		add(&Model{Mnemonic: "fma", Variant: ft.suffix, Srcs: []Operand{op, op, op}, Ret: op, NaNUnspecified: unspecified,
			From: "NVIDIA's Semantics (d = a * b + c in infinite precision, rounded once, .rn)",
			Eval: func(a []uint64) uint64 { return f.FMA(a[0], a[1], a[2], env) }})
		if !ft.half {
			// setp with a float type: ordered comparisons are false on a
			// NaN, the unordered ones (equ, neu, ltu, ...) true; num and nan
			// test for NaNs.
			for _, c := range []string{"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"} {
				cmp := c
				add(&Model{Mnemonic: "setp", Variant: "." + c + ft.suffix, Srcs: []Operand{op, op}, Ret: Operand{Width: 1},
					From: "NVIDIA's setp floating-point comparison table: ordered comparisons are false when an input is NaN, the u forms true; num and nan test for NaN",
					Eval: func(a []uint64) uint64 { return setp(f, cmp, a[0], a[1]) }})
			}
		}
	}
	// Integers: max, min, add, sub, mul.lo, mul.hi, and, or, xor, not,
	// shl, shr.
	for _, w := range []int{16, 32, 64} {
		for _, signed := range []bool{true, false} {
			t := ".u"
			if signed {
				t = ".s"
			}
			suffix := t + itoa(w)
			op := Operand{Width: w, Signed: signed}
			width, sg := w, signed
			add(&Model{Mnemonic: "max", Variant: suffix, Srcs: []Operand{op, op}, Ret: op, From: "NVIDIA's Semantics: d = (a > b) ? a : b, signed and unsigned differ",
				Eval: func(a []uint64) uint64 {
					if less(a[0], a[1], width, sg) {
						return a[1]
					}
					return a[0]
				}})
			add(&Model{Mnemonic: "min", Variant: suffix, Srcs: []Operand{op, op}, Ret: op, From: "NVIDIA's Semantics: d = (a < b) ? a : b, signed and unsigned differ",
				Eval: func(a []uint64) uint64 {
					if less(a[0], a[1], width, sg) {
						return a[0]
					}
					return a[1]
				}})
			add(&Model{Mnemonic: "add", Variant: suffix, Srcs: []Operand{op, op}, Ret: op, From: "NVIDIA's Semantics: d = a + b, wrapping (no .sat)",
				Eval: func(a []uint64) uint64 { return (a[0] + a[1]) & sem.WidthMask(width) }})
			add(&Model{Mnemonic: "sub", Variant: suffix, Srcs: []Operand{op, op}, Ret: op, From: "NVIDIA's Semantics: d = a - b, wrapping (no .sat)",
				Eval: func(a []uint64) uint64 { return (a[0] - a[1]) & sem.WidthMask(width) }})
			add(&Model{Mnemonic: "mul", Variant: ".lo" + suffix, Srcs: []Operand{op, op}, Ret: op, From: "NVIDIA's Description of .lo: the low half of the 2n-bit product",
				Eval: func(a []uint64) uint64 { return (a[0] * a[1]) & sem.WidthMask(width) }})
			add(&Model{Mnemonic: "mul", Variant: ".hi" + suffix, Srcs: []Operand{op, op}, Ret: op, From: "NVIDIA's Description of .hi: the high half of the 2n-bit product",
				Eval: func(a []uint64) uint64 { return mulHi(a[0], a[1], width, sg) }})
		}
		b := ".b" + itoa(w)
		op := Operand{Width: w}
		width := w
		for name, fn := range map[string]func(x, y uint64) uint64{
			"and": func(x, y uint64) uint64 { return x & y }, "or": func(x, y uint64) uint64 { return x | y },
			"xor": func(x, y uint64) uint64 { return x ^ y },
		} {
			fn := fn
			add(&Model{Mnemonic: name, Variant: b, Srcs: []Operand{op, op}, Ret: op, From: "NVIDIA's Semantics: the bitwise operation",
				Eval: func(a []uint64) uint64 { return fn(a[0], a[1]) & sem.WidthMask(width) }})
		}
		add(&Model{Mnemonic: "not", Variant: b, Srcs: []Operand{op}, Ret: op, From: "NVIDIA's Semantics: d = ~a",
			Eval: func(a []uint64) uint64 { return ^a[0] & sem.WidthMask(width) }})
		amount := Operand{Width: 32}
		// shl and shr: NVIDIA's notes clamp a shift amount above the
		// register's width to the width (b is an unsigned 32-bit value).
		add(&Model{Mnemonic: "shl", Variant: b, Srcs: []Operand{op, amount}, Ret: op, From: "NVIDIA's Notes: shift amounts greater than the register width are clamped to it",
			Eval: func(a []uint64) uint64 {
				n := a[1] & 0xffffffff
				if n >= uint64(width) {
					return 0
				}
				return a[0] << n & sem.WidthMask(width)
			}})
		for _, shr := range []struct {
			suffix string
			signed bool
		}{{b, false}, {".u" + itoa(w), false}, {".s" + itoa(w), true}} {
			sg := shr.signed
			add(&Model{Mnemonic: "shr", Variant: shr.suffix, Srcs: []Operand{{Width: w, Signed: sg}, amount}, Ret: Operand{Width: w, Signed: sg},
				From: "NVIDIA's Description and Notes: signed shifts fill with the sign bit, others with 0; amounts greater than the width are clamped to it",
				Eval: func(a []uint64) uint64 {
					n := min(a[1]&0xffffffff, uint64(width))
					x := a[0] & sem.WidthMask(width)
					if sg {
						s := int64(x<<(64-uint(width))) >> (64 - uint(width))
						if n >= 64 {
							n = 63
						}
						return uint64(s>>n) & sem.WidthMask(width)
					}
					if n >= uint64(width) {
						return 0
					}
					return x >> n
				}})
		}
	}
}

func itoa(n int) string {
	return map[int]string{16: "16", 32: "32", 64: "64"}[n]
}

func sext(x uint64, w int) int64 {
	if w >= 64 {
		return int64(x)
	}
	return int64(x<<(64-uint(w))) >> (64 - uint(w))
}

func less(x, y uint64, w int, signed bool) bool {
	if signed {
		return sext(x, w) < sext(y, w)
	}
	return x&sem.WidthMask(w) < y&sem.WidthMask(w)
}

func mulHi(x, y uint64, w int, signed bool) uint64 {
	if w == 64 {
		hi, _ := bits.Mul64(x, y)
		if signed {
			// Signed high half from the unsigned one.
			if int64(x) < 0 {
				hi -= y
			}
			if int64(y) < 0 {
				hi -= x
			}
		}
		return hi
	}
	if signed {
		return uint64(sext(x, w)*sext(y, w)>>uint(w)) & sem.WidthMask(w)
	}
	return (x & sem.WidthMask(w)) * (y & sem.WidthMask(w)) >> uint(w) & sem.WidthMask(w)
}

// minMax follows max_num/min_num (or max_nan/min_nan with .NaN).
func minMax(f *sem.FloatFormat, x, y uint64, isMax, nanMode bool) uint64 {
	xn, yn := f.IsNaN(x), f.IsNaN(y)
	switch {
	case nanMode && (xn || yn), xn && yn:
		return CanonicalNaN(f)
	case xn:
		return y
	case yn:
		return x
	}
	c := f.Compare(x, y)
	if c == 0 {
		// +0.0 > -0.0 (both zeros): max takes the positive one.
		sign := uint64(1) << uint(f.Bits-1)
		xneg := x&sign != 0
		if isMax == xneg {
			return y
		}
		return x
	}
	if (c > 0) == isMax {
		return x
	}
	return y
}

func setp(f *sem.FloatFormat, cmp string, x, y uint64) uint64 {
	c := f.Compare(x, y) // 2: unordered
	u := c == 2
	b := false
	switch cmp {
	case "eq":
		b = c == 0
	case "ne":
		b = !u && c != 0
	case "lt":
		b = c == -1
	case "le":
		b = c == -1 || c == 0
	case "gt":
		b = c == 1
	case "ge":
		b = c == 1 || c == 0
	case "equ":
		b = u || c == 0
	case "neu":
		b = u || c != 0
	case "ltu":
		b = u || c == -1
	case "leu":
		b = u || c <= 0
	case "gtu":
		b = u || c == 1
	case "geu":
		b = u || c == 1 || c == 0
	case "num":
		b = !u
	case "nan":
		b = u
	}
	if b {
		return 1
	}
	return 0
}

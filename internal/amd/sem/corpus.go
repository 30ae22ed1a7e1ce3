package sem

import (
	"math/rand/v2"
)

// The special-value corpus: the inputs where float and integer semantics
// differ between implementations — signed zeros, infinities, quiet and
// signalling NaNs with and without payloads and of both signs, the
// subnormal and normal extremes, values at rounding boundaries — and
// random values, drawn from a fixed seed so every run sees the same ones.

// Special is one corpus value with what it is, for the differences found
// on it ("a signalling NaN").
type Special struct {
	Bits  uint64
	Class string
}

// Class names used by the corpus; differences are grouped by them.
const (
	ClassZero      = "zero"
	ClassNegZero   = "-0"
	ClassInf       = "infinity"
	ClassQNaN      = "quiet NaN"
	ClassSNaN      = "signalling NaN"
	ClassSubnormal = "subnormal"
	ClassNormal    = "normal"
	ClassExtreme   = "largest finite"
	ClassBoundary  = "rounding boundary"
	ClassRandom    = "random"
	ClassInteger   = "integer"
)

// FloatSpecials returns the special values of a float format.
func FloatSpecials(f *FloatFormat) []Special {
	sign := f.signBit()
	var out []Special
	add := func(b uint64, c string) { out = append(out, Special{b & f.mask(), c}) }
	add(0, ClassZero)
	if f.NaN != nanNegZero {
		add(sign, ClassNegZero)
	}
	if !f.NoInf {
		add(f.Inf(false), ClassInf)
		add(f.Inf(true), ClassInf)
	}
	switch f.NaN {
	case nanIEEE:
		q := f.DefaultNaN()
		add(q, ClassQNaN)
		add(q|sign, ClassQNaN)
		if f.ManBits > 2 {
			add(q|1, ClassQNaN) // quiet with a payload
			add(f.expMax()<<uint(f.ManBits)|f.quietBit()>>1, ClassSNaN)
			add(f.expMax()<<uint(f.ManBits)|1, ClassSNaN)
			add(f.expMax()<<uint(f.ManBits)|1|sign, ClassSNaN)
		} else {
			add(f.expMax()<<uint(f.ManBits)|1, ClassSNaN)
		}
	case nanAllOnes, nanNegZero:
		add(f.DefaultNaN(), ClassQNaN)
	}
	add(1, ClassSubnormal)                 // smallest subnormal
	add(1|sign, ClassSubnormal)            // its negative
	add(f.fracMask(), ClassSubnormal)      // largest subnormal
	add(f.fracMask()|sign, ClassSubnormal) //
	add(1<<uint(f.ManBits), ClassNormal)   // smallest normal
	add(f.MaxFinite(false), ClassExtreme)  // largest finite
	add(f.MaxFinite(true), ClassExtreme)   //
	one := f.FromFloat64(1, RoundNearestEven)
	add(one, ClassNormal)
	add(one|sign, ClassNormal)
	for _, x := range []float64{0.5, 1.5, 2, 2.5, 3, -0.5, -1.5, -2.5, 0.25, 4, 100, -7} {
		add(f.FromFloat64(x, RoundNearestEven), ClassNormal)
	}
	add(one+1, ClassBoundary) // 1 + ulp
	add(one-1, ClassBoundary) // 1 - ulp/2
	half := f.FromFloat64(0.5, RoundNearestEven)
	add(half-1, ClassBoundary)        // the float below 0.5: x + 0.5 rounds up to 1
	add((half-1)|sign, ClassBoundary) //
	if f.ManBits >= 3 {
		// 2^p: the first float without a fraction bit; 2^p - 0.5 rounds either way.
		p := f.FromFloat64(float64(uint64(1)<<uint(f.prec())), RoundNearestEven)
		add(p, ClassBoundary)
		add(p-1, ClassBoundary)
	}
	return dedupe(out)
}

// IntSpecials returns the special values of an integer width.
func IntSpecials(w int) []Special {
	m := WidthMask(w)
	var out []Special
	add := func(b uint64) { out = append(out, Special{b & m, ClassInteger}) }
	for _, v := range []uint64{0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 0xff, 0x100, 0x7fff, 0x8000, 0xffff} {
		add(v)
	}
	add(m)                  // -1
	add(m - 1)              // -2
	add(m >> 1)             // largest signed
	add(m>>1 + 1)           // smallest signed
	add(0x5555555555555555) // alternating
	add(0xaaaaaaaaaaaaaaaa) //
	add(0x0123456789abcdef) //
	add(0xfedcba9876543210) //
	add(0x00000000ffffffff) //
	add(0xffffffff00000000) //
	add(0x8000000000000001) //
	return dedupe(out)
}

func dedupe(in []Special) []Special {
	seen := map[uint64]bool{}
	var out []Special
	for _, s := range in {
		if !seen[s.Bits] {
			seen[s.Bits] = true
			out = append(out, s)
		}
	}
	return out
}

// RegSpecials are the special values of a register as a program reads it:
// by its float type, as two 16-bit halves for a packed register read as
// 16-bit floats, or as an integer of its width.
func RegSpecials(r *RegInfo) []Special {
	if r == nil {
		return IntSpecials(32)
	}
	t := r.Type
	if t.Kind == KFloat {
		sp := FloatSpecials(t.Float)
		if r.Width > t.Width && t.Width <= 32 && r.Width <= 64 {
			return packed(sp, t.Width)
		}
		return sp
	}
	if r.Elem.Kind == KFloat && r.Elem.Width*2 <= r.Width && r.Width <= 64 {
		return packed(FloatSpecials(r.Elem.Float), r.Elem.Width)
	}
	w := r.Width
	if t.Width > 0 {
		w = max(w, t.Width)
	}
	return IntSpecials(min(w, 64))
}

// packed pairs specials into two halves (every value in the low half with
// a few in the high, and the same swapped).
func packed(sp []Special, w int) []Special {
	var out []Special
	hi := []Special{sp[0], sp[len(sp)/2]}
	for _, s := range sp {
		for _, h := range hi {
			out = append(out, Special{h.Bits<<uint(w) | s.Bits, s.Class})
			out = append(out, Special{s.Bits<<uint(w) | h.Bits, s.Class})
		}
	}
	return dedupe(out)
}

// Case is one corpus entry: a value per source register, and the classes
// of the special values in it ("" for random ones).
type Case struct {
	Bits    []uint64
	Classes []string
}

// Cases builds a corpus for sources with the given specials: every pair of
// the first two sources' specials (with the third's drawn from a short
// list), then n random cases mixing random bit patterns and specials.
func Cases(specials [][]Special, n int, seed uint64) []Case {
	var out []Case
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	k := len(specials)
	if k == 0 {
		return []Case{{}}
	}
	switch {
	case k == 1:
		for _, s := range specials[0] {
			out = append(out, Case{[]uint64{s.Bits}, []string{s.Class}})
		}
	default:
		thirds := [][]Special{nil}
		if k >= 3 {
			thirds = nil
			for i, s := range specials[2] {
				if i%8 == 0 {
					thirds = append(thirds, []Special{s})
				}
			}
		}
		for _, a := range specials[0] {
			for _, b := range specials[1] {
				for _, c := range thirds {
					cs := Case{[]uint64{a.Bits, b.Bits}, []string{a.Class, b.Class}}
					for _, x := range c {
						cs.Bits = append(cs.Bits, x.Bits)
						cs.Classes = append(cs.Classes, x.Class)
					}
					for len(cs.Bits) < k {
						s := specials[len(cs.Bits)][rng.IntN(len(specials[len(cs.Bits)]))]
						cs.Bits = append(cs.Bits, s.Bits)
						cs.Classes = append(cs.Classes, s.Class)
					}
					out = append(out, cs)
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		cs := Case{}
		for j := 0; j < k; j++ {
			if rng.IntN(4) == 0 {
				s := specials[j][rng.IntN(len(specials[j]))]
				cs.Bits = append(cs.Bits, s.Bits)
				cs.Classes = append(cs.Classes, s.Class)
				continue
			}
			cs.Bits = append(cs.Bits, rng.Uint64())
			cs.Classes = append(cs.Classes, ClassRandom)
		}
		out = append(out, cs)
	}
	return out
}

// ClassOf names what a float's bits are: zero, -0, infinity, quiet or
// signalling NaN, subnormal or normal.
func ClassOf(f *FloatFormat, b uint64) string {
	b &= f.mask()
	switch {
	case f.IsSignalingNaN(b):
		return ClassSNaN
	case f.isNaN(b):
		return ClassQNaN
	case f.isInf(b):
		return ClassInf
	case b == 0:
		return ClassZero
	case b == f.signBit():
		return ClassNegZero
	case f.isSubnormal(b):
		return ClassSubnormal
	}
	return ClassNormal
}

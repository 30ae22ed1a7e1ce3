package sem

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// Value is a typed bit pattern of an exact width. Widths up to 64 bits live
// in u; wider values (65-bit products, 128-bit registers, V_TRIG_PREOP's
// 1201 bits of 2/PI) in w. An unsized integer (KInteger) holds an int64 in u.
type Value struct {
	T Type
	u uint64
	w *big.Int // non-negative, below 2^Width; only when Width > 64
}

// Integer returns an unsized integer.
func Integer(n int64) Value { return Value{T: TInteger, u: uint64(n)} }

// Bool returns a comparison result.
func Bool(b bool) Value {
	if b {
		return Value{T: TBool, u: 1}
	}
	return Value{T: TBool}
}

// FromUint returns the low bits of u as type t.
func FromUint(u uint64, t Type) Value {
	if t.Kind == KInteger {
		return Value{T: t, u: u}
	}
	if t.Width > 64 {
		return Value{T: t, w: new(big.Int).SetUint64(u)}
	}
	return Value{T: t, u: u & WidthMask(t.Width)}
}

// FromBig returns n modulo 2^width as type t (an unsized integer keeps
// n's low 64 bits as two's complement).
func FromBig(n *big.Int, t Type) Value {
	if t.Kind == KInteger {
		return Value{T: t, u: lowBits(n)}
	}
	if t.Width <= 64 {
		return Value{T: t, u: lowBits(n) & WidthMask(t.Width)}
	}
	m := new(big.Int).Lsh(big.NewInt(1), uint(t.Width))
	r := new(big.Int).Mod(n, m)
	return Value{T: t, w: r}
}

// FromFloat64 rounds x to a float format (nearest-even).
func FromFloat64(x float64, f *FloatFormat) Value {
	return Value{T: FloatType(f), u: f.FromFloat64(x, RoundNearestEven)}
}

// FloatBits returns a float value of format f from its bits.
func FloatBits(b uint64, f *FloatFormat) Value { return Value{T: FloatType(f), u: b & f.mask()} }

// WidthMask has the low w bits set (all 64 from w = 64 on): a w-bit value's bits.
func WidthMask(w int) uint64 {
	if w >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(w) - 1
}

// lowBits is n's low 64 bits in two's complement.
func lowBits(n *big.Int) uint64 {
	if n.Sign() >= 0 {
		return new(big.Int).And(n, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	}
	m := new(big.Int).Lsh(big.NewInt(1), 64)
	return new(big.Int).Mod(n, m).Uint64()
}

// Width is the value's width in bits (64 for an unsized integer).
func (v Value) Width() int {
	if v.T.Kind == KInteger {
		return 64
	}
	return v.T.Width
}

// Uint returns the low 64 bits.
func (v Value) Uint() uint64 {
	if v.w != nil {
		return lowBits(v.w)
	}
	return v.u
}

// Bits returns the bit pattern as a non-negative integer.
func (v Value) Bits() *big.Int {
	if v.w != nil {
		return new(big.Int).Set(v.w)
	}
	if v.T.Kind == KInteger && int64(v.u) < 0 {
		return new(big.Int).SetUint64(v.u)
	}
	return new(big.Int).SetUint64(v.u)
}

// Num returns the integer value: signed kinds are two's complement.
func (v Value) Num() *big.Int {
	switch v.T.Kind {
	case KInteger:
		return big.NewInt(int64(v.u))
	case KInt:
		b := v.Bits()
		if b.Bit(v.T.Width-1) == 1 {
			b.Sub(b, new(big.Int).Lsh(big.NewInt(1), uint(v.T.Width)))
		}
		return b
	}
	return v.Bits()
}

// small reports whether the value fits the 64-bit fast paths.
func (v Value) small() bool { return v.w == nil }

// sext returns the value sign-extended (signed kinds) or zero-extended to
// int64; valid when small.
func (v Value) int64() int64 {
	switch v.T.Kind {
	case KInteger:
		return int64(v.u)
	case KInt:
		w := uint(v.T.Width)
		if w >= 64 {
			return int64(v.u)
		}
		return int64(v.u<<(64-w)) >> (64 - w)
	}
	return int64(v.u)
}

// IsTrue is the value as a condition: nonzero bits (a float: nonzero and
// not NaN... the guides only test integers and comparisons).
func (v Value) IsTrue() bool {
	if v.w != nil {
		return v.w.Sign() != 0
	}
	if v.T.Kind == KFloat {
		return v.u&^v.T.Float.signBit() != 0
	}
	return v.u != 0
}

// Bit returns bit i (0 past the width).
func (v Value) Bit(i int) uint {
	if i < 0 {
		return 0
	}
	if v.w != nil {
		return v.w.Bit(i)
	}
	if i >= 64 {
		if v.T.Kind == KInteger && int64(v.u) < 0 {
			return 1
		}
		return 0
	}
	return uint(v.u>>uint(i)) & 1
}

// view reinterprets the bits at type t: truncated or zero-extended.
func (v Value) view(t Type) Value {
	if t.Kind == KInteger {
		return Value{T: t, u: uint64(v.Num().Int64())}
	}
	if v.w == nil && t.Width <= 64 {
		u := v.u
		if v.T.Kind == KInteger && v.T.Width == 0 {
			u = v.u
		}
		return Value{T: t, u: u & WidthMask(t.Width)}
	}
	return FromBig(v.Bits(), t)
}

// Float64 returns a float value as float64 (exact for every format here).
func (v Value) Float64() float64 {
	if v.T.Kind == KFloat {
		return v.T.Float.ToFloat64(v.u)
	}
	f, _ := new(big.Float).SetInt(v.Num()).Float64()
	return f
}

// Hex formats the bits as 0x… with the width's digits.
func (v Value) Hex() string {
	if v.T.Kind == KInteger {
		return fmt.Sprintf("0x%x", v.u)
	}
	digits := (v.Width() + 3) / 4
	return fmt.Sprintf("0x%0*x", digits, v.Bits())
}

// String shows the value as its type reads: floats as a number and bits,
// integers in decimal (and hex when wide).
func (v Value) String() string {
	switch v.T.Kind {
	case KFloat:
		return FormatFloat(v.u, v.T.Float) + " (" + v.Hex() + ")"
	case KBool:
		if v.u != 0 {
			return "true"
		}
		return "false"
	case KInteger:
		return strconv.FormatInt(int64(v.u), 10)
	case KBits:
		return v.Hex()
	}
	if v.Width() <= 8 {
		return v.Num().String()
	}
	return v.Num().String() + " (" + v.Hex() + ")"
}

// FormatFloat writes a float's value: the shortest decimal that reads back
// to the same bits, "inf", or "nan"/"snan" with the payload.
func FormatFloat(b uint64, f *FloatFormat) string {
	b &= f.mask()
	neg := b&f.signBit() != 0
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case f.isNaN(b):
		if f.NaN != nanIEEE {
			return sign + "nan"
		}
		kind := "nan"
		if f.IsSignalingNaN(b) {
			kind = "snan"
		}
		payload := b & f.fracMask() &^ f.quietBit()
		if payload != 0 {
			return fmt.Sprintf("%s%s:0x%x", sign, kind, payload)
		}
		return sign + kind
	case f.isInf(b):
		return sign + "inf"
	}
	x := f.ToFloat64(b)
	bitsize := 64
	if f == &F32 {
		bitsize = 32
	}
	if f != &F64 && f != &F32 {
		// Shortest digits that round back to these bits in this format.
		for prec := 1; prec < 25; prec++ {
			s := strconv.FormatFloat(x, 'g', prec, 64)
			y, _ := strconv.ParseFloat(s, 64)
			if f.FromFloat64(y, RoundNearestEven) == b {
				return s
			}
		}
	}
	if x == 0 && neg {
		return "-0"
	}
	return strconv.FormatFloat(x, 'g', -1, bitsize)
}

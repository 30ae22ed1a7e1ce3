package sem

import (
	"math"
	"math/big"
	"math/bits"
)

// FloatFormat describes a binary floating-point format: IEEE 754's f16,
// f32, f64, bfloat16, and the 8/6/4-bit formats of the matrix and
// conversion instructions (OCP's E4M3, E5M2, E2M3, E3M2, E2M1).
type FloatFormat struct {
	Name    string
	Bits    int
	ExpBits int
	ManBits int // stored fraction bits
	Bias    int
	// NoInf: the all-ones exponent holds finite values (E4M3, fp6, fp4).
	NoInf bool
	// NaN says how NaN is encoded: nanIEEE (all-ones exponent, nonzero
	// fraction, the fraction's top bit set for quiet), nanAllOnes (only
	// S.1111.111, OCP E4M3), nanNone (fp6, fp4 have none).
	NaN nanStyle
}

type nanStyle uint8

const (
	nanIEEE nanStyle = iota
	nanAllOnes
	nanNone
	nanNegZero // 0x80 alone: the FNUZ formats (no -0, no infinity)
)

// The formats.
var (
	F16  = FloatFormat{Name: "f16", Bits: 16, ExpBits: 5, ManBits: 10, Bias: 15}
	BF16 = FloatFormat{Name: "bf16", Bits: 16, ExpBits: 8, ManBits: 7, Bias: 127}
	F32  = FloatFormat{Name: "f32", Bits: 32, ExpBits: 8, ManBits: 23, Bias: 127}
	F64  = FloatFormat{Name: "f64", Bits: 64, ExpBits: 11, ManBits: 52, Bias: 1023}
	// FP8 is OCP's E4M3 (no infinities; S.1111.111 is NaN), BF8 OCP's E5M2.
	FP8 = FloatFormat{Name: "fp8", Bits: 8, ExpBits: 4, ManBits: 3, Bias: 7, NoInf: true, NaN: nanAllOnes}
	BF8 = FloatFormat{Name: "bf8", Bits: 8, ExpBits: 5, ManBits: 2, Bias: 15}
	// FP6 is E2M3, BF6 E3M2, FP4 E2M1 (OCP microscaling): finite only.
	FP6 = FloatFormat{Name: "fp6", Bits: 6, ExpBits: 2, ManBits: 3, Bias: 1, NoInf: true, NaN: nanNone}
	BF6 = FloatFormat{Name: "bf6", Bits: 6, ExpBits: 3, ManBits: 2, Bias: 3, NoInf: true, NaN: nanNone}
	FP4 = FloatFormat{Name: "fp4", Bits: 4, ExpBits: 2, ManBits: 1, Bias: 1, NoInf: true, NaN: nanNone}
	// FP8FNUZ and BF8FNUZ are CDNA 3's FP8 and BF8 (its guide's table of
	// small float formats): biases 8 and 16, 0x80 the only NaN, no -0 and
	// no infinity.
	FP8FNUZ = FloatFormat{Name: "fp8", Bits: 8, ExpBits: 4, ManBits: 3, Bias: 8, NoInf: true, NaN: nanNegZero}
	BF8FNUZ = FloatFormat{Name: "bf8", Bits: 8, ExpBits: 5, ManBits: 2, Bias: 16, NoInf: true, NaN: nanNegZero}
)

var floatFormats = []*FloatFormat{&F16, &BF16, &F32, &F64, &FP8, &BF8, &FP6, &BF6, &FP4}

func (f *FloatFormat) mask() uint64     { return 1<<uint(f.Bits) - 1 }
func (f *FloatFormat) signBit() uint64  { return 1 << uint(f.Bits-1) }
func (f *FloatFormat) expMax() uint64   { return 1<<uint(f.ExpBits) - 1 }
func (f *FloatFormat) fracMask() uint64 { return 1<<uint(f.ManBits) - 1 }
func (f *FloatFormat) quietBit() uint64 { return 1 << uint(f.ManBits-1) }
func (f *FloatFormat) prec() int        { return f.ManBits + 1 }
func (f *FloatFormat) emin() int        { return 1 - f.Bias } // exponent of the smallest normal

// RoundMode is an IEEE rounding direction.
type RoundMode uint8

const (
	RoundNearestEven RoundMode = iota
	RoundTowardZero
	RoundUp   // toward +infinity
	RoundDown // toward -infinity
)

func (m RoundMode) String() string {
	return [...]string{"nearest-even", "toward-zero", "toward+inf", "toward-inf"}[m&3]
}

// Env is the floating-point environment of one operation: the rounding
// direction and whether subnormal inputs and results are flushed to zero
// (the MODE register's denormal setting for the operation's format).
type Env struct {
	Round RoundMode
	Flush bool
	// NaN is the default NaN invalid operations produce.
	NaN DefaultNaN
}

// DefaultNaN chooses the NaN an invalid operation (0 * inf, inf - inf,
// sqrt(-1)) produces.
type DefaultNaN uint8

const (
	// NaNPositive is the quiet bit alone, positive (0x7fc00000): IEEE
	// 754's usual choice and LLVM's.
	NaNPositive DefaultNaN = iota
	// NaNNegative is the quiet bit with the sign set (0xffc00000): what
	// AMD's guides' worked examples show (the reciprocal square root of
	// -inf is 0xffc00000 there, the f16 square root of -inf 0xfe00).
	NaNNegative
	// NaNCanonical is every fraction bit set, positive (0x7fffffff): PTX's
	// canonical NaN.
	NaNCanonical
)

// defaultNaN is the NaN an invalid operation gives in env.
func (f *FloatFormat) defaultNaN(env Env) uint64 {
	n := f.DefaultNaN()
	if f.NaN != nanIEEE {
		return n
	}
	switch env.NaN {
	case NaNNegative:
		n |= f.signBit()
	case NaNCanonical:
		n |= f.fracMask()
	}
	return n
}

// Float classes.
type fclass uint8

const (
	fcZero fclass = iota
	fcFinite
	fcInf
	fcNaN
)

// unpacked is a decoded float: finite values are mant * 2^exp.
type unpacked struct {
	class fclass
	neg   bool
	mant  uint64
	exp   int
}

func (f *FloatFormat) isNaN(b uint64) bool {
	switch f.NaN {
	case nanIEEE:
		return (b>>uint(f.ManBits))&f.expMax() == f.expMax() && b&f.fracMask() != 0
	case nanAllOnes:
		return b&(f.mask()>>1) == f.mask()>>1
	case nanNegZero:
		return b == f.signBit()
	}
	return false
}

// IsNaN reports whether the bits are a NaN of the format.
func (f *FloatFormat) IsNaN(b uint64) bool { return f.isNaN(b & f.mask()) }

// IsSignalingNaN reports a NaN whose quiet bit is clear (IEEE formats only).
func (f *FloatFormat) IsSignalingNaN(b uint64) bool {
	return f.NaN == nanIEEE && f.isNaN(b) && b&f.quietBit() == 0
}

func (f *FloatFormat) isInf(b uint64) bool {
	return !f.NoInf && (b>>uint(f.ManBits))&f.expMax() == f.expMax() && b&f.fracMask() == 0
}

func (f *FloatFormat) isSubnormal(b uint64) bool {
	return (b>>uint(f.ManBits))&f.expMax() == 0 && b&f.fracMask() != 0
}

func (f *FloatFormat) unpack(b uint64) unpacked {
	b &= f.mask()
	u := unpacked{neg: b&f.signBit() != 0}
	if f.isNaN(b) {
		u.class = fcNaN
		return u
	}
	if f.isInf(b) {
		u.class = fcInf
		return u
	}
	e := int((b >> uint(f.ManBits)) & f.expMax())
	m := b & f.fracMask()
	if e == 0 {
		if m == 0 {
			u.class = fcZero
			return u
		}
		u.class, u.mant, u.exp = fcFinite, m, f.emin()-f.ManBits
		return u
	}
	u.class, u.mant, u.exp = fcFinite, m|1<<uint(f.ManBits), e-f.Bias-f.ManBits
	return u
}

// DefaultNaN is the quiet NaN an invalid operation produces: positive, the
// quiet bit alone (0x7fc00000 in f32), the same choice LLVM makes.
func (f *FloatFormat) DefaultNaN() uint64 {
	switch f.NaN {
	case nanAllOnes:
		return f.mask() >> 1
	case nanNone:
		return 0
	case nanNegZero:
		return f.signBit()
	}
	return f.expMax()<<uint(f.ManBits) | f.quietBit()
}

// Inf returns the bits of +inf or -inf (the largest finite value where the
// format has no infinity).
func (f *FloatFormat) Inf(neg bool) uint64 {
	if f.NoInf {
		return f.MaxFinite(neg)
	}
	b := f.expMax() << uint(f.ManBits)
	if neg {
		b |= f.signBit()
	}
	return b
}

// MaxFinite is the largest finite magnitude with the given sign.
func (f *FloatFormat) MaxFinite(neg bool) uint64 {
	var b uint64
	switch {
	case !f.NoInf:
		b = (f.expMax()-1)<<uint(f.ManBits) | f.fracMask()
	case f.NaN == nanAllOnes:
		b = f.expMax()<<uint(f.ManBits) | (f.fracMask() - 1)
	default: // nanNone, nanNegZero: every pattern but the NaN is finite
		b = f.expMax()<<uint(f.ManBits) | f.fracMask()
	}
	if neg {
		b |= f.signBit()
	}
	return b
}

func (f *FloatFormat) zero(neg bool) uint64 {
	if neg && f.NaN != nanNegZero {
		return f.signBit()
	}
	return 0
}

// Quiet sets a NaN's quiet bit (payload kept).
func (f *FloatFormat) Quiet(b uint64) uint64 {
	if f.NaN == nanIEEE && f.isNaN(b) {
		return b | f.quietBit()
	}
	return b
}

// roundBig rounds the magnitude m*2^e (plus a little more when sticky: the
// exact value lies strictly between m*2^e and (m+1)*2^e) to the format,
// with the sign neg. Subnormals, overflow and the rounding direction
// follow IEEE 754; a format without infinity overflows to NaN when it has
// one (OCP E4M3) and saturates otherwise. inexact reports rounding.
func (f *FloatFormat) roundBig(neg bool, m *big.Int, e int, sticky bool, mode RoundMode) (b uint64, inexact bool) {
	if m.Sign() == 0 {
		if !sticky {
			return f.zero(neg), false
		}
		// Only the sticky part: smaller than any representable step here.
		m = big.NewInt(0)
	}
	p := f.prec()
	L := m.BitLen()
	E := e + L - 1 // exponent of the leading bit
	if L == 0 {
		E = math.MinInt32 / 2
	}
	lsb := max(E-(p-1), f.emin()-(p-1))
	shift := lsb - e
	var q *big.Int
	up := false
	if shift <= 0 {
		q = new(big.Int).Lsh(m, uint(-shift))
		if sticky {
			// The sticky bit sits below q's last place.
			up = roundsUp(mode, neg, q.Bit(0) == 1, 0, true)
			inexact = true
		}
	} else {
		q = new(big.Int).Rsh(m, uint(shift))
		r := new(big.Int).Sub(m, new(big.Int).Lsh(q, uint(shift)))
		half := new(big.Int).Lsh(big.NewInt(1), uint(shift-1))
		cmp := r.Cmp(half)
		rest := r.Sign() != 0 || sticky
		if cmp == 0 && sticky {
			cmp = 1
		}
		if rest {
			inexact = true
			up = roundsUp(mode, neg, q.Bit(0) == 1, cmp, r.Sign() != 0 || sticky)
		}
	}
	if up {
		q.Add(q, big.NewInt(1))
	}
	if q.BitLen() > p {
		q.Rsh(q, 1)
		lsb++
	}
	if q.Sign() == 0 {
		return f.zero(neg), inexact
	}
	qu := q.Uint64()
	var bitsOut uint64
	if q.BitLen() < p {
		bitsOut = qu // subnormal
	} else {
		ef := lsb + p - 1 + f.Bias
		if ef > int(f.expMax()) || !f.NoInf && ef == int(f.expMax()) ||
			f.NaN == nanAllOnes && ef == int(f.expMax()) && qu&f.fracMask() == f.fracMask() {
			return f.overflow(neg, mode), true
		}
		bitsOut = uint64(ef)<<uint(f.ManBits) | qu&f.fracMask()
	}
	if neg {
		bitsOut |= f.signBit()
	}
	return bitsOut, inexact
}

// roundsUp decides the increment: cmp compares the dropped part with half
// an ulp (-1, 0, 1); odd says the kept last bit is 1.
func roundsUp(mode RoundMode, neg, odd bool, cmp int, nonzero bool) bool {
	switch mode {
	case RoundNearestEven:
		return cmp > 0 || cmp == 0 && odd
	case RoundTowardZero:
		return false
	case RoundUp:
		return nonzero && !neg
	case RoundDown:
		return nonzero && neg
	}
	return false
}

func (f *FloatFormat) overflow(neg bool, mode RoundMode) uint64 {
	toInf := mode == RoundNearestEven || mode == RoundUp && !neg || mode == RoundDown && neg
	if !toInf {
		return f.MaxFinite(neg)
	}
	switch {
	case !f.NoInf:
		return f.Inf(neg)
	case f.NaN == nanAllOnes:
		return f.DefaultNaN() | f.zero(neg)
	case f.NaN == nanNegZero:
		return f.DefaultNaN()
	}
	return f.MaxFinite(neg)
}

// exact is a finite value as sign, integer magnitude and exponent.
type exact struct {
	neg bool
	m   *big.Int
	e   int
}

func (u unpacked) exact() exact { return exact{u.neg, new(big.Int).SetUint64(u.mant), u.exp} }

func addExact(a, b exact) exact {
	if a.m.Sign() == 0 {
		return b
	}
	if b.m.Sign() == 0 {
		return a
	}
	e := min(a.e, b.e)
	am := new(big.Int).Lsh(a.m, uint(a.e-e))
	bm := new(big.Int).Lsh(b.m, uint(b.e-e))
	if a.neg {
		am.Neg(am)
	}
	if b.neg {
		bm.Neg(bm)
	}
	s := am.Add(am, bm)
	neg := s.Sign() < 0
	return exact{neg, s.Abs(s), e}
}

// Arithmetic. Every operation decodes its operands, handles NaN, infinity
// and zero by IEEE 754's rules, and rounds the exact result once. NaN
// inputs give the first NaN operand quieted (its payload kept), invalid
// operations the default NaN.

// propagateNaN returns the first NaN among xs, quieted.
func (f *FloatFormat) propagateNaN(xs ...uint64) (uint64, bool) {
	for _, x := range xs {
		if f.isNaN(x) {
			return f.Quiet(x & f.mask()), true
		}
	}
	return 0, false
}

func (f *FloatFormat) flushIn(b uint64, env Env) uint64 {
	if env.Flush && f.isSubnormal(b&f.mask()) {
		return b & f.signBit()
	}
	return b & f.mask()
}

func (f *FloatFormat) flushOut(b uint64, env Env) uint64 {
	if env.Flush && f.isSubnormal(b) {
		return b & f.signBit()
	}
	return b
}

func (f *FloatFormat) finish(e exact, sticky bool, env Env) uint64 {
	b, _ := f.roundBig(e.neg, e.m, e.e, sticky, env.Round)
	return f.flushOut(b, env)
}

// zeroSum is the sign of an exact zero sum: +0 except toward -inf, or
// when both addends are -0.
func zeroSum(aneg, bneg bool, mode RoundMode) bool {
	if aneg == bneg {
		return aneg
	}
	return mode == RoundDown
}

// Add returns a + b.
func (f *FloatFormat) Add(a, b uint64, env Env) uint64 {
	a, b = f.flushIn(a, env), f.flushIn(b, env)
	if n, ok := f.propagateNaN(a, b); ok {
		return n
	}
	ua, ub := f.unpack(a), f.unpack(b)
	switch {
	case ua.class == fcInf && ub.class == fcInf:
		if ua.neg != ub.neg {
			return f.defaultNaN(env)
		}
		return a
	case ua.class == fcInf:
		return a
	case ub.class == fcInf:
		return b
	case ua.class == fcZero && ub.class == fcZero:
		return f.zero(zeroSum(ua.neg, ub.neg, env.Round))
	}
	if r, ok := f.fastBinary('+', a, b, env); ok {
		return r
	}
	s := addExact(ua.exact(), ub.exact())
	if s.m.Sign() == 0 {
		return f.zero(env.Round == RoundDown)
	}
	return f.finish(s, false, env)
}

// Sub returns a - b. A NaN operand keeps its sign: subtraction negates
// only numbers.
func (f *FloatFormat) Sub(a, b uint64, env Env) uint64 {
	if n, ok := f.propagateNaN(a&f.mask(), b&f.mask()); ok {
		return n
	}
	return f.Add(a, b^f.signBit(), env)
}

// Mul returns a * b.
func (f *FloatFormat) Mul(a, b uint64, env Env) uint64 {
	a, b = f.flushIn(a, env), f.flushIn(b, env)
	if n, ok := f.propagateNaN(a, b); ok {
		return n
	}
	ua, ub := f.unpack(a), f.unpack(b)
	neg := ua.neg != ub.neg
	switch {
	case ua.class == fcInf && ub.class == fcZero || ua.class == fcZero && ub.class == fcInf:
		return f.defaultNaN(env)
	case ua.class == fcInf || ub.class == fcInf:
		return f.Inf(neg)
	case ua.class == fcZero || ub.class == fcZero:
		return f.zero(neg)
	}
	if r, ok := f.fastBinary('*', a, b, env); ok {
		return r
	}
	m := new(big.Int).Mul(ua.exact().m, ub.exact().m)
	return f.finish(exact{neg, m, ua.exp + ub.exp}, false, env)
}

// Div returns a / b.
func (f *FloatFormat) Div(a, b uint64, env Env) uint64 {
	a, b = f.flushIn(a, env), f.flushIn(b, env)
	if n, ok := f.propagateNaN(a, b); ok {
		return n
	}
	ua, ub := f.unpack(a), f.unpack(b)
	neg := ua.neg != ub.neg
	switch {
	case ua.class == fcInf && ub.class == fcInf, ua.class == fcZero && ub.class == fcZero:
		return f.defaultNaN(env)
	case ua.class == fcInf || ub.class == fcZero:
		return f.Inf(neg)
	case ua.class == fcZero || ub.class == fcInf:
		return f.zero(neg)
	}
	if r, ok := f.fastBinary('/', a, b, env); ok {
		return r
	}
	k := f.prec() + 3 + bits.Len64(ub.mant) - bits.Len64(ua.mant)
	k = max(k, 0)
	num := new(big.Int).Lsh(new(big.Int).SetUint64(ua.mant), uint(k))
	q, r := new(big.Int).QuoRem(num, new(big.Int).SetUint64(ub.mant), new(big.Int))
	return f.finish(exact{neg, q, ua.exp - ub.exp - k}, r.Sign() != 0, env)
}

// Sqrt returns the square root.
func (f *FloatFormat) Sqrt(a uint64, env Env) uint64 {
	a = f.flushIn(a, env)
	if n, ok := f.propagateNaN(a); ok {
		return n
	}
	ua := f.unpack(a)
	switch {
	case ua.class == fcZero:
		return a
	case ua.neg:
		return f.defaultNaN(env)
	case ua.class == fcInf:
		return a
	}
	m := new(big.Int).SetUint64(ua.mant)
	e := ua.exp
	s := 2*(f.prec()+3) - m.BitLen()
	s = max(s, 0)
	if (e-s)%2 != 0 {
		s++
	}
	m.Lsh(m, uint(s))
	e -= s
	q := new(big.Int).Sqrt(m)
	sticky := new(big.Int).Mul(q, q).Cmp(m) != 0
	return f.finish(exact{false, q, e / 2}, sticky, env)
}

// FMA returns a * b + c with one rounding.
func (f *FloatFormat) FMA(a, b, c uint64, env Env) uint64 {
	a, b, c = f.flushIn(a, env), f.flushIn(b, env), f.flushIn(c, env)
	if n, ok := f.propagateNaN(a, b, c); ok {
		return n
	}
	ua, ub, uc := f.unpack(a), f.unpack(b), f.unpack(c)
	pneg := ua.neg != ub.neg
	if ua.class == fcInf && ub.class == fcZero || ua.class == fcZero && ub.class == fcInf {
		return f.defaultNaN(env)
	}
	if ua.class == fcInf || ub.class == fcInf {
		if uc.class == fcInf && uc.neg != pneg {
			return f.defaultNaN(env)
		}
		return f.Inf(pneg)
	}
	if uc.class == fcInf {
		return c
	}
	if ua.class == fcZero || ub.class == fcZero {
		if uc.class == fcZero {
			return f.zero(zeroSum(pneg, uc.neg, env.Round))
		}
		return c
	}
	if f == &F64 && env.Round == RoundNearestEven && !env.Flush {
		return math.Float64bits(math.FMA(math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)))
	}
	p := exact{pneg, new(big.Int).Mul(new(big.Int).SetUint64(ua.mant), new(big.Int).SetUint64(ub.mant)), ua.exp + ub.exp}
	if uc.class == fcZero {
		return f.finish(p, false, env)
	}
	s := addExact(p, uc.exact())
	if s.m.Sign() == 0 {
		return f.zero(env.Round == RoundDown)
	}
	return f.finish(s, false, env)
}

// nativeOp is x op y in T's own arithmetic, one rounding (the conversion
// to T keeps the compiler from fusing a multiply into an add).
func nativeOp[T float32 | float64](op byte, x, y T) T {
	switch op {
	case '+':
		return T(x + y)
	case '*':
		return T(x * y)
	case '/':
		return T(x / y)
	}
	return 0
}

// fastBinary computes finite, non-zero operands natively where that is
// exactly one rounding in nearest-even: f32 and f64 in Go's own arithmetic
// (explicit conversions keep the compiler from fusing), f16 and bf16
// through f64, whose 53 bits make the double rounding innocuous for + - * /.
func (f *FloatFormat) fastBinary(op byte, a, b uint64, env Env) (uint64, bool) {
	if env.Round != RoundNearestEven {
		return 0, false
	}
	switch f {
	case &F32:
		r := nativeOp(op, math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)))
		if r == 0 && op == '+' {
			return 0, false // exact zero: the sign rule is the caller's
		}
		return f.flushOut(uint64(math.Float32bits(r)), env), true
	case &F64:
		r := nativeOp(op, math.Float64frombits(a), math.Float64frombits(b))
		if r == 0 && op == '+' {
			return 0, false
		}
		return f.flushOut(math.Float64bits(r), env), true
	case &F16, &BF16:
		r := nativeOp(op, f.ToFloat64(a), f.ToFloat64(b))
		if r == 0 && op == '+' {
			return 0, false
		}
		return f.flushOut(f.FromFloat64(r, RoundNearestEven), env), true
	}
	return 0, false
}

// ToFloat64 converts exactly (every format here fits in f64); NaNs keep
// their payload's top bits and their quiet bit, unlike a hardware
// conversion, so a signalling NaN stays one.
func (f *FloatFormat) ToFloat64(b uint64) float64 {
	return math.Float64frombits(f.Convert(b, &F64, RoundNearestEven, false))
}

// FromFloat64 rounds a float64 to the format.
func (f *FloatFormat) FromFloat64(x float64, mode RoundMode) uint64 {
	return F64.Convert(math.Float64bits(x), f, mode, false)
}

// Convert converts bits of format f to format to with rounding. NaNs keep
// their sign, quiet bit and the top bits of their payload (a narrowed
// signalling NaN that would lose every payload bit keeps the lowest one),
// so the conversion is the bitwise one the pseudocode's casts mean; quiet
// makes the result a quiet NaN, as an arithmetic conversion does.
func (f *FloatFormat) Convert(b uint64, to *FloatFormat, mode RoundMode, quiet bool) uint64 {
	b &= f.mask()
	u := f.unpack(b)
	switch u.class {
	case fcZero:
		return to.zero(u.neg)
	case fcInf:
		if to.NoInf {
			return to.overflow(u.neg, RoundNearestEven)
		}
		return to.Inf(u.neg)
	case fcNaN:
		if to.NaN != nanIEEE || f.NaN != nanIEEE {
			n := to.DefaultNaN()
			if to.NaN != nanNone {
				n |= to.zero(u.neg)
			}
			return n
		}
		frac := b & f.fracMask()
		var nf uint64
		if to.ManBits >= f.ManBits {
			nf = frac << uint(to.ManBits-f.ManBits)
		} else {
			nf = frac >> uint(f.ManBits-to.ManBits)
			if nf == 0 && !quiet {
				nf = 1 // still a NaN, still signalling
			}
		}
		out := to.expMax()<<uint(to.ManBits) | nf | to.zero(u.neg)
		if quiet {
			out |= to.quietBit()
		}
		return out
	}
	if r, ok := to.exactConvert(u); ok {
		return r
	}
	r, _ := to.roundBig(u.neg, new(big.Int).SetUint64(u.mant), u.exp, false, mode)
	return r
}

// exactConvert converts a finite value to f32 or f64 without rounding when
// it fits exactly (every f16, bf16 and f32 value widens exactly), through
// Go's float64: mant < 2^53 and the scaling is exact in range.
func (to *FloatFormat) exactConvert(u unpacked) (uint64, bool) {
	if to != &F64 && to != &F32 || u.mant >= 1<<24 || u.exp < -1074+24 || u.exp > 900 {
		return 0, false
	}
	x := math.Ldexp(float64(u.mant), u.exp)
	if u.neg {
		x = -x
	}
	if to == &F64 {
		return math.Float64bits(x), true
	}
	y := float32(x)
	if float64(y) != x {
		return 0, false // would round (or leave f32's range)
	}
	return uint64(math.Float32bits(y)), true
}

// Compare orders a and b: -1, 0, 1, or 2 when unordered (a NaN).
// -0 and +0 are equal.
func (f *FloatFormat) Compare(a, b uint64) int {
	a, b = a&f.mask(), b&f.mask()
	if f.isNaN(a) || f.isNaN(b) {
		return 2
	}
	ua, ub := f.unpack(a), f.unpack(b)
	if ua.class == fcZero && ub.class == fcZero {
		return 0
	}
	ka, kb := f.orderKey(a), f.orderKey(b)
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	}
	return 0
}

// orderKey maps non-NaN bits to an integer that orders like the values.
func (f *FloatFormat) orderKey(b uint64) int64 {
	mag := int64(b &^ f.signBit())
	if b&f.signBit() != 0 {
		return -mag
	}
	return mag
}

// FromInt rounds an integer (given exactly) to the format.
func (f *FloatFormat) FromInt(n *big.Int, mode RoundMode) uint64 {
	neg := n.Sign() < 0
	m := new(big.Int).Abs(n)
	b, _ := f.roundBig(neg, m, 0, false, mode)
	return b
}

// ToInt returns the value of a finite float as an exact rational's integer
// part, rounded toward zero, and the fraction's presence; ok is false for
// NaN and infinity.
func (f *FloatFormat) ToInt(b uint64, mode RoundMode) (n *big.Int, ok bool) {
	u := f.unpack(b)
	switch u.class {
	case fcZero:
		return new(big.Int), true
	case fcInf, fcNaN:
		return nil, false
	}
	m := new(big.Int).SetUint64(u.mant)
	if u.exp >= 0 {
		m.Lsh(m, uint(u.exp))
	} else {
		sh := uint(-u.exp)
		q := new(big.Int).Rsh(m, sh)
		r := new(big.Int).Sub(m, new(big.Int).Lsh(q, sh))
		if r.Sign() != 0 {
			half := new(big.Int).Lsh(big.NewInt(1), sh-1)
			if roundsUp(mode, u.neg, q.Bit(0) == 1, r.Cmp(half), true) {
				q.Add(q, big.NewInt(1))
			}
		}
		m = q
	}
	if u.neg {
		m.Neg(m)
	}
	return m, true
}

// ToBigFloat returns the exact value of finite bits (nil for NaN and
// infinity).
func (f *FloatFormat) ToBigFloat(b uint64) *big.Float {
	u := f.unpack(b)
	switch u.class {
	case fcZero:
		z := new(big.Float)
		if u.neg {
			z.Neg(z)
		}
		return z
	case fcFinite:
		z := new(big.Float).SetPrec(64).SetUint64(u.mant)
		z.SetMantExp(z, u.exp)
		if u.neg {
			z.Neg(z)
		}
		return z
	}
	return nil
}

// FromBigFloat rounds an exact big.Float to the format.
func (f *FloatFormat) FromBigFloat(x *big.Float, mode RoundMode) uint64 {
	if x.IsInf() {
		return f.Inf(x.Signbit())
	}
	if x.Sign() == 0 {
		return f.zero(x.Signbit())
	}
	mant := new(big.Float)
	e := x.MantExp(mant) // x = mant * 2^e, 0.5 <= |mant| < 1
	prec := int(x.MinPrec())
	mant.SetMantExp(mant, prec)
	m, _ := mant.Int(nil)
	neg := m.Sign() < 0
	m.Abs(m)
	b, _ := f.roundBig(neg, m, e-prec, false, mode)
	return b
}

package sem

import (
	"math"
	"math/big"
	"math/bits"
	"regexp"
	"sort"
	"strconv"
	"sync"
)

// The built-in functions the pseudocode calls. The guides define none of
// them; each is written from its name's meaning and what the guides' prose
// says about the instructions that use it (conversions saturate and turn
// NaN into 0, and truncate like a C cast), and Doc says so.

type builtin struct {
	arity int // -1: checked by the function
	fn    func(m *machine, line int, a []Value) (Value, error)
	Doc   string
}

// Builtin describes one built-in function.
type Builtin struct {
	Name string
	Doc  string
}

// Builtins lists the built-in functions the evaluator knows, by name.
func Builtins() []Builtin {
	var out []Builtin
	for n, b := range builtins {
		out = append(out, Builtin{n, b.Doc})
	}
	for n, b := range oldBuiltins {
		out = append(out, Builtin{n, b.Doc + "; in the older guides' notation only"})
	}
	for _, c := range conversions {
		out = append(out, Builtin{c.pattern, c.doc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"isNAN":         {1, bIsNaN, "true when the float is a NaN, quiet or signalling"},
		"isSignalNAN":   {1, bIsSNaN, "true for a signalling NaN (quiet bit clear)"},
		"isQuietNAN":    {1, bIsQNaN, "true for a quiet NaN (quiet bit set)"},
		"cvtToQuietNAN": {1, bQuiet, "the NaN with its quiet bit set, payload kept; other values unchanged"},
		"abs":           {1, bAbs, "|x|: a float's sign bit cleared (NaNs too); an integer's magnitude, wrapping at the width"},
		"sign":          {1, bSign, "the sign bit (1 for negative, -0 and negative NaNs included)"},
		"exponent":      {1, bExponent, "the biased exponent field of a float (255 for an f32 infinity or NaN, 0 for zero and subnormals)"},
		"mantissa": {1, bMantissa, "the significand of a float scaled into [0.5, 1.0) with the input's sign (frexp's mantissa); " +
			"its fraction bits are the input's for normal numbers, which V_CVT_SR_*'s 23'B(mantissa(x)) reads"},
		"float32":          {3, bFloat32, "the f32 with sign s, biased exponent e and fraction m (bits composed, not rounded)"},
		"fma":              {3, bFMA, "a * b + c with one rounding in the operands' float format"},
		"sqrt":             {1, bSqrt, "the correctly rounded square root (IEEE 754)"},
		"trunc":            {1, bTrunc, "the float rounded toward zero to an integer value"},
		"floor":            {1, bFloor, "the float rounded toward -infinity to an integer value"},
		"ceil":             {1, bCeil, "the float rounded toward +infinity to an integer value"},
		"fract":            {1, bFract, "x - floor(x), exact; NaN and infinity give NaN"},
		"isEven":           {1, bIsEven, "true when the float (an integer value) is even"},
		"ldexp":            {2, bLdexp, "x * 2^n with one rounding"},
		"pow":              {2, bPow, "x^y: exact for a power of two with an integer exponent, else pow in float64 rounded to the format (the hardware's is approximate)"},
		"log2":             {1, bLog2, "log2(x) in float64 rounded to the format (the hardware's is approximate); exact for powers of two"},
		"sin":              {1, bSin, "sin(x) in float64 rounded to the format (the hardware's is approximate)"},
		"cos":              {1, bCos, "cos(x) in float64 rounded to the format (the hardware's is approximate)"},
		"signext":          {1, bSignext, "the value read as signed at its own width, as an unsized integer"},
		"signext_from_bit": {2, bSignextFromBit, "x sign-extended from its low n bits (n = 0 gives 0), in x's type"},
		"signextFromBit":   {2, bSignextFromBit, "x sign-extended from its low n bits (n = 0 gives 0), in x's type"},
		"count_ones":       {1, bPopcount, "the number of 1 bits"},
		"countbits":        {1, bPopcount, "the number of 1 bits"},
		"bitCount":         {1, bPopcount, "the number of 1 bits"},
		"reverse_bits":     {1, bReverse, "the bits in reverse order, at the value's width"},
		"f16_to_snorm":     {1, bSnorm16, "clamp to [-1, 1], scale by 32767, round to nearest even: a signed normalised 16-bit integer; NaN gives 0"},
		"f32_to_snorm":     {1, bSnorm16, "clamp to [-1, 1], scale by 32767, round to nearest even: a signed normalised 16-bit integer; NaN gives 0"},
		"f16_to_unorm":     {1, bUnorm16, "clamp to [0, 1], scale by 65535, round to nearest even: an unsigned normalised 16-bit integer; NaN gives 0"},
		"f32_to_unorm":     {1, bUnorm16, "clamp to [0, 1], scale by 65535, round to nearest even: an unsigned normalised 16-bit integer; NaN gives 0"},
	}
	// The older guides' helpers, which their text calls and the newer
	// guides never do (they name the instruction, v_max_f32, instead).
	oldBuiltins = map[string]builtin{
		"max": {2, bMax, "the larger of two values by value; for floats IEEE 754-2008 maxNum: a signalling NaN gives it quieted, a quiet NaN the other operand, +0 is above -0 (the older guides' max)"},
		"min": {2, bMin, "the smaller of two values by value; for floats IEEE 754-2008 minNum: a signalling NaN gives it quieted, a quiet NaN the other operand, -0 is below +0 (the older guides' min)"},
		// Defined on V_SAD_U8's page and used on the other SAD pages
		// without the definition.
		"ABSDIFF": {2, bAbsDiff, "|x - y| of unsigned values, as the older guides define it: (x > y ? x - y : y - x)"},
	}
}

// oldBuiltins are the built-ins of the older notation only
// (olddialect.go).
var oldBuiltins map[string]builtin

// builtinFor is the built-in fn names in arch's notation.
func builtinFor(arch, fn string) (builtin, bool) {
	if b, ok := builtins[fn]; ok {
		return b, true
	}
	if oldDialect(arch) {
		b, ok := oldBuiltins[fn]
		return b, ok
	}
	return builtin{}, false
}

func argFloat(line int, v Value, fn string) (*FloatFormat, error) {
	if v.T.Kind != KFloat {
		return nil, errAt(line, "%s of a %s value: a float expected", fn, v.T)
	}
	return v.T.Float, nil
}

func bIsNaN(m *machine, line int, a []Value) (Value, error) {
	if a[0].T.Kind != KFloat {
		return Bool(false), nil
	}
	return Bool(a[0].T.Float.isNaN(a[0].u)), nil
}

func bIsSNaN(m *machine, line int, a []Value) (Value, error) {
	if a[0].T.Kind != KFloat {
		return Bool(false), nil
	}
	return Bool(a[0].T.Float.IsSignalingNaN(a[0].u)), nil
}

func bIsQNaN(m *machine, line int, a []Value) (Value, error) {
	if a[0].T.Kind != KFloat {
		return Bool(false), nil
	}
	f := a[0].T.Float
	return Bool(f.isNaN(a[0].u) && !f.IsSignalingNaN(a[0].u)), nil
}

func bQuiet(m *machine, line int, a []Value) (Value, error) {
	f, err := argFloat(line, a[0], "cvtToQuietNAN")
	if err != nil {
		return Value{}, err
	}
	return FloatBits(f.Quiet(a[0].u), f), nil
}

func bAbs(m *machine, line int, a []Value) (Value, error) {
	v := a[0]
	if v.T.Kind == KFloat {
		return FloatBits(v.u&^v.T.Float.signBit(), v.T.Float), nil
	}
	n := v.Num()
	return FromBig(n.Abs(n), norm(v.T)), nil
}

func bSign(m *machine, line int, a []Value) (Value, error) {
	v := a[0]
	return FromUint(uint64(v.Bit(v.Width()-1)), Type{Kind: KUint, Width: 1}), nil
}

func bExponent(m *machine, line int, a []Value) (Value, error) {
	f, err := argFloat(line, a[0], "exponent")
	if err != nil {
		return Value{}, err
	}
	return Integer(int64((a[0].u >> uint(f.ManBits)) & f.expMax())), nil
}

func bMantissa(m *machine, line int, a []Value) (Value, error) {
	f, err := argFloat(line, a[0], "mantissa")
	if err != nil {
		return Value{}, err
	}
	u := f.unpack(a[0].u)
	if u.class != fcFinite {
		return a[0], nil
	}
	// value = mant * 2^exp; scale so the leading bit is worth 0.5.
	L := bits.Len64(u.mant)
	b, _ := f.roundBig(u.neg, new(big.Int).SetUint64(u.mant), -L, false, RoundNearestEven)
	return FloatBits(b, f), nil
}

func bFloat32(m *machine, line int, a []Value) (Value, error) {
	s, e, mm := a[0].Uint()&1, a[1].Uint()&0xff, a[2].Uint()&0x7fffff
	return FloatBits(s<<31|e<<23|mm, &F32), nil
}

// common converts the float operands of fma and friends to one format.
func (m *machine) common(line int, fn string, a []Value) (*FloatFormat, []uint64, error) {
	var f *FloatFormat
	for _, v := range a {
		if v.T.Kind == KFloat {
			if f == nil {
				f = v.T.Float
			} else {
				f = floatOf(FloatType(f), v.T)
			}
		}
	}
	if f == nil {
		return nil, nil, errAt(line, "%s of integers: floats expected", fn)
	}
	out := make([]uint64, len(a))
	for i, v := range a {
		out[i] = toFloat(v, f, m.env(f).Round)
	}
	return f, out, nil
}

func bFMA(m *machine, line int, a []Value) (Value, error) {
	f, x, err := m.common(line, "fma", a)
	if err != nil {
		return Value{}, err
	}
	return FloatBits(f.FMA(x[0], x[1], x[2], m.env(f)), f), nil
}

func bSqrt(m *machine, line int, a []Value) (Value, error) {
	f, x, err := m.common(line, "sqrt", a)
	if err != nil {
		return Value{}, err
	}
	return FloatBits(f.Sqrt(x[0], m.env(f)), f), nil
}

// roundInt rounds a float to an integer value in the direction mode.
func roundInt(f *FloatFormat, b uint64, mode RoundMode, env Env) uint64 {
	b = f.flushIn(b, env)
	u := f.unpack(b)
	switch u.class {
	case fcNaN:
		return f.Quiet(b)
	case fcInf, fcZero:
		return b
	}
	if u.exp >= 0 {
		return b
	}
	n, _ := f.ToInt(b, mode)
	if n.Sign() == 0 {
		return f.zero(u.neg)
	}
	r, _ := f.roundBig(u.neg, n.Abs(n), 0, false, RoundNearestEven)
	return r
}

func roundFn(mode RoundMode, name string) func(m *machine, line int, a []Value) (Value, error) {
	return func(m *machine, line int, a []Value) (Value, error) {
		f, err := argFloat(line, a[0], name)
		if err != nil {
			return Value{}, err
		}
		return FloatBits(roundInt(f, a[0].u, mode, m.env(f)), f), nil
	}
}

var (
	bTrunc = roundFn(RoundTowardZero, "trunc")
	bFloor = roundFn(RoundDown, "floor")
	bCeil  = roundFn(RoundUp, "ceil")
)

func bFract(m *machine, line int, a []Value) (Value, error) {
	f, err := argFloat(line, a[0], "fract")
	if err != nil {
		return Value{}, err
	}
	env := m.env(f)
	x := f.flushIn(a[0].u, env)
	u := f.unpack(x)
	switch u.class {
	case fcNaN:
		return FloatBits(f.Quiet(x), f), nil
	case fcInf:
		return FloatBits(f.defaultNaN(env), f), nil
	case fcZero:
		return FloatBits(x, f), nil
	}
	fl := roundInt(f, x, RoundDown, env)
	return FloatBits(f.Sub(x, fl, env), f), nil
}

func bIsEven(m *machine, line int, a []Value) (Value, error) {
	f, err := argFloat(line, a[0], "isEven")
	if err != nil {
		return Value{}, err
	}
	n, ok := f.ToInt(a[0].u, RoundTowardZero)
	if !ok {
		return Bool(false), nil
	}
	return Bool(n.Bit(0) == 0), nil
}

func bLdexp(m *machine, line int, a []Value) (Value, error) {
	f, err := argFloat(line, a[0], "ldexp")
	if err != nil {
		return Value{}, err
	}
	return FloatBits(scaleB(f, a[0].u, a[1].Num(), m.env(f)), f), nil
}

func bPow(m *machine, line int, a []Value) (Value, error) {
	f, _, err := m.common(line, "pow", a)
	if err != nil {
		return Value{}, err
	}
	return m.callPow(line, f, a[0], a[1])
}

func (m *machine) callPow(line int, f *FloatFormat, a, b Value) (Value, error) {
	env := m.env(f)
	x := f.flushIn(toFloat(a, f, env.Round), env)
	y := f.flushIn(toFloat(b, f, env.Round), env)
	xf, yf := f.ToFloat64(x), f.ToFloat64(y)
	if n, ok := f.propagateNaN(x, y); ok && !(xf == 1) && !(yf == 0) {
		return FloatBits(n, f), nil
	}
	if xf == 2 && yf == math.Trunc(yf) && !math.IsInf(yf, 0) {
		one := f.FromFloat64(1, RoundNearestEven)
		n, _ := new(big.Float).SetFloat64(yf).Int(nil)
		return FloatBits(scaleB(f, one, n, env), f), nil
	}
	return FloatBits(f.flushOut(f.FromFloat64(math.Pow(xf, yf), env.Round), env), f), nil
}

func mathFn(name string, fn func(float64) float64) func(m *machine, line int, a []Value) (Value, error) {
	return func(m *machine, line int, a []Value) (Value, error) {
		f, err := argFloat(line, a[0], name)
		if err != nil {
			return Value{}, err
		}
		env := m.env(f)
		x := f.flushIn(a[0].u, env)
		if f.isNaN(x) {
			return FloatBits(f.Quiet(x), f), nil
		}
		r := fn(f.ToFloat64(x))
		if math.IsNaN(r) {
			return FloatBits(f.defaultNaN(env), f), nil
		}
		return FloatBits(f.flushOut(f.FromFloat64(r, env.Round), env), f), nil
	}
}

var (
	bLog2 = mathFn("log2", math.Log2)
	bSin  = mathFn("sin", math.Sin)
	bCos  = mathFn("cos", math.Cos)
)

func bSignext(m *machine, line int, a []Value) (Value, error) {
	v := a[0]
	if v.T.Kind == KFloat {
		return Value{}, errAt(line, "signext of a float")
	}
	if v.T.Kind == KInteger {
		return v, nil
	}
	s := v.view(Type{Kind: KInt, Width: v.Width()})
	n := s.Num()
	if !n.IsInt64() {
		return FromBig(n, Type{Kind: KInt, Width: v.Width()}), nil
	}
	return Integer(n.Int64()), nil
}

func bSignextFromBit(m *machine, line int, a []Value) (Value, error) {
	v := a[0]
	k, err := intArg(line, a[1])
	if err != nil {
		return Value{}, err
	}
	t := norm(v.T)
	if k <= 0 {
		return FromUint(0, t), nil
	}
	if k > v.Width() {
		return v, nil
	}
	low := extract(v, 0, k, false).view(Type{Kind: KInt, Width: k})
	return numeric(low, t), nil
}

func intArg(line int, v Value) (int, error) {
	n := v.Num()
	if v.T.Kind == KFloat || !n.IsInt64() || n.Int64() > MaxWidth || n.Int64() < -MaxWidth {
		return 0, errAt(line, "bit count %v out of range", n)
	}
	return int(n.Int64()), nil
}

func bPopcount(m *machine, line int, a []Value) (Value, error) {
	v := a[0]
	if v.small() && v.T.Kind != KInteger {
		return Integer(int64(bits.OnesCount64(v.u))), nil
	}
	n := 0
	b := v.Bits()
	for _, w := range b.Bits() {
		n += bits.OnesCount64(uint64(w))
	}
	return Integer(int64(n)), nil
}

func bReverse(m *machine, line int, a []Value) (Value, error) {
	if a[0].T.Kind == KInteger {
		return reverse(a[0].view(TU32)), nil
	}
	return reverse(a[0]), nil
}

// normConv is the shared body of the snorm and unorm conversions.
func normConv(m *machine, line int, v Value, lo, scale float64, t Type) (Value, error) {
	f, err := argFloat(line, v, "norm conversion")
	if err != nil {
		return Value{}, err
	}
	x := f.ToFloat64(f.flushIn(v.u, m.env(f)))
	if math.IsNaN(x) {
		return FromUint(0, t), nil
	}
	x = math.Max(lo, math.Min(1, x)) * scale
	return FromUint(uint64(int64(math.RoundToEven(x))), t), nil
}

func bSnorm16(m *machine, line int, a []Value) (Value, error) {
	return normConv(m, line, a[0], -1, 32767, Type{Kind: KInt, Width: 16})
}

func bUnorm16(m *machine, line int, a []Value) (Value, error) {
	return normConv(m, line, a[0], 0, 65535, Type{Kind: KUint, Width: 16})
}

// Conversions named X_to_Y: between float formats (f16, bf16, f32, f64,
// fp8, bf8), from integers to floats, from floats to integers, and between
// integer widths.
type conversion struct {
	pattern string
	doc     string
}

var conversions = []conversion{
	{"fN_to_fM", "float to float: rounded in the current rounding mode; a NaN comes out quiet with its payload's top bits (IEEE 754 convertFormat)"},
	{"iN_to_fM, uN_to_fM", "integer to float, rounded in the current rounding mode"},
	{"fN_to_iM, fN_to_uM", "float to integer: rounded toward zero, out-of-range values (infinities included) saturate, NaN gives 0 (what the older guides' prose says of the conversion instructions)"},
	{"iN_to_iM, uN_to_uM", "integer to integer: widening sign- or zero-extends; narrowing saturates to the destination's range (V_CVT_PK_I16_I32, V_CVT_PK_U16_U32 pack with saturation)"},
}

var convRe = regexp.MustCompile(`^(f|bf|fp|i|u)(\d+)_to_(f|bf|fp|i|u)(\d+)$`)

// convParts is convRe's match of a name, remembered: calls run in loops.
var convCache sync.Map // name -> []string (nil: not a conversion)

func convParts(name string) []string {
	if p, ok := convCache.Load(name); ok {
		return p.([]string)
	}
	p := convRe.FindStringSubmatch(name)
	convCache.Store(name, p)
	return p
}

// formatFor returns the float format of a conversion name part (f32, bf16,
// fp8, bf8); fp8 and bf8 are the family's.
func (m *machine) formatFor(prefix string, w int) *FloatFormat {
	switch prefix + strconv.Itoa(w) {
	case "f16":
		return &F16
	case "f32":
		return &F32
	case "f64":
		return &F64
	case "bf16":
		return &BF16
	case "fp8":
		return m.inst.fp8()
	case "bf8":
		return m.inst.bf8()
	}
	return nil
}

// conversion resolves a name like f32_to_i32; ok is false when the name is
// not one.
func (m *machine) conversion(name string) (func(line int, a []Value) (Value, error), bool) {
	p := convParts(name)
	if p == nil {
		return nil, false
	}
	fw, _ := strconv.Atoi(p[2])
	tw, _ := strconv.Atoi(p[4])
	from, to := p[1], p[3]
	isF := func(s string) bool { return s == "f" || s == "bf" || s == "fp" }
	switch {
	case isF(from) && isF(to):
		ff, tf := m.formatFor(from, fw), m.formatFor(to, tw)
		if ff == nil || tf == nil {
			return nil, false
		}
		return func(line int, a []Value) (Value, error) {
			x := ff.flushIn(inFormat(a[0], ff).u, m.env(ff))
			r := ff.Convert(x, tf, m.env(tf).Round, true)
			return FloatBits(tf.flushOut(r, m.env(tf)), tf), nil
		}, true
	case !isF(from) && isF(to):
		tf := m.formatFor(to, tw)
		if tf == nil {
			return nil, false
		}
		src := convInt(from, fw)
		return func(line int, a []Value) (Value, error) {
			v := numeric(a[0], src)
			return FloatBits(tf.FromInt(v.Num(), m.env(tf).Round), tf), nil
		}, true
	case isF(from) && !isF(to):
		ff := m.formatFor(from, fw)
		if ff == nil {
			return nil, false
		}
		dst := convInt(to, tw)
		return func(line int, a []Value) (Value, error) {
			x := ff.flushIn(inFormat(a[0], ff).u, m.env(ff))
			if ff.isNaN(x) {
				return FromUint(0, dst), nil
			}
			lo, hi := intRange(dst)
			if ff.isInf(x) {
				if x&ff.signBit() != 0 {
					return FromBig(lo, dst), nil
				}
				return FromBig(hi, dst), nil
			}
			n, _ := ff.ToInt(x, RoundTowardZero)
			return FromBig(clampBig(n, lo, hi), dst), nil
		}, true
	default:
		src := convInt(from, fw)
		dst := convInt(to, tw)
		return func(line int, a []Value) (Value, error) {
			v := numeric(a[0], src)
			lo, hi := intRange(dst)
			return FromBig(clampBig(v.Num(), lo, hi), dst), nil
		}, true
	}
}

// inFormat is a conversion's float operand in format ff: the bits of a
// non-float as ff, a float of another format converted to ff.
func inFormat(v Value, ff *FloatFormat) Value {
	if v.T.Kind != KFloat {
		return v.view(FloatType(ff))
	}
	if v.T.Float != ff {
		return FloatBits(toFloat(v, ff, RoundNearestEven), ff)
	}
	return v
}

// convInt is a conversion's integer side: "u" unsigned, else signed.
func convInt(sign string, w int) Type {
	if sign == "u" {
		return Type{Kind: KUint, Width: w}
	}
	return Type{Kind: KInt, Width: w}
}

func intRange(t Type) (lo, hi *big.Int) {
	one := big.NewInt(1)
	if t.Kind == KInt {
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Width-1)), one)
		lo = new(big.Int).Neg(new(big.Int).Lsh(one, uint(t.Width-1)))
		return lo, hi
	}
	return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Width)), one)
}

func clampBig(n, lo, hi *big.Int) *big.Int {
	if n.Cmp(lo) < 0 {
		return lo
	}
	if n.Cmp(hi) > 0 {
		return hi
	}
	return n
}

// call evaluates a call: a lambda of the program, a built-in, a
// conversion, or another instruction of the same family.
func (m *machine) call(x *Call) (Value, error) {
	args := make([]Value, len(x.Args))
	if l, ok := m.lams[x.Fn]; ok {
		for i, a := range x.Args {
			v, err := m.eval(a)
			if err != nil {
				return Value{}, err
			}
			args[i] = v
		}
		return m.callLambda(x.Line, x.Fn, l, args)
	}
	if x.Fn == "eval" {
		return Value{}, unsupported(x.Line, "eval of a prose string")
	}
	b, isBuiltin := builtinFor(m.inst.Arch, x.Fn)
	var conv func(line int, a []Value) (Value, error)
	var isConv bool
	var callee *Instruction
	if !isBuiltin {
		if conv, isConv = m.conversion(x.Fn); !isConv {
			callee = m.inst.lib.lookup(x.Fn)
		}
	}
	if !isBuiltin && !isConv && callee == nil {
		return Value{}, unsupported(x.Line, "unknown function %s", x.Fn)
	}
	for i, a := range x.Args {
		v, err := m.eval(a)
		if err != nil {
			return Value{}, err
		}
		args[i] = v
	}
	switch {
	case isBuiltin:
		if b.arity >= 0 && len(args) != b.arity {
			return Value{}, errAt(x.Line, "%s takes %d arguments, given %d", x.Fn, b.arity, len(args))
		}
		return b.fn(m, x.Line, args)
	case isConv:
		if len(args) != 1 {
			return Value{}, errAt(x.Line, "%s takes 1 argument, given %d", x.Fn, len(args))
		}
		return conv(x.Line, args)
	}
	return m.callInstruction(x.Line, callee, args)
}

func (m *machine) callLambda(line int, name string, l *Lambda, args []Value) (Value, error) {
	if len(args) != len(l.Params) {
		return Value{}, errAt(line, "%s takes %d arguments, given %d", name, len(l.Params), len(args))
	}
	if m.depth >= maxCallDepth {
		return Value{}, errAt(line, "calls nested deeper than %d", maxCallDepth)
	}
	saved, savedRet, savedLast := m.vars, m.retVal, m.last
	m.vars = map[string]*variable{}
	for i, p := range l.Params {
		m.vars[p] = &variable{t: args[i].T, v: args[i]}
	}
	m.retVal, m.last = nil, nil
	m.depth++
	_, err := m.exec(l.Body)
	m.depth--
	ret, last := m.retVal, m.last
	m.vars, m.retVal, m.last = saved, savedRet, savedLast
	if err != nil {
		return Value{}, err
	}
	switch {
	case ret != nil:
		return *ret, nil
	case last != nil:
		return *last, nil
	}
	return Value{}, errAt(line, "%s returned no value", name)
}

// callInstruction runs another instruction's pseudocode on this lane with
// the arguments as its sources S0, S1, ...; its value is D0 read as the
// type its pseudocode writes D0 with.
func (m *machine) callInstruction(line int, callee *Instruction, args []Value) (Value, error) {
	if m.depth >= maxCallDepth {
		return Value{}, errAt(line, "calls nested deeper than %d", maxCallDepth)
	}
	if callee.Err != nil {
		return Value{}, unsupported(line, "%s's pseudocode does not parse: %v", callee.Name, callee.Err)
	}
	regs := map[string]Value{}
	for i, a := range args {
		name := "S" + strconv.Itoa(i)
		w := 32
		if info := callee.Info.Regs[name]; info != nil {
			w = info.Width
		}
		if a.T.Kind == KInteger {
			a = numeric(a, Type{Kind: KBits, Width: w})
		}
		regs[name] = a.view(Type{Kind: KBits, Width: max(w, a.Width())})
	}
	sub := &machine{inst: callee, wave: m.wave, lane: m.lane, regs: regs, vars: map[string]*variable{},
		lams: map[string]*Lambda{}, steps: m.steps, depth: m.depth + 1}
	if _, err := sub.exec(callee.Prog.Body); err != nil {
		return Value{}, err
	}
	d, ok := sub.regs["D0"]
	if !ok {
		return Value{}, errAt(line, "%s wrote no D0", callee.Name)
	}
	t := Type{Kind: KBits, Width: 32}
	if info := callee.Info.Regs["D0"]; info != nil && info.Type.Width > 0 {
		t = info.Type
	}
	return d.view(t), nil
}

// pick is max (larger) or min of a and b, by value; floats as IEEE
// 754-2008 maxNum/minNum (what the newer guides' V_MAX in IEEE mode does)
// with -0 below +0.
func (m *machine) pick(a, b Value, larger bool) Value {
	if f := floatOf(a.T, b.T); f != nil {
		x, y := toFloat(a, f, RoundNearestEven), toFloat(b, f, RoundNearestEven)
		switch {
		case f.IsSignalingNaN(x):
			return FloatBits(f.Quiet(x), f)
		case f.IsSignalingNaN(y):
			return FloatBits(f.Quiet(y), f)
		case f.isNaN(x) && f.isNaN(y):
			return FloatBits(x, f)
		case f.isNaN(x):
			return FloatBits(y, f)
		case f.isNaN(y):
			return FloatBits(x, f)
		}
		c := f.Compare(x, y)
		if c == 0 {
			// -0 and +0 compare equal: the sign decides.
			neg := x&f.signBit() != 0
			if neg == larger {
				return FloatBits(y, f)
			}
			return FloatBits(x, f)
		}
		if (c == 1) == larger {
			return FloatBits(x, f)
		}
		return FloatBits(y, f)
	}
	if m.compare(">", a, b).IsTrue() == larger {
		return a
	}
	return b
}

func bMax(m *machine, line int, a []Value) (Value, error) { return m.pick(a[0], a[1], true), nil }
func bMin(m *machine, line int, a []Value) (Value, error) { return m.pick(a[0], a[1], false), nil }

func bAbsDiff(m *machine, line int, a []Value) (Value, error) {
	x, y := a[0], a[1]
	if m.compare(">", x, y).IsTrue() {
		return m.binary(line, "-", x, y)
	}
	return m.binary(line, "-", y, x)
}

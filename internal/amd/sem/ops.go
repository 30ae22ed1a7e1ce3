package sem

import (
	"fmt"
	"math/big"
	"math/bits"
)

// Operators on values, with the dialect's C-like promotion: a float
// operand makes the operation a float one in the wider format; two
// integers combine at the wider width, signed only when both are (or the
// signed one is wider); an unsized integer takes the other's type.

// evalError is an error during evaluation, with its line.
type evalError struct {
	Line int
	Msg  string
	// Unsupported marks what the evaluator does not model (memory, an
	// unknown built-in), as opposed to a fault of the inputs.
	Unsupported bool
}

func (e *evalError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func errAt(line int, format string, args ...any) *evalError {
	return &evalError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

func unsupported(line int, format string, args ...any) *evalError {
	return &evalError{Line: line, Msg: fmt.Sprintf(format, args...), Unsupported: true}
}

// floatOf returns the float format two operands combine in, or nil when
// both are integers.
func floatOf(a, b Type) *FloatFormat {
	switch {
	case a.Kind == KFloat && b.Kind == KFloat:
		if a.Float == b.Float {
			return a.Float
		}
		if a.Float.Bits == b.Float.Bits || a.Float.prec() < b.Float.prec() && a.Float.ExpBits > b.Float.ExpBits ||
			b.Float.prec() < a.Float.prec() && b.Float.ExpBits > a.Float.ExpBits {
			return &F32 // f16 with bf16: neither holds the other
		}
		if a.Float.Bits > b.Float.Bits {
			return a.Float
		}
		return b.Float
	case a.Kind == KFloat:
		return a.Float
	case b.Kind == KFloat:
		return b.Float
	}
	return nil
}

// intType is the type two integer operands combine in.
func intType(a, b Type) Type {
	if a.Kind == KInteger && b.Kind == KInteger {
		return TInteger
	}
	if a.Kind == KInteger {
		return norm(b)
	}
	if b.Kind == KInteger {
		return norm(a)
	}
	w := max(a.Width, b.Width)
	signed := a.Kind == KInt && b.Kind == KInt ||
		a.Kind == KInt && a.Width > b.Width || b.Kind == KInt && b.Width > a.Width
	if signed {
		return Type{Kind: KInt, Width: w}
	}
	if a.Kind == KBits && b.Kind == KBits {
		return Type{Kind: KBits, Width: w}
	}
	return Type{Kind: KUint, Width: w}
}

// norm makes a bool an unsigned bit for arithmetic.
func norm(t Type) Type {
	if t.Kind == KBool {
		return Type{Kind: KUint, Width: 1}
	}
	return t
}

// toFloat converts a value numerically to format f (integers exactly
// rounded, floats converted keeping NaN payloads).
func toFloat(v Value, f *FloatFormat, mode RoundMode) uint64 {
	if v.T.Kind == KFloat {
		if v.T.Float == f {
			return v.u
		}
		return v.T.Float.Convert(v.u, f, mode, false)
	}
	return f.FromInt(v.Num(), mode)
}

// numeric converts v to an integer type by value (modulo 2^width).
func numeric(v Value, t Type) Value {
	if v.T.Kind == KFloat {
		n, ok := v.T.Float.ToInt(v.u, RoundTowardZero)
		if !ok {
			n = new(big.Int)
		}
		return FromBig(n, t)
	}
	if v.small() && t.Width <= 64 {
		return FromUint(uint64(v.int64()), t)
	}
	return FromBig(v.Num(), t)
}

func (m *machine) binary(line int, op string, a, b Value) (Value, error) {
	switch op {
	case "&&":
		return Bool(a.IsTrue() && b.IsTrue()), nil
	case "||":
		return Bool(a.IsTrue() || b.IsTrue()), nil
	case "==", "!=", "<>", "<", "<=", ">", ">=":
		return m.compare(op, a, b), nil
	case "<<", ">>":
		return shift(line, op, a, b)
	case "**":
		return m.power(line, a, b)
	}
	if f := floatOf(a.T, b.T); f != nil {
		if op == "&" || op == "|" || op == "^" || op == "%" {
			return Value{}, errAt(line, "operator %s on a float", op)
		}
		env := m.env(f)
		x, y := toFloat(a, f, env.Round), toFloat(b, f, env.Round)
		var r uint64
		switch op {
		case "+":
			r = f.Add(x, y, env)
		case "-":
			r = f.Sub(x, y, env)
		case "*":
			r = f.Mul(x, y, env)
		case "/":
			r = f.Div(x, y, env)
		}
		return FloatBits(r, f), nil
	}
	t := intType(norm(a.T), norm(b.T))
	if t.Kind == KInteger || t.Width <= 64 && a.small() && b.small() {
		x, y := a.int64(), b.int64()
		if t.Kind != KInteger && !t.Signed() {
			x, y = int64(a.u&WidthMask(a.Width())), int64(b.u&WidthMask(b.Width()))
		}
		var r int64
		switch op {
		case "+":
			r = x + y
		case "-":
			r = x - y
		case "*":
			r = x * y
		case "&":
			r = x & y
		case "|":
			r = x | y
		case "^":
			r = x ^ y
		case "/", "%":
			if y == 0 {
				return Value{}, errAt(line, "integer division by zero")
			}
			if t.Signed() {
				if op == "/" {
					r = x / y
				} else {
					r = x % y
				}
			} else {
				ux, uy := uint64(x), uint64(y)
				if op == "/" {
					r = int64(ux / uy)
				} else {
					r = int64(ux % uy)
				}
			}
		default:
			return Value{}, errAt(line, "unknown operator %s", op)
		}
		return FromUint(uint64(r), t), nil
	}
	x, y := a.Num(), b.Num()
	if !t.Signed() {
		x, y = a.Bits(), b.Bits()
	}
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	case "&":
		r.And(x, y)
	case "|":
		r.Or(x, y)
	case "^":
		r.Xor(x, y)
	case "/", "%":
		if y.Sign() == 0 {
			return Value{}, errAt(line, "integer division by zero")
		}
		if op == "/" {
			r.Quo(x, y)
		} else {
			r.Rem(x, y)
		}
	default:
		return Value{}, errAt(line, "unknown operator %s", op)
	}
	return FromBig(r, t), nil
}

func shift(line int, op string, a, b Value) (Value, error) {
	if a.T.Kind == KFloat {
		return Value{}, errAt(line, "shift of a float")
	}
	n := b.Num()
	if n.Sign() < 0 {
		return Value{}, errAt(line, "negative shift count %v", n)
	}
	t := norm(a.T)
	if !n.IsInt64() || n.Int64() > MaxWidth {
		return FromUint(0, t), nil
	}
	k := uint(n.Int64())
	if a.small() && t.Kind != KInteger && t.Width <= 64 || t.Kind == KInteger && k < 64 {
		if k >= 64 {
			if op == ">>" && t.Signed() && a.int64() < 0 {
				return FromUint(^uint64(0), t), nil
			}
			return FromUint(0, t), nil
		}
		if op == "<<" {
			return FromUint(a.u<<k, t), nil
		}
		if t.Signed() {
			return FromUint(uint64(a.int64()>>k), t), nil
		}
		return FromUint(a.u>>k, t), nil
	}
	if op == "<<" {
		return FromBig(new(big.Int).Lsh(a.Num(), k), t), nil
	}
	if t.Signed() {
		return FromBig(new(big.Int).Rsh(a.Num(), k), t), nil
	}
	return FromBig(new(big.Int).Rsh(a.Bits(), k), t), nil
}

func (m *machine) compare(op string, a, b Value) Value {
	var c int // -1, 0, 1, 2 unordered
	if f := floatOf(a.T, b.T); f != nil {
		c = f.Compare(toFloat(a, f, RoundNearestEven), toFloat(b, f, RoundNearestEven))
	} else if a.small() && b.small() && (a.T.Kind != KUint && a.T.Kind != KBits || a.Width() < 64) &&
		(b.T.Kind != KUint && b.T.Kind != KBits || b.Width() < 64) {
		x, y := a.int64(), b.int64()
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	} else {
		c = a.Num().Cmp(b.Num())
	}
	switch op {
	case "==":
		return Bool(c == 0)
	case "!=", "<>":
		// Ordered for floats: false when an input is NaN. The guides note
		// beside V_CMP_NEQ, written !(S0 == S1), that with NaN inputs it is
		// not the same as !=, and beside V_CMP_NLG, !(S0 <> S1), not the
		// same as ==: so != and <> are false on a NaN.
		return Bool(c == -1 || c == 1)
	case "<":
		return Bool(c == -1)
	case "<=":
		return Bool(c == -1 || c == 0)
	case ">":
		return Bool(c == 1)
	case ">=":
		return Bool(c == 1 || c == 0)
	}
	return Bool(false)
}

// power is a ** b. A power of two with an integer exponent is exact (the
// pseudocode's ldexp idiom S0.f32 * 2.0F ** S1.i32 is folded by the caller
// into one scaling, see mulPow2); other powers go through pow.
func (m *machine) power(line int, a, b Value) (Value, error) {
	if a.T.Kind != KFloat && b.T.Kind != KFloat {
		x, y := a.Num(), b.Num()
		if y.Sign() < 0 || y.BitLen() > 16 {
			return Value{}, errAt(line, "integer power with exponent %v", y)
		}
		return FromBig(new(big.Int).Exp(x, y, nil), intType(norm(a.T), norm(b.T))), nil
	}
	f := floatOf(a.T, b.T)
	if a.T.Kind == KFloat && a.T.Float.ToFloat64(a.u) == 2 && b.T.Kind != KFloat {
		n := b.Num()
		one := FloatBits(f.FromFloat64(1, RoundNearestEven), f)
		return FloatBits(scaleB(f, one.u, n, m.env(f)), f), nil
	}
	return m.callPow(line, f, a, b)
}

// scaleB returns x * 2^n with one rounding (ldexp).
func scaleB(f *FloatFormat, x uint64, n *big.Int, env Env) uint64 {
	x = f.flushIn(x, env)
	u := f.unpack(x)
	switch u.class {
	case fcNaN:
		return f.Quiet(x)
	case fcInf, fcZero:
		return x
	}
	if !n.IsInt64() || n.Int64() > 1<<20 {
		if n.Sign() > 0 {
			return f.overflow(u.neg, env.Round)
		}
		b, _ := f.roundBig(u.neg, big.NewInt(0), 0, true, env.Round)
		return f.flushOut(b, env)
	}
	k := n.Int64()
	if k < -(1 << 20) {
		b, _ := f.roundBig(u.neg, big.NewInt(0), 0, true, env.Round)
		return f.flushOut(b, env)
	}
	b, _ := f.roundBig(u.neg, new(big.Int).SetUint64(u.mant), u.exp+int(k), false, env.Round)
	return f.flushOut(b, env)
}

func (m *machine) unary(line int, op string, a Value) (Value, error) {
	switch op {
	case "!":
		return Bool(!a.IsTrue()), nil
	case "~":
		if a.T.Kind == KFloat {
			return Value{}, errAt(line, "~ on a float")
		}
		t := norm(a.T)
		if a.small() {
			return FromUint(^a.u, t), nil
		}
		return FromBig(new(big.Int).Not(a.Num()), t), nil
	case "-":
		if a.T.Kind == KFloat {
			// Negation flips the sign bit, NaNs included (IEEE 754 negate).
			return FloatBits(a.u^a.T.Float.signBit(), a.T.Float), nil
		}
		t := norm(a.T)
		if a.small() {
			return FromUint(-a.u, t), nil
		}
		return FromBig(new(big.Int).Neg(a.Num()), t), nil
	}
	return Value{}, errAt(line, "unknown operator %s", op)
}

// cast is N'T(x): floats convert numerically (NaN payloads kept, so
// 64'F(S0.f32) of a signalling NaN is still one); raw bits and hex
// constants of the float's width are reinterpreted (32'F(0xffc00000)),
// like a bitcast; other integers convert by value (V_TRIG_PREOP's
// 64'F(53 bits of 2/PI)).
func (m *machine) cast(t Type, v Value) Value {
	if t.Kind == KFloat {
		switch {
		case v.T.Kind == KFloat:
			return FloatBits(toFloat(v, t.Float, m.env(t.Float).Round), t.Float)
		case v.T.Kind == KBits && v.Width() == t.Width:
			return v.view(t)
		}
		return FloatBits(t.Float.FromInt(v.Num(), m.env(t.Float).Round), t.Float)
	}
	if v.T.Kind == KFloat && t.Kind == KBits {
		return v.view(t)
	}
	return numeric(v, t)
}

// assignConv converts a value for storing into a destination of type t:
// the same kind and width is stored as is; floats convert by value to
// another float format; integers convert by value (sign-extended when
// signed); raw bits, and floats stored to integer destinations, are stored
// as their bits.
func (m *machine) assignConv(v Value, t Type) Value {
	if v.T == t {
		return v
	}
	switch {
	case t.Kind == KFloat && v.T.Kind == KFloat:
		return FloatBits(toFloat(v, t.Float, m.env(t.Float).Round), t.Float)
	case t.Kind == KFloat && (v.T.Kind == KBits || v.T.Width == t.Width):
		return v.view(t)
	case t.Kind == KFloat:
		return FloatBits(t.Float.FromInt(v.Num(), m.env(t.Float).Round), t.Float)
	case v.T.Kind == KFloat:
		return v.view(t)
	case t.Kind == KInteger:
		return Integer(v.Num().Int64())
	}
	return numeric(v, t)
}

// concat joins parts, the first the most significant.
func concat(parts []Value) Value {
	w := 0
	for _, p := range parts {
		w += p.Width()
	}
	t := Type{Kind: KBits, Width: w}
	if w <= 64 {
		var u uint64
		for _, p := range parts {
			pw := p.Width()
			u = u<<uint(pw) | p.Uint()&WidthMask(pw)
		}
		return FromUint(u, t)
	}
	r := new(big.Int)
	for _, p := range parts {
		pw := p.Width()
		r.Lsh(r, uint(pw))
		r.Or(r, FromBig(p.Bits(), Type{Kind: KBits, Width: pw}).Bits())
	}
	return FromBig(r, t)
}

// extract returns width bits of v from bit lo, reversed when rev.
func extract(v Value, lo, width int, rev bool) Value {
	t := Type{Kind: KBits, Width: width}
	var out Value
	if v.small() && width <= 64 && lo < 64 {
		out = FromUint(v.u>>uint(lo), t)
		if v.T.Kind == KInteger && int64(v.u) < 0 && lo+width > 64 {
			out = FromBig(new(big.Int).Rsh(v.Num(), uint(lo)), t)
		}
	} else {
		out = FromBig(new(big.Int).Rsh(v.Num(), uint(lo)), t)
	}
	if rev {
		out = reverse(out)
	}
	return out
}

func reverse(v Value) Value {
	w := v.Width()
	if v.small() && w <= 64 {
		return FromUint(bits.Reverse64(v.u)>>uint(64-w), v.T)
	}
	r := new(big.Int)
	for i := 0; i < w; i++ {
		r.SetBit(r, w-1-i, v.Bit(i))
	}
	return FromBig(r, v.T)
}

// insert stores bits of x (its low width bits, reversed when rev) into v
// at lo, growing v when it is narrower.
func insert(v Value, lo, width int, x Value, rev bool) Value {
	xb := x.view(Type{Kind: KBits, Width: width})
	if rev {
		xb = reverse(xb)
	}
	t := v.T
	if lo+width > t.Width && t.Kind != KInteger {
		t.Width = lo + width
		if t.Kind == KFloat {
			t = Type{Kind: KBits, Width: lo + width}
		}
	}
	if t.Kind != KInteger && t.Width <= 64 && v.small() {
		mask := WidthMask(width) << uint(lo)
		return FromUint(v.u&^mask|xb.u<<uint(lo)&mask, t)
	}
	r := v.Bits()
	for i := 0; i < width; i++ {
		r.SetBit(r, lo+i, xb.Bit(i))
	}
	return FromBig(r, t)
}

package sem

import (
	"fmt"
	"math/big"
	"strings"
	"sync"
)

// Budgets that stop runaway programs (a loop bound read from an input).
const (
	maxSteps     = 1 << 20 // statements and loop iterations per run
	maxCallDepth = 16      // nested instruction and lambda calls
	maxTrace     = 400     // trace entries kept per run
)

// Step is one assignment the program made: the target as written and the
// value stored.
type Step struct {
	Line   int    `json:"line"`
	Lane   int    `json:"lane"`
	Target string `json:"target"`
	Value  string `json:"value"`
}

// machine runs one instruction on one lane of a wave.
type machine struct {
	inst  *Instruction
	wave  *Wave
	lane  int
	regs  map[string]Value // this lane's operand registers
	vars  map[string]*variable
	lams  map[string]*Lambda
	trace *[]Step
	steps *int
	depth int
	// retVal holds the value of a return statement.
	retVal *Value
	// last is the value of the last expression statement (a lambda body's
	// value when it has no return).
	last *Value
}

type variable struct {
	t        Type
	declared bool
	v        Value
	elems    []Value // arrays
}

type flow uint8

const (
	flowNext flow = iota
	flowBreak
	flowReturn
)

func (m *machine) env(f *FloatFormat) Env { return m.wave.Mode.env(f) }

func (m *machine) step(line int) error {
	*m.steps++
	if *m.steps > maxSteps {
		return errAt(line, "more than %d steps: stopped", maxSteps)
	}
	return nil
}

func (m *machine) exec(body []Stmt) (flow, error) {
	for _, s := range body {
		if err := m.step(s.stmtLine()); err != nil {
			return flowNext, err
		}
		f, err := m.stmt(s)
		if err != nil || f != flowNext {
			return f, err
		}
	}
	return flowNext, nil
}

func (m *machine) stmt(s Stmt) (flow, error) {
	switch s := s.(type) {
	case *Assign:
		return flowNext, m.assign(s)
	case *If:
		for i, c := range s.Conds {
			v, err := m.eval(c)
			if err != nil {
				return flowNext, err
			}
			if v.IsTrue() {
				return m.exec(s.Bodies[i])
			}
		}
		return m.exec(s.Else)
	case *For:
		from, err := m.eval(s.From)
		if err != nil {
			return flowNext, err
		}
		to, err := m.eval(s.To)
		if err != nil {
			return flowNext, err
		}
		a, b := from.Num(), to.Num()
		if !a.IsInt64() || !b.IsInt64() {
			return flowNext, errAt(s.Line, "loop bounds out of range")
		}
		for i := a.Int64(); i <= b.Int64(); i++ {
			if err := m.step(s.Line); err != nil {
				return flowNext, err
			}
			m.vars[s.Var] = &variable{t: TInteger, v: Integer(i)}
			f, err := m.exec(s.Body)
			if err != nil {
				return flowNext, err
			}
			if f == flowBreak {
				break
			}
			if f == flowReturn {
				return f, nil
			}
		}
		return flowNext, nil
	case *Declare:
		v := &variable{t: s.T, declared: true, v: FromUint(0, s.T)}
		if s.Len != nil {
			n, err := m.eval(s.Len)
			if err != nil {
				return flowNext, err
			}
			k := n.Num()
			if !k.IsInt64() || k.Int64() < 0 || k.Int64() > 4096 {
				return flowNext, errAt(s.Line, "array length %v out of range", k)
			}
			v.elems = make([]Value, k.Int64())
			for i := range v.elems {
				v.elems[i] = FromUint(0, s.T)
			}
		}
		m.vars[s.Name] = v
		return flowNext, nil
	case *Return:
		v, err := m.eval(s.X)
		if err != nil {
			return flowNext, err
		}
		m.retVal = &v
		return flowReturn, nil
	case *Break:
		return flowBreak, nil
	case *ExprStmt:
		if str, ok := s.X.(*Str); ok {
			return flowNext, unsupported(s.Line, "prose statement %q", str.Text)
		}
		v, err := m.eval(s.X)
		if err != nil {
			return flowNext, err
		}
		m.last = &v
		return flowNext, nil
	}
	return flowNext, errAt(s.stmtLine(), "unknown statement")
}

func (m *machine) assign(s *Assign) error {
	if l, ok := s.Value.(*Lambda); ok {
		for _, t := range s.Targets {
			id, ok := t.(*Ident)
			if !ok {
				return errAt(s.Line, "a lambda can only be given a name")
			}
			m.lams[id.Name] = l
		}
		return nil
	}
	v, err := m.eval(s.Value)
	if err != nil {
		return err
	}
	// Chained assignment stores right to left: a = b = v.
	for i := len(s.Targets) - 1; i >= 0; i-- {
		t := s.Targets[i]
		val := v
		if s.Op != "=" {
			old, err := m.eval(t)
			if err != nil {
				return err
			}
			if val, err = m.binary(s.Line, strings.TrimSuffix(s.Op, "="), old, v); err != nil {
				return err
			}
		}
		stored, err := m.store(t, val)
		if err != nil {
			return err
		}
		if m.trace != nil && len(*m.trace) < maxTrace {
			*m.trace = append(*m.trace, Step{Line: s.Line, Lane: m.lane, Target: exprString(t), Value: stored.String()})
		}
		v = stored
	}
	return nil
}

// ref is where an assignment lands: bits [off, off+width) of a base
// location, stored as type t when hasT.
type ref struct {
	load   func() (Value, error)
	save   func(Value) error
	off    int
	width  int // -1: the whole base
	t      Type
	hasT   bool
	rev    bool
	create func(Value) // a new local variable: the first assignment makes it
}

// store evaluates the target and stores v; it returns the value as stored.
func (m *machine) store(target Expr, v Value) (Value, error) {
	if c, ok := target.(*Concat); ok {
		// { hi, ..., lo } = v: the last part takes the low bits.
		widths := make([]int, len(c.Parts))
		total := 0
		for i, p := range c.Parts {
			r, err := m.ref(p)
			if err != nil {
				return Value{}, err
			}
			w := r.width
			if r.create != nil {
				if !r.hasT {
					return Value{}, errAt(target.exprLine(), "%s in a concatenation target has no width (declare it first)", exprString(p))
				}
				w = r.t.Width
			} else if w < 0 {
				base, err := r.load()
				if err != nil {
					return Value{}, err
				}
				w = base.Width()
			}
			widths[i] = w
			total += w
		}
		bits := v.view(Type{Kind: KBits, Width: total})
		off := 0
		for i := len(c.Parts) - 1; i >= 0; i-- {
			part := extract(bits, off, widths[i], false)
			if _, err := m.store(c.Parts[i], part); err != nil {
				return Value{}, err
			}
			off += widths[i]
		}
		return bits, nil
	}
	r, err := m.ref(target)
	if err != nil {
		return Value{}, err
	}
	if r.create != nil {
		if r.hasT {
			v = m.assignConv(v, r.t)
		}
		r.create(v)
		return v, nil
	}
	base, err := r.load()
	if err != nil {
		return Value{}, err
	}
	if r.width < 0 {
		if r.hasT {
			v = m.assignConv(v, r.t)
		}
		return v, r.save(v)
	}
	if r.hasT {
		v = m.assignConv(v, r.t)
	}
	if r.off < 0 || r.off+r.width > MaxWidth {
		return Value{}, errAt(target.exprLine(), "bit range %d..%d out of range", r.off, r.off+r.width-1)
	}
	return v.view(Type{Kind: v.T.Kind, Width: v.T.Width, Float: v.T.Float}), r.save(insert(base, r.off, r.width, v, r.rev))
}

// ref resolves an assignment target.
func (m *machine) ref(e Expr) (*ref, error) {
	switch x := e.(type) {
	case *Ident:
		return m.identRef(x)
	case *View:
		r, err := m.ref(x.X)
		if err != nil {
			return nil, err
		}
		if r.create != nil {
			r.t, r.hasT = x.T, true
			return r, nil
		}
		if r.width < 0 {
			r.width = x.T.Width
			if base, err := r.load(); err == nil && base.T.Kind == KFloat && base.T.Float == x.T.Float {
				r.width = -1
			}
		} else {
			r.width = x.T.Width
		}
		r.t, r.hasT = x.T, true
		return r, nil
	case *Field:
		name, ok := stateField(x)
		if !ok {
			return nil, unsupported(x.Line, "unknown field %s", exprString(x))
		}
		return m.stateRef(x.Line, name)
	case *Slice:
		r, err := m.ref(x.X)
		if err != nil {
			return nil, err
		}
		hi, err := m.evalInt(x.Hi)
		if err != nil {
			return nil, err
		}
		lo, err := m.evalInt(x.Lo)
		if err != nil {
			return nil, err
		}
		m.materialize(r)
		rev := hi < lo
		if rev {
			hi, lo = lo, hi
		}
		r.off += lo
		r.width = hi - lo + 1
		r.hasT, r.rev = false, rev
		return r, nil
	case *PartSel:
		r, err := m.ref(x.X)
		if err != nil {
			return nil, err
		}
		b, err := m.evalInt(x.Base)
		if err != nil {
			return nil, err
		}
		w, err := m.evalInt(x.Width)
		if err != nil {
			return nil, err
		}
		if w <= 0 {
			return nil, errAt(x.Line, "part-select width %d", w)
		}
		m.materialize(r)
		r.off += b
		r.width = w
		r.hasT = false
		return r, nil
	case *Index:
		if id, ok := x.X.(*Ident); ok {
			if v, ok := m.vars[id.Name]; ok && v.elems != nil {
				i, err := m.evalInt(x.I)
				if err != nil {
					return nil, err
				}
				if i < 0 || i >= len(v.elems) {
					return nil, errAt(x.Line, "index %d outside %s[0..%d]", i, id.Name, len(v.elems)-1)
				}
				return &ref{load: func() (Value, error) { return v.elems[i], nil },
					save: func(nv Value) error { v.elems[i] = m.assignConv(nv, v.t); return nil }, width: -1}, nil
			}
		}
		r, err := m.ref(x.X)
		if err != nil {
			return nil, err
		}
		i, err := m.evalInt(x.I)
		if err != nil {
			return nil, err
		}
		m.materialize(r)
		r.off += i
		r.width = 1
		r.hasT = false
		return r, nil
	}
	return nil, errAt(e.exprLine(), "cannot assign to %s", describe(e))
}

// materialize turns a new-variable target into a stored one (bits grown
// as parts are assigned: tmp[15 : 0].f16 = ... makes tmp).
func (m *machine) materialize(r *ref) {
	if r.create == nil {
		return
	}
	create := r.create
	var cur *Value
	r.load = func() (Value, error) {
		if cur == nil {
			return FromUint(0, Type{Kind: KBits, Width: 1}), nil
		}
		return *cur, nil
	}
	r.save = func(v Value) error {
		cur = &v
		create(v)
		return nil
	}
	r.create = nil
	r.width = -1
}

func (m *machine) identRef(x *Ident) (*ref, error) {
	name := x.Name
	if v, ok := m.vars[name]; ok {
		if v.elems != nil {
			return nil, errAt(x.Line, "%s is an array", name)
		}
		return &ref{load: func() (Value, error) { return v.v, nil }, save: func(nv Value) error {
			if v.declared {
				nv = m.assignConv(nv, v.t)
			}
			v.v = nv
			return nil
		}, width: -1, t: v.t, hasT: v.declared}, nil
	}
	if isOperandReg(name) {
		return m.regRef(x.Line, name), nil
	}
	if _, ok := stateNames[name]; ok {
		return m.stateRef(x.Line, name)
	}
	if constant(name) {
		return nil, errAt(x.Line, "cannot assign to the constant %s", name)
	}
	// A new local variable.
	return &ref{create: func(v Value) {
		if old, ok := m.vars[name]; ok {
			old.v = v
			return
		}
		m.vars[name] = &variable{t: v.T, v: v}
	}, width: -1}, nil
}

// readReg reads an operand register (regRef's load without the closures:
// reads are the hot path).
func (m *machine) readReg(name string) Value {
	info := m.inst.Info.Regs[name]
	var v Value
	var ok bool
	if info != nil && info.LaneMask {
		v, ok = m.wave.Shared[name]
	} else {
		v, ok = m.regs[name]
	}
	if !ok {
		width := 32
		if info != nil {
			width = info.Width
		}
		v = FromUint(0, Type{Kind: KBits, Width: width})
	}
	return v
}

// regRef is an operand register of this lane (or wave-wide when the
// program treats it as a lane mask).
func (m *machine) regRef(line int, name string) *ref {
	info := m.inst.Info.Regs[name]
	width := 32
	if info != nil {
		width = info.Width
	}
	shared := info != nil && info.LaneMask
	load := func() (Value, error) {
		var v Value
		var ok bool
		if shared {
			v, ok = m.wave.Shared[name]
		} else {
			v, ok = m.regs[name]
		}
		if !ok {
			v = FromUint(0, Type{Kind: KBits, Width: width})
		}
		return v, nil
	}
	save := func(v Value) error {
		v = v.view(Type{Kind: KBits, Width: max(width, v.Width())})
		if shared {
			m.wave.Shared[name] = v
		} else {
			m.regs[name] = v
		}
		return nil
	}
	return &ref{load: load, save: save, width: -1}
}

func (m *machine) evalInt(e Expr) (int, error) {
	v, err := m.eval(e)
	if err != nil {
		return 0, err
	}
	n := v.Num()
	if v.T.Kind == KFloat {
		return 0, errAt(e.exprLine(), "a float used as a bit position")
	}
	if !n.IsInt64() || n.Int64() < -MaxWidth || n.Int64() > MaxWidth {
		return 0, errAt(e.exprLine(), "bit position %v out of range", n)
	}
	return int(n.Int64()), nil
}

// eval evaluates an expression.
func (m *machine) eval(e Expr) (Value, error) {
	switch x := e.(type) {
	case *Lit:
		return x.Val, nil
	case *Ident:
		return m.ident(x)
	case *Str:
		return Value{}, unsupported(x.Line, "prose %q", x.Text)
	case *Unary:
		v, err := m.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		return m.unary(x.Line, x.Op, v)
	case *Binary:
		if x.Op == "&&" || x.Op == "||" {
			a, err := m.eval(x.X)
			if err != nil {
				return Value{}, err
			}
			if x.Op == "&&" && !a.IsTrue() || x.Op == "||" && a.IsTrue() {
				return Bool(a.IsTrue()), nil
			}
			b, err := m.eval(x.Y)
			if err != nil {
				return Value{}, err
			}
			return Bool(b.IsTrue()), nil
		}
		if v, ok, err := m.special(x); ok {
			return v, err
		}
		a, err := m.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		b, err := m.eval(x.Y)
		if err != nil {
			return Value{}, err
		}
		return m.binary(x.Line, x.Op, a, b)
	case *Cond:
		c, err := m.eval(x.C)
		if err != nil {
			return Value{}, err
		}
		if c.IsTrue() {
			return m.eval(x.T)
		}
		return m.eval(x.F)
	case *View:
		if id, ok := x.X.(*Ident); ok {
			if v, ok := m.namedConstant(id.Name, x.T); ok {
				return v, nil
			}
		}
		v, err := m.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		if v.T.Kind == KFloat && x.T.Kind == KFloat && v.T.Float != x.T.Float && v.T.Width == x.T.Width {
			return v.view(x.T), nil
		}
		if v.T.Kind == KInteger && x.T.Kind != KFloat {
			return numeric(v, x.T), nil
		}
		return v.view(x.T), nil
	case *Field:
		name, ok := stateField(x)
		if !ok {
			return Value{}, unsupported(x.Line, "unknown field %s", exprString(x))
		}
		r, err := m.stateRef(x.Line, name)
		if err != nil {
			return Value{}, err
		}
		return r.load()
	case *Index:
		if id, ok := x.X.(*Ident); ok {
			if v, ok := m.vars[id.Name]; ok && v.elems != nil {
				i, err := m.evalInt(x.I)
				if err != nil {
					return Value{}, err
				}
				if i < 0 || i >= len(v.elems) {
					return Value{}, errAt(x.Line, "index %d outside %s[0..%d]", i, id.Name, len(v.elems)-1)
				}
				return v.elems[i], nil
			}
		}
		if inner, ok := x.X.(*Index); ok {
			if id, ok := inner.X.(*Ident); ok && id.Name == "VGPR" {
				return m.vgpr(x.Line, inner.I, x.I)
			}
		}
		if id, ok := x.X.(*Ident); ok && isMemory(id.Name) {
			return Value{}, unsupported(x.Line, "%s is memory: not modelled", id.Name)
		}
		v, err := m.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		i, err := m.evalInt(x.I)
		if err != nil {
			return Value{}, err
		}
		return FromUint(uint64(v.Bit(i)), Type{Kind: KUint, Width: 1}), nil
	case *Slice:
		v, err := m.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		hi, err := m.evalInt(x.Hi)
		if err != nil {
			return Value{}, err
		}
		lo, err := m.evalInt(x.Lo)
		if err != nil {
			return Value{}, err
		}
		rev := hi < lo
		if rev {
			hi, lo = lo, hi
		}
		if lo < 0 {
			return Value{}, errAt(x.Line, "negative bit position %d", lo)
		}
		return extract(v, lo, hi-lo+1, rev), nil
	case *PartSel:
		v, err := m.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		b, err := m.evalInt(x.Base)
		if err != nil {
			return Value{}, err
		}
		w, err := m.evalInt(x.Width)
		if err != nil {
			return Value{}, err
		}
		if b < 0 || w <= 0 {
			return Value{}, errAt(x.Line, "part-select [%d +: %d]", b, w)
		}
		return extract(v, b, w, false), nil
	case *Cast:
		if v, ok := m.castSpecial(x); ok {
			return v, nil
		}
		v, err := m.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		return m.cast(x.T, v), nil
	case *Concat:
		parts := make([]Value, len(x.Parts))
		for i, p := range x.Parts {
			v, err := m.eval(p)
			if err != nil {
				return Value{}, err
			}
			if v.T.Kind == KInteger {
				return Value{}, errAt(x.Line, "an unsized integer in a concatenation")
			}
			parts[i] = v
		}
		return concat(parts), nil
	case *Call:
		return m.call(x)
	case *Lambda:
		return Value{}, errAt(x.Line, "a lambda outside an assignment")
	}
	return Value{}, errAt(e.exprLine(), "unknown expression")
}

// special handles x * 2.0 ** n (ldexp, one rounding) and comparisons with
// DENORM (x == DENORM.f32: x is subnormal).
func (m *machine) special(x *Binary) (Value, bool, error) {
	if x.Op == "*" {
		if p, ok := x.Y.(*Binary); ok && p.Op == "**" {
			if base, ok := p.X.(*Lit); ok && base.Val.T.Kind == KFloat && base.Val.Float64() == 2 {
				a, err := m.eval(x.X)
				if err != nil {
					return Value{}, true, err
				}
				n, err := m.eval(p.Y)
				if err != nil {
					return Value{}, true, err
				}
				if a.T.Kind == KFloat && n.T.Kind != KFloat {
					f := floatOf(a.T, base.Val.T)
					av := toFloat(a, f, RoundNearestEven)
					return FloatBits(scaleB(f, av, n.Num(), m.env(f)), f), true, nil
				}
			}
		}
	}
	if x.Op == "==" || x.Op == "!=" {
		if v, ok, err := m.signedZeroCompare(x); ok {
			return v, true, err
		}
		if v, ok := x.Y.(*View); ok {
			if id, ok := v.X.(*Ident); ok && id.Name == "DENORM" && v.T.Kind == KFloat {
				a, err := m.eval(x.X)
				if err != nil {
					return Value{}, true, err
				}
				f := v.T.Float
				b := toFloat(a, f, RoundNearestEven)
				is := f.isSubnormal(b)
				return Bool(is == (x.Op == "==")), true, nil
			}
		}
	}
	return Value{}, false, nil
}

// signedZero reports whether e is a zero float literal written with a
// sign (+0.0, -0.0) and which sign.
func signedZero(e Expr) (neg, ok bool) {
	if u, isU := e.(*Unary); isU && u.Op == "-" {
		neg, ok = signedZero(u.X)
		return !neg, ok
	}
	l, isLit := e.(*Lit)
	if !isLit || !l.Signed || l.Val.T.Kind != KFloat || l.Val.u&^l.Val.T.Float.signBit() != 0 {
		return false, false
	}
	return l.Val.u&l.Val.T.Float.signBit() != 0, true
}

// signedZeroCompare is x == +0.0, x == -0.0 (and !=, either side): a
// comparison with a zero literal written with its sign tests the sign too.
// The CDNA guides' V_MAX/V_MIN pick their result in branches that test
// S0 == +0.0 && S1 == -0.0: read with IEEE equality (-0 equals +0) the
// branches cannot tell the cases apart and max(-0, +0) returns -0, the
// opposite of what they are written for. An unsigned 0.0 stays IEEE
// equality (abs(x) == 0.0, x == 0.0 for either zero).
func (m *machine) signedZeroCompare(x *Binary) (Value, bool, error) {
	other, lit := x.X, x.Y
	neg, ok := signedZero(lit)
	if !ok {
		other, lit = x.Y, x.X
		if neg, ok = signedZero(lit); !ok {
			return Value{}, false, nil
		}
	}
	a, err := m.eval(other)
	if err != nil || a.T.Kind != KFloat {
		if err == nil {
			// An integer compared with a signed zero: no sign to test.
			var b Value
			if b, err = m.eval(lit); err == nil {
				var v Value
				v, err = m.binary(x.Line, x.Op, a, b)
				return v, true, err
			}
		}
		return Value{}, true, err
	}
	f := a.T.Float
	b := a.u & f.mask()
	isZero := b&^f.signBit() == 0
	exact := isZero && (b&f.signBit() != 0) == neg
	if x.Op == "==" {
		return Bool(exact), true, nil
	}
	// != is ordered, as everywhere: false on a NaN.
	return Bool(!exact && !f.isNaN(b)), true, nil
}

// castSpecial is 1201'B(2.0 / PI): the binary fraction of 2/PI to that many
// bits, which V_TRIG_PREOP's pseudocode means.
func (m *machine) castSpecial(x *Cast) (Value, bool) {
	b, ok := x.X.(*Binary)
	if !ok || b.Op != "/" || x.T.Kind != KBits {
		return Value{}, false
	}
	num, ok1 := b.X.(*Lit)
	den, ok2 := b.Y.(*Ident)
	if !ok1 || !ok2 || den.Name != "PI" || num.Val.T.Kind != KFloat || num.Val.Float64() != 2 {
		return Value{}, false
	}
	return FromBig(twoOverPiBits(x.T.Width), x.T), true
}

func (m *machine) ident(x *Ident) (Value, error) {
	name := x.Name
	if v, ok := m.vars[name]; ok {
		if v.elems != nil {
			return Value{}, errAt(x.Line, "%s is an array", name)
		}
		return v.v, nil
	}
	if isOperandReg(name) {
		return m.readReg(name), nil
	}
	if _, ok := stateNames[name]; ok {
		r, err := m.stateRef(x.Line, name)
		if err != nil {
			return Value{}, err
		}
		return r.load()
	}
	if v, ok := m.namedConstant(name, Type{}); ok {
		return v, nil
	}
	if isMemory(name) {
		return Value{}, unsupported(x.Line, "%s is memory: not modelled", name)
	}
	return Value{}, unsupported(x.Line, "unknown name %s", name)
}

// vgpr reads VGPR[lane][SRCn]: the register operand n of another lane.
func (m *machine) vgpr(line int, laneExpr, regExpr Expr) (Value, error) {
	reg := ""
	switch r := regExpr.(type) {
	case *View:
		if id, ok := r.X.(*Ident); ok {
			reg = id.Name
		}
	case *Ident:
		reg = r.Name
	}
	if !strings.HasPrefix(reg, "SRC") || len(reg) != 4 {
		return Value{}, unsupported(line, "VGPR indexed by %s: only a source operand's register is modelled", exprString(regExpr))
	}
	lane, err := m.evalInt(laneExpr)
	if err != nil {
		return Value{}, err
	}
	if lane < 0 || lane >= max(m.wave.Size, len(m.wave.Lanes)) {
		return Value{}, errAt(line, "lane %d outside the wave of %d", lane, m.wave.Size)
	}
	name := "S" + reg[3:]
	regs := m.regs
	if lane != m.lane {
		regs = nil // a lane given no registers reads zeros
		if lane < len(m.wave.Lanes) {
			regs = m.wave.Lanes[lane]
		}
	}
	if v, ok := regs[name]; ok {
		return v, nil
	}
	w := 32
	if info := m.inst.Info.Regs[name]; info != nil {
		w = info.Width
	}
	return FromUint(0, Type{Kind: KBits, Width: w}), nil
}

// namedConstant gives PI, INF, NAN, MAX_FLOAT_F32 and the rounding mode
// names; t is the type it is viewed as (INF.f32), zero when plain.
func (m *machine) namedConstant(name string, t Type) (Value, bool) {
	f := &F64
	if t.Kind == KFloat {
		f = t.Float
	}
	switch name {
	case "PI":
		return FloatBits(piBits(f), f), true
	case "INF":
		return FloatBits(f.Inf(false), f), true
	case "NAN":
		return FloatBits(f.DefaultNaN(), f), true
	case "MAX_FLOAT_F32":
		return FloatBits(F32.MaxFinite(false), &F32), true
	case "MAX_FLOAT_F64":
		return FloatBits(F64.MaxFinite(false), &F64), true
	}
	if r, ok := roundNames[name]; ok {
		return FromUint(roundCodes[r], Type{Kind: KUint, Width: 2}), true
	}
	return Value{}, false
}

func constant(name string) bool {
	switch name {
	case "PI", "INF", "NAN", "MAX_FLOAT_F32", "MAX_FLOAT_F64", "DENORM":
		return true
	}
	_, ok := roundNames[name]
	return ok
}

// piBits is PI rounded to format f.
func piBits(f *FloatFormat) uint64 {
	pi, _ := new(big.Float).SetPrec(256).SetString("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196")
	return f.FromBigFloat(pi, RoundNearestEven)
}

// twoOverPis keeps twoOverPiBits' answers by width: PI to a few thousand
// bits takes milliseconds, and v_sin/v_cos-style pseudocode reads the
// constant on every evaluation.
var twoOverPis sync.Map // int -> *big.Int

// twoOverPiBits returns floor(2/PI * 2^n): the first n bits of 2/PI's
// binary fraction. Callers must not modify the result.
func twoOverPiBits(n int) *big.Int {
	if z, ok := twoOverPis.Load(n); ok {
		return z.(*big.Int)
	}
	z := computeTwoOverPiBits(n)
	twoOverPis.Store(n, z)
	return z
}

func computeTwoOverPiBits(n int) *big.Int {
	prec := uint(n + 64)
	pi := bigPi(prec)
	two := new(big.Float).SetPrec(prec).SetInt64(2)
	q := new(big.Float).SetPrec(prec).Quo(two, pi)
	q.SetMantExp(q, n)
	z, _ := q.Int(nil)
	return z
}

// bigPi computes PI to prec bits with Machin's formula.
func bigPi(prec uint) *big.Float {
	p := prec + 32
	atanInv := func(x int64) *big.Float {
		// atan(1/x) = sum (-1)^k / ((2k+1) x^(2k+1))
		sum := new(big.Float).SetPrec(p)
		xx := new(big.Float).SetPrec(p).SetInt64(x * x)
		term := new(big.Float).SetPrec(p).Quo(new(big.Float).SetPrec(p).SetInt64(1), new(big.Float).SetPrec(p).SetInt64(x))
		eps := new(big.Float).SetPrec(p).SetMantExp(big.NewFloat(1), -int(p))
		for k := int64(0); ; k++ {
			t := new(big.Float).SetPrec(p).Quo(term, new(big.Float).SetPrec(p).SetInt64(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, t)
			} else {
				sum.Sub(sum, t)
			}
			term.Quo(term, xx)
			if term.Cmp(eps) < 0 {
				break
			}
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, new(big.Float).SetPrec(p).SetInt64(16))
	b := atanInv(239)
	b.Mul(b, new(big.Float).SetPrec(p).SetInt64(4))
	return a.Sub(a, b).SetPrec(prec)
}

// State: wave-wide names the pseudocode reads and writes.
var stateNames = map[string]bool{
	"SCC": true, "VCC": true, "EXEC": true, "M0": true, "laneId": true, "laneID": true, "WAVE32": true, "WAVE64": true,
	"ROUND_MODE": true, "OPSEL": true, "OPSEL_HI": true, "SIMM16": true, "SIMM32": true, "VCCZ": true, "EXECZ": true,
	"PC": true, "VCC_LO": true, "VCC_HI": true, "EXEC_LO": true, "EXEC_HI": true,
}

// stateFields are the register fields modelled.
var stateFields = map[string]bool{
	"WAVE_MODE.IEEE": true, "WAVE_MODE.DX10_CLAMP": true, "TRAPSTS.INVALID": true, "TRAPSTS.DIV0": true,
	"TRAPSTS.OVERFLOW": true, "TRAPSTS.UNDERFLOW": true, "TRAPSTS.INEXACT": true, "TRAPSTS.DENORM": true,
}

func stateField(x *Field) (string, bool) {
	id, ok := x.X.(*Ident)
	if !ok {
		return "", false
	}
	name := id.Name + "." + x.Name
	return name, stateFields[name]
}

func isOperandReg(name string) bool {
	return len(name) == 2 && (name[0] == 'S' || name[0] == 'D') && name[1] >= '0' && name[1] <= '3'
}

func isMemory(name string) bool {
	switch name {
	case "MEM", "LDS", "SGPR", "VGPR", "HW_REGISTERS", "GPR", "TTMP", "TBA", "TMA":
		return true
	}
	return false
}

func (m *machine) stateRef(line int, name string) (*ref, error) {
	w := m.wave
	mk := func(load func() Value, save func(Value)) *ref {
		return &ref{load: func() (Value, error) { return load(), nil }, save: func(v Value) error { save(v); return nil }, width: -1}
	}
	u1 := Type{Kind: KUint, Width: 1}
	ro := func(v Value) *ref {
		return &ref{load: func() (Value, error) { return v, nil },
			save: func(Value) error { return errAt(line, "%s cannot be written", name) }, width: -1}
	}
	switch name {
	case "SCC":
		return mk(func() Value { return FromUint(b2u(w.SCC), u1) }, func(v Value) { w.SCC = v.IsTrue() }), nil
	case "VCC":
		return mk(func() Value { return FromUint(w.VCC, TU64) }, func(v Value) { w.VCC = v.Uint() & laneMask(w.Size) }), nil
	case "VCC_LO":
		return mk(func() Value { return FromUint(w.VCC, TU32) }, func(v Value) { w.VCC = w.VCC&^0xffffffff | v.Uint()&0xffffffff }), nil
	case "EXEC":
		return mk(func() Value { return FromUint(w.Exec, TU64) }, func(v Value) { w.Exec = v.Uint() & laneMask(w.Size) }), nil
	case "EXEC_LO":
		return mk(func() Value { return FromUint(w.Exec, TU32) }, func(v Value) { w.Exec = w.Exec&^0xffffffff | v.Uint()&0xffffffff }), nil
	case "VCCZ":
		return ro(FromUint(b2u(w.VCC == 0), u1)), nil
	case "EXECZ":
		return ro(FromUint(b2u(w.Exec == 0), u1)), nil
	case "M0":
		return mk(func() Value { return FromUint(w.M0, TU32) }, func(v Value) { w.M0 = v.Uint() & 0xffffffff }), nil
	case "laneId", "laneID":
		return ro(FromUint(uint64(m.lane), TU32)), nil
	case "WAVE32":
		return ro(Bool(w.Size == 32)), nil
	case "WAVE64":
		return ro(Bool(w.Size == 64)), nil
	case "ROUND_MODE":
		return mk(func() Value { return FromUint(roundCodes[w.Mode.Round], Type{Kind: KUint, Width: 2}) },
			func(v Value) { w.Mode.Round = roundFromCode(v.Uint()) }), nil
	case "OPSEL":
		return ro(FromUint(w.Mods.OpSel, Type{Kind: KUint, Width: 4})), nil
	case "OPSEL_HI":
		return ro(FromUint(w.Mods.OpSelHi, Type{Kind: KUint, Width: 4})), nil
	case "WAVE_MODE.IEEE":
		return mk(func() Value { return FromUint(b2u(w.Mode.IEEE), u1) }, func(v Value) { w.Mode.IEEE = v.IsTrue() }), nil
	case "WAVE_MODE.DX10_CLAMP":
		return mk(func() Value { return FromUint(b2u(w.Mode.DX10Clamp), u1) }, func(v Value) { w.Mode.DX10Clamp = v.IsTrue() }), nil
	case "SIMM16", "SIMM32", "PC":
		width := map[string]int{"SIMM16": 16, "SIMM32": 32, "PC": 64}[name]
		return mk(func() Value {
			if v, ok := w.Other[name]; ok {
				return v
			}
			return FromUint(0, Type{Kind: KBits, Width: width})
		}, func(v Value) { w.Other[name] = v.view(Type{Kind: KBits, Width: width}) }), nil
	}
	if strings.HasPrefix(name, "TRAPSTS.") {
		f := strings.TrimPrefix(name, "TRAPSTS.")
		return mk(func() Value { return FromUint(w.TrapSts[f], u1) }, func(v Value) { w.TrapSts[f] = v.Uint() & 1 }), nil
	}
	return nil, unsupported(line, "state %s is not modelled", name)
}

// exprString prints an expression back in the dialect's spelling.
func exprString(e Expr) string {
	switch x := e.(type) {
	case *Ident:
		return x.Name
	case *Lit:
		return x.Text
	case *Str:
		return fmt.Sprintf("%q", x.Text)
	case *Unary:
		return x.Op + exprString(x.X)
	case *Binary:
		return "(" + exprString(x.X) + " " + x.Op + " " + exprString(x.Y) + ")"
	case *Cond:
		return "(" + exprString(x.C) + " ? " + exprString(x.T) + " : " + exprString(x.F) + ")"
	case *View:
		return exprString(x.X) + "." + x.T.String()
	case *Field:
		return exprString(x.X) + "." + x.Name
	case *Index:
		return exprString(x.X) + "[" + exprString(x.I) + "]"
	case *Slice:
		return exprString(x.X) + "[" + exprString(x.Hi) + " : " + exprString(x.Lo) + "]"
	case *PartSel:
		return exprString(x.X) + "[" + exprString(x.Base) + " +: " + exprString(x.Width) + "]"
	case *Call:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = exprString(a)
		}
		return x.Fn + "(" + strings.Join(args, ", ") + ")"
	case *Cast:
		letter := map[Kind]string{KUint: "U", KInt: "I", KBits: "B", KFloat: "F"}[x.T.Kind]
		return fmt.Sprintf("%d'%s(%s)", x.T.Width, letter, exprString(x.X))
	case *Concat:
		parts := make([]string, len(x.Parts))
		for i, p := range x.Parts {
			parts[i] = exprString(p)
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case *Lambda:
		return "lambda(" + strings.Join(x.Params, ", ") + ")"
	}
	return "?"
}

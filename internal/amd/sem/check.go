package sem

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Instruction is one family's instruction with its pseudocode compiled:
// parsed (or the parse error), analysed for what it reads and writes, and
// linked to the family's other instructions it calls.
type Instruction struct {
	Arch   string
	Name   string // lower case: "v_max_f32"
	Source string
	Prog   *Program
	Err    error // the parse error, nil when it parsed
	Info   *Analysis
	// Matrix is the operation a matrix instruction's formula states, run
	// over whole matrices (Evaluate); nil for the others and for a matrix
	// formula eval cannot run (Info.Problems says why).
	Matrix *MatrixOp
	lib    *Library
}

// RegInfo is what a program does with one operand register.
type RegInfo struct {
	Name  string
	Width int  // bits it reads or writes (32 when only named whole)
	Type  Type // the first type it is viewed as (D0.f32: f32); zero when none
	// Elem is the first type a part of it is viewed as (S0[15 : 0].f16 in a
	// packed instruction); zero when none.
	Elem    Type
	Read    bool
	Written bool
	// LaneMask: indexed by laneId (D0.u64[laneId] in a VOPC), so one
	// wave-wide value with a bit per lane.
	LaneMask bool
}

// Analysis is what a program uses, and why it cannot run when it cannot.
type Analysis struct {
	Regs map[string]*RegInfo
	// Vector: the instruction runs once per active lane (a v_ instruction);
	// otherwise once for the wave.
	Vector bool
	State  []string // wave state read or written (SCC, VCC, EXEC, WAVE_MODE.IEEE, ...)
	// Inputs is the wave state the program reads before it writes it,
	// which a request must give like a source: SCC, VCC, M0 (EXEC is the
	// lanes that run; the mode has the documented defaults).
	Inputs []string
	Calls  []string // built-ins, conversions and instructions called
	// Problems say why the program cannot be evaluated: memory, prose, a
	// name or function the evaluator does not know. Empty: executable.
	Problems []string
}

// Executable reports whether the instruction parses and uses only what the
// evaluator models.
func (in *Instruction) Executable() bool {
	return in.Err == nil && in.Info != nil && len(in.Info.Problems) == 0
}

// Sources lists the source registers S0, S1, ... the program reads, in order.
func (a *Analysis) Sources() []*RegInfo { return a.regs("S") }

// Dests lists the destination registers D0, D1 it writes.
func (a *Analysis) Dests() []*RegInfo { return a.regs("D") }

func (a *Analysis) regs(prefix string) []*RegInfo {
	var out []*RegInfo
	for _, r := range a.Regs {
		if strings.HasPrefix(r.Name, prefix) {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Library is one family's instructions, compiled on first use, so that
// pseudocode calling another instruction (v_max3_f32 calls v_max_f32)
// finds it.
type Library struct {
	Arch    string
	sources map[string]string
	// load fetches a source not in sources (a database read); nil when
	// sources holds them all.
	load  func(name string) (string, bool)
	mu    sync.Mutex
	insts map[string]*Instruction
}

// NewLibraryFunc returns a library that fetches each instruction's
// pseudocode when first needed (by lower-case name; false when the family
// has none).
func NewLibraryFunc(arch string, load func(name string) (string, bool)) *Library {
	return &Library{Arch: arch, sources: map[string]string{}, load: load, insts: map[string]*Instruction{}}
}

// Offer gives the library an instruction's pseudocode that the caller
// already holds (a page that has loaded the instruction), so Get need not
// fetch it again; a source already known is kept.
func (l *Library) Offer(name, source string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	name = strings.ToLower(name)
	if _, ok := l.sources[name]; !ok {
		l.sources[name] = source
	}
}

// source returns an instruction's pseudocode, fetching it when needed.
func (l *Library) source(name string) (string, bool) {
	if s, ok := l.sources[name]; ok {
		return s, s != ""
	}
	if l.load == nil {
		return "", false
	}
	s, ok := l.load(name)
	if !ok {
		s = ""
	}
	l.sources[name] = s
	return s, ok && s != ""
}

// NewLibrary returns the library of a family from its pseudocode by
// instruction name (any case).
func NewLibrary(arch string, sources map[string]string) *Library {
	l := &Library{Arch: arch, sources: map[string]string{}, insts: map[string]*Instruction{}}
	for n, s := range sources {
		l.sources[strings.ToLower(n)] = s
	}
	return l
}

// Fingerprint is a hash of every pseudocode the library holds, "" for a
// library that fetches its sources on demand (NewLibraryFunc): what a
// result computed from the whole library may be kept under.
func (l *Library) Fingerprint() string {
	if l.load != nil {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(l.Arch))
	for _, n := range slices.Sorted(maps.Keys(l.sources)) {
		fmt.Fprintf(h, "\x00%s\x00%d\x00%s", n, len(l.sources[n]), l.sources[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Names lists the instructions with pseudocode given to NewLibrary (or
// fetched so far), sorted.
func (l *Library) Names() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.sources))
	for n, s := range l.sources {
		if s != "" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Get compiles (once) and returns an instruction, nil when the family has
// no pseudocode for it.
func (l *Library) Get(name string) *Instruction {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.get(strings.ToLower(name), map[string]bool{})
}

func (l *Library) get(name string, visiting map[string]bool) *Instruction {
	if in, ok := l.insts[name]; ok {
		return in
	}
	src, ok := l.source(name)
	if !ok {
		return nil
	}
	in := compile(l.Arch, name, src)
	in.lib = l
	l.insts[name] = in
	// A call to another instruction runs only when that one does.
	if in.Info != nil {
		visiting[name] = true
		for _, c := range in.Info.Calls {
			if !isInstructionName(c) || visiting[c] {
				continue
			}
			if _, ok := l.source(c); !ok {
				in.Info.Problems = append(in.Info.Problems, fmt.Sprintf("calls %s, which has no pseudocode in %s", c, l.Arch))
				continue
			}
			callee := l.get(c, visiting)
			if !callee.Executable() {
				why := "it does not parse"
				if callee.Err == nil && len(callee.Info.Problems) > 0 {
					why = callee.Info.Problems[0]
				}
				in.Info.Problems = append(in.Info.Problems, fmt.Sprintf("calls %s, which cannot run: %s", c, why))
			}
		}
		delete(visiting, name)
	}
	return in
}

// lookup is the call-time view: the named instruction when the family has
// its pseudocode (nil for a library-less instruction).
func (l *Library) lookup(name string) *Instruction {
	if l == nil {
		return nil
	}
	name = strings.ToLower(name)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.source(name); !ok {
		return nil
	}
	return l.get(name, map[string]bool{})
}

// Compile parses and analyses one instruction's pseudocode alone: calls
// to other instructions cannot run without the family's Library.
func Compile(arch, name, src string) *Instruction {
	in := compile(arch, name, src)
	if in.Info != nil {
		for _, c := range in.Info.Calls {
			if isInstructionName(c) {
				in.Info.Problems = append(in.Info.Problems, fmt.Sprintf("calls %s: compile it in its family's Library", c))
			}
		}
	}
	return in
}

func compile(arch, name, src string) *Instruction {
	in := &Instruction{Arch: arch, Name: strings.ToLower(name), Source: src}
	parse := Parse
	if oldDialect(arch) {
		parse = func(src string) (*Program, error) { return parseOld(src, in.Name) }
	}
	prog, err := parse(src)
	if err != nil {
		in.Err = err
		return in
	}
	in.Prog = prog
	if fp8FNUZ(arch) {
		retypeFP8(prog)
	}
	renameOldDest(prog)
	in.Info = analyse(in)
	return in
}

// fp8FNUZ says the family's 8-bit floats are the FNUZ formats
// (isa.TraitFP8FNUZ).
func fp8FNUZ(arch string) bool {
	info, _ := isa.ArchByID(arch)
	return info.Has(isa.TraitFP8FNUZ)
}

// fp8 and bf8 are the family's 8-bit float formats.
func (in *Instruction) fp8() *FloatFormat {
	if fp8FNUZ(in.Arch) {
		return &FP8FNUZ
	}
	return &FP8
}

func (in *Instruction) bf8() *FloatFormat {
	if fp8FNUZ(in.Arch) {
		return &BF8FNUZ
	}
	return &BF8
}

// renameOldDest reads the older dialect's destination D (D.f = S0.f) as
// D0, when the text does not also name D0.
func renameOldDest(p *Program) {
	var ds []*Ident
	hasD0 := false
	walkProgram(p, func(e Expr) {
		if id, ok := e.(*Ident); ok {
			switch id.Name {
			case "D":
				ds = append(ds, id)
			case "D0":
				hasD0 = true
			}
		}
	}, func(Stmt) {})
	if hasD0 {
		return
	}
	for _, id := range ds {
		id.Name = "D0"
	}
}

// retypeFP8 makes .fp8 and .bf8 CDNA 3's FNUZ formats.
func retypeFP8(p *Program) {
	fix := func(t *Type) {
		if t.Kind != KFloat {
			return
		}
		switch t.Float {
		case &FP8:
			t.Float = &FP8FNUZ
		case &BF8:
			t.Float = &BF8FNUZ
		}
	}
	walkProgram(p, func(e Expr) {
		switch x := e.(type) {
		case *View:
			fix(&x.T)
		case *Cast:
			fix(&x.T)
		}
	}, func(s Stmt) {
		if d, ok := s.(*Declare); ok {
			fix(&d.T)
		}
	})
}

// walkProgram calls fe on every expression and fs on every statement.
func walkProgram(p *Program, fe func(Expr), fs func(Stmt)) {
	var we func(Expr)
	var ws func([]Stmt)
	we = func(e Expr) {
		if e == nil {
			return
		}
		fe(e)
		switch x := e.(type) {
		case *Unary:
			we(x.X)
		case *Binary:
			we(x.X)
			we(x.Y)
		case *Cond:
			we(x.C)
			we(x.T)
			we(x.F)
		case *View:
			we(x.X)
		case *Field:
			we(x.X)
		case *Index:
			we(x.X)
			we(x.I)
		case *Slice:
			we(x.X)
			we(x.Hi)
			we(x.Lo)
		case *PartSel:
			we(x.X)
			we(x.Base)
			we(x.Width)
		case *Call:
			for _, a := range x.Args {
				we(a)
			}
		case *Cast:
			we(x.X)
		case *Concat:
			for _, a := range x.Parts {
				we(a)
			}
		case *Lambda:
			ws(x.Body)
		}
	}
	ws = func(body []Stmt) {
		for _, s := range body {
			fs(s)
			switch x := s.(type) {
			case *Assign:
				for _, t := range x.Targets {
					we(t)
				}
				we(x.Value)
			case *If:
				for i, c := range x.Conds {
					we(c)
					ws(x.Bodies[i])
				}
				ws(x.Else)
			case *For:
				we(x.From)
				we(x.To)
				ws(x.Body)
			case *Declare:
				we(x.Len)
			case *Return:
				we(x.X)
			case *ExprStmt:
				we(x.X)
			}
		}
	}
	ws(p.Body)
}

// baseIdent is the variable an assignment target stores to.
func baseIdent(e Expr) *Ident {
	switch x := e.(type) {
	case *Ident:
		return x
	case *View:
		return baseIdent(x.X)
	case *Index:
		return baseIdent(x.X)
	case *Slice:
		return baseIdent(x.X)
	case *PartSel:
		return baseIdent(x.X)
	}
	return nil
}

func constInt(e Expr) (int, bool) {
	l, ok := e.(*Lit)
	if !ok || l.Val.T.Kind == KFloat {
		return 0, false
	}
	n := l.Val.Num()
	if !n.IsInt64() || n.Int64() < 0 || n.Int64() > MaxWidth {
		return 0, false
	}
	return int(n.Int64()), true
}

// analyser holds what the passes over an instruction's program learn:
// the names bound locally, the lambdas, the expressions written, the
// registers' widths, and the state, calls and problems found.
type analyser struct {
	in         *Instruction
	a          *Analysis
	locals     map[string]bool
	lambdas    map[string]bool
	written    map[Expr]bool
	fieldBases map[Expr]bool // registers whose fields are read (TRAPSTS.INVALID)
	problems   map[string]bool
	state      map[string]bool
	calls      map[string]bool
	widths     map[string]int
}

// analyse reads what an instruction's program uses: its registers (read,
// written, their widths and types), the state and functions it needs, and
// what the evaluator cannot model.
func analyse(in *Instruction) *Analysis {
	an := &analyser{
		in:         in,
		a:          &Analysis{Regs: map[string]*RegInfo{}, Vector: strings.HasPrefix(in.Name, "v_")},
		locals:     map[string]bool{},
		lambdas:    map[string]bool{},
		written:    map[Expr]bool{},
		fieldBases: map[Expr]bool{},
		problems:   map[string]bool{},
		state:      map[string]bool{},
		calls:      map[string]bool{},
		widths:     map[string]int{},
	}
	switch op, why, found := readMatrix(in); {
	case isa.IsMatrix(in.Name) && found:
		// The formula is the operation; the statements around it (EXEC
		// saved and set to every lane) say how the hardware runs it.
		in.Matrix = op
		if why != "" {
			an.addProblem("%s", why)
		}
		return an.result()
	case in.Prog.Matrix == "":
	default:
		// The guide's page carries another instruction's matrix formula
		// (an extraction slip of its layout): neither run the rest as if
		// complete nor call this instruction a matrix operation.
		an.addProblem("the text also holds a matrix formula (%s), which is not this instruction's: the guide's page mixes in another instruction's text", in.Prog.Matrix)
	}
	an.bindings()
	an.findFieldBases()
	an.uses()
	a := an.result()
	a.Inputs = stateInputs(in.Prog.Body)
	return a
}

// inputState maps the state names a program may read to the request's
// input that gives them.
var inputState = map[string]string{"SCC": "SCC", "VCC": "VCC", "VCC_LO": "VCC", "VCC_HI": "VCC", "VCCZ": "VCC", "M0": "M0"}

// stateInputs lists the inputs (inputState) read before any assignment to
// them, in statement order (an assignment's value before its target).
func stateInputs(body []Stmt) []string {
	reads, written := map[string]bool{}, map[string]bool{}
	readIn := func(e Expr) {
		if e == nil {
			return
		}
		walkProgram(&Program{Body: []Stmt{&ExprStmt{X: e}}}, func(e Expr) {
			if id, ok := e.(*Ident); ok {
				if in, ok := inputState[id.Name]; ok && !written[id.Name] {
					reads[in] = true
				}
			}
		}, func(Stmt) {})
	}
	var walk func([]Stmt)
	walk = func(body []Stmt) {
		for _, st := range body {
			switch x := st.(type) {
			case *Assign:
				readIn(x.Value)
				for _, t := range x.Targets {
					if id := baseIdent(t); id != nil {
						if x.Op != "=" {
							readIn(id)
						}
						written[id.Name] = true
					}
				}
			case *If:
				for i, c := range x.Conds {
					readIn(c)
					walk(x.Bodies[i])
				}
				walk(x.Else)
			case *For:
				readIn(x.From)
				readIn(x.To)
				walk(x.Body)
			case *Return:
				readIn(x.X)
			case *ExprStmt:
				readIn(x.X)
			}
		}
	}
	walk(body)
	return slices.Sorted(maps.Keys(reads))
}

func (an *analyser) addProblem(format string, args ...any) {
	an.problems[fmt.Sprintf(format, args...)] = true
}

func (an *analyser) reg(name string) *RegInfo {
	r := an.a.Regs[name]
	if r == nil {
		r = &RegInfo{Name: name, Width: 32}
		an.a.Regs[name] = r
	}
	return r
}

func (an *analyser) need(name string, w int) {
	if w > an.widths[name] {
		an.widths[name] = w
	}
}

// bindings is pass 1: what is assigned, declared, bound; which registers
// are written.
func (an *analyser) bindings() {
	walkProgram(an.in.Prog, func(e Expr) {
		if l, ok := e.(*Lambda); ok {
			for _, p := range l.Params {
				an.locals[p] = true
			}
		}
	}, func(s Stmt) {
		switch x := s.(type) {
		case *Assign:
			an.assign(x)
		case *Declare:
			an.locals[x.Name] = true
		case *For:
			an.locals[x.Var] = true
		}
	})
}

// assign marks an assignment's targets written and binds its locals and
// lambdas.
func (an *analyser) assign(x *Assign) {
	if _, ok := x.Value.(*Lambda); ok {
		for _, t := range x.Targets {
			if id, ok := t.(*Ident); ok {
				an.lambdas[id.Name] = true
			}
		}
	}
	var mark func(Expr)
	mark = func(t Expr) {
		if c, ok := t.(*Concat); ok {
			for _, p := range c.Parts {
				mark(p)
			}
			return
		}
		an.written[t] = true
		if id := baseIdent(t); id != nil {
			if x.Op == "=" {
				an.written[id] = true
			}
			if isOperandReg(id.Name) {
				an.reg(id.Name).Written = true
			} else if !stateNames[id.Name] && !constant(id.Name) && !isMemory(id.Name) {
				an.locals[id.Name] = true
			}
		}
	}
	for _, t := range x.Targets {
		mark(t)
	}
}

// findFieldBases: the registers whose fields are read (TRAPSTS.INVALID)
// are checked as fields.
func (an *analyser) findFieldBases() {
	walkProgram(an.in.Prog, func(e Expr) {
		if f, ok := e.(*Field); ok {
			an.fieldBases[f.X] = true
		}
	}, func(Stmt) {})
}

// uses is pass 2: every name, view, indexing, state field and call read.
func (an *analyser) uses() {
	walkProgram(an.in.Prog, func(e Expr) {
		switch x := e.(type) {
		case *Ident:
			an.useIdent(x)
		case *View:
			an.useView(x)
		case *Slice, *PartSel, *Index:
			an.useIndexing(x)
		case *Field:
			name, ok := stateField(x)
			if !ok {
				an.addProblem("state %s is not modelled", exprString(x))
			} else {
				an.state[name] = true
			}
		case *Call:
			an.useCall(x)
		case *Str:
			an.addProblem("prose statement %q", x.Text)
		}
	}, func(Stmt) {})
}

func (an *analyser) useIdent(x *Ident) {
	n := x.Name
	switch {
	case an.locals[n] || an.lambdas[n] || an.fieldBases[x]:
	case isOperandReg(n):
		r := an.reg(n)
		if !an.written[x] {
			r.Read = true
		}
	case stateNames[n]:
		an.state[n] = true
	case constant(n):
	case n == "SRC0" || n == "SRC1" || n == "SRC2" || n == "VGPR":
		// Checked where VGPR is indexed.
	case isMemory(n):
		an.addProblem("uses %s (memory or another register file): not modelled", n)
	default:
		an.addProblem("unknown name %s", n)
	}
}

// useView types an operand register read as a type (S0.f32), or the
// elements of one sliced.
func (an *analyser) useView(x *View) {
	if id, ok := x.X.(*Ident); ok && isOperandReg(id.Name) {
		r := an.reg(id.Name)
		an.need(id.Name, x.T.Width)
		if r.Type.Width == 0 {
			r.Type = x.T
		}
	}
	switch x.X.(type) {
	case *Slice, *PartSel:
		if b := baseIdent(x.X); b != nil && isOperandReg(b.Name) {
			if r := an.reg(b.Name); r.Elem.Width == 0 {
				r.Elem = x.T
			}
		}
	}
}

// useIndexing widens an operand register to the highest constant bit or
// element a slice, part-select or index reads, and checks VGPR[...][...].
func (an *analyser) useIndexing(x Expr) {
	var base Expr
	hi := -1
	switch y := x.(type) {
	case *Slice:
		base = y.X
		h, ok1 := constInt(y.Hi)
		l, ok2 := constInt(y.Lo)
		if ok1 && ok2 {
			hi = max(h, l)
		}
	case *PartSel:
		base = y.X
		b, ok1 := constInt(y.Base)
		w, ok2 := constInt(y.Width)
		if ok1 && ok2 {
			hi = b + w - 1
		}
	case *Index:
		base = y.X
		if i, ok := constInt(y.I); ok {
			hi = i
		}
		an.useIndex(y)
	}
	if id, ok := base.(*Ident); ok && isOperandReg(id.Name) && hi >= 0 {
		an.need(id.Name, hi+1)
	}
	if v, ok := base.(*View); ok {
		if id, ok := v.X.(*Ident); ok && isOperandReg(id.Name) && hi >= 0 {
			an.need(id.Name, hi+1)
		}
	}
}

// useIndex notes a register indexed by lane (a lane mask) and checks that
// VGPR[...][x] indexes a source operand's register.
func (an *analyser) useIndex(y *Index) {
	if id, ok := y.I.(*Ident); ok && (id.Name == "laneId" || id.Name == "laneID") {
		if b := baseIdent(y.X); b != nil && isOperandReg(b.Name) {
			an.reg(b.Name).LaneMask = true
		}
	}
	if inner, ok := y.X.(*Index); ok {
		if id, ok := inner.X.(*Ident); ok && id.Name == "VGPR" {
			r := baseIdent(y.I)
			if r == nil || !strings.HasPrefix(r.Name, "SRC") || len(r.Name) != 4 {
				an.addProblem("reads VGPR[...][%s]: only a source operand's register is modelled", exprString(y.I))
			} else {
				an.reg("S" + r.Name[3:]).Read = true
			}
		}
	}
}

func (an *analyser) useCall(x *Call) {
	switch {
	case an.lambdas[x.Fn]:
	case x.Fn == "eval":
		switch {
		case an.in.Prog.Matrix != "":
		case len(x.Args) == 1 && isMatrixProse(x.Args[0]) && !isa.IsMatrix(an.in.Name):
			an.addProblem("the text holds a matrix formula (%s), which is not this instruction's: the guide's page mixes in another instruction's text", x.Args[0].(*Str).Text)
		default:
			an.addProblem("eval of a prose string (matrix pseudocode in words)")
		}
	case builtinOK(an.in.Arch, x.Fn):
		an.calls[x.Fn] = true
	case convRe.MatchString(x.Fn) && (&machine{inst: an.in}).conversionKnown(x.Fn):
		an.calls[x.Fn] = true
	default:
		if ln := strings.ToLower(x.Fn); isInstructionName(ln) {
			an.calls[ln] = true
		} else {
			an.addProblem("unknown function %s", x.Fn)
		}
	}
}

// result sizes the registers and lists the state, calls and problems,
// sorted.
func (an *analyser) result() *Analysis {
	a := an.a
	for n, w := range an.widths {
		r := an.reg(n)
		r.Width = max(w, 1)
	}
	for n := range an.state {
		a.State = append(a.State, n)
	}
	sort.Strings(a.State)
	for n := range an.calls {
		a.Calls = append(a.Calls, n)
	}
	sort.Strings(a.Calls)
	for p := range an.problems {
		a.Problems = append(a.Problems, p)
	}
	sort.Strings(a.Problems)
	return a
}

// MatrixProblem starts the reason a matrix operation is not executable
// (matrix.go says which formulas run, over whole matrices).
const MatrixProblem = "a matrix operation"

// isMatrixProse is eval's string when it states a formula over matrices
// ("D0.f32(16x16) = S0.f16(16x16) * S1.f16(16x16) + S2.f32(16x16)").
func isMatrixProse(e Expr) bool {
	s, ok := e.(*Str)
	return ok && matrixDimsRe.MatchString(s.Text)
}

var matrixDimsRe = regexp.MustCompile(`\(\d+x\d+\)`)

// isInstructionName says a called name looks like an instruction
// (v_max_f32, s_ff1_i32_b32); whether the family has it is checked when
// the library links the call.
func isInstructionName(n string) bool {
	return strings.HasPrefix(n, "v_") || strings.HasPrefix(n, "s_")
}

func (m *machine) conversionKnown(name string) bool {
	_, ok := m.conversion(name)
	return ok
}

func builtinOK(arch, fn string) bool {
	b, ok := builtinFor(arch, fn)
	return ok && b.fn != nil
}

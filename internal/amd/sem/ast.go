package sem

// The syntax tree of one instruction's pseudocode. Expressions carry the
// types the text states (type suffixes, casts, literal suffixes) parsed
// into Type values at parse time; the evaluator derives the rest from the
// values it meets, as the dialect's C-like promotion rules say.

// Expr is an expression node.
type Expr interface{ exprLine() int }

// Stmt is a statement node.
type Stmt interface{ stmtLine() int }

type pos struct{ Line int }

func (p pos) exprLine() int { return p.Line }
func (p pos) stmtLine() int { return p.Line }

type (
	// Ident is a name: a register (S0, D0), wave state (SCC, EXEC), a
	// constant (PI, INF), a local variable or a lambda.
	Ident struct {
		pos
		Name string
	}
	// Lit is a literal with its value (typed when the text says so).
	// Signed is a literal written with an explicit sign (+0.0, and the
	// operand of -0.0): the guides compare with a signed zero literal to
	// test the sign as well (see signedZero).
	Lit struct {
		pos
		Text   string
		Val    Value
		Signed bool
	}
	// Str is a string statement ("Wait for all instructions to complete").
	Str struct {
		pos
		Text string
	}
	// Unary is -x, +x, !x, ~x.
	Unary struct {
		pos
		Op string
		X  Expr
	}
	// Binary is x op y.
	Binary struct {
		pos
		Op   string
		X, Y Expr
	}
	// Cond is c ? t : f.
	Cond struct {
		pos
		C, T, F Expr
	}
	// View is x.f32: the bits of x seen as a type.
	View struct {
		pos
		X Expr
		T Type
	}
	// Field is x.NAME: a named field of a state register (TRAPSTS.INVALID).
	Field struct {
		pos
		X    Expr
		Name string
	}
	// Index is x[i]: one bit of a value, or one element of an array.
	Index struct {
		pos
		X, I Expr
	}
	// Slice is x[hi : lo] (hi < lo reverses the bits).
	Slice struct {
		pos
		X, Hi, Lo Expr
	}
	// PartSel is x[base +: width].
	PartSel struct {
		pos
		X, Base, Width Expr
	}
	// Call is f(args): a built-in, a lambda or another instruction.
	Call struct {
		pos
		Fn   string
		Args []Expr
	}
	// Cast is N'T(x).
	Cast struct {
		pos
		T Type
		X Expr
	}
	// Concat is { hi, ..., lo }.
	Concat struct {
		pos
		Parts []Expr
	}
	// Lambda is lambda(params) ( body ).
	Lambda struct {
		pos
		Params []string
		Body   []Stmt
	}
)

type (
	// Assign is t1 = t2 = ... = v, or t op= v.
	Assign struct {
		pos
		Targets []Expr
		Op      string // "=", "+=", "-=", "|=", ...
		Value   Expr
	}
	// If is if c then ... elsif c then ... else ... endif.
	If struct {
		pos
		Conds  []Expr
		Bodies [][]Stmt
		Else   []Stmt
	}
	// For is for v in from : to do ... endfor (inclusive bounds).
	For struct {
		pos
		Var      string
		From, To Expr
		Body     []Stmt
	}
	// Declare is declare name : type, or an array declare name : type[n].
	Declare struct {
		pos
		Name string
		T    Type
		Len  Expr // nil for a scalar
	}
	// Return is return x.
	Return struct {
		pos
		X Expr
	}
	// Break leaves the innermost loop.
	Break struct{ pos }
	// ExprStmt is an expression evaluated for its effect (a call, a string).
	ExprStmt struct {
		pos
		X Expr
	}
)

// Program is one instruction's parsed pseudocode.
type Program struct {
	Body []Stmt
	// Examples are the guide's worked examples written after the code
	// ("NAME(0x1, 0x2) => 0x3").
	Examples []WorkedExample
	// Matrix is the formula a matrix instruction's text states over whole
	// matrices ("D = A (16x16) * B (16x16) + C (16x16)"), taken out of
	// the statements: it says what is computed, not from which lanes.
	Matrix string
}

// WorkedExample is one "NAME(args) => result" line of a guide.
type WorkedExample struct {
	Name   string   // as written, upper case
	Args   []string // "0x80000000"
	Result string
	Line   int
}

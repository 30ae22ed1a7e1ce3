package sem

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ParseError is a syntax error with its 1-based line in the pseudocode.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// maxDepth bounds expression and statement nesting so hostile input cannot
// exhaust the stack.
const maxDepth = 200

// workedExampleRe matches a guide's worked example line:
// "NAME(0x80000000) => 0x80000000   // a comment".
var workedExampleRe = regexp.MustCompile(`^\s*([A-Za-z][A-Za-z0-9_]*)\s*\(([^()]*)\)\s*=>\s*([^\s/]+)`)

// legendRe matches a line of a bit legend: "S1.u[0] -- value is a
// NaN." (V_CMP_CLASS's mask bits), prose about the code, not code.
var legendRe = regexp.MustCompile(`^\s*\S+\s+--\s+[A-Za-z]`)

// matrixRe is a matrix operation stated as a formula over whole matrices,
// as the guides head MFMA, SMFMAC and WMMA pseudocode:
// "D = A (32x1) * B (1x32) + C (32x32)", "A (sparse 16x32)".
var matrixRe = regexp.MustCompile(`^\s*\w+\s*=\s*\w+\s*\((?:sparse\s+)?\d+x\d+\)\s*\*\s*\w+\s*\(\d+x\d+\)\s*\+\s*\w+\s*\(\d+x\d+\)\s*$`)

// Parse parses one instruction's pseudocode. Worked example lines
// ("NAME(args) => result") are taken out first and returned in
// Program.Examples.
func Parse(src string) (*Program, error) {
	if len(src) > maxSourceLen {
		return nil, &ParseError{1, fmt.Sprintf("pseudocode is %d bytes; at most %d", len(src), maxSourceLen)}
	}
	lines, examples := splitExamples(src)
	var matrix string
	for i, l := range lines {
		if matrixRe.MatchString(l) {
			matrix, lines[i] = strings.Join(strings.Fields(l), " "), ""
		}
	}
	toks, err := lex(strings.Join(lines, "\n"))
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	body, err := p.stmts(func(t token) bool { return t.kind == tEOF })
	if err != nil {
		return nil, err
	}
	if len(body) == 0 && matrix == "" {
		return nil, &ParseError{1, "no statements"}
	}
	return &Program{Body: body, Examples: examples, Matrix: matrix}, nil
}

// WorkedExamples returns the worked example lines of a page's text (also
// of a page whose text is nothing else).
func WorkedExamples(src string) []WorkedExample {
	if len(src) > maxSourceLen {
		return nil
	}
	_, ex := splitExamples(src)
	return ex
}

// splitExamples blanks the worked example and legend lines out of the
// text (keeping line numbers) and returns the examples.
func splitExamples(src string) ([]string, []WorkedExample) {
	lines := strings.Split(src, "\n")
	var examples []WorkedExample
	for i, l := range lines {
		if legendRe.MatchString(l) {
			lines[i] = ""
			continue
		}
		m := workedExampleRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var args []string
		for _, a := range strings.Split(m[2], ",") {
			if a = strings.TrimSpace(a); a != "" {
				args = append(args, a)
			}
		}
		examples = append(examples, WorkedExample{Name: m[1], Args: args, Result: m[3], Line: i + 1})
		lines[i] = ""
	}
	return lines, examples
}

type parser struct {
	toks  []token
	i     int
	depth int
	old   bool // the older guides' C-like notation (olddialect.go)
}

func (p *parser) peek() token       { return p.toks[p.i] }
func (p *parser) peekN(n int) token { return p.toks[min(p.i+n, len(p.toks)-1)] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) isOp(s string) bool { t := p.peek(); return t.kind == tOp && t.text == s }
func (p *parser) isKw(s string) bool { t := p.peek(); return t.kind == tIdent && t.text == s }

func (p *parser) errf(format string, args ...any) error {
	return &ParseError{p.peek().line, fmt.Sprintf(format, args...)}
}

func (p *parser) expectOp(s string) error {
	if !p.isOp(s) {
		return p.errf("expected %q, found %v", s, p.peek())
	}
	p.next()
	return nil
}

func (p *parser) expectKw(s string) error {
	if !p.isKw(s) {
		return p.errf("expected %q, found %v", s, p.peek())
	}
	p.next()
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errf("nesting deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// keywords that end a statement list.
var blockEnd = map[string]bool{"endif": true, "elsif": true, "else": true, "endfor": true}

// stmts parses statements until stop says the next token ends the list.
func (p *parser) stmts(stop func(token) bool) ([]Stmt, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	var out []Stmt
	for {
		for p.isOp(";") {
			p.next()
		}
		t := p.peek()
		if stop(t) {
			return out, nil
		}
		if t.kind == tEOF {
			return nil, p.errf("unexpected end of text")
		}
		if t.kind == tIdent && blockEnd[t.text] {
			return nil, p.errf("unexpected %q", t.text)
		}
		if d := p.cDefine(); d != nil {
			out = append(out, d)
			continue
		}
		if d := p.cDeclare(); d != nil {
			out = append(out, d)
			if p.isOp(";") {
				continue
			}
		}
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

func (p *parser) stmt() (Stmt, error) {
	t := p.peek()
	at := pos{t.line}
	if t.kind == tIdent {
		switch t.text {
		case "if":
			return p.ifStmt()
		case "for":
			return p.forStmt()
		case "declare":
			return p.declare()
		case "return":
			p.next()
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			return &Return{at, x}, nil
		case "break":
			p.next()
			return &Break{at}, nil
		case "eval":
			// eval "D0.i32(16x16) = ...": matrix prose in quotes.
			p.next()
			if p.peek().kind != tString {
				return nil, p.errf("expected a string after eval")
			}
			s := p.next()
			return &ExprStmt{at, &Call{at, "eval", []Expr{&Str{pos{s.line}, s.text}}}}, nil
		}
	}
	if t.kind == tString {
		p.next()
		return &ExprStmt{at, &Str{at, t.text}}, nil
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek().kind == tOp {
		switch op := p.peek().text; op {
		case "=":
			targets := []Expr{x}
			var v Expr
			for p.isOp("=") {
				p.next()
				if v, err = p.expr(); err != nil {
					return nil, err
				}
				if p.isOp("=") {
					targets = append(targets, v)
				}
			}
			for _, tg := range targets {
				if err := checkTarget(tg); err != nil {
					return nil, &ParseError{at.Line, err.Error()}
				}
			}
			return &Assign{at, targets, "=", v}, nil
		case "+=", "-=", "*=", "/=", "|=", "&=", "^=", "<<=", ">>=":
			p.next()
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := checkTarget(x); err != nil {
				return nil, &ParseError{at.Line, err.Error()}
			}
			return &Assign{at, []Expr{x}, op, v}, nil
		case "++", "--":
			p.next()
			if err := checkTarget(x); err != nil {
				return nil, &ParseError{at.Line, err.Error()}
			}
			one := &Lit{pos: at, Text: "1", Val: Integer(1)}
			return &Assign{at, []Expr{x}, op[:1] + "=", one}, nil
		}
	}
	switch x.(type) {
	case *Call, *Str:
		return &ExprStmt{at, x}, nil
	}
	// A lambda body may end in a bare expression: its value.
	return &ExprStmt{at, x}, nil
}

// checkTarget rejects assignments to what cannot be stored to.
func checkTarget(e Expr) error {
	switch x := e.(type) {
	case *Ident:
		return nil
	case *View:
		return checkTarget(x.X)
	case *Field:
		return checkTarget(x.X)
	case *Index:
		return checkTarget(x.X)
	case *Slice:
		return checkTarget(x.X)
	case *PartSel:
		return checkTarget(x.X)
	case *Concat:
		for _, part := range x.Parts {
			if err := checkTarget(part); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("cannot assign to %s", describe(e))
}

func describe(e Expr) string {
	switch x := e.(type) {
	case *Lit:
		return "the literal " + x.Text
	case *Call:
		return "the result of " + x.Fn + "()"
	case *Binary:
		return "an expression with " + x.Op
	}
	return "an expression"
}

func (p *parser) ifStmt() (Stmt, error) {
	at := pos{p.next().line}
	s := &If{pos: at}
	for {
		c, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.old && !p.isKw("then") {
			// C's "if (c) D.f = x; else ...": then is optional.
		} else if err := p.expectKw("then"); err != nil {
			return nil, err
		}
		body, err := p.stmts(func(t token) bool {
			return t.kind == tIdent && (t.text == "elsif" || t.text == "else" || t.text == "endif") || p.old && t.kind == tEOF
		})
		if err != nil {
			return nil, err
		}
		s.Conds = append(s.Conds, c)
		s.Bodies = append(s.Bodies, body)
		if p.peek().kind == tEOF {
			return s, nil // the older notation may leave out a final endif
		}
		switch p.next().text {
		case "elsif":
			continue
		case "else":
			if p.isKw("if") && (p.old || p.peek().line == p.toks[p.i-1].line) {
				// "else if" written as two words on one line.
				p.next()
				continue
			}
			els, err := p.stmts(func(t token) bool {
				// Without endif (C's nested if ... else), an else ends
				// the innermost if: the next else is the enclosing one's.
				return t.kind == tIdent && t.text == "endif" || p.old && (t.kind == tEOF || t.kind == tIdent && (t.text == "else" || t.text == "elsif"))
			})
			if err != nil {
				return nil, err
			}
			s.Else = els
			if p.isKw("endif") {
				p.next()
			}
		}
		return s, nil
	}
}

func (p *parser) forStmt() (Stmt, error) {
	at := pos{p.next().line}
	v := p.next()
	if v.kind != tIdent {
		return nil, &ParseError{v.line, fmt.Sprintf("expected a loop variable after for, found %v", v)}
	}
	if err := p.expectKw("in"); err != nil {
		return nil, err
	}
	from, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.old && p.isOp("..") {
		p.next() // "for i in 0 ... 31 do", "for i in 0..63 do"
	} else if err := p.expectOp(":"); err != nil {
		return nil, err
	}
	to, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expectKw("do"); err != nil {
		return nil, err
	}
	body, err := p.stmts(func(t token) bool { return t.kind == tIdent && t.text == "endfor" })
	if err != nil {
		return nil, err
	}
	p.next()
	return &For{at, v.text, from, to, body}, nil
}

func (p *parser) declare() (Stmt, error) {
	at := pos{p.next().line}
	name := p.next()
	if name.kind != tIdent {
		return nil, &ParseError{name.line, fmt.Sprintf("expected a name after declare, found %v", name)}
	}
	if err := p.expectOp(":"); err != nil {
		return nil, err
	}
	tt := p.next()
	if tt.kind != tCast {
		return nil, &ParseError{tt.line, fmt.Sprintf("expected a type like 32'U after declare %s :, found %v", name.text, tt)}
	}
	t, err := castTokenType(tt)
	if err != nil {
		return nil, err
	}
	d := &Declare{at, name.text, t, nil}
	if p.isOp("[") {
		p.next()
		if d.Len, err = p.expr(); err != nil {
			return nil, err
		}
		if err := p.expectOp("]"); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func castTokenType(t token) (Type, error) {
	w, _ := strconv.Atoi(t.text[:len(t.text)-2])
	ty, err := castType(w, t.text[len(t.text)-1])
	if err != nil {
		return Type{}, &ParseError{t.line, err.Error()}
	}
	return ty, nil
}

// Expressions, by C precedence (lowest first); ** binds tighter than *.
var binaryLevels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!=", "<>"}, {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

func (p *parser) expr() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	c, err := p.binary(0)
	if err != nil {
		return nil, err
	}
	if !p.isOp("?") {
		return c, nil
	}
	at := pos{p.next().line}
	t, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(":"); err != nil {
		return nil, err
	}
	f, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &Cond{at, c, t, f}, nil
}

func (p *parser) binary(level int) (Expr, error) {
	if level == len(binaryLevels) {
		return p.power()
	}
	x, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp || !slices.Contains(binaryLevels[level], t.text) {
			return x, nil
		}
		// "x + : y" cannot occur; "+:" is a part-select inside brackets.
		p.next()
		y, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		x = &Binary{pos{t.line}, t.text, x, y}
	}
}

func (p *parser) power() (Expr, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	if p.isOp("**") {
		at := pos{p.next().line}
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		y, err := p.power()
		if err != nil {
			return nil, err
		}
		return &Binary{at, "**", x, y}, nil
	}
	return x, nil
}

func (p *parser) unary() (Expr, error) {
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "!" || t.text == "~") {
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if l, ok := x.(*Lit); ok && (t.text == "+" || t.text == "-") {
			l.Signed = true
		}
		if t.text == "+" {
			return x, nil
		}
		return &Unary{pos{t.line}, t.text, x}, nil
	}
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	x, err = p.postfix(x)
	if err != nil {
		return nil, err
	}
	return p.isEvenSuffix(x), nil
}

func (p *parser) postfix(x Expr) (Expr, error) {
	for {
		t := p.peek()
		if t.kind != tOp {
			return x, nil
		}
		at := pos{t.line}
		switch t.text {
		case ".":
			p.next()
			n := p.next()
			if n.kind != tIdent {
				return nil, &ParseError{n.line, fmt.Sprintf("expected a type or field name after '.', found %v", n)}
			}
			if ty, ok := parseSuffix(n.text); ok {
				x = &View{at, x, ty}
			} else if p.old && n.text == "d" {
				x = &View{at, x, TF64} // the older notation's S0.d: a double
			} else {
				x = &Field{at, x, n.text}
			}
		case "[":
			p.next()
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			switch {
			case p.isOp(":"):
				p.next()
				b, err := p.expr()
				if err != nil {
					return nil, err
				}
				x = &Slice{at, x, a, b}
			case p.isOp("+:"):
				p.next()
				b, err := p.expr()
				if err != nil {
					return nil, err
				}
				x = &PartSel{at, x, a, b}
			default:
				x = &Index{at, x, a}
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
		default:
			return x, nil
		}
	}
}

// isEvenSuffix reads the older notation's "floor(S0.f) is even".
func (p *parser) isEvenSuffix(x Expr) Expr {
	if p.old && p.isKw("is") && p.peekN(1).kind == tIdent && p.peekN(1).text == "even" {
		at := pos{p.next().line}
		p.next()
		return &Call{at, "isEven", []Expr{x}}
	}
	return x
}

func (p *parser) primary() (Expr, error) {
	t := p.next()
	at := pos{t.line}
	switch t.kind {
	case tNumber:
		v, err := parseNumber(t.text)
		if err != nil {
			return nil, &ParseError{t.line, err.Error()}
		}
		return &Lit{pos: at, Text: t.text, Val: v}, nil
	case tSized:
		v, err := parseSized(t.text)
		if err != nil {
			return nil, &ParseError{t.line, err.Error()}
		}
		return &Lit{pos: at, Text: t.text, Val: v}, nil
	case tCast:
		ty, err := castTokenType(t)
		if err != nil {
			return nil, err
		}
		if !p.isOp("(") {
			return nil, p.errf("expected '(' after the cast %s", t.text)
		}
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		return &Cast{at, ty, x}, nil
	case tString:
		return &Str{at, t.text}, nil
	case tIdent:
		if t.text == "lambda" {
			return p.lambda(at)
		}
		if blockEnd[t.text] || t.text == "then" || t.text == "do" || t.text == "if" {
			return nil, &ParseError{t.line, fmt.Sprintf("unexpected %q", t.text)}
		}
		if p.isOp("(") {
			p.next()
			var args []Expr
			for !p.isOp(")") {
				a, err := p.expr()
				if err != nil {
					return nil, err
				}
				args = append(args, a)
				if !p.isOp(",") {
					break
				}
				p.next()
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return &Call{at, t.text, args}, nil
		}
		return &Ident{at, t.text}, nil
	case tOp:
		switch t.text {
		case "(":
			if ty := p.peek(); p.old && ty.kind == tIdent && cCastTypes[ty.text] && p.peekN(1).kind == tOp && p.peekN(1).text == ")" {
				p.next()
				p.next()
				x, err := p.unary()
				if err != nil {
					return nil, err
				}
				return cCast(at, ty.text, x), nil
			}
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return x, nil
		case "{":
			c := &Concat{pos: at}
			for {
				x, err := p.expr()
				if err != nil {
					return nil, err
				}
				c.Parts = append(c.Parts, x)
				if p.isOp(",") {
					p.next()
					continue
				}
				if err := p.expectOp("}"); err != nil {
					return nil, err
				}
				return c, nil
			}
		}
	case tEOF:
		return nil, &ParseError{t.line, "unexpected end of text in an expression"}
	}
	return nil, &ParseError{t.line, fmt.Sprintf("unexpected %v in an expression", t)}
}

func (p *parser) lambda(at pos) (Expr, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	l := &Lambda{pos: at}
	for !p.isOp(")") {
		n := p.next()
		if n.kind != tIdent {
			return nil, &ParseError{n.line, fmt.Sprintf("expected a parameter name, found %v", n)}
		}
		l.Params = append(l.Params, n.text)
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	// The body ends at the ")" that closes the one just opened.
	body, err := p.stmts(func(t token) bool { return t.kind == tOp && t.text == ")" })
	if err != nil {
		return nil, err
	}
	p.next()
	l.Body = body
	return l, nil
}

// parseNumber reads an unsized literal: 12, 0x1f (unsized), 1U (u32),
// 0x100000000ULL (u64), 1LL (i64), 1.0 (f64), 1.0F (f32).
func parseNumber(text string) (Value, error) {
	s := strings.ReplaceAll(text, "_", "") // 0xffc0_0000: the older guides group hex digits
	suffix := ""
	for len(s) > 0 && strings.IndexByte("ULFulf", s[len(s)-1]) >= 0 && !(isHexLit(s) && strings.IndexByte("Ff", s[len(s)-1]) >= 0) {
		suffix = string(s[len(s)-1]) + suffix
		s = s[:len(s)-1]
	}
	suffix = strings.ToUpper(suffix)
	if strings.ContainsAny(s, ".eE") && !isHexLit(s) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Value{}, fmt.Errorf("bad float literal %q", text)
		}
		switch suffix {
		case "F":
			return FromFloat64(f, &F32), nil
		case "":
			return FromFloat64(f, &F64), nil
		}
		return Value{}, fmt.Errorf("bad float literal suffix in %q", text)
	}
	n, ok := new(big.Int).SetString(s, 0)
	if !ok {
		return Value{}, fmt.Errorf("bad integer literal %q", text)
	}
	switch suffix {
	case "":
		if isHexLit(s) {
			// C gives an unsuffixed hex constant the first of 32 and 64
			// bits that holds it, unsigned; its bits are what is meant.
			w := 32
			if n.BitLen() > 32 {
				w = 64
			}
			if n.BitLen() > 64 {
				w = n.BitLen()
			}
			return FromBig(n, Type{Kind: KBits, Width: w}), nil
		}
		if !n.IsInt64() {
			return Value{}, fmt.Errorf("integer literal %q too large", text)
		}
		return Integer(n.Int64()), nil
	case "U":
		w := 32
		if n.BitLen() > 32 {
			w = 64
		}
		return FromBig(n, Type{Kind: KUint, Width: w}), nil
	case "UL", "ULL", "LU", "LLU":
		return FromBig(n, TU64), nil
	case "L", "LL":
		return FromBig(n, Type{Kind: KInt, Width: 64}), nil
	case "F":
		f, _ := new(big.Float).SetInt(n).Float64()
		return FromFloat64(f, &F32), nil
	}
	return Value{}, fmt.Errorf("bad integer literal suffix in %q", text)
}

func isHexLit(s string) bool { return len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') }

// parseSized reads N'V: 16'1.0 (a float of N bits), 8'0xff and 4'0 (N
// bits), 1'1U and 2'0U (N-bit unsigned), 32'-1.
func parseSized(text string) (Value, error) {
	q := strings.IndexByte(text, '\'')
	w, err := strconv.Atoi(text[:q])
	if err != nil || w <= 0 || w > MaxWidth {
		return Value{}, fmt.Errorf("bad width in %q", text)
	}
	body := text[q+1:]
	neg := strings.HasPrefix(body, "-")
	body = strings.TrimPrefix(body, "-")
	if strings.Contains(body, ".") && !isHexLit(body) {
		f, err := strconv.ParseFloat(strings.TrimRight(body, "Ff"), 64)
		if err != nil {
			return Value{}, fmt.Errorf("bad float literal %q", text)
		}
		if neg {
			f = -f
		}
		var ff *FloatFormat
		switch w {
		case 16:
			ff = &F16
		case 32:
			ff = &F32
		case 64:
			ff = &F64
		default:
			return Value{}, fmt.Errorf("no %d-bit float format for %q", w, text)
		}
		return FromFloat64(f, ff), nil
	}
	kind := KBits
	if strings.HasSuffix(body, "U") {
		kind = KUint
		body = strings.TrimSuffix(body, "U")
	}
	n, ok := new(big.Int).SetString(body, 0)
	if !ok {
		return Value{}, fmt.Errorf("bad literal %q", text)
	}
	if neg {
		n.Neg(n)
	}
	return FromBig(n, Type{Kind: kind, Width: w}), nil
}

package sem

import (
	"regexp"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The older guides (RDNA 1-2, CDNA 1-2, Vega, Vega 7nm;
// isa.TraitOldPseudocode) write their pseudocode in a C-like notation
// inside the opcode tables' description cells: "D.f = S0.f > S1.f ? S0.f
// : S1.f.", "if (IEEE_MODE && S0.f == sNaN) D.f = Quiet(S0.f); else if
// ... endif.". The table joined each cell's lines into one, so statements
// end with ";" or a sentence's period, and a // comment runs into the
// code after it. parseOld reads that notation into the same syntax tree
// the newer guides' pseudocode parses to, so one evaluator runs both:
//
//   - lexing (lexOptions.old): a period ending a sentence ends a
//     statement; ".." and "..." are for's range; "0xffc0_0000" groups
//     digits; "end if" is endif, "break for" break, "If"/"Else" keywords;
//     "+-INF" is either infinity.
//   - parsing (parser.old): if without then and without a final endif,
//     C's nested if/else; C casts "(float)x", "(int)x", "(snorm)x"; C
//     declarations "int32 tmp = ..."; "x is even".
//   - rewriting (oldRewrite): D is D0 and S is S0 (renameOldDest);
//     threadId is laneId; an operand named without a type (D = S0 & S1,
//     D[threadId] = (S0 == S1)) has the type the instruction's name gives
//     (s_and_b64: b64; v_cmp_lt_f32: f32); "x == NaN" and "x == sNaN" test
//     the class; IEEE_MODE is WAVE_MODE.IEEE; the helpers' names are the
//     evaluator's (oldFuncs).
//
// Worked examples ("V_COS_F16(0xfc00) => 0xfe00 // cos(-INF) = NAN"),
// which the cells run together, are split out first.

// oldDialect says a family's guide writes the older notation.
func oldDialect(arch string) bool {
	info, ok := isa.ArchByID(arch)
	return ok && info.Has(isa.TraitOldPseudocode)
}

// oldExampleRe finds a worked example anywhere in a cell:
// "S_ABS_I32(0x80000001) => 0x7fffffff".
var oldExampleRe = regexp.MustCompile(`\b([A-Z][A-Z0-9_]*)\s*\(([^()]*)\)\s*=>\s*([^\s/]+)`)

// oldExampleLabelRe is the label before a run of worked examples.
var oldExampleLabelRe = regexp.MustCompile(`\b(?:Functional )?[Ee]xamples(?: \([^)]*\))?:`)

// parseOld parses one instruction's pseudocode in the older notation.
// name is the instruction (lower case), whose type suffixes type the
// operands the text names without one.
func parseOld(src, name string) (*Program, error) {
	src, examples := splitOldExamples(src)
	src, matrix := oldMatrix(src)
	if matrix != "" && strings.TrimSpace(src) == "" {
		return &Program{Examples: examples, Matrix: matrix}, nil
	}
	prog, err := parseOldText(src, lexOptions{old: true})
	if err != nil {
		// The comment-end guess (oldCommentEnd) can take prose for code:
		// read every comment to its line's end instead.
		if p2, err2 := parseOldText(src, lexOptions{old: true, toEOL: true}); err2 == nil {
			prog, err = p2, nil
		}
	}
	if err != nil {
		return nil, err
	}
	prog.Examples, prog.Matrix = examples, matrix
	oldRewrite(prog, name)
	return prog, nil
}

func parseOldText(src string, o lexOptions) (*Program, error) {
	toks, err := lexMode(src, o)
	if err != nil {
		return nil, err
	}
	toks = oldTokens(toks)
	p := &parser{toks: toks, old: true}
	var body []Stmt
	for {
		part, err := p.stmts(func(t token) bool { return t.kind == tEOF || t.kind == tIdent && t.text == "endif" })
		if err != nil {
			return nil, err
		}
		body = append(body, part...)
		if p.peek().kind == tEOF {
			break
		}
		// An endif more than the ifs opened ("... else D.f = 0.0; endif;
		// endif."): the C-like text closed an else-if chain twice.
		if len(body) == 0 {
			return nil, p.errf("unexpected %q", "endif")
		}
		if _, ok := body[len(body)-1].(*If); !ok {
			return nil, p.errf("unexpected %q", "endif")
		}
		p.next()
	}
	if len(body) == 0 {
		return nil, &ParseError{1, "no statements"}
	}
	return &Program{Body: body}, nil
}

// oldMatrixRe is the older guides' matrix formula, "D(32x32F32) =
// A(32x1F32) x B(1x32F32) + C(32x32F32), 2 Blocks, 16 pass, ...", with
// the element types in the shapes and the rest of the line how the
// hardware runs it.
var oldMatrixRe = regexp.MustCompile(`^\s*D\((\d+x\d+)[A-Z0-9]*\)\s*=\s*A\((\d+x\d+)[A-Z0-9]*\)\s*[x*]\s*B\((\d+x\d+)[A-Z0-9]*\)\s*\+\s*C\((\d+x\d+)[A-Z0-9]*\).*$`)

// oldMatrix takes a matrix formula line out of the text and returns it
// in the newer guides' form, "D = A (32x1) * B (1x32) + C (32x32)".
func oldMatrix(src string) (string, string) {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if m := oldMatrixRe.FindStringSubmatch(l); m != nil {
			lines[i] = ""
			return strings.Join(lines, "\n"), "D = A (" + m[2] + ") * B (" + m[3] + ") + C (" + m[4] + ")"
		}
	}
	return src, ""
}

// splitOldExamples takes the worked examples and their labels out of the
// text (keeping its lines) and returns them.
func splitOldExamples(src string) (string, []WorkedExample) {
	lines := strings.Split(src, "\n")
	var out []WorkedExample
	for i, l := range lines {
		for _, m := range oldExampleRe.FindAllStringSubmatchIndex(l, -1) {
			var args []string
			for _, a := range strings.Split(l[m[4]:m[5]], ",") {
				if a = strings.TrimSpace(a); a != "" {
					args = append(args, a)
				}
			}
			out = append(out, WorkedExample{Name: l[m[2]:m[3]], Args: args, Result: l[m[6]:m[7]], Line: i + 1})
		}
		if len(out) > 0 || oldExampleLabelRe.MatchString(l) {
			// What follows a worked example on its line is the examples'
			// comments and more examples: none of it is code.
			if loc := oldExampleLabelRe.FindStringIndex(l); loc != nil {
				lines[i] = l[:loc[0]]
			} else if m := oldExampleRe.FindStringIndex(l); m != nil {
				lines[i] = l[:m[0]]
			}
		}
	}
	return strings.Join(lines, "\n"), out
}

// oldTokens joins the older notation's two-word keywords and reads its
// capitalised ones.
func oldTokens(in []token) []token {
	out := make([]token, 0, len(in))
	for i := 0; i < len(in); i++ {
		t := in[i]
		next := func(k int) token { return in[min(i+k, len(in)-1)] }
		if t.kind == tIdent {
			switch t.text {
			case "If", "IF":
				t.text = "if"
			case "Else", "ELSE":
				t.text = "else"
			case "Endif", "ENDIF":
				t.text = "endif"
			case "Then", "THEN":
				t.text = "then"
			case "end":
				if n := next(1); n.kind == tIdent && (n.text == "if" || n.text == "for") {
					t.text = "end" + n.text
					i++
				}
			case "break":
				if n := next(1); n.kind == tIdent && n.text == "for" {
					i++
				}
			}
		}
		if t.kind == tOp && t.text == "+" && next(1).kind == tOp && next(1).text == "-" && next(2).kind == tIdent && next(2).text == "INF" {
			t = token{tIdent, pmInf, t.line}
			i += 2
		}
		out = append(out, t)
	}
	return out
}

// pmInf is the name "+-INF" lexes to: "abs(S2.f) == +-INF".
const pmInf = "+-INF"

// widthLabelRe is the older guides' width label comment, "// 32bit ".
var widthLabelRe = regexp.MustCompile(`^//\s*\d+bit\s`)

// codeBefore reports whether the line holding src[i] has text before i.
func codeBefore(src string, i int) bool {
	for j := i - 1; j >= 0 && src[j] != '\n'; j-- {
		if src[j] != ' ' && src[j] != '\t' {
			return true
		}
	}
	return false
}

// oldStmtStartRe matches where a statement starts: an if, for or block
// keyword, or an assignment to a name (its type view and index allowed).
var oldStmtStartRe = regexp.MustCompile(`^(?:(if)\s*(\(|[A-Za-z_]\w*)|for\s+[A-Za-z_]\w*\s+in\b|(?:else|elsif|endif|endfor)\b|([A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)?(?:\[[^\]]*\])*(?:\.[A-Za-z_]\w*)?\s*(?:=[^=>]|\+=|-=|\|=|&=|\^=|\*=))`)

// oldCodeNames are the names an assignment after a comment may store to
// without the text having assigned them before.
var oldCodeNames = map[string]bool{
	"D": true, "D0": true, "D1": true, "S": true, "S0": true, "S1": true, "S2": true, "tmp": true, "RETURN_DATA": true,
}

// oldAssignedRe finds the names a text assigns: "sign_out = ...".
var oldAssignedRe = regexp.MustCompile(`\b([A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)?(?:\[[^\]]*\])?\s*(?:=[^=]|\+=|-=)`)

// oldCommentEnd returns where a // comment ends: at the first statement
// start after it on its line, else at the line's end. After code (the
// cell's joined lines) a statement starts with a name the code uses being
// assigned, an if on one, a for or a block keyword; a comment that opens
// its line ("// S2.f = z if (abs(S2.f) >= ...") ends only at an if or a
// for, as the assignments in it are often prose ("// D = VCC in VOPC
// encoding.").
func oldCommentEnd(src string, i int, afterCode bool) int {
	end := strings.IndexByte(src[i:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += i
	}
	known := map[string]bool{}
	for _, m := range oldAssignedRe.FindAllStringSubmatch(src[:i], -1) {
		known[m[1]] = true
	}
	isCode := func(n string) bool { return oldCodeNames[n] || stateNames[n] || known[n] || isOperandReg(n) }
	for j := i + 2; j < end; j++ {
		if src[j-1] != ' ' || src[j] == ' ' {
			continue
		}
		m := oldStmtStartRe.FindStringSubmatch(src[j:end])
		switch {
		case m == nil:
		case m[1] == "if":
			if m[2] == "(" || isCode(m[2]) {
				return j
			}
		case m[3] != "":
			if afterCode && isCode(m[3]) {
				return j
			}
		case afterCode || strings.HasPrefix(m[0], "for"):
			return j
		}
	}
	return end
}

// verilogLiteral reads the older guides' Verilog-style sized literal
// starting at i, whose width digits end at j: "8 'h0", "16 'b0", "1'h0"
// (a space may stand before the quote). It returns it as the newer
// notation's sized literal text ("8'0x0") and where it ends.
func verilogLiteral(src string, i, j int) (string, int, bool) {
	k := j
	for k < len(src) && src[k] == ' ' {
		k++
	}
	if k+2 >= len(src) || src[k] != '\'' {
		return "", 0, false
	}
	prefix := map[byte]string{'h': "0x", 'b': "0b", 'd': ""}[src[k+1]]
	if prefix == "" && src[k+1] != 'd' {
		return "", 0, false
	}
	e := k + 2
	for e < len(src) && (isHex(src[e]) || src[e] == '_') {
		e++
	}
	if e == k+2 {
		return "", 0, false
	}
	return src[i:j] + "'" + prefix + strings.ReplaceAll(src[k+2:e], "_", ""), e, true
}

// scanGrouped extends a hex literal ending at e over "_" digit groups.
func scanGrouped(src string, i, e int) int {
	if !isHexLit(src[i:e]) {
		return e
	}
	for e+1 < len(src) && src[e] == '_' && isHex(src[e+1]) {
		e++
		for e < len(src) && isHex(src[e]) {
			e++
		}
	}
	return e
}

// cTypes are the C type names of the older notation's declarations and
// casts.
var cTypes = map[string]Type{
	"float": TF32, "double": TF64, "int": TI32, "int32": TI32, "uint": TU32, "uint32": TU32, "unsigned": TU32,
	"int64": {Kind: KInt, Width: 64}, "uint64": TU64, "int16": {Kind: KInt, Width: 16}, "uint16": {Kind: KUint, Width: 16},
}

// cCastTypes are the names a C cast may give: the types and the
// normalisations (snorm)x and (unorm)x.
var cCastTypes = func() map[string]bool {
	m := map[string]bool{"snorm": true, "unorm": true}
	for n := range cTypes {
		m[n] = true
	}
	return m
}()

// cDeclare reads "int32 tmp = D.i32" (and "float tmp;"): it returns the
// declaration and leaves the name for the assignment that follows.
func (p *parser) cDeclare() Stmt {
	t, n, after := p.peek(), p.peekN(1), p.peekN(2)
	ty, ok := cTypes[t.text]
	if !p.old || t.kind != tIdent || !ok || n.kind != tIdent || after.kind != tOp || after.text != "=" && after.text != ";" {
		return nil
	}
	p.next()
	if after.text == ";" {
		p.next()
		p.next()
	}
	return &Declare{pos{t.line}, n.text, ty, nil}
}

// cDefine reads the older notation's function definition, "ABSDIFF(x, y)
// := (x > y ? x - y : y - x)", as a lambda bound to the name.
func (p *parser) cDefine() Stmt {
	if !p.old || p.peek().kind != tIdent || p.peekN(1).kind != tOp || p.peekN(1).text != "(" {
		return nil
	}
	var params []string
	k := 2
	for ; ; k += 2 {
		t := p.peekN(k)
		if t.kind != tIdent {
			return nil
		}
		params = append(params, t.text)
		if sep := p.peekN(k + 1); sep.kind != tOp || sep.text != "," {
			break
		}
	}
	if c, q, e := p.peekN(k+1), p.peekN(k+2), p.peekN(k+3); c.text != ")" || q.text != ":" || e.text != "=" {
		return nil
	}
	name := p.next()
	for i := 0; i < k+3; i++ {
		p.next()
	}
	body, err := p.expr()
	if err != nil {
		return nil
	}
	at := pos{name.line}
	return &Assign{at, []Expr{&Ident{at, name.text}}, "=", &Lambda{at, params, []Stmt{&ExprStmt{at, body}}}}
}

// cCast is the older notation's C cast: (float) and (double) convert by
// value; (int) and (unsigned) of a float convert as f32_to_i32 does
// (round toward zero, saturating), of an integer by value; (snorm) and
// (unorm) normalise a float.
func cCast(at pos, name string, x Expr) Expr {
	f := staticFloat(x)
	switch name {
	case "snorm", "unorm":
		w := "32"
		if f == &F16 {
			w = "16"
		}
		return &Call{at, "f" + w + "_to_" + name, []Expr{x}}
	}
	t := cTypes[name]
	if f != nil && t.Kind == KFloat && f != t.Float {
		// As the newer guides' f64_to_f32: a signalling NaN is quieted.
		return &Call{at, f.Name + "_to_" + t.Float.Name, []Expr{x}}
	}
	if f != nil && t.Kind != KFloat {
		letter := "i"
		if t.Kind == KUint {
			letter = "u"
		}
		return &Call{at, f.Name + "_to_" + letter + itoa(t.Width), []Expr{x}}
	}
	return &Cast{at, t, x}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// staticFloat is the float format an expression has by its text (a view
// S0.f, a float literal, a call that keeps its argument's format), nil
// when the text does not say.
func staticFloat(e Expr) *FloatFormat {
	switch x := e.(type) {
	case *View:
		if x.T.Kind == KFloat {
			return x.T.Float
		}
	case *Lit:
		if x.Val.T.Kind == KFloat {
			return x.Val.T.Float
		}
	case *Unary:
		return staticFloat(x.X)
	case *Binary:
		if f := staticFloat(x.X); f != nil {
			return f
		}
		return staticFloat(x.Y)
	case *Cond:
		return staticFloat(x.T)
	case *Cast:
		if x.T.Kind == KFloat {
			return x.T.Float
		}
	case *Call:
		switch x.Fn {
		case "floor", "trunc", "ceil", "fract", "abs", "sqrt", "ldexp", "fma", "cvtToQuietNAN", "Quiet":
			if len(x.Args) > 0 {
				return staticFloat(x.Args[0])
			}
		}
	}
	return nil
}

// oldFuncs are the older notation's helper names that the evaluator
// knows by another: the newer guides' names for the same functions.
var oldFuncs = map[string]string{
	"isNan": "isNAN", "isNaN": "isNAN", "Quiet": "cvtToQuietNAN", "Abs": "abs", "Exponent": "exponent",
	"Mantissa": "mantissa", "bitcount": "countbits", "isSignalNaN": "isSignalNAN", "isQuietNaN": "isQuietNAN",
	// TwosComplement(Exponent(S0.f) - 127 + 1): the (signed) value itself.
	"TwosComplement": "signext",
}

// oldConvRe is the older notation's conversion name: flt32_to_flt16,
// int16_to_flt16, flt16_to_snorm16, uint32_to_uint16.
var oldConvRe = regexp.MustCompile(`^(flt|int|uint)(\d+)_to_(flt|int|uint|snorm|unorm)(\d+)$`)

// oldClassTests are the names a float is compared with to test its
// class: "S0.f == sNaN" is isSignalNAN(S0.f).
var oldClassTests = map[string]string{"NaN": "isNAN", "NAN": "isNAN", "sNaN": "isSignalNAN", "qNaN": "isQuietNAN"}

// oldHalves are the older notation's views of a register's half:
// "S0.f16_lo" is S0[15 : 0].f16.
var oldHalves = map[string]struct {
	hi bool
	t  Type
}{
	"f16_lo": {false, TF16}, "f16_hi": {true, TF16},
	"u16_lo": {false, IntType(KUint, 16)}, "u16_hi": {true, IntType(KUint, 16)},
	"i16_lo": {false, IntType(KInt, 16)}, "i16_hi": {true, IntType(KInt, 16)},
}

// nameTypes are the types an instruction's name gives its destination
// (the first type suffix) and its sources (the last): s_bcnt0_i32_b64
// gives D i32 and S b64; zero types when the name has none.
func nameTypes(name string) (dest, src Type) {
	for _, part := range strings.Split(name, "_")[1:] {
		if len(part) < 2 || !strings.ContainsRune("fiub", rune(part[0])) {
			continue
		}
		t, ok := parseSuffix(part)
		if !ok || t.Width < 8 || t.Width > 64 || part == "b" || part == "f" || part == "i" || part == "u" {
			continue
		}
		if dest.Width == 0 {
			dest = t
		}
		src = t
	}
	return dest, src
}

// oldRewriter carries what oldRewrite needs across the tree.
type oldRewriter struct {
	dest, src Type
	vector    bool // a v_ instruction: VCC and EXEC named whole are its lane's bit
	hasS0     bool
}

// oldRewrite reads the older notation's names and conventions as the
// newer one's (see the file comment).
func oldRewrite(p *Program, name string) {
	r := &oldRewriter{vector: strings.HasPrefix(name, "v_")}
	if !strings.Contains(name, "_pk") {
		// A packed instruction's name types its elements, not its registers.
		r.dest, r.src = nameTypes(name)
	}
	walkProgram(p, func(e Expr) {
		if id, ok := e.(*Ident); ok && id.Name == "S0" {
			r.hasS0 = true
		}
	}, func(Stmt) {})
	r.stmts(p.Body)
}

func (r *oldRewriter) stmts(body []Stmt) {
	for _, s := range body {
		switch x := s.(type) {
		case *Assign:
			for i, t := range x.Targets {
				x.Targets[i] = r.expr(t, false)
			}
			x.Value = r.expr(x.Value, false)
			wideAssign(x)
		case *If:
			for i, c := range x.Conds {
				x.Conds[i] = r.expr(c, false)
				r.stmts(x.Bodies[i])
			}
			r.stmts(x.Else)
		case *For:
			x.From, x.To = r.expr(x.From, false), r.expr(x.To, false)
			r.stmts(x.Body)
		case *Declare:
			if x.Len != nil {
				x.Len = r.expr(x.Len, false)
			}
		case *Return:
			x.X = r.expr(x.X, false)
		case *ExprStmt:
			x.X = r.expr(x.X, false)
		}
	}
}

// expr rewrites e; typed says e is already viewed as a type (S0 in
// S0.f), so an operand there keeps its bits untyped.
func (r *oldRewriter) expr(e Expr, typed bool) Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *Unary:
		x.X = r.expr(x.X, false)
	case *Binary:
		x.X, x.Y = r.expr(x.X, false), r.expr(x.Y, false)
		r.cArith(x)
		return r.classTest(x)
	case *Cond:
		x.C, x.T, x.F = r.expr(x.C, false), r.expr(x.T, false), r.expr(x.F, false)
	case *View:
		x.X = r.expr(x.X, true)
		if id, ok := x.X.(*Ident); ok && id.Name == "vcc_out" {
			x.X = &Ident{id.pos, "D1"}
		}
	case *Field:
		if h, ok := oldHalves[x.Name]; ok {
			hi, lo := 15, 0
			if h.hi {
				hi, lo = 31, 16
			}
			base := r.expr(x.X, true)
			return &View{x.pos, &Slice{x.pos, base, intLit(x.Line, hi), intLit(x.Line, lo)}, h.t}
		}
		if x.Name == "d" {
			return &View{x.pos, r.expr(x.X, true), TF64}
		}
		x.X = r.expr(x.X, true)
	case *Index:
		x.I = r.expr(x.I, false)
		if id, ok := x.I.(*Ident); ok && id.Name == "laneId" {
			if b, ok := x.X.(*Ident); ok && (b.Name == "VCC" || b.Name == "EXEC" || b.Name == "D" || b.Name == "D0") {
				// D[threadId], VCC[threadId]: a bit per lane of a mask.
				x.X = &View{b.pos, r.renamed(b), TU64}
				return x
			}
		}
		x.X = r.expr(x.X, false)
		return element(x)
	case *Slice:
		x.X, x.Hi, x.Lo = r.expr(x.X, false), r.expr(x.Hi, false), r.expr(x.Lo, false)
		return typedSlice(x)
	case *PartSel:
		x.X, x.Base, x.Width = r.expr(x.X, false), r.expr(x.Base, false), r.expr(x.Width, false)
	case *Call:
		for i, a := range x.Args {
			x.Args[i] = r.expr(a, false)
		}
		x.Fn = oldFuncName(x.Fn)
	case *Ident:
		if x.Name == "vcc_out" {
			return &View{x.pos, &Ident{x.pos, "D1"}, IntType(KUint, 1)}
		}
		return r.ident(x, typed)
	case *Cast:
		x.X = r.expr(x.X, false)
	case *Concat:
		for i, a := range x.Parts {
			x.Parts[i] = r.expr(a, false)
		}
	}
	return e
}

// renamed is an identifier with the older notation's names read: D is
// D0, S is S0 (when the text has no S0), threadId is laneId.
func (r *oldRewriter) renamed(x *Ident) *Ident {
	switch x.Name {
	case "D":
		x.Name = "D0"
	case "S":
		if !r.hasS0 {
			x.Name = "S0"
		}
	case "threadId", "threadID", "ThreadPosition":
		x.Name = "laneId"
	}
	return x
}

func (r *oldRewriter) ident(x *Ident, typed bool) Expr {
	x = r.renamed(x)
	switch {
	case x.Name == "IEEE_MODE":
		return &Field{x.pos, &Ident{x.pos, "WAVE_MODE"}, "IEEE"}
	case x.Name == "K":
		// V_FMAAK_F32's K: the instruction's literal constant.
		return &Ident{x.pos, "SIMM32"}
	case x.Name == "opcode_size_in_bits" && r.src.Width > 0:
		return intLit(x.Line, r.src.Width)
	case typed:
		return x
	case r.vector && (x.Name == "VCC" || x.Name == "EXEC"):
		// A VALU instruction's VCC = ... writes its lane's bit.
		return &Index{x.pos, &View{x.pos, x, TU64}, &Ident{x.pos, "laneId"}}
	case isOperandReg(x.Name):
		t := r.src
		if x.Name[0] == 'D' {
			t = r.dest
		}
		if t.Width > 0 {
			return &View{x.pos, x, t}
		}
	}
	return x
}

// classTest reads "x == NaN", "x == sNaN" and "x == +-INF" as the class
// tests they mean (a comparison with a NaN is never true).
func (r *oldRewriter) classTest(x *Binary) Expr {
	if x.Op != "==" && x.Op != "!=" && x.Op != "<>" {
		return x
	}
	if in, ok := x.X.(*Binary); ok && x.Op == "==" && in.Op == "==" {
		// "S1.f == S2.f == 0" (0/0), "abs(S1.f) == abs(S2.f) == +-INF":
		// both are; C would compare the first comparison's truth.
		return &Binary{x.pos, "&&", r.classTest(&Binary{in.pos, "==", in.X, x.Y}), r.classTest(&Binary{in.pos, "==", in.Y, x.Y})}
	}
	if identName(x.Y) == "DENORM" {
		// "S1.f == DENORM": S1.f is subnormal (the newer x == DENORM.f32).
		if f := staticFloat(x.X); f != nil {
			x.Y = &View{x.pos, x.Y, FloatType(f)}
		}
		return x
	}
	other, id := x.X, identName(x.Y)
	if id == "" {
		other, id = x.Y, identName(x.X)
	}
	var test Expr
	if fn, ok := oldClassTests[id]; ok {
		test = &Call{x.pos, fn, []Expr{other}}
	} else if id == pmInf {
		test = &Binary{x.pos, "==", &Call{x.pos, "abs", []Expr{other}}, &Ident{x.pos, "INF"}}
	} else {
		return x
	}
	if x.Op != "==" {
		return &Unary{x.pos, "!", test}
	}
	return test
}

func identName(e Expr) string {
	if id, ok := e.(*Ident); ok {
		return id.Name
	}
	return ""
}

func intLit(line, n int) *Lit {
	return &Lit{pos: pos{line}, Text: itoa(n), Val: Integer(int64(n))}
}

// oldFuncName is the evaluator's name for an older helper.
func oldFuncName(fn string) string {
	if n, ok := oldFuncs[fn]; ok {
		return n
	}
	m := oldConvRe.FindStringSubmatch(fn)
	if m == nil {
		return fn
	}
	short := map[string]string{"flt": "f", "int": "i", "uint": "u"}
	if m[3] == "snorm" || m[3] == "unorm" {
		return "f" + m[2] + "_to_" + m[3]
	}
	return short[m[1]] + m[2] + "_to_" + short[m[3]] + m[4]
}

// typedSlice reads a slice of a typed view as the older notation means
// it, a narrower value of the view's kind: S0.i[15:0] is the low half as
// an i16 (the newer S0[15 : 0].i16), S0.i[23:0] an i24, S0.f[31:16] the
// high half as an f16. Slices of unsigned and raw views are unsigned
// bits already.
func typedSlice(x *Slice) Expr {
	v, ok := x.X.(*View)
	if !ok {
		return x
	}
	hi, ok1 := constInt(x.Hi)
	lo, ok2 := constInt(x.Lo)
	if !ok1 || !ok2 || hi < lo {
		return x
	}
	w := hi - lo + 1
	if lo == 0 && w == v.T.Width {
		return v // D.f[31:0]: the view itself
	}
	beyond := hi >= v.T.Width // D.f[63:32]: a 32-bit float in a 64-bit register
	if !beyond && (w >= v.T.Width || v.T.Kind != KInt && v.T.Kind != KFloat) {
		return x
	}
	var t Type
	switch v.T.Kind {
	case KInt:
		t = IntType(KInt, w)
	case KFloat:
		f := floatOfWidth(w)
		if f == nil {
			return x
		}
		t = FloatType(f)
	default:
		return &Slice{x.pos, v.X, x.Hi, x.Lo}
	}
	return &View{x.pos, &Slice{x.pos, v.X, x.Hi, x.Lo}, t}
}

func floatOfWidth(w int) *FloatFormat {
	switch w {
	case 16:
		return &F16
	case 32:
		return &F32
	case 64:
		return &F64
	}
	return nil
}

// element reads an index into a view narrower than a register as the
// older notation means it, an element: S0.f16[1] is the high half as an
// f16 (the newer S0[31 : 16].f16), S0.i8[3] the top byte as an i8.
func element(x *Index) Expr {
	v, ok := x.X.(*View)
	if !ok || v.T.Width >= 32 || v.T.Width == 0 {
		return x
	}
	w := v.T.Width
	if k, ok := constInt(x.I); ok {
		return &View{x.pos, &Slice{x.pos, v.X, intLit(x.Line, k*w+w-1), intLit(x.Line, k*w)}, v.T}
	}
	base := &Binary{x.pos, "*", x.I, intLit(x.Line, w)}
	return &View{x.pos, &PartSel{x.pos, v.X, base, intLit(x.Line, w)}, v.T}
}

// staticInt is the sized integer type an expression has by its text (a
// view S0.u24, a cast), zero when the text does not say.
func staticInt(e Expr) Type {
	switch x := e.(type) {
	case *View:
		if x.T.Kind == KInt || x.T.Kind == KUint || x.T.Kind == KBits {
			return x.T
		}
	case *Cast:
		if x.T.Kind != KFloat {
			return x.T
		}
	case *Slice:
		hi, ok1 := constInt(x.Hi)
		lo, ok2 := constInt(x.Lo)
		if ok1 && ok2 && hi >= lo {
			return IntType(KUint, hi-lo+1)
		}
	}
	return Type{}
}

// cArith applies C's arithmetic conversions the older notation's text
// relies on: operands narrower than 32 bits take part as 32-bit values
// (S0.u24 * S1.u24 is the full 48-bit product's low 32 bits, not 24), and
// arithmetic whose result is shifted right by 32 or more, or compared
// with a constant wider than 32 bits, is done in 64 bits: (S0.u * S1.u)
// >> 32 is the product's high half, S0.u + S1.u >= 0x100000000ULL the
// carry out.
func (r *oldRewriter) cArith(x *Binary) {
	switch x.Op {
	case "+", "-", "*":
		x.X, x.Y = promote(x.X, 32), promote(x.Y, 32)
		// S0.f * (2 ** S1.i) scales by a power of two (ldexp) as the
		// newer S0.f32 * 2.0F ** S1.i32 does.
		if p, ok := x.Y.(*Binary); ok && x.Op == "*" && p.Op == "**" {
			if l, ok := p.X.(*Lit); ok && l.Val.T.Kind == KInteger && l.Val.Num().Int64() == 2 {
				if f := staticFloat(x.X); f != nil {
					p.X = &Lit{pos: l.pos, Text: "2.0", Val: FromFloat64(2, f)}
				}
			}
		}
	case ">>", "<<":
		// A shift count is a count: S0.i[3:0] is not a signed i4.
		if v, ok := x.Y.(*View); ok {
			if sl, ok := v.X.(*Slice); ok && v.T.Kind == KInt {
				x.Y = sl
			}
		}
		if n, ok := constInt(x.Y); ok && n >= 32 && x.Op == ">>" {
			x.X = widen(x.X, 64)
		}
	case "<", "<=", ">", ">=", "==", "!=":
		if l, ok := x.Y.(*Lit); ok && l.Val.T.Width > 32 {
			x.X = widen(x.X, l.Val.T.Width)
		}
	}
}

// promote makes an integer operand narrower than w bits a w-bit one of
// its kind (by value: a signed one is sign-extended).
func promote(e Expr, w int) Expr {
	t := staticInt(e)
	if t.Width == 0 || t.Width >= w {
		return e
	}
	k := t.Kind
	if k == KBits {
		k = KUint
	}
	return &Cast{pos{e.exprLine()}, IntType(k, w), e}
}

// widen makes the integer operands of an arithmetic expression w bits
// wide.
func widen(e Expr, w int) Expr {
	switch x := e.(type) {
	case *Binary:
		switch x.Op {
		case "+", "-", "*", "<<":
			x.X = widen(x.X, w)
			if x.Op != "<<" {
				x.Y = widen(x.Y, w)
			}
		}
		return x
	case *Cast:
		if x.T.Kind != KFloat && x.T.Width < w {
			x.T = IntType(x.T.Kind, w)
		}
		return x
	}
	return promote(e, w)
}

// wideAssign computes an integer value assigned to a destination wider
// than 32 bits at the destination's width, as the text means it:
// {vcc_out, D.u64} = S0.u32 * S1.u32 + S2.u64 is the 65-bit sum of the
// full product.
func wideAssign(x *Assign) {
	if len(x.Targets) != 1 || x.Op != "=" {
		return
	}
	if id, ok := x.Targets[0].(*Ident); ok && !isOperandReg(id.Name) && !stateNames[id.Name] {
		// A C local is an int at least: byte = S1.u[1:0]; bit = byte * 8.
		x.Value = promote(x.Value, 32)
		return
	}
	w := targetWidth(x.Targets[0])
	if w > 32 {
		if b, ok := x.Value.(*Binary); ok && (b.Op == "+" || b.Op == "-" || b.Op == "*") {
			x.Value = widen(b, w)
		}
	}
}

func targetWidth(e Expr) int {
	switch x := e.(type) {
	case *View:
		if x.T.Kind == KFloat {
			return 0
		}
		return x.T.Width
	case *Concat:
		n := 0
		for _, p := range x.Parts {
			w := targetWidth(p)
			if w == 0 {
				return 0
			}
			n += w
		}
		return n
	}
	return 0
}

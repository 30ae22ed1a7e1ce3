package sem

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// Matrix operations (MFMA, SMFMAC, WMMA, SWMMAC). The guides state them
// as one formula over whole matrices, "D = A (16x16) * B (16x16) + C
// (16x16)" (CDNA) or eval "D0.f32(16x16) = S0.f16(16x16) * S1.f16(16x16)
// + S2.f32(16x16)" (RDNA), and give which lane and VGPR holds each
// element only in the matrix chapter's prose and figures. What the text
// does say is run as it says it: D = A * B + C over whole matrices, the
// elements given row by row. Each element of D is its C element plus the
// row-by-column dot product, summed exactly and rounded once to D's
// type: the guides do not state the order of the hardware's additions or
// the precision it keeps between them, so a GPU's last bit may differ.

// MatrixOp is a dense matrix multiply-accumulate read from the text.
type MatrixOp struct {
	Formula string // as the guide writes it
	M, N, K int    // D and C are MxN, A is MxK, B is KxN
	// A, B, C, D are the element types; an integer A or B whose
	// signedness the instruction's NEG bits choose (iu8, iu4) is unsigned
	// here, and NegSigned says so.
	A, B, C, D Type
	NegSigned  [2]bool
	// Blocks is the number of such products the instruction computes
	// side by side (the mnemonic's _4b), each on its own A, B and C; 0
	// when it names none.
	Blocks int
}

// Source is one input matrix: its name (S0, S1, S2), role and shape.
type MatrixSource struct {
	Name       string
	Role       string // A, B or C
	Rows, Cols int
	Type       Type
}

// Sources lists the input matrices in operand order.
func (op *MatrixOp) Sources() []MatrixSource {
	return []MatrixSource{{"S0", "A", op.M, op.K, op.A}, {"S1", "B", op.K, op.N, op.B}, {"S2", "C", op.M, op.N, op.C}}
}

// shapeRe is the header formula: "D = A (16x32) * B (32x16) + C (16x16)",
// "A (sparse 16x32)", "+ D (16x16)" (a sparse form accumulating into D).
var shapeRe = regexp.MustCompile(`^\w+\s*=\s*\w+\s*\((sparse\s+)?(\d+)x(\d+)\)\s*\*\s*\w+\s*\((\d+)x(\d+)\)\s*\+\s*(\w+)\s*\((\d+)x(\d+)\)$`)

// typedRe is the RDNA text's formula with element types:
// "D0.f32(16x16) = S0.f16(16x16) * S1.f16(16x16) + S2.f32(16x16)".
var typedRe = regexp.MustCompile(`^D0\.(\w+)\((\d+)x(\d+)\)\s*=\s*S0\.(\w+)\((\d+)x(\d+)\)\s*\*\s*S1\.(\w+)\((\d+)x(\d+)\)\s*\+\s*S2\.(\w+)\((\d+)x(\d+)\)$`)

// matrixTypeWords are the element types a matrix mnemonic's type words
// name (v_mfma_f32_16x16x32_bf8_fp8: D f32, A bf8, B fp8), and the words
// that name something eval does not model, with why. The CDNA guides'
// MFMA text gives only the shapes, so the element types are these words
// (the guide's tables name the instructions the same way).
var matrixTypeWords = map[string]struct {
	f   *FloatFormat // a float format the word spells differently
	neg bool         // signedness chosen by the NEG bits
	why string       // not modelled: why
}{
	"iu8": {neg: true}, "iu4": {neg: true}, "f4": {f: &FP4},
	"xf32":    {why: "XF32 inputs are F32 reduced to a precision the guide does not define"},
	"f8f6f4":  {why: "A's and B's formats (FP8, BF8, FP6, BF6 or FP4) are chosen by the encoding's format fields (CBSZ, BLGP), which the pseudocode does not read"},
	"scale":   {why: "the scale operands are spread across lanes in a layout the pseudocode does not give"},
	"scale16": {why: "the scale operands are spread across lanes in a layout the pseudocode does not give"},
}

// elemType reads one element type word of a matrix formula or mnemonic.
func (in *Instruction) elemType(w string) (t Type, neg bool, why string) {
	if tw, ok := matrixTypeWords[w]; ok {
		switch {
		case tw.why != "":
			return Type{}, false, tw.why
		case tw.f != nil:
			return FloatType(tw.f), false, ""
		}
		bits, _ := strconv.Atoi(strings.TrimPrefix(w, "iu"))
		return Type{Kind: KUint, Width: bits}, true, ""
	}
	switch w {
	case "fp8":
		return FloatType(in.fp8()), false, ""
	case "bf8":
		return FloatType(in.bf8()), false, ""
	}
	if t, ok := parseSuffix(w); ok && t.Kind != KBits {
		return t, false, ""
	}
	return Type{}, false, fmt.Sprintf("%q is not an element type eval knows", w)
}

// readMatrix reads a matrix instruction's formula: the operation, or why
// it cannot run. found is false when the text has no matrix formula.
func readMatrix(in *Instruction) (op *MatrixOp, why string, found bool) {
	typed := ""
	walkProgram(in.Prog, func(e Expr) {
		if c, ok := e.(*Call); ok && c.Fn == "eval" && len(c.Args) == 1 && isMatrixProse(c.Args[0]) {
			if s := strings.Join(strings.Fields(c.Args[0].(*Str).Text), " "); typed == "" || typedRe.MatchString(s) {
				typed = s
			}
		}
	}, func(Stmt) {})
	formula := in.Prog.Matrix
	if formula == "" {
		formula = typed
	}
	if formula == "" {
		return nil, "", false
	}
	fail := func(format string, args ...any) (*MatrixOp, string, bool) {
		return nil, fmt.Sprintf(MatrixProblem+" (%s): ", formula) + fmt.Sprintf(format, args...), true
	}
	if strings.Contains(formula, "sparse") || strings.Contains(typed, "index set") || strings.Contains(typed, "tmp(") {
		return fail("A is sparse: which of its entries are kept is an index set in S2 whose encoding the pseudocode does not give, so eval does not run it")
	}
	if m := typedRe.FindStringSubmatch(typed); m != nil {
		return in.typedMatrix(formula, m, fail)
	}
	m := shapeRe.FindStringSubmatch(formula)
	if m == nil {
		return fail("the formula is not D = A (MxK) * B (KxN) + C (MxN)")
	}
	dims := atois(m[2], m[3], m[4], m[5], m[7], m[8])
	op = &MatrixOp{Formula: formula, M: dims[0], K: dims[1], N: dims[3]}
	if dims[2] != op.K || dims[4] != op.M || dims[5] != op.N || m[6] == "D" {
		return fail("the shapes do not make a product A (MxK) * B (KxN) + C (MxN)")
	}
	// The header gives shapes only: the types are the mnemonic's words,
	// v_mfma_<D>_<M>x<N>x<K>[_<blocks>b]_<A>[_<B>].
	words := strings.Split(in.Name, "_")
	shape := fmt.Sprintf("%dx%dx%d", op.M, op.N, op.K)
	at := -1
	for i, w := range words {
		if w == shape {
			at = i
		}
	}
	if at < 3 {
		return fail("the mnemonic does not name the shape %s and the text gives no element types", shape)
	}
	for _, w := range words[2:at] {
		if tw, ok := matrixTypeWords[w]; ok && tw.why != "" {
			return fail("%s", tw.why)
		}
	}
	var ab []string
	for _, w := range words[at+1:] {
		if n, err := strconv.Atoi(strings.TrimSuffix(w, "b")); err == nil && n > 0 && strings.HasSuffix(w, "b") {
			op.Blocks = n // each block is this product
			continue
		}
		ab = append(ab, w)
	}
	if len(ab) == 1 {
		ab = append(ab, ab[0])
	}
	if len(ab) != 2 {
		return fail("the mnemonic's type words %v do not name A's and B's element types", words[at+1:])
	}
	tw := [4]string{ab[0], ab[1], words[at-1], words[at-1]}
	return in.withTypes(op, tw, fail)
}

// mixed says the operation mixes integer and float elements.
func mixed(op *MatrixOp) bool {
	f := func(t Type) bool { return t.Kind == KFloat }
	return f(op.A) != f(op.B) || f(op.A) != f(op.D) || f(op.C) != f(op.D)
}

// typedMatrix reads the typed formula's match.
func (in *Instruction) typedMatrix(formula string, m []string, fail func(string, ...any) (*MatrixOp, string, bool)) (*MatrixOp, string, bool) {
	d := atois(m[2], m[3], m[5], m[6], m[8], m[9], m[11], m[12])
	op := &MatrixOp{Formula: formula, M: d[0], N: d[1], K: d[3]}
	if d[2] != op.M || d[4] != op.K || d[5] != op.N || d[6] != op.M || d[7] != op.N {
		return fail("the shapes do not make a product A (MxK) * B (KxN) + C (MxN)")
	}
	return in.withTypes(op, [4]string{m[4], m[7], m[10], m[1]}, fail)
}

// withTypes gives op the element types of A, B, C and D named by words.
func (in *Instruction) withTypes(op *MatrixOp, words [4]string, fail func(string, ...any) (*MatrixOp, string, bool)) (*MatrixOp, string, bool) {
	var ts [4]Type
	for i, w := range words {
		t, neg, why := in.elemType(w)
		if why != "" {
			return fail("%s", why)
		}
		ts[i] = t
		if i < 2 {
			op.NegSigned[i] = neg
		}
	}
	op.A, op.B, op.C, op.D = ts[0], ts[1], ts[2], ts[3]
	if mixed(op) {
		return fail("A, B and D mix integer and float elements")
	}
	return op, "", true
}

func atois(ss ...string) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i], _ = strconv.Atoi(s)
	}
	return out
}

// maxMatrixWork bounds the multiply-adds one request may ask for.
const maxMatrixWork = 1 << 17

// MatrixResult is D after a matrix operation, row by row.
type MatrixResult struct {
	Formula string   `json:"formula"`
	Rows    int      `json:"rows"`
	Cols    int      `json:"cols"`
	Type    string   `json:"type"`
	Values  []string `json:"values"` // row-major
	Bits    []string `json:"bits"`
	Inputs  []string `json:"inputs"` // how each source was read ("S0 = A, 16x16 f16")
	Note    string   `json:"note"`
}

// RowValues is Values cut into rows (for pages).
func (m *MatrixResult) RowValues() [][]string {
	var out [][]string
	for r := 0; r+1 <= m.Rows && (r+1)*m.Cols <= len(m.Values); r++ {
		out = append(out, m.Values[r*m.Cols:(r+1)*m.Cols])
	}
	return out
}

// evaluateMatrix runs a request on a matrix operation: each source is a
// whole matrix, its elements given row by row (one value fills it).
func evaluateMatrix(in *Instruction, req Request) (*Response, error) {
	op := in.Matrix
	if err := matrixRequestOK(in, req); err != nil {
		return nil, err
	}
	if op.M*op.N*op.K > maxMatrixWork {
		return nil, inputError("%s: %dx%dx%d multiply-adds; at most %d", in.Name, op.M, op.N, op.K, maxMatrixWork)
	}
	var neg [2]bool
	for i := 0; i < 2; i++ {
		neg[i] = req.Mods.Neg[i]
	}
	srcs := op.Sources()
	vals := make([][]uint64, len(srcs))
	res := &MatrixResult{Formula: op.Formula, Rows: op.M, Cols: op.N, Type: op.D.String(), Values: []string{}, Bits: []string{}}
	for i, s := range srcs {
		t := s.Type
		if i < 2 && op.NegSigned[i] && neg[i] {
			t.Kind = KInt
		}
		vs, err := matrixValues(s, t, req.Sources[s.Name])
		if err != nil {
			return nil, err
		}
		vals[i] = vs
		res.Inputs = append(res.Inputs, fmt.Sprintf("%s = %s, %dx%d %s", s.Name, s.Role, s.Rows, s.Cols, t))
		srcs[i].Type = t
	}
	for r := 0; r < op.M; r++ {
		for c := 0; c < op.N; c++ {
			var b uint64
			if op.D.Kind == KFloat {
				b = matrixDotFloat(op, srcs, vals, r, c)
			} else {
				b = matrixDotInt(op, srcs, vals, r, c, req.Mods.Clamp)
			}
			v := FromUint(b, op.D)
			res.Values = append(res.Values, valueText(v))
			res.Bits = append(res.Bits, v.view(Type{Kind: KBits, Width: op.D.Width}).Hex())
		}
	}
	if op.D.Kind == KFloat {
		res.Note = "each element of D is C's plus the row-by-column dot product, summed exactly and rounded once to " + op.D.String() +
			" (nearest even); the guide does not give the hardware's order of additions or its precision between them"
	} else {
		res.Note = "each element of D is C's plus the row-by-column dot product, exactly, kept to its low " + strconv.Itoa(op.D.Width) + " bits"
		if req.Mods.Clamp {
			res.Note = "each element of D is C's plus the row-by-column dot product, clamped to the range of " + op.D.String()
		}
	}
	if op.Blocks > 1 {
		res.Note += fmt.Sprintf("; the instruction computes %d such products, one per block (the mnemonic's %db), each on its own A, B and C", op.Blocks, op.Blocks)
	}
	mode := "whole matrices"
	if op.D.Kind == KFloat {
		mode += ", round nearest-even"
	}
	return &Response{Arch: in.Arch, Name: in.Name, Mode: mode, Lanes: []LaneOutput{}, Wave: []Output{},
		Changes: []string{}, Trace: []Step{}, Matrix: res}, nil
}

// matrixRequestOK refuses what a matrix operation does not read.
func matrixRequestOK(in *Instruction, req Request) error {
	op := in.Matrix
	var extra, missing []string
	for name := range req.Sources {
		if name != "S0" && name != "S1" && name != "S2" {
			extra = append(extra, name)
		}
	}
	for _, s := range op.Sources() {
		if len(req.Sources[s.Name]) == 0 {
			missing = append(missing, s.Name+" ("+s.Role+")")
		}
	}
	switch {
	case len(extra) > 0:
		return inputError("%s does not read %s: its formula reads S0 (A), S1 (B) and S2 (C)", in.Name, strings.Join(extra, ", "))
	case len(missing) > 0:
		return inputError("%s reads S0 (A), S1 (B) and S2 (C): no value given for %s", in.Name, strings.Join(missing, ", "))
	case req.Exec != "" || req.SCC != "" || req.VCC != "" || req.M0 != "" || req.Wave != 0:
		return inputError("%s is evaluated over whole matrices: exec, wave, SCC, VCC and M0 do not apply", in.Name)
	case req.Denorm == "flush":
		return inputError("%s: the formula keeps subnormals (denorm flush does not apply)", in.Name)
	case req.Round != "" && req.Round != "nearest-even" && req.Round != "rne":
		return inputError("%s rounds to nearest even only (the guide: matrix operations support no other rounding)", in.Name)
	case req.Mods.Abs != [3]bool{} || req.Mods.OMod != 0 || req.Mods.OpSel != 0 || req.Mods.OpSelHi != 0 || req.Mods.Neg[2]:
		return inputError("%s: abs, omod, op_sel and neg on C do not apply to the whole-matrix formula", in.Name)
	case req.Mods.Clamp && op.D.Kind == KFloat:
		return inputError("%s: clamp applies to integer results here", in.Name)
	}
	for i := 0; i < 2; i++ {
		if req.Mods.Neg[i] && !op.NegSigned[i] {
			return inputError("%s: neg on S%d: only an iu8 or iu4 source takes NEG (it makes that matrix signed)", in.Name, i)
		}
	}
	return nil
}

// matrixValues reads one matrix: one value for every element, or exactly
// rows x cols values row by row.
func matrixValues(s MatrixSource, t Type, texts []string) ([]uint64, error) {
	n := s.Rows * s.Cols
	if len(texts) != 1 && len(texts) != n {
		return nil, inputError("%s (%s, %dx%d): %d values; give one (every element) or %d, row by row", s.Name, s.Role, s.Rows, s.Cols, len(texts), n)
	}
	out := make([]uint64, n)
	for i := range out {
		text := texts[min(i, len(texts)-1)]
		if i > 0 && len(texts) == 1 {
			out[i] = out[0]
			continue
		}
		if len(text) > maxInputLen {
			return nil, inputError("%s: a value of %d characters; at most %d", s.Name, len(text), maxInputLen)
		}
		b, err := ParseInput(text, t)
		if err != nil {
			return nil, inputError("%s element %d: %v", s.Name, i, err)
		}
		out[i] = b
	}
	return out, nil
}

// matrixDotFloat is D[r][c] = C[r][c] + sum over k of A[r][k] * B[k][c],
// exact, rounded once to D's format: a NaN input, 0 * inf or infinities
// of both signs give the default NaN; an exact zero is -0 only when every
// term is -0.
func matrixDotFloat(op *MatrixOp, srcs []MatrixSource, vals [][]uint64, r, c int) uint64 {
	fa, fb, fc, fd := srcs[0].Type.Float, srcs[1].Type.Float, srcs[2].Type.Float, op.D.Float
	env := Env{Round: RoundNearestEven}
	sum := exact{m: new(big.Int)}
	allNegZero, posInf, negInf := true, false, false
	term := func(u unpacked) bool { // false: a NaN
		switch u.class {
		case fcNaN:
			return false
		case fcInf:
			posInf, negInf = posInf || !u.neg, negInf || u.neg
			allNegZero = false
		case fcZero:
			allNegZero = allNegZero && u.neg
		default:
			allNegZero = false
			sum = addExact(sum, u.exact())
		}
		return true
	}
	for k := 0; k < op.K; k++ {
		ua, ub := fa.unpack(vals[0][r*op.K+k]), fb.unpack(vals[1][k*op.N+c])
		switch {
		case ua.class == fcNaN || ub.class == fcNaN:
			return fd.DefaultNaN()
		case ua.class == fcInf && ub.class == fcZero || ua.class == fcZero && ub.class == fcInf:
			return fd.DefaultNaN()
		case ua.class == fcInf || ub.class == fcInf:
			term(unpacked{class: fcInf, neg: ua.neg != ub.neg})
		case ua.class == fcZero || ub.class == fcZero:
			term(unpacked{class: fcZero, neg: ua.neg != ub.neg})
		default:
			allNegZero = false
			sum = addExact(sum, exact{ua.neg != ub.neg, new(big.Int).Mul(new(big.Int).SetUint64(ua.mant), new(big.Int).SetUint64(ub.mant)), ua.exp + ub.exp})
		}
	}
	if !term(fc.unpack(vals[2][r*op.N+c])) {
		return fd.DefaultNaN()
	}
	switch {
	case posInf && negInf:
		return fd.DefaultNaN()
	case posInf || negInf:
		if fd.NoInf {
			return fd.DefaultNaN()
		}
		return fd.Inf(negInf)
	case sum.m.Sign() == 0:
		return fd.zero(allNegZero)
	}
	return fd.finish(sum, false, env)
}

// matrixDotInt is the integer dot product, kept to D's width (or clamped
// to its range).
func matrixDotInt(op *MatrixOp, srcs []MatrixSource, vals [][]uint64, r, c int, clamp bool) uint64 {
	num := func(t Type, b uint64) *big.Int { return FromUint(b, t).Num() }
	sum := num(srcs[2].Type, vals[2][r*op.N+c])
	for k := 0; k < op.K; k++ {
		p := new(big.Int).Mul(num(srcs[0].Type, vals[0][r*op.K+k]), num(srcs[1].Type, vals[1][k*op.N+c]))
		sum.Add(sum, p)
	}
	if clamp {
		lo, hi := intRange(op.D)
		sum = clampBig(sum, lo, hi)
	}
	return FromBig(sum, Type{Kind: KBits, Width: op.D.Width}).Uint()
}

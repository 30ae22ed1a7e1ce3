package ptx

import (
	"strconv"
	"strings"
)

// checkFragments makes a valid matrix instruction invalid where a
// fragment operand ("{%r1, %r2, %r3, %r4}") holds another number of
// registers than its shape and type give (matrix.go's fragmentLength:
// an f32 accumulator of m16n16k16 is 8 registers, an f16 one 4), as
// ptxas does ("Argument vector size mismatch"). The operands' names
// are the matched form's ("d, a, b, c"; wmma.load's "r").
func checkFragments(r *Result, tokens, operands []string) {
	if !r.Valid || len(tokens) == 0 || r.Syntax == "" {
		return
	}
	_, list := splitStatement(r.Syntax)
	if list == "" {
		return
	}
	names := SplitTop(list, ',')
	for i, op := range operands {
		if i >= len(names) {
			break
		}
		op = strings.TrimSpace(op)
		// "r {, stride}": the name before an optional group.
		name := strings.TrimSpace(names[i])
		if k := strings.IndexAny(name, " {"); k > 0 {
			name = name[:k]
		}
		name = strings.Trim(name, "{}[] ")
		if len(op) < 2 || op[0] != '{' || op[len(op)-1] != '}' || !isPlainName(name) {
			continue
		}
		want := fragmentLength(tokens, name)
		if want == 0 {
			continue
		}
		if got := len(SplitTop(op[1:len(op)-1], ',')); got != want {
			r.Valid, r.Rule = false, "operand"
			r.Reason = "Argument vector size mismatch: fragment " + name + " holds " + strconv.Itoa(want) + " registers for this shape and type; the statement writes " + strconv.Itoa(got)
			return
		}
	}
}

// isPlainName: an operand name of a syntax line ("d", "a"), not an
// optional group or an expression.
func isPlainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

package ptx

import (
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
)

// A call passes as many parameters, and takes as many return values, as
// the function it names declares: ptxas rejects "call.uni (retval0), f;"
// for a function of one parameter ("Call has wrong number of
// parameters"). Functions are read from the file's .func headers,
// declarations (.extern) included.

// funcSigRe reads a .func header: its return list, name and parameter
// list, which may span lines.
var funcSigRe = lazyre.New(`\.func\s*(\(([^()]*)\))?\s*([A-Za-z_$][\w$]*)\s*(\(([^()]*)\))?`)

// funcSig is how many return values and parameters a function declares.
type funcSig struct{ rets, params int }

// readFuncSigs lists the file's functions by name; a name declared with
// two shapes is dropped (it proves nothing).
func readFuncSigs(src string) map[string]funcSig {
	out := map[string]funcSig{}
	bad := map[string]bool{}
	for _, m := range funcSigRe.FindAllStringSubmatch(stripComments(src), -1) {
		sig := funcSig{strings.Count(m[2], ".param"), strings.Count(m[5], ".param")}
		if old, ok := out[m[3]]; ok && old != sig {
			bad[m[3]] = true
		}
		out[m[3]] = sig
	}
	for n := range bad {
		delete(out, n)
	}
	return out
}

// checkCall makes a valid call invalid where its return or argument
// list's length is not the named function's.
func checkCall(r *Result, funcs map[string]funcSig, tokens, operands []string) {
	if !r.Valid || len(tokens) == 0 || tokens[0] != callMnemonic || len(funcs) == 0 {
		return
	}
	for k, op := range operands {
		sig, ok := funcs[strings.TrimSpace(op)]
		if !ok {
			continue
		}
		rets, args := 0, 0
		if k > 0 {
			rets = listLen(operands[k-1])
		}
		if k+1 < len(operands) {
			args = listLen(operands[k+1])
		}
		if rets != sig.rets || args != sig.params {
			r.Valid, r.Rule = false, "operand"
			r.Reason = "Call has wrong number of parameters: " + strings.TrimSpace(op) + " returns " + strconv.Itoa(sig.rets) + " and takes " + strconv.Itoa(sig.params) + "; the call writes " + strconv.Itoa(rets) + " and " + strconv.Itoa(args)
		}
		return
	}
}

// callMnemonic is the instruction whose operands name a function.
const callMnemonic = "call"

// listLen is the length of a parenthesised operand list ("(a, b)" 2,
// "()" 0); 0 for an operand that is not one.
func listLen(op string) int {
	op = strings.TrimSpace(op)
	if len(op) < 2 || op[0] != '(' || op[len(op)-1] != ')' {
		return 0
	}
	inner := strings.TrimSpace(op[1 : len(op)-1])
	if inner == "" {
		return 0
	}
	return len(SplitTop(inner, ','))
}

// Package asmtext splits AMD assembly as llvm-mc writes it ("v_pk_fma_f16
// v0, v1, v2 op_sel:[0,1]"): the operands after the mnemonic are separated
// by commas outside brackets and parentheses. The example generator, the
// LLVM pass's operand reader and the encoder all split with it, so they
// agree on what one operand is.
package asmtext

import "strings"

// Split splits rest (the text after the mnemonic) at every comma outside
// [...] and (...), trimming the spaces around each part; the last part
// still holds whatever follows the last operand (its modifiers). A blank
// rest gives nil.
func Split(rest string) []string {
	if strings.TrimSpace(rest) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(rest[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(rest[start:]))
}

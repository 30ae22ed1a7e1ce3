// Package asmtext splits AMD assembly as llvm-mc writes it ("v_pk_fma_f16
// v0, v1, v2 op_sel:[0,1]"): the operands after the mnemonic are separated
// by commas outside brackets and parentheses (Split), and an encoding is a
// list of bytes, "0xc1,0x04,0x0a,0x16" (FormatBytes, ParseBytes). The
// example generator, the LLVM pass, the decoder and the encoder all read
// and write these with it, so they agree on what one operand is.
package asmtext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
)

// Split splits rest (the text after the mnemonic) at every comma outside
// [...], (...) and {...} (SASS's register lists), trimming the spaces
// around each part; the last part
// still holds whatever follows the last operand (its modifiers). A blank
// rest gives nil.
func Split(rest string) []string {
	if strings.TrimSpace(rest) == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(rest, ",")+1) // an upper bound: no regrowing
	depth, start := 0, 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
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

// ParseBytes reads llvm-mc's byte list, "0x01,0x02" or "[0x01,0x02]",
// the inverse of FormatBytes; false for an empty or malformed list.
func ParseBytes(s string) ([]byte, bool) {
	b, err := ReadBytes(s)
	return b, err == nil && len(b) > 0
}

// ReadBytes reads a byte list as ParseBytes does, saying what is wrong:
// each element one byte of one or two hex digits ("0x" optional), commas
// between them (spaces also separate); an empty list reads as no bytes.
func ReadBytes(s string) ([]byte, error) {
	s = strings.Trim(strings.TrimSpace(s), "[]")
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []byte
	for _, el := range strings.Split(s, ",") {
		toks := strings.Fields(el)
		if len(toks) == 0 {
			return nil, fmt.Errorf("an empty element in the byte list %q", errs.Excerpt(s))
		}
		for _, tok := range toks {
			h := strings.TrimPrefix(strings.TrimPrefix(tok, "0x"), "0X")
			v, err := strconv.ParseUint(h, 16, 8)
			if err != nil || len(h) > 2 {
				return nil, fmt.Errorf("%q in a byte list is not a byte", errs.Excerpt(tok))
			}
			out = append(out, byte(v))
		}
	}
	return out, nil
}

// FormatBytes writes an encoding as llvm-mc prints it: "0xc1,0x04,0x0a,0x16".
func FormatBytes(b []byte) string {
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 5*len(b))
	for i, c := range b {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '0', 'x', hex[c>>4], hex[c&15])
	}
	return string(out)
}

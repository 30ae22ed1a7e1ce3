package lsp

import (
	"context"

	"github.com/gpuisa/gpuisa/internal/amd/encode"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// codeOperands marks a line whose operands no encoding of its instruction
// takes (the count, or a register's width), found without an assembler.
const codeOperands = "operands"

// operandChecker returns the family's operand check (the encoder's, which
// reads the decoder's renderings), nil when the family has no machine
// code or its tables cannot be built: the file is then left to --verify.
func (k *knowledge) operandChecker(ctx context.Context, family string) *encode.Encoder {
	if family == "" {
		return nil
	}
	if _, err := k.decoder(ctx, family); err != nil {
		return nil
	}
	enc, err := k.codecs.Encoder(ctx, family)
	if err != nil {
		return nil
	}
	return enc
}

// operandDiagnostic checks the statement of line n (its tokens toks)
// whose mnemonic is mn.
// The diagnostic covers the wrong operand, or the whole statement when
// the count is wrong, so an assembler's message on the same line folds
// into it (mergeAssembler).
func operandDiagnostic(enc *encode.Encoder, d *document, n int, toks []token, mn token) (protocol.Diagnostic, bool) {
	line := d.lines[n].text
	end := mn.end
	var ops []token
	for _, t := range toks {
		if t.kind == tokOperand && t.stmt == mn.stmt {
			ops = append(ops, t)
			end = max(end, t.end)
		}
	}
	p := enc.CheckOperands(line[mn.start:end])
	if p == nil {
		return protocol.Diagnostic{}, false
	}
	start := mn.start
	if p.Operand >= 0 {
		for _, o := range ops {
			if int(o.operand) == p.Operand {
				start, end = o.start, o.end
			}
		}
	}
	return diag(d, n, start, end, protocol.DiagnosticSeverityError, codeOperands, p.Msg, nil), true
}

package lsp

import (
	"context"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// signatureHelp answers textDocument/signatureHelp: the instruction's
// operands in order, with the one being typed active.
func signatureHelp(ctx context.Context, k *knowledge, d *document, c fileContext, pos protocol.Position) *protocol.SignatureHelp {
	n := int(pos.Line)
	col := d.byteCol(n, pos.Character)
	stmt := d.statement(n, col)
	if len(stmt) == 0 || col <= stmt[0].end {
		return nil
	}
	mn := stmt[0]
	// The operand being typed: commas between the mnemonic and the cursor,
	// outside brackets.
	text := d.lines[n].text
	typed := min(col, len(text))
	if c.lang == langPTX && strings.Contains(text[mn.end:typed], ";") {
		return nil // past the statement's end
	}
	active := 0
	for range operandCommas(text, mn.end, typed) {
		active++
	}
	var label string
	var params []protocol.ParameterInformation
	var doc string
	if c.lang == langPTX {
		in, err := k.instruction(ctx, "ptx", mn.text)
		if err != nil {
			return nil
		}
		label = strings.TrimSuffix(in.Name, ";")
		if k.loadPTX(ctx) == nil {
			if r := k.checker.Check(mn.text + " " + strings.Repeat("x, ", active) + "x;"); r.Valid {
				label = strings.TrimSuffix(r.Syntax, ";")
			}
		}
		if label == in.Name && len(in.Forms) > 0 {
			label = strings.TrimSuffix(in.Forms[0].Syntax, ";")
		}
		doc = in.Summary
		for _, name := range operandNames(label) {
			var d string
			for _, o := range in.Operands {
				if o.Name == strings.Trim(name, "[]{}|") {
					d = readWritten(o) + dashed(o.Description)
				}
			}
			params = append(params, protocol.ParameterInformation{Label: name, Documentation: d})
		}
	} else {
		fam := c.family
		if fam == "" {
			fam, _ = k.homeOf(ctx, mn.text)
		}
		if fam == "" {
			return nil
		}
		in, err := k.instruction(ctx, fam, mn.text)
		if err != nil {
			return nil
		}
		syn := syntaxFor(in, mn.text)
		if syn == nil {
			return nil
		}
		label = syn.Text
		doc = in.Summary
		for _, name := range syn.Operands {
			base := name
			if i := strings.IndexByte(base, ':'); i >= 0 {
				base = base[:i]
			}
			var pd string
			for _, o := range in.Operands {
				if strings.EqualFold(o.Name, base) {
					pd = readWritten(o) + operandKind(o)
				}
			}
			params = append(params, protocol.ParameterInformation{Label: name, Documentation: pd})
		}
	}
	if len(params) == 0 {
		return nil
	}
	if active >= len(params) {
		active = len(params) - 1
	}
	a := uint32(active)
	zero := uint32(0)
	return &protocol.SignatureHelp{
		Signatures:      []protocol.SignatureInformation{{Label: label, Documentation: doc, Parameters: params, ActiveParameter: &a}},
		ActiveSignature: &zero,
		ActiveParameter: &a,
	}
}

// operandNames splits a syntax line's operands: "max.f32 d, a, b" -> d, a, b.
func operandNames(syntax string) []string {
	sp := strings.IndexAny(syntax, " \t")
	if sp < 0 {
		return nil
	}
	var out []string
	depth := 0
	start := sp + 1
	rest := syntax
	for i := start; i <= len(rest); i++ {
		if i < len(rest) {
			switch rest[i] {
			case '[', '(', '{':
				depth++
				continue
			case ']', ')', '}':
				depth--
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if p := strings.TrimSpace(rest[start:i]); p != "" {
			out = append(out, p)
		}
		start = i + 1
	}
	return out
}

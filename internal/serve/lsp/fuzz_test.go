package lsp

import (
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// FuzzDocument: any text parses, and every position answers the features
// that need no database (tokens, statements, definitions, references,
// symbols, offsets) without panicking or leaving the line.
func FuzzDocument(f *testing.F) {
	for _, s := range []string{
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\nloop:\n\tv_max_f32 v1, v2, v3 ; c\n\ts_cbranch_scc1 loop\n",
		"v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5\n.amdgpu_metadata\n- x: 1\n.end_amdgpu_metadata\n",
		".version 7.0\n.target sm_80\n.visible .entry k(){\n.reg .f32 %f<4>;\n@%p1 bra $L;\nmax.NaN.f32 %f3, %f1, %f2; $L: ret;\n}\n",
		"/* open\n comment */ x: y: v_[0:3] [[[ ,,, ;;; \"unterminated\n\xff\xfe é 𝄞 ::",
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		if len(text) > 4096 {
			return // positions are tried one by one below
		}
		lang := langAMD
		if which%2 == 1 {
			lang = langPTX
		}
		d := parse("file:///f", lang, text, 1)
		documentSymbols(d)
		for n, l := range d.lines {
			for col := 0; col <= len(l.text); col++ {
				p := protocol.Position{Line: uint32(n), Character: d.utf16Col(n, col)}
				if got := d.byteCol(n, p.Character); got > len(l.text) {
					t.Fatalf("byte column %d past line %d's end", got, n)
				}
				d.tokenAt(n, col)
				d.statement(n, col)
				definition(d, p)
				references(d, p, true)
			}
		}
		for _, l := range d.lines {
			for _, tk := range l.tokens {
				if tk.start < 0 || tk.end > len(l.text) || tk.start > tk.end || l.text[tk.start:tk.end] != tk.text {
					t.Fatalf("token %+v outside %q", tk, l.text)
				}
			}
		}
		_ = applyChange(text, protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{End: protocol.Position{Line: 1, Character: 3}}, Text: strings.Repeat("x", int(which))})
	})
}

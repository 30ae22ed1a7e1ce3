package lsp

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// definition answers textDocument/definition for labels and PTX registers
// declared with .reg.
func definition(d *document, pos protocol.Position) []protocol.Location {
	n := int(pos.Line)
	tok, ok := d.tokenAt(n, d.byteCol(n, pos.Character))
	if !ok || (tok.kind != tokWord && tok.kind != tokLabelDef) {
		return nil
	}
	if loc, ok := d.labelLocation(tok.text); ok {
		return []protocol.Location{loc}
	}
	if d.lang == langPTX {
		if r, ok := d.register(tok.text); ok {
			return []protocol.Location{{URI: d.uri, Range: *d.rangeOf(r.line, r.start, r.end)}}
		}
	}
	return nil
}

func (d *document) labelLocation(name string) (protocol.Location, bool) {
	n, ok := d.labels[name]
	if !ok {
		return protocol.Location{}, false
	}
	for _, t := range d.tokensOf(n) {
		if t.kind == tokLabelDef && t.text == name {
			return protocol.Location{URI: d.uri, Range: *d.rangeOf(n, t.start, t.end)}, true
		}
	}
	return protocol.Location{}, false
}

// references answers textDocument/references: every use of the label or
// register under the cursor (and its definition when asked).
func references(d *document, pos protocol.Position, withDecl bool) []protocol.Location {
	n := int(pos.Line)
	tok, ok := d.tokenAt(n, d.byteCol(n, pos.Character))
	if !ok || (tok.kind != tokWord && tok.kind != tokLabelDef) {
		return nil
	}
	name := tok.text
	_, isLabel := d.labels[name]
	var decl regDecl
	isReg := false
	if !isLabel && d.lang == langPTX {
		decl, isReg = d.register(name)
	}
	if !isLabel && !isReg {
		return nil
	}
	out := []protocol.Location{}
	if withDecl {
		if isLabel {
			if loc, ok := d.labelLocation(name); ok {
				out = append(out, loc)
			}
		} else {
			out = append(out, protocol.Location{URI: d.uri, Range: *d.rangeOf(decl.line, decl.start, decl.end)})
		}
	}
	for i := range d.lines {
		for _, t := range d.tokensOf(i) {
			if t.kind == tokWord && t.text == name {
				out = append(out, protocol.Location{URI: d.uri, Range: *d.rangeOf(i, t.start, t.end)})
			}
		}
	}
	return out
}

var (
	amdKernelRe = lazyre.New(`^\s*\.amdhsa_kernel\s+([\w.$]+)`)
	amdTypeRe   = lazyre.New(`^\s*\.type\s+([\w.$]+)\s*,\s*@function`)
	ptxFuncRe   = lazyre.New(`\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)`)
)

// documentSymbols answers textDocument/documentSymbol: kernels and
// functions, and the labels inside them.
func documentSymbols(d *document) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	functions := map[string]protocol.SymbolKind{}
	if d.lang == langAMD {
		for _, l := range d.lines {
			if m := amdKernelRe.FindStringSubmatch(l.text); m != nil {
				functions[m[1]] = protocol.SymbolKindFunction
			}
			if m := amdTypeRe.FindStringSubmatch(l.text); m != nil {
				functions[m[1]] = protocol.SymbolKindFunction
			}
		}
	}
	var current *protocol.DocumentSymbol
	closeCurrent := func(end int) {
		if current != nil {
			current.Range.End = protocol.Position{Line: uint32(end), Character: d.utf16Col(end, len(d.lines[end].text))}
			out = append(out, *current)
			current = nil
		}
	}
	for i, l := range d.lines {
		if d.lang == langPTX {
			if m := ptxFuncRe.FindStringSubmatchIndex(l.text); m != nil && !strings.HasPrefix(strings.TrimSpace(l.text), "//") {
				closeCurrent(max(i-1, 0))
				kind := protocol.SymbolKindFunction
				detail := "." + l.text[m[2]:m[3]]
				r := *d.rangeOf(i, m[4], m[5])
				current = &protocol.DocumentSymbol{Name: l.text[m[4]:m[5]], Detail: &detail, Kind: kind, Range: r, SelectionRange: r}
				continue
			}
		}
		for _, t := range d.tokensOf(i) {
			if t.kind != tokLabelDef {
				continue
			}
			r := *d.rangeOf(i, t.start, t.end)
			if kind, ok := functions[t.text]; ok {
				closeCurrent(max(i-1, 0))
				detail := "kernel"
				current = &protocol.DocumentSymbol{Name: t.text, Detail: &detail, Kind: kind, Range: r, SelectionRange: r}
				continue
			}
			sym := protocol.DocumentSymbol{Name: t.text, Kind: protocol.SymbolKindKey, Range: r, SelectionRange: r}
			if current != nil {
				current.Children = append(current.Children, sym)
			} else {
				out = append(out, sym)
			}
		}
	}
	if len(d.lines) > 0 {
		closeCurrent(len(d.lines) - 1)
	}
	return out
}

package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// codeActions answers textDocument/codeAction: on an AMD instruction the
// target rejects, write the spelling it accepts (v_mad_mix_f32 ->
// v_fma_mix_f32 on gfx950); on a spelling the target takes under another
// name, write the name the family's guide uses (v_max_f32 ->
// v_max_num_f32 on gfx12).
func codeActions(ctx context.Context, k *knowledge, d *document, c fileContext, p *protocol.CodeActionParams) []protocol.CodeAction {
	out := []protocol.CodeAction{}
	seen := map[string]bool{}
	for _, dg := range p.Context.Diagnostics {
		// The data alone marks the diagnostic: glsp drops a diagnostic's
		// code when it reads one back.
		if dg.Data == nil {
			continue
		}
		var data diagData
		b, _ := json.Marshal(dg.Data)
		if json.Unmarshal(b, &data) != nil || data.Replace == "" {
			continue
		}
		dgc := dg
		out = append(out, replaceAction(d, dg.Range, fmt.Sprintf("Write %s (what %s assembles)", data.Replace, c.target), data.Replace, &dgc))
		seen[rangeKey(dg.Range)] = true
	}
	if d.lang != langAMD || c.family == "" {
		return out
	}
	for n := int(p.Range.Start.Line); n <= int(p.Range.End.Line) && n < len(d.lines); n++ {
		for _, t := range d.tokensOf(n) {
			if t.kind != tokMnemonic {
				continue
			}
			r := *d.rangeOf(n, t.start, t.end)
			if seen[rangeKey(r)] {
				continue
			}
			if a, ok := renameAction(ctx, k, d, c, t, r); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// renameAction offers the family's own name for an accepted alias, when
// llvm-mc assembles that name on the target too.
func renameAction(ctx context.Context, k *knowledge, d *document, c fileContext, t token, r protocol.Range) (protocol.CodeAction, bool) {
	bare := bareMnemonic(t.text)
	resolved, ok := k.resolve(ctx, c.family, t.text)
	if !ok || resolved == bare {
		return protocol.CodeAction{}, false
	}
	sup, ok := k.support[c.family][resolved]
	if !ok || !sup.Supports(c.target) {
		return protocol.CodeAction{}, false
	}
	name := resolved + suffixOf(t.text)
	return replaceAction(d, r, fmt.Sprintf("Write %s (%s's name for %s)", name, k.familyName(c.family), bare), name, nil), true
}

func replaceAction(d *document, r protocol.Range, title, text string, dg *protocol.Diagnostic) protocol.CodeAction {
	kind := protocol.CodeActionKindQuickFix
	a := protocol.CodeAction{
		Title: title,
		Kind:  &kind,
		Edit:  &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: {{Range: r, NewText: text}}}},
	}
	if dg != nil {
		a.Diagnostics = []protocol.Diagnostic{*dg}
		pref := true
		a.IsPreferred = &pref
	}
	return a
}

func rangeKey(r protocol.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// maxCompletions bounds one answer; the list is marked incomplete so the
// client asks again as the user types.
const maxCompletions = 200

// complete answers textDocument/completion: mnemonics valid for the
// file's target at the start of a statement, PTX modifiers after a dot,
// registers and labels among operands.
func complete(ctx context.Context, k *knowledge, d *document, c fileContext, pos protocol.Position) *protocol.CompletionList {
	n := int(pos.Line)
	if n >= len(d.lines) {
		return &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	}
	col := d.byteCol(n, pos.Character)
	text := d.lines[n].text[:col]
	// The word being typed.
	ws := col
	for ws > 0 && isWordByte(text[ws-1]) {
		ws--
	}
	word := text[ws:]
	before := strings.TrimSpace(text[:ws])
	// A label before the instruction ("L1: v_...", "$L: max...").
	if m := labelDefLen(before); m > 0 && m == len(before) && !strings.HasPrefix(before, ".") {
		before = ""
	}
	if c.lang == langPTX {
		if i := strings.LastIndexAny(before, ";{}"); i >= 0 {
			before = strings.TrimSpace(before[i+1:])
		}
		if strings.HasPrefix(before, "@") && !strings.ContainsAny(before, " \t") {
			before = "" // after a guard predicate: a mnemonic
		} else if strings.HasPrefix(before, "@") {
			before = strings.TrimSpace(before[strings.IndexAny(before, " \t"):])
		}
	}
	var items []protocol.CompletionItem
	wordRange := *d.rangeOf(n, ws, col)
	switch {
	case before == "" && c.lang == langPTX && strings.Contains(word, "."):
		dot := ws + strings.LastIndexByte(word, '.')
		items = ptxModifiers(ctx, k, word, *d.rangeOf(n, dot, col))
	case before == "" && c.lang == langPTX:
		items = withEdits(ptxMnemonics(k, word), wordRange)
	case before == "":
		items = withEdits(amdMnemonics(k, c, word), wordRange)
	default:
		items = withEdits(operandItems(ctx, k, d, c, n, word), wordRange)
	}
	incomplete := len(items) > maxCompletions
	if incomplete {
		items = items[:maxCompletions]
	}
	return &protocol.CompletionList{IsIncomplete: incomplete, Items: items}
}

// withEdits makes each item replace the word typed so far, whatever the
// client takes a word to be.
func withEdits(items []protocol.CompletionItem, rng protocol.Range) []protocol.CompletionItem {
	for i := range items {
		items[i].TextEdit = protocol.TextEdit{Range: rng, NewText: items[i].Label}
	}
	return items
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '%' || c == '$' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// commonness ranks a mnemonic: shorter names first (the everyday
// operations have the short names: v_add_f32 before v_add_co_ci_u32), the
// plain 32-bit types, and names most families share.
func commonness(k *knowledge, name string) float64 {
	score := float64(k.spread[name])*0.25 - 2*float64(strings.Count(name, "_"))
	// Each suffix it ends with counts (v_x_e64_dpp: _e64_dpp and _dpp).
	for _, s := range isa.EncodingSuffixes {
		if strings.HasSuffix(name, s) {
			score -= 5
		}
	}
	switch {
	case strings.HasSuffix(name, "_f32"):
		score += 4
	case strings.HasSuffix(name, "_b32"):
		score += 3.5
	case strings.HasSuffix(name, "_u32"), strings.HasSuffix(name, "_i32"):
		score += 3
	case strings.HasSuffix(name, "_f16"), strings.HasSuffix(name, "_f64"), strings.HasSuffix(name, "_b64"):
		score += 2
	}
	return score - float64(len(name))*0.3
}

func rankItems(items []protocol.CompletionItem, score map[string]float64) []protocol.CompletionItem {
	sort.SliceStable(items, func(i, j int) bool {
		si, sj := score[items[i].Label], score[items[j].Label]
		if si != sj {
			return si > sj
		}
		return items[i].Label < items[j].Label
	})
	for i := range items {
		st := fmt.Sprintf("%05d", i)
		items[i].SortText = &st
	}
	return items
}

// amdMnemonics lists the family's instructions llvm-mc accepts on the
// target (all of them where it did not verify), most common first.
func amdMnemonics(k *knowledge, c fileContext, prefix string) []protocol.CompletionItem {
	fam := c.family
	if fam == "" {
		for _, a := range k.archs {
			if a.Vendor == isa.VendorAMD {
				fam = a.ID
				break
			}
		}
	}
	p := strings.ToLower(prefix)
	kind := protocol.CompletionItemKindKeyword
	score := map[string]float64{}
	var items []protocol.CompletionItem
	for _, s := range k.names[fam] {
		if !strings.HasPrefix(s.Name, p) {
			continue
		}
		if c.target != "" {
			if sup, ok := k.support[fam][s.Name]; ok && !sup.Supports(c.target) {
				continue
			}
		}
		detail := s.Category
		if len(s.Formats) > 0 {
			detail = strings.Join(s.Formats, ", ") + " · " + s.Category
		}
		doc := s.Summary
		items = append(items, protocol.CompletionItem{Label: s.Name, Kind: &kind, Detail: &detail, Documentation: doc})
		score[s.Name] = commonness(k, s.Name)
	}
	return rankItems(items, score)
}

// ptxMnemonics lists PTX instructions.
func ptxMnemonics(k *knowledge, prefix string) []protocol.CompletionItem {
	kind := protocol.CompletionItemKindKeyword
	score := map[string]float64{}
	var items []protocol.CompletionItem
	for _, s := range k.names["ptx"] {
		if strings.HasPrefix(s.Name, "%") || strings.HasPrefix(s.Name, ".") || !strings.HasPrefix(s.Name, prefix) {
			continue
		}
		detail := s.Category
		items = append(items, protocol.CompletionItem{Label: s.Name, Kind: &kind, Detail: &detail, Documentation: s.Summary})
		score[s.Name] = -float64(strings.Count(s.Name, "."))*5 - float64(len(s.Name))*0.1
	}
	return rankItems(items, score)
}

// ptxModifiers offers the tokens that may follow what is typed ("max." ->
// ".ftz", ".NaN", ".f32"): those of the forms whose tokens include every
// token already written.
func ptxModifiers(ctx context.Context, k *knowledge, typed string, rng protocol.Range) []protocol.CompletionItem {
	if k.loadPTX(ctx) != nil {
		return nil
	}
	parts := strings.Split(typed, ".")
	partial := "." + parts[len(parts)-1]
	written := parts[:len(parts)-1]
	// The instruction: the longest dotted prefix the model has.
	name, rest := "", []string(nil)
	for j := len(written); j >= 1; j-- {
		if _, ok := k.ptxOptions[strings.Join(written[:j], ".")]; ok {
			name, rest = strings.Join(written[:j], "."), written[j:]
			break
		}
	}
	if name == "" {
		return nil
	}
	kind := protocol.CompletionItemKindProperty
	type offer struct {
		forms int
		first string // the syntax of the first form offering it
		order int
	}
	offers := map[string]*offer{}
	order := 0
	for _, ts := range k.ptxOptions[name] {
		ok := true
		for _, r := range rest {
			if !ts.set["."+r] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for _, t := range ts.tokens {
			if !strings.HasPrefix(t, partial) || containsToken(rest, t) {
				continue
			}
			if o := offers[t]; o != nil {
				o.forms++
				continue
			}
			offers[t] = &offer{forms: 1, first: ts.form.Syntax, order: order}
			order++
		}
	}
	score := map[string]float64{}
	var items []protocol.CompletionItem
	for t, o := range offers {
		label := t
		detail := fmt.Sprintf("%d form(s), e.g. %s", o.forms, o.first)
		items = append(items, protocol.CompletionItem{Label: label, Kind: &kind, Detail: &detail, FilterText: &label,
			TextEdit: protocol.TextEdit{Range: rng, NewText: t}})
		score[label] = float64(o.forms) - float64(o.order)*0.001
	}
	return rankItems(items, score)
}

func containsToken(rest []string, t string) bool {
	for _, r := range rest {
		if "."+r == t {
			return true
		}
	}
	return false
}

// operandItems offers labels, declared PTX registers and special
// registers, and the instruction's LLVM modifiers.
func operandItems(ctx context.Context, k *knowledge, d *document, c fileContext, n int, prefix string) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	score := map[string]float64{}
	add := func(label string, kind protocol.CompletionItemKind, detail string, s float64) {
		if !strings.HasPrefix(label, prefix) || score[label] != 0 {
			return
		}
		kd := kind
		dt := detail
		items = append(items, protocol.CompletionItem{Label: label, Kind: &kd, Detail: &dt})
		score[label] = s
	}
	for name, line := range d.labels {
		add(name, protocol.CompletionItemKindReference, fmt.Sprintf("label, line %d", line+1), 3)
	}
	if c.lang == langPTX {
		for _, r := range d.regs {
			if r.count > 0 {
				for i := 0; i < r.count && i < 64; i++ {
					add(fmt.Sprintf("%s%d", r.name, i), protocol.CompletionItemKindVariable, ".reg "+r.typ, 4)
				}
				continue
			}
			add(r.name, protocol.CompletionItemKindVariable, ".reg "+r.typ, 4)
		}
		for _, s := range k.names["ptx"] {
			if strings.HasPrefix(s.Name, "%") {
				add(s.Name, protocol.CompletionItemKindConstant, "special register", 1)
			}
		}
		return rankItems(items, score)
	}
	for _, r := range []string{"vcc", "exec", "m0", "scc", "vcc_lo", "exec_lo", "vcc_hi", "exec_hi", "null"} {
		add(r, protocol.CompletionItemKindConstant, "special register", 2)
	}
	if stmt := d.statement(n, len(d.lines[n].text)); len(stmt) > 0 && c.family != "" {
		if in, err := k.instruction(ctx, c.family, stmt[0].text); err == nil {
			if syn := syntaxFor(in, stmt[0].text); syn != nil {
				for _, m := range syn.Modifiers {
					add(m, protocol.CompletionItemKindProperty, "modifier of "+syn.Text, 1)
				}
			}
		}
	}
	return rankItems(items, score)
}

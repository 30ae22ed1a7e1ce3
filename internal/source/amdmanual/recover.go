package amdmanual

import (
	"fmt"
	"sort"
	"strings"
)

// Recovery of instruction headings lost at PDF page breaks.
//
// In the newer guides the PDF-to-Markdown conversion sometimes drops an
// instruction heading that sat at the top of a page, often together with the
// first line of its description. The instruction's remaining text then reads
// as part of the entry before it. Typical shapes, all after the previous
// entry's pseudocode block:
//
//	S_BFE_U64 40 / text / code / "result into a scalar register ..." / code
//	S_BITCMP1_B64 15 / text / code / "Set SCC to 1 iff ..." / code
//
// Where the cut lies is found from the entry's own structure (boundary
// rules below). Whom the cut-off part belongs to is found only by opcode
// order: the format's opcode table must list exactly as many instructions
// without a section entry of their own, with opcodes strictly between this
// entry's and the next documented entry's of the section, as there are cuts.
// Anything else leaves the text where it is and records a Problem. Every
// recovered entry says so in Entry.Repair.

// boundary is a place where an entry's text probably turns into the text of
// an instruction whose heading was lost.
type boundary struct {
	event  int  // index into the builder's events where the lost part starts
	strong bool // a mid-sentence start or a second "Expression" label, rather than a capitalised paragraph after code
}

// builtEntry ties a section entry to the builder that read it.
type builtEntry struct {
	index int // into Guide.Instructions
	b     *entryBuilder
}

// findBoundaries applies the boundary rules to one entry's events.
// exprLayout tells whether the guide labels pseudocode blocks "Expression"
// (CDNA 5). unresolved lists lines of labels that show a lost heading whose
// starting point cannot be told.
//
//   - mid-sentence: a paragraph starting in lower case right after a code
//     block, with another code block later in the entry. In the Notes part
//     (Expression layout only) a lower-case paragraph after a finished
//     sentence counts too when an "Expression" label follows before any
//     further Notes heading.
//   - second label (Expression layout): every "Expression" label after the
//     first starts another instruction's pseudocode; its text starts right
//     after the previous pseudocode block. When the previous entry's Notes
//     lie in between, it starts at the last Notes paragraph before the label
//     that opens like a description (opener); with none, where it starts
//     cannot be told and the label is reported.
//   - capitalised (other layouts): a paragraph starting with a capital right
//     after a code block, outside Notes, with another code block later, in an
//     entry without sub-headings (entries such as S_CLAUSE describe fields
//     under headings, each with its own code span). Weak: used only when the
//     opcode count matches, never reported on its own.
func findBoundaries(evs []event, exprLayout bool, opener func(string) bool) (bounds []boundary, unresolved []int) {
	codeAfter := func(i int) bool {
		for _, e := range evs[i+1:] {
			if e.kind == evCode {
				return true
			}
		}
		return false
	}
	exprBeforeNotes := func(i int) bool {
		for _, e := range evs[i+1:] {
			switch e.kind {
			case evExpr:
				return true
			case evNotes:
				return false
			}
		}
		return false
	}
	hasSubHeading := false
	for _, e := range evs {
		if e.kind == evHeading {
			hasSubHeading = true
		}
	}
	isBound := map[int]bool{}
	for i, e := range evs {
		if e.kind != evPara || i == 0 || e.text == "" {
			continue
		}
		prev := evs[i-1]
		c := e.text[0]
		lower := c >= 'a' && c <= 'z'
		upper := c >= 'A' && c <= 'Z'
		switch {
		case lower && !e.notes && prev.kind == evCode && codeAfter(i):
			bounds = append(bounds, boundary{i, true})
		case lower && e.notes && exprLayout && (prev.kind == evCode || prev.kind == evPara && endsSentence(prev.text)) && exprBeforeNotes(i):
			bounds = append(bounds, boundary{i, true})
		case upper && !exprLayout && !hasSubHeading && !e.notes && prev.kind == evCode && codeAfter(i):
			bounds = append(bounds, boundary{i, false})
		default:
			continue
		}
		isBound[i] = true
	}
	if exprLayout {
		lastExpr := -1
		for x, e := range evs {
			if e.kind != evExpr {
				continue
			}
			if lastExpr < 0 {
				lastExpr = x
				continue
			}
			prevExpr := lastExpr
			lastExpr = x
			already := false
			for k := prevExpr + 1; k <= x; k++ {
				already = already || isBound[k]
			}
			if already {
				continue
			}
			code := -1
			for k := prevExpr + 1; k < x; k++ {
				if evs[k].kind == evCode {
					code = k
					break
				}
			}
			if code < 0 {
				unresolved = append(unresolved, x)
				continue
			}
			notes := -1
			for k := code + 1; k < x; k++ {
				if evs[k].kind == evNotes {
					notes = k
				}
			}
			if notes < 0 {
				bounds = append(bounds, boundary{code + 1, true})
				continue
			}
			// The lost text hides among the Notes paragraphs: it starts at
			// the last one that opens like a description, if any.
			start := -1
			for k := x - 1; k > notes && (evs[k].kind == evPara || evs[k].kind == evHeading); k-- {
				if opener(evs[k].text) {
					start = k
					break
				}
			}
			if start < 0 {
				unresolved = append(unresolved, x)
				continue
			}
			bounds = append(bounds, boundary{start, true})
		}
	}
	sort.Slice(bounds, func(i, j int) bool { return bounds[i].event < bounds[j].event })
	return bounds, unresolved
}

// recoverLostHeadings cuts section entries at boundaries that the opcode
// tables explain, and reports the boundaries they do not.
func (p *parser) recoverLostHeadings() {
	g := p.guide
	exprLayout := false
	for _, be := range p.built {
		for _, e := range be.b.events {
			exprLayout = exprLayout || e.kind == evExpr
		}
	}
	learned := descriptionOpeners(p.built)
	// A Notes paragraph that is, word for word, how another entry of the
	// guide opens its description starts that instruction's lost text
	// (CDNA 5's V_BFREV_B32 under V_NOT_B32: its VOP3 entry has the same
	// first paragraph).
	// A paragraph (or stray heading) that is how another entry's opening
	// paragraph ends is the rest of a description cut at a page break
	// (CDNA 5's "EXEC mask.", "support.").
	openings := map[string]bool{}
	var firsts []string
	for _, be := range p.built {
		for _, e := range be.b.events {
			if e.kind == evPara && !e.notes && e.text != "" {
				openings[normalizeText(e.text)] = true
				firsts = append(firsts, normalizeText(e.text))
				break
			}
		}
	}
	fragment := func(text string) bool {
		t := normalizeText(text)
		if len(t) < 5 {
			return false
		}
		for _, f := range firsts {
			if len(f) > len(t) && strings.HasSuffix(f, " "+t) {
				return true
			}
		}
		return false
	}
	opener := func(text string) bool { return learned(text) || openings[normalizeText(text)] || fragment(text) }
	documented := map[string]bool{} // factKey of every section entry
	sectionFormats := map[string]map[string]bool{}
	for _, e := range g.Instructions {
		if e.FromOpcodeTable {
			continue
		}
		documented[factKey(e)] = true
		if sectionFormats[e.Section] == nil {
			sectionFormats[e.Section] = map[string]bool{}
		}
		sectionFormats[e.Section][e.Encoding] = true
	}
	// nextOpcode[i] is the opcode of the next section entry of the same
	// section after Instructions[i], or -1 when it is the last one.
	nextOpcode := map[int]int{}
	lastOfSection := map[string]int{}
	for i, e := range g.Instructions {
		if e.FromOpcodeTable {
			continue
		}
		if j, ok := lastOfSection[e.Section]; ok {
			nextOpcode[j] = e.Opcode
		}
		nextOpcode[i] = -1
		lastOfSection[e.Section] = i
	}

	inserts := map[int][]Entry{} // after Instructions[index]
	taken := map[string]bool{}
	recovered := map[string]map[int]bool{} // section -> opcodes of recovered entries
	for _, be := range p.built {
		bounds, unresolved := findBoundaries(be.b.events, exprLayout, opener)
		e := &g.Instructions[be.index]
		for _, x := range unresolved {
			line := be.b.raw[be.b.events[x].at].no
			p.problem(line, e.Name, "a second pseudocode block labelled Expression follows the Notes: probably another instruction whose heading and opening text were lost in conversion; where its text starts cannot be told, so it stays in this entry")
		}
		if len(bounds) == 0 {
			continue
		}
		var strong []boundary
		for _, bd := range bounds {
			if bd.strong {
				strong = append(strong, bd)
			}
		}
		lo, hi := e.Opcode, nextOpcode[be.index]
		cands := p.lostCandidates(e, lo, hi, sectionFormats[e.Section], documented, taken)
		if len(cands) == 0 && len(strong) == 1 {
			cands = p.interleavedCandidate(be.index, e, sectionFormats[e.Section], documented, taken, recovered[e.Section])
		}
		var use []boundary
		switch {
		case len(cands) > 0 && len(strong) == len(cands):
			use = strong
		case len(cands) > 0 && len(bounds) == len(cands):
			use = bounds
		}
		if use == nil {
			if len(strong) == 0 && len(cands) == 0 {
				continue // capitalised prose after code, and nothing missing: ordinary text
			}
			line := be.b.raw[be.b.events[bounds[0].event].at].no
			p.problem(line, e.Name, fmt.Sprintf("%s after the pseudocode: probably a heading lost in conversion, but the opcode table lists %s between opcodes %d and %s, for %d such place(s); text left in this entry",
				boundaryKind(bounds[0]), candidateList(cands), lo, opcodeBound(hi), len(bounds)))
			continue
		}
		cut := make([]int, 0, len(use)+1) // raw line indexes where parts start
		cut = append(cut, 0)
		for _, bd := range use {
			cut = append(cut, be.b.events[bd.event].at)
		}
		cut = append(cut, len(be.b.raw))
		first := rebuild(be.b.raw[cut[0]:cut[1]], *e)
		first.Line = e.Line
		*e = first
		for k, c := range cands {
			part := be.b.raw[cut[k+1]:cut[k+2]]
			rec := rebuild(part, Entry{
				Name: c.Name, Encoding: c.Encoding, Slot: c.Slot, Opcode: c.Opcode,
				Section: e.Section, Chapter: e.Chapter, Line: part[0].no,
			})
			if t := rec.Description; t != "" && (t[0] >= 'a' && t[0] <= 'z' || fragment(firstParagraph(t)) && !openings[normalizeText(firstParagraph(t))]) {
				rec.Description = "…" + t
			}
			order := fmt.Sprintf("between %d and %s", lo, opcodeBound(hi))
			if c.Opcode < lo || hi >= 0 && c.Opcode > hi {
				order = fmt.Sprintf("the section interleaves two runs of opcodes, and %d is the one missing from the run it continues", c.Opcode)
			}
			rec.Repair = fmt.Sprintf("The heading of this instruction was lost in the conversion of the guide (at a page break); this text followed the entry of %s %d and was attributed to %s by opcode order (%s opcode table, %s).",
				e.Name, e.Opcode, c.Name, c.Encoding, order)
			taken[factKey(c)] = true
			if recovered[e.Section] == nil {
				recovered[e.Section] = map[int]bool{}
			}
			recovered[e.Section][c.Opcode] = true
			inserts[be.index] = append(inserts[be.index], rec)
		}
	}
	if len(inserts) == 0 {
		return
	}
	out := make([]Entry, 0, len(g.Instructions)+len(inserts))
	for i, e := range g.Instructions {
		out = append(out, e)
		out = append(out, inserts[i]...)
	}
	g.Instructions = out
}

// lostCandidates lists the opcode-table entries of the section's formats
// (and the entry's VOPD slot) with lo < opcode < hi (hi < 0: no upper bound)
// that have no section entry in that format, in opcode order, one per name.
// The format matters: newer guides document V_MAX_U32 once per encoding
// (VOP2 20 and VOP3 276), and a lost VOP2 heading leaves only the VOP3 one.
func (p *parser) lostCandidates(e *Entry, lo, hi int, formats map[string]bool, documented, taken map[string]bool) []Entry {
	if hi >= 0 && hi <= lo {
		return nil // the section is not in opcode order here: nothing can be matched
	}
	seen := map[string]bool{}
	var out []Entry
	for _, t := range p.guide.Instructions {
		key := factKey(t)
		if !t.FromOpcodeTable || !formats[t.Encoding] || t.Slot != e.Slot || documented[key] || taken[key] || seen[t.Name] {
			continue
		}
		if t.Opcode <= lo || hi >= 0 && t.Opcode >= hi {
			continue
		}
		seen[t.Name] = true
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Opcode < out[j].Opcode })
	return out
}

// interleavedCandidate handles sections that interleave two opcode runs
// (CDNA 5's SOPC: S_CMP_GE_F32 70, S_CMP_GE_F16 86, S_CMP_O_F32 71,
// S_CMP_O_F16 87, ...), where the lost instruction's opcode lies outside
// the entry's own gap: it returns the one undocumented opcode-table entry
// whose opcode continues a run the section has up to the entry (its
// opcode minus one is documented there, or was recovered, which happens
// in section order) and resumes after it (plus one), or nothing when there
// is not exactly one.
func (p *parser) interleavedCandidate(index int, e *Entry, formats map[string]bool, documented, taken map[string]bool, recovered map[int]bool) []Entry {
	before, after := map[int]bool{}, map[int]bool{}
	for op := range recovered {
		before[op] = true
	}
	for i, t := range p.guide.Instructions {
		if t.FromOpcodeTable || t.Section != e.Section || t.Slot != e.Slot {
			continue
		}
		if i <= index {
			before[t.Opcode] = true
		} else {
			after[t.Opcode] = true
		}
	}
	var out []Entry
	seen := map[string]bool{}
	for _, t := range p.guide.Instructions {
		key := factKey(t)
		if !t.FromOpcodeTable || !formats[t.Encoding] || t.Slot != e.Slot || documented[key] || taken[key] || seen[key] {
			continue
		}
		if before[t.Opcode-1] && after[t.Opcode+1] && !before[t.Opcode] && !after[t.Opcode] {
			seen[key] = true
			out = append(out, t)
		}
	}
	if len(out) != 1 {
		return nil
	}
	return out
}

func firstParagraph(s string) string {
	p, _, _ := strings.Cut(s, "\n\n")
	return p
}

// normalizeText folds runs of white space, for comparing paragraphs.
func normalizeText(s string) string { return strings.Join(strings.Fields(s), " ") }

// rebuild reads a run of an entry's raw lines again as an entry of its own.
func rebuild(lines []rawLine, e Entry) Entry {
	b := newEntryBuilder(e)
	for _, l := range lines {
		b.add(l.text, l.no)
	}
	return b.finish()
}

func boundaryKind(b boundary) string {
	if b.strong {
		return "text that starts mid-sentence or a second pseudocode block"
	}
	return "a paragraph"
}

func candidateList(c []Entry) string {
	if len(c) == 0 {
		return "no undocumented instruction"
	}
	names := make([]string, len(c))
	for i, e := range c {
		names[i] = fmt.Sprintf("%s %d", e.Name, e.Opcode)
	}
	return strings.Join(names, ", ")
}

func opcodeBound(hi int) string {
	if hi < 0 {
		return "the end of the section"
	}
	return fmt.Sprint(hi)
}

// factKey names an instruction in one format (and VOPD slot): "V_MAX_U32 VOP2 ".
func factKey(e Entry) string { return e.Name + " " + e.Encoding + " " + e.Slot }

// descriptionOpeners learns from the guide itself which first words open an
// instruction description ("Multiply", "Set", "Calculate") rather than a
// note ("Supports", "Input", "This"): a word opens at least three entries'
// descriptions and starts Notes paragraphs less than a quarter as often.
// (Notes swallowed lost descriptions, so a ratio rather than "never".)
func descriptionOpeners(built []builtEntry) func(string) bool {
	desc, notes := map[string]int{}, map[string]int{}
	for _, be := range built {
		first := true
		for _, e := range be.b.events {
			if e.kind != evPara {
				continue
			}
			switch {
			case e.notes:
				notes[firstWord(e.text)]++
			case first:
				desc[firstWord(e.text)]++
				first = false
			}
		}
	}
	return func(text string) bool {
		w := firstWord(text)
		return w != "" && desc[w] >= 3 && desc[w] > 4*notes[w]
	}
}

// firstWord is the text's first word if it is made of letters and starts
// with a capital, "" otherwise.
func firstWord(text string) string {
	w, _, _ := strings.Cut(text, " ")
	if w == "" || w[0] < 'A' || w[0] > 'Z' {
		return ""
	}
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return ""
		}
	}
	return w
}

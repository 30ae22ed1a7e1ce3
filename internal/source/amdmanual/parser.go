package amdmanual

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strconv"
	"strings"
)

var (
	chapterRE = lazyre.New(`^Chapter (\d+)\.\s+(.+)$`)
	sectionRE = lazyre.New(`^(\d+(?:\.\d+)+)\.?\s+(.+)$`)
	// instHeadRE matches a cleaned instruction heading: "S_ADD_U32 0".
	instHeadRE = lazyre.New(`^([A-Z][A-Z0-9]*_[A-Z0-9_]*) (\d+)$`)
	nameRE     = lazyre.New(`^[A-Z][A-Z0-9]*_[A-Z0-9_]*$`)
)

// chapter kinds the reader cares about
const (
	chapterOther = iota
	chapterInstructions
	chapterFormats
)

// parser walks a guide line by line. The instruction chapter and the
// microcode chapter each have their own state; everything else is skipped.
type parser struct {
	lines  []string
	file   string
	guide  *Guide
	kind   int    // chapter kind of the current line
	chap   string // current chapter title
	inFmts bool

	// instruction chapter state
	section      string   // "VOP2 Instructions"
	sectionDepth int      // number of dot-separated parts in the section number
	encodings    []string // candidate encodings of the section, primary first
	slot         string
	sectionLine  int
	cur          *entryBuilder
	sectionEncs  map[string][]string // section title -> candidate encodings, for resolution
	built        []builtEntry        // section entries with their builders, for recoverLostHeadings

	fm *formatState
}

func newParser(text, file, family string) *parser {
	return &parser{
		lines:       strings.Split(text, "\n"),
		file:        file,
		guide:       &Guide{Family: family, File: file},
		sectionEncs: map[string][]string{},
		fm:          newFormatState(),
	}
}

// gap records something a complete guide holds that this one lacks.
func (p *parser) gap(line int, name, why string) {
	p.guide.Gaps = append(p.guide.Gaps, Problem{Line: line, Name: name, Why: why})
}

func (p *parser) problem(line int, name, why string) {
	p.guide.Problems = append(p.guide.Problems, Problem{Line: line, Name: name, Why: why})
}

func (p *parser) run() {
	p.guide.Title = findTitle(p.lines)
	for i := 0; i < len(p.lines); i++ {
		line := p.lines[i]
		if h, ok := headingText(line); ok {
			if m := chapterRE.FindStringSubmatch(h); m != nil {
				p.finishEntry()
				p.fm.flushTable(p)
				p.chap = m[2]
				switch {
				case strings.EqualFold(m[2], "Instructions"):
					p.kind = chapterInstructions
				case strings.EqualFold(m[2], "Microcode Formats"):
					p.kind = chapterFormats
				default:
					p.kind = chapterOther
				}
				p.section, p.encodings, p.slot = "", nil, ""
				continue
			}
		}
		switch p.kind {
		case chapterInstructions:
			i = p.instructionLine(i)
		case chapterFormats:
			p.fm.line(p, i)
		}
	}
	p.finishEntry()
	p.fm.flushTable(p)
	p.fm.finish(p)
	p.resolveEncodings()
	p.recoverLostHeadings()
	p.findGaps()
}

// findTitle returns the first non-notice, non-blank line, cleaned, without
// quotes and without the "Reference Guide" subtitle.
func findTitle(lines []string) string {
	for i, l := range lines {
		if i > 40 {
			break
		}
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, ">") {
			continue
		}
		if h, ok := headingText(t); ok {
			t = h
		} else {
			t = Clean(t)
		}
		t = strings.NewReplacer(`"`, "", "“", "", "”", "").Replace(t)
		t = strings.TrimSpace(strings.TrimSuffix(t, "Reference Guide"))
		return t
	}
	return ""
}

// sectionEncodingCandidates maps an instruction section title ("VOP3A &
// VOP3B Instructions", "Global Instructions", "VOPD X-Instructions") to the
// encodings it may name, primary first, and the VOPD slot.
func sectionEncodingCandidates(title string) (cands []string, slot string) {
	t := strings.TrimSpace(strings.TrimSuffix(title, "Instructions"))
	if strings.HasSuffix(t, "X-") || strings.HasSuffix(t, "Y-") {
		slot = t[len(t)-2 : len(t)-1]
		t = strings.TrimSpace(t[:len(t)-2])
	}
	if strings.Contains(t, ",") || strings.Contains(t, " and ") && !strings.Contains(strings.ToLower(t), "load") {
		return nil, "" // a parent section such as "FLAT, Scratch and Global": its subsections say which
	}
	for _, part := range strings.Split(t, "&") {
		part = strings.ToUpper(strings.TrimSpace(part))
		if part != "" {
			cands = append(cands, part)
		}
	}
	return cands, slot
}

// formatAliases lists the format names a section's encoding word may stand
// for, in order of preference, because sections and format chapters do not
// always use the same word (LDS vs DS, EXPORT vs EXP, VINTERP vs VINTRP).
func formatAliases(word string) []string {
	switch word {
	case "LDS", "DS":
		return []string{"DS", "VDS", "LDS"}
	case "EXPORT", "EXP":
		return []string{"EXP", "VEXPORT", "EXPORT"}
	case "VINTERP", "VINTRP":
		return []string{word, "VINTERP", "VINTRP"}
	case "PARAMETER AND DIRECT LOAD FROM LDS":
		return []string{"LDSDIR", "VDSDIR", "VINTRP"}
	}
	if strings.HasPrefix(word, "V") && len(word) > 1 {
		return []string{word, word[1:]}
	}
	return []string{word, "V" + word}
}

// instructionLine handles one line of the instruction chapter and returns
// the index of the last line it consumed.
func (p *parser) instructionLine(i int) int {
	line := p.lines[i]
	lineNo := i + 1
	if h, ok := headingText(line); ok {
		if m := sectionRE.FindStringSubmatch(h); m != nil {
			p.finishEntry()
			depth := strings.Count(m[1], ".") + 1
			title := m[2]
			if strings.HasSuffix(title, "Instructions") {
				p.section, p.sectionDepth, p.sectionLine = title, depth, lineNo
				p.encodings, p.slot = sectionEncodingCandidates(title)
				p.sectionEncs[title] = p.encodings
			} else if p.section != "" && depth <= p.sectionDepth {
				// A sibling such as "Instruction Limitations" ends the section.
				p.section, p.encodings, p.slot = "", nil, ""
			}
			return i
		}
		if m := instHeadRE.FindStringSubmatch(h); m != nil {
			p.startEntry(m[1], m[2], lineNo)
			return i
		}
	}
	// Some instruction headings were converted as one-line code blocks.
	if strings.HasPrefix(line, "```") && i+2 < len(p.lines) && strings.HasPrefix(p.lines[i+2], "```") {
		if m := instHeadRE.FindStringSubmatch(strings.TrimSpace(p.lines[i+1])); m != nil {
			p.startEntry(m[1], m[2], i+2)
			return i + 2
		}
	}
	if strings.HasPrefix(strings.TrimSpace(line), "|") {
		return p.oldTable(i)
	}
	if p.cur != nil {
		p.cur.add(line, lineNo)
	}
	return i
}

func (p *parser) startEntry(name, num string, lineNo int) {
	p.finishEntry()
	op, _ := strconv.Atoi(num)
	if p.section == "" {
		p.problem(lineNo, name, "instruction heading outside any instruction section; skipped")
		return
	}
	p.cur = newEntryBuilder(Entry{
		Name: name, Opcode: op, Section: p.section, Chapter: p.chap, Line: lineNo, Slot: p.slot,
	})
}

func (p *parser) finishEntry() {
	if p.cur == nil {
		return
	}
	if p.cur.fence {
		p.gap(p.cur.fenceLine, p.cur.e.Name, "the pseudocode block opened here is never closed: the section is cut short")
	}
	e := p.cur.finish()
	p.built = append(p.built, builtEntry{index: len(p.guide.Instructions), b: p.cur})
	p.cur = nil
	p.guide.Instructions = append(p.guide.Instructions, e)
}

// oldTable reads a Markdown table starting at line i inside the instruction
// chapter. "| Opcode | Name | Description |" tables become entries; other
// tables inside a new-style entry are kept as description text.
func (p *parser) oldTable(i int) int {
	j := i
	for j < len(p.lines) && strings.HasPrefix(strings.TrimSpace(p.lines[j]), "|") {
		j++
	}
	header := splitRow(p.lines[i])
	isOpcodeTable := len(header) >= 3 && strings.EqualFold(Clean(header[0]), "Opcode") && strings.EqualFold(Clean(header[1]), "Name")
	if !isOpcodeTable {
		if p.cur != nil {
			for k := i; k < j; k++ {
				p.cur.add(p.lines[k], k+1)
			}
		}
		return j - 1
	}
	p.finishEntry()
	for k := i + 1; k < j; k++ {
		row := p.lines[k]
		if isSeparatorRow(row) {
			continue
		}
		cells := splitRow(row)
		if len(cells) < 2 {
			p.problem(k+1, "", "instruction table row with fewer than two cells")
			continue
		}
		opText, name := Clean(cells[0]), Clean(cells[1])
		op, err := strconv.Atoi(opText)
		if err != nil || !nameRE.MatchString(name) {
			p.problem(k+1, name, "instruction table row without an opcode number and instruction name")
			continue
		}
		if p.section == "" {
			p.problem(k+1, name, "instruction table outside any instruction section; skipped")
			continue
		}
		desc := ""
		if len(cells) > 2 {
			desc = strings.Join(cells[2:], " ")
		}
		prose, code := splitProseCode(Unescape(desc))
		p.guide.Instructions = append(p.guide.Instructions, Entry{
			Name: name, Opcode: op, Section: p.section, Chapter: p.chap, Line: k + 1, Slot: p.slot,
			Description: stripEmphasis(prose), Pseudocode: code,
		})
	}
	return j - 1
}

func stripEmphasis(s string) string {
	if strings.IndexByte(s, '*') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "**", "")
	s = emphasisRE.ReplaceAllString(s, "$1$2$3")
	return emphasisRE.ReplaceAllString(s, "$1$2$3")
}

// resolveEncodings turns section encoding words into format names of this
// guide, and moves an entry to an alternate encoding of its section (VOP3B,
// VOP3SD) when that format's opcode table lists the instruction.
func (p *parser) resolveEncodings() {
	g := p.guide
	known := map[string]bool{}
	for _, f := range g.Formats {
		known[f.Name] = true
	}
	inTable := map[[2]string]bool{} // (format, name) from opcode tables
	for _, e := range g.Instructions {
		if e.FromOpcodeTable {
			inTable[[2]string{e.Encoding, e.Name}] = true
		}
	}
	resolve := func(word string) (string, bool) {
		for _, a := range formatAliases(word) {
			if known[a] {
				return a, true
			}
		}
		return word, false
	}
	reported := map[string]bool{}
	for i := range g.Instructions {
		e := &g.Instructions[i]
		if e.FromOpcodeTable {
			continue
		}
		cands := p.sectionEncs[e.Section]
		if len(cands) == 0 {
			if !reported[e.Section] {
				p.problem(e.Line, e.Name, "section "+strconvQuote(e.Section)+" does not name an encoding")
				reported[e.Section] = true
			}
			continue
		}
		primary, ok := resolve(cands[0])
		e.Encoding = primary
		for _, alt := range cands[1:] {
			if a, ok := resolve(alt); ok && inTable[[2]string{a, e.Name}] {
				e.Encoding = a
			}
		}
		if !ok && !reported[e.Section] {
			p.problem(e.Line, e.Name, "section "+strconvQuote(e.Section)+" names encoding "+cands[0]+", which has no microcode format in this guide")
			reported[e.Section] = true
		}
	}
}

func strconvQuote(s string) string { return strconv.Quote(s) }

// entryBuilder collects the body of a new-style instruction entry. Besides
// the text it keeps the raw lines and a list of events (paragraphs, code
// blocks, headings) so that recover.go can cut an entry in two where a page
// break swallowed the next instruction's heading, and re-read each part.
type entryBuilder struct {
	e         Entry
	inNotes   bool
	fence     bool
	fenceLine int      // line of the fence that opened the current block
	code      []string // current fenced block
	desc      []string // paragraphs
	notes     []string
	para      []string // current paragraph
	pseudo    []string // finished code blocks

	raw    []rawLine // every line given to add, in order
	events []event
	paraEv int // index in events of the current paragraph, -1 when none
}

// rawLine is one input line of an entry with its 1-based line number.
type rawLine struct {
	text string
	no   int
}

// event kinds of an entry body
const (
	evPara    = iota // a paragraph (or table) of prose
	evCode           // a fenced block or a one-line code span
	evExpr           // an "Expression" label (CDNA 5 puts one before every pseudocode block)
	evNotes          // a "Notes" heading
	evHeading        // any other heading inside the entry
)

// event is one element of an entry body. at indexes raw (where the element
// starts); text is the paragraph's full text, filled in when it ends.
type event struct {
	kind  int
	at    int
	notes bool // inside the Notes part of the entry
	text  string
}

func newEntryBuilder(e Entry) *entryBuilder {
	return &entryBuilder{e: e, paraEv: -1}
}

func (b *entryBuilder) event(kind int) {
	b.events = append(b.events, event{kind: kind, at: len(b.raw) - 1, notes: b.inNotes})
}

func (b *entryBuilder) flushPara() {
	if len(b.para) == 0 {
		return
	}
	text := strings.Join(b.para, "\n")
	b.para = nil
	list := &b.desc
	if b.inNotes {
		list = &b.notes
	}
	joined := false
	if b.paraEv >= 0 {
		b.events[b.paraEv].text = text
		// A page break in the PDF splits a sentence into two paragraphs
		// ("store the result" / "into a vector register."): join them again,
		// but only when nothing (no code block, no heading) lies between.
		prevIsPara := b.paraEv > 0 && b.events[b.paraEv-1].kind == evPara
		if n := len(*list); n > 0 && prevIsPara && continuesSentence((*list)[n-1], text) {
			(*list)[n-1] += " " + text
			joined = true
		}
		b.paraEv = -1
	}
	if !joined {
		*list = append(*list, text)
	}
}

// continuesSentence reports whether next continues the sentence prev broke
// off: prev does not end a sentence and next starts in lower case.
func continuesSentence(prev, next string) bool {
	prev = strings.TrimSpace(prev)
	if prev == "" || next == "" {
		return false
	}
	if endsSentence(prev) {
		return false
	}
	c := next[0]
	return c >= 'a' && c <= 'z'
}

// endsSentence reports whether s ends like a finished sentence or item.
func endsSentence(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return true
	}
	switch s[len(s)-1] {
	case '.', ':', '!', '?', ';', ')', '|':
		return true
	}
	return false
}

func (b *entryBuilder) add(line string, lineNo int) {
	b.raw = append(b.raw, rawLine{line, lineNo})
	trimmed := strings.TrimSpace(line)
	if b.fence {
		if strings.HasPrefix(trimmed, "```") {
			b.fence = false
			block := strings.Join(b.code, "\n")
			b.code = nil
			if strings.TrimSpace(block) == "" {
				return
			}
			if b.inNotes {
				b.notes = append(b.notes, block)
			} else {
				b.pseudo = append(b.pseudo, block)
			}
			return
		}
		b.code = append(b.code, strings.TrimRight(line, " \t"))
		return
	}
	if strings.HasPrefix(trimmed, "```") {
		b.flushPara()
		b.fence = true
		b.fenceLine = lineNo
		b.event(evCode)
		return
	}
	if trimmed == "" {
		b.flushPara()
		return
	}
	if strings.HasPrefix(trimmed, "![") { // figure placeholders carry no text
		return
	}
	if h, ok := headingText(trimmed); ok {
		b.flushPara()
		if h == "Notes" || strings.HasPrefix(h, "Notes ") {
			b.inNotes = true
			b.event(evNotes)
			if rest := strings.TrimSpace(strings.TrimPrefix(h, "Notes")); rest != "" {
				b.para = append(b.para, rest)
			}
			return
		}
		if h == "Expression" { // CDNA 5 labels every pseudocode block so
			b.event(evExpr)
			return
		}
		b.event(evHeading)
		b.events[len(b.events)-1].text = h
		b.para = append(b.para, h)
		b.flushPara()
		return
	}
	// A paragraph that is one inline code span is a one-line pseudocode.
	if len(trimmed) > 2 && trimmed[0] == '`' && trimmed[len(trimmed)-1] == '`' && strings.Count(trimmed, "`") == 2 && !b.inNotes {
		b.flushPara()
		b.event(evCode)
		b.pseudo = append(b.pseudo, trimmed[1:len(trimmed)-1])
		return
	}
	if len(b.para) == 0 {
		b.event(evPara)
		b.paraEv = len(b.events) - 1
	}
	b.para = append(b.para, Clean(trimmed))
}

func (b *entryBuilder) finish() Entry {
	if b.fence && len(b.code) > 0 { // unterminated fence at the end of the entry
		b.pseudo = append(b.pseudo, strings.Join(b.code, "\n"))
	}
	b.flushPara()
	b.e.Description = strings.Join(b.desc, "\n\n")
	b.e.Pseudocode = strings.Join(b.pseudo, "\n\n")
	b.e.Notes = strings.Join(b.notes, "\n\n")
	return b.e
}

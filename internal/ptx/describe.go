package ptx

import (
	"regexp"
	"strings"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// descriptionOf returns the Description text that belongs to mnemonic m of
// sec: the section's intro and every paragraph, except, in a section that
// documents several mnemonics, the paragraphs about the others only. NVIDIA
// writes such sections in parts ("Instruction `multimem.st` performs ...");
// a paragraph is one mnemonic's part when its lead sentence names section
// mnemonics, or names operands or qualifiers only some mnemonics' syntax has
// ("... returned in register `d`" is multimem.ld_reduce's: only it has a d).
// It then belongs to every mnemonic the paragraph names or whose syntax has
// its names. A mnemonic the text declares "equivalent to" another ("`bar.sync`
// is equivalent to `barrier.sync.aligned`") keeps the other's paragraphs too.
func descriptionOf(sec ptxdoc.Section, m string) string {
	text := joinText(sec.Intro, sec.Description)
	if len(sec.Mnemonics) < 2 || sec.Kind != ptxdoc.KindInstruction {
		return text
	}
	units := proseUnits(text)
	vocab := sectionVocabulary(sec)
	owners := make([]map[string]bool, len(units))
	alias := map[string]map[string]bool{} // mnemonic -> mnemonics it is equivalent to
	for i, u := range units {
		owners[i] = unitOwners(u, sec.Mnemonics, vocab)
		for _, s := range proseSentences(u) {
			if x, y, ok := equivalence(s, sec.Mnemonics); ok {
				if alias[x] == nil {
					alias[x] = map[string]bool{}
				}
				alias[x][y] = true
			}
		}
	}
	var keep []string
	for i, u := range units {
		o := owners[i]
		mine := o == nil || o[m]
		for y := range alias[m] {
			mine = mine || o[y]
		}
		if mine {
			keep = append(keep, u)
		}
	}
	return strings.Join(keep, "\n\n")
}

// unitOwners returns the mnemonics a paragraph is about, or nil when it is
// about all of them.
func unitOwners(unit string, mnemonics []string, vocab map[string]map[string]bool) map[string]bool {
	sentences := proseSentences(unit)
	if len(sentences) == 0 {
		return nil
	}
	if byName, byVocab := signals(sentences[0], mnemonics, vocab); len(byName)+len(byVocab) == 0 {
		return nil
	}
	// The mnemonics the paragraph names, else those its names point to.
	named, pointed := map[string]bool{}, map[string]bool{}
	for _, s := range sentences {
		byName, byVocab := signals(s, mnemonics, vocab)
		for m := range byName {
			named[m] = true
		}
		for m := range byVocab {
			pointed[m] = true
		}
	}
	if len(named) > 0 {
		return named
	}
	return pointed
}

// signals returns the mnemonics a sentence names, and the mnemonics whose
// syntax alone has the operands and qualifiers it names.
func signals(sentence string, mnemonics []string, vocab map[string]map[string]bool) (named, pointed map[string]bool) {
	named, pointed = map[string]bool{}, map[string]bool{}
	spans := proseSpans(sentence)
	for _, sp := range spans {
		for _, part := range strings.Split(sp, "/") {
			if m := spanMnemonic(part, mnemonics); m != "" {
				named[m] = true
			}
		}
	}
	for _, sp := range spans {
		for _, tok := range syntaxTokenRe.FindAllString(sp, -1) {
			var have []string
			for _, m := range mnemonics {
				if vocab[m][tok] {
					have = append(have, m)
				}
			}
			if len(have) > 0 && len(have) < len(mnemonics) {
				for _, m := range have {
					pointed[m] = true
				}
			}
		}
	}
	return named, pointed
}

// spanMnemonic returns the longest section mnemonic a code span is written
// with: "barrier{.cta}.red" names barrier, "mma.sp::ordered_metadata" names
// mma.sp::ordered_metadata rather than mma.sp.
func spanMnemonic(span string, mnemonics []string) string {
	span = strings.TrimSpace(span)
	best := ""
	for _, m := range mnemonics {
		if len(m) <= len(best) {
			continue
		}
		if span == m || strings.HasPrefix(span, m) && strings.ContainsRune(".{:; ", rune(span[len(m)])) {
			best = m
		}
	}
	return best
}

var equivalentRe = regexp.MustCompile("^`([^`]+)` (?:is|are) equivalent to `([^`]+)`")

// equivalence reads "`bar{.cta}.sync` is equivalent to `barrier{.cta}.sync.aligned`".
func equivalence(sentence string, mnemonics []string) (x, y string, ok bool) {
	mt := equivalentRe.FindStringSubmatch(sentence)
	if mt == nil {
		return "", "", false
	}
	x, y = spanMnemonic(mt[1], mnemonics), spanMnemonic(mt[2], mnemonics)
	return x, y, x != "" && y != "" && x != y
}

// syntaxTokenRe matches the names a syntax line and the prose share:
// operands ("d", "nCols", "scale-a-data") and qualifiers (".ldsem", ".shared::cta").
var syntaxTokenRe = regexp.MustCompile(`\.?[A-Za-z_][A-Za-z0-9_:-]*`)

// sectionVocabulary returns, per mnemonic, the names its syntax lines use,
// with the choices of the template variables they use (".op" brings ".add").
func sectionVocabulary(sec ptxdoc.Section) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, m := range sec.Mnemonics {
		out[m] = map[string]bool{}
	}
	for _, cb := range sec.Syntax {
		stmts, defs := splitBlock(cb.Text, cb.Line)
		choices := map[string][]string{}
		for _, d := range defs {
			for _, n := range d.names {
				choices[n] = append(choices[n], d.choices...)
			}
		}
		for _, st := range stmts {
			// A line whose mnemonic is a template variable ("mma.spvariant")
			// counts for every mnemonic: its names are not specific to one.
			owners := sec.Mnemonics
			if m := mnemonicOfLine(stripGuard(st.text), sec.Mnemonics); m != "" {
				owners = []string{m}
			}
			for _, tok := range syntaxTokenRe.FindAllString(st.text, -1) {
				for _, m := range owners {
					out[m][tok] = true
					for _, c := range choices[tok] {
						out[m][c] = true
					}
				}
			}
		}
	}
	return out
}

// proseSpans returns the contents of a text's `code spans`.
func proseSpans(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+1+j])
		s = s[i+2+j:]
	}
}

// proseUnits splits Markdown prose into paragraphs, each with the lists,
// tables, definitions and code blocks that continue it ("... performs the
// following operations:" and its bullet list are one unit).
func proseUnits(md string) []string {
	var (
		units  []string
		blocks []string
		cur    []string
		fence  bool
	)
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
		}
		if !fence && strings.TrimSpace(line) == "" && !strings.HasPrefix(strings.TrimSpace(line), "```") {
			if len(cur) > 0 {
				blocks = append(blocks, strings.Join(cur, "\n"))
				cur = nil
			}
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		blocks = append(blocks, strings.Join(cur, "\n"))
	}
	for _, b := range blocks {
		if len(units) > 0 && continues(b, units[len(units)-1]) {
			units[len(units)-1] += "\n\n" + b
			continue
		}
		units = append(units, b)
	}
	return units
}

var listItemRe = regexp.MustCompile(`^([*+-]|\d+\.) `)

// continues says whether block b belongs to the unit before it.
func continues(b, prev string) bool {
	first := b
	if i := strings.IndexByte(b, '\n'); i >= 0 {
		first = b[:i]
	}
	trimmed := strings.TrimSpace(first)
	switch {
	case first != trimmed, // indented: a list item's continuation
		listItemRe.MatchString(trimmed),
		strings.HasPrefix(trimmed, "|"),
		strings.HasPrefix(trimmed, ":"),
		strings.HasPrefix(trimmed, "```"),
		strings.HasPrefix(trimmed, ">"):
		return true
	}
	return strings.HasSuffix(strings.TrimSpace(prev), ":")
}

// proseSentences splits a unit's prose into sentences, whitespace collapsed.
// Code blocks and tables are left out; list items end a sentence. A full
// stop ends a sentence when a capital, a code span, a link or a bracket
// follows, but not inside a code span or a link target, and not after
// "e.g." or "i.e.".
func proseSentences(unit string) []string {
	var lines []string
	fence := false
	for _, line := range strings.Split(unit, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			fence = !fence
			lines = append(lines, "\x00")
			continue
		}
		if fence || strings.HasPrefix(t, "|") {
			lines = append(lines, "\x00")
			continue
		}
		if listItemRe.MatchString(t) {
			lines = append(lines, "\x00", listItemRe.ReplaceAllString(t, ""))
			continue
		}
		lines = append(lines, t)
	}
	var out []string
	for _, chunk := range strings.Split(strings.Join(lines, " "), "\x00") {
		out = append(out, splitProse(strings.Join(strings.Fields(chunk), " "))...)
	}
	return out
}

func splitProse(s string) []string {
	var out []string
	start, inCode, inURL := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			inCode = !inCode
		case inCode:
		case c == ']' && i+1 < len(s) && s[i+1] == '(':
			inURL = 1
		case inURL > 0 && c == '(':
			inURL++
		case inURL > 0 && c == ')':
			inURL--
			if inURL == 1 {
				inURL = 0
			}
		case inURL > 0:
		case (c == '.' || c == ':' || c == '?' || c == '!') && i+2 < len(s) && s[i+1] == ' ':
			next := s[i+2]
			if c == ':' && !(next >= 'A' && next <= 'Z') {
				continue
			}
			if !(next >= 'A' && next <= 'Z' || next == '`' || next == '[' || next == '*' || next == '(') {
				continue
			}
			word := s[strings.LastIndexByte(s[:i], ' ')+1 : i+1]
			if word == "e.g." || word == "i.e." || word == "etc." || word == "vs." {
				continue
			}
			if t := strings.TrimSpace(s[start : i+1]); t != "" {
				out = append(out, t)
			}
			start = i + 2
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

package llvmdoc

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// pageName matches the syntax pages' file names and captures the family.
var pageName = lazyre.New(`^AMDGPUAsm(GFX[0-9A-Za-z]+)\.html$`)

// ReadDir reads every AMDGPUAsmGFX*.html page under docDir, which may be
// the AMDGPU folder itself or the html folder above it (as the Debian
// package installs it: /usr/share/doc/llvm-22-doc/html). Operand links are
// resolved against the operand pages beside each syntax page; a missing
// operand page leaves Operand.Doc nil rather than failing the read.
func ReadDir(docDir string) ([]Page, error) {
	dir := docDir
	if st, err := os.Stat(filepath.Join(docDir, "AMDGPU")); err == nil && st.IsDir() {
		dir = filepath.Join(docDir, "AMDGPU")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("llvmdoc: %w", err)
	}
	docs := newOperandDocs(dir)
	var pages []Page
	for _, e := range entries {
		m := pageName.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("llvmdoc: %w", err)
		}
		insts, err := ParseSyntax(f, path)
		f.Close()
		if err != nil {
			return nil, err
		}
		for i := range insts {
			for j := range insts[i].Operands {
				op := &insts[i].Operands[j]
				op.Doc = docs.get(op.Link)
				if op.Doc != nil && op.Doc.Title != "" {
					op.Kind = op.Doc.Title
				}
			}
		}
		pages = append(pages, Page{GFX: m[1], File: path, Instructions: insts})
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("llvmdoc: no AMDGPUAsmGFX*.html page in %s", dir)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].GFX < pages[j].GFX })
	return pages, nil
}

// ParseSyntax reads the syntax tables of one page. name is used in error
// messages and, when it is a syntax page's file name, for Syntax.Family.
// Operand.Doc is left nil (ReadDir fills it) and Operand.Kind is derived
// from the link's file name.
func ParseSyntax(r io.Reader, name string) ([]Syntax, error) {
	p := syntaxParser{name: name, line: 1}
	if m := pageName.FindStringSubmatch(filepath.Base(name)); m != nil {
		p.family = m[1]
	}
	z := html.NewTokenizer(r)
	for {
		tt := z.Next()
		startLine := p.line
		p.line += strings.Count(string(z.Raw()), "\n")
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				if p.inPre {
					p.finishPre()
				}
				return p.out, nil
			}
			return nil, fmt.Errorf("%s:%d: %w", name, startLine, z.Err())
		case html.StartTagToken, html.SelfClosingTagToken:
			tn, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			switch string(tn) {
			case "pre":
				if strings.Contains(attrs["class"], "literal-block") {
					p.inPre = true
					p.pre = p.pre[:0]
				}
			case "a":
				p.hrefs = append(p.hrefs, attrs["href"])
				if attrs["class"] == "headerlink" {
					p.inHeaderLink = true
				}
			case "h1", "h2", "h3", "h4":
				p.inHeading = true
				p.heading.Reset()
			}
		case html.EndTagToken:
			tn, _ := z.TagName()
			switch string(tn) {
			case "pre":
				if p.inPre {
					p.finishPre()
					p.inPre = false
				}
			case "a":
				if len(p.hrefs) > 0 {
					p.hrefs = p.hrefs[:len(p.hrefs)-1]
				}
				p.inHeaderLink = false
			case "h1", "h2", "h3", "h4":
				if p.inHeading {
					p.section = strings.TrimSpace(p.heading.String())
					p.tables = 0
					p.inHeading = false
				}
			}
		case html.TextToken:
			text := string(z.Text())
			if p.inHeading && !p.inHeaderLink {
				p.heading.WriteString(text)
			}
			if p.inPre {
				href := ""
				if len(p.hrefs) > 0 {
					href = p.hrefs[len(p.hrefs)-1]
				}
				l := startLine
				for _, r := range text {
					p.pre = append(p.pre, preRune{r: r, href: href, line: l})
					if r == '\n' {
						l++
					}
				}
			}
		}
	}
}

// preRune is one character of a syntax table as rendered, with the link it
// is part of and its source line.
type preRune struct {
	r    rune
	href string
	line int
}

type syntaxParser struct {
	name         string
	family       string
	line         int
	inPre        bool
	pre          []preRune
	hrefs        []string
	inHeading    bool
	inHeaderLink bool
	heading      strings.Builder
	section      string
	tables       int // syntax tables seen under the current heading
	out          []Syntax
}

// column is one heading of a syntax table and where it starts.
type column struct {
	name string
	pos  int
}

// finishPre turns one rendered table into Syntax rows. The first line holds
// the column headings (INSTRUCTION, DST, SRC0, ..., MODIFIERS), the second a
// rule; every other line is one instruction whose operands start under
// their columns.
func (p *syntaxParser) finishPre() {
	lines := splitLines(p.pre)
	var cols []column
	for _, ln := range lines {
		if len(ln) == 0 {
			continue
		}
		words := splitWords(ln)
		if len(words) == 0 || isRule(ln) {
			continue
		}
		if cols == nil {
			if words[0].text != "INSTRUCTION" {
				return // not a syntax table
			}
			for _, w := range words {
				cols = append(cols, column{name: w.text, pos: w.pos})
			}
			p.tables++
			continue
		}
		if s, ok := p.row(ln, words, cols); ok {
			p.out = append(p.out, s)
		}
	}
}

func (p *syntaxParser) row(ln []preRune, words []word, cols []column) (Syntax, bool) {
	mnemonic := strings.ToLower(words[0].text)
	if !validMnemonic(mnemonic) {
		return Syntax{}, false
	}
	s := Syntax{Mnemonic: mnemonic, Family: p.family, Section: p.section, Table: p.tables - 1, Line: ln[words[0].pos].line}
	modPos := -1
	for _, c := range cols {
		if c.name == "MODIFIERS" {
			modPos = c.pos
		}
	}
	for _, w := range words[1:] {
		href := ln[w.pos].href
		isMod := strings.Contains(href, "ModifierSyntax") ||
			(href == "" && modPos >= 0 && w.pos >= modPos)
		if isMod {
			s.Modifiers = append(s.Modifiers, w.text)
			s.ModifierIDs = append(s.ModifierIDs, modifierID(href))
			continue
		}
		s.Operands = append(s.Operands, operandOf(ln, w, columnAt(cols, w.pos)))
	}
	return s, true
}

// operandOf splits "vsrc1:b16" into the operand and its tags; each part
// carries its own link, which says what the tag is.
func operandOf(ln []preRune, w word, col string) Operand {
	parts := strings.Split(w.text, ":")
	op := Operand{Name: parts[0], Column: col, Link: ln[w.pos].href}
	op.Kind = kindFromLink(op.Link, op.Name)
	pos := w.pos + len([]rune(parts[0])) + 1
	for _, part := range parts[1:] {
		href := ""
		if pos < len(ln) {
			href = ln[pos].href
		}
		pos += len([]rune(part)) + 1
		switch tag := kindFromLink(href, ""); {
		case tag == "opt" || (href == "" && part == "opt"):
			op.Optional = true
		case tag == "type_deviation" || (href == "" && typeDwords(part) > 0):
			op.Type = part
		default:
			op.Mods = append(op.Mods, part)
		}
	}
	return op
}

func columnAt(cols []column, pos int) string {
	name := ""
	for _, c := range cols {
		if c.pos <= pos {
			name = c.name
		}
	}
	return name
}

// linkFile matches operand page names: gfx11_vdst_89680f.html,
// gfx11_opt.html, gfx1011_src_1.html; the hash tells operands of the same
// name apart.
var linkFile = lazyre.New(`^gfx[0-9a-z]+?_(.+?)(?:_[0-9a-f]{6})?\.html$`)

// kindFromLink names the operand class from the page a part links to; the
// fallback is used when the part has no link.
func kindFromLink(href, fallback string) string {
	file := href
	if i := strings.IndexByte(file, '#'); i >= 0 {
		file = file[:i]
	}
	file = filepath.Base(file)
	if m := linkFile.FindStringSubmatch(file); m != nil {
		return m[1]
	}
	return fallback
}

func modifierID(href string) string {
	i := strings.IndexByte(href, '#')
	if i < 0 {
		return ""
	}
	return strings.TrimPrefix(href[i+1:], "amdgpu-synid-")
}

type word struct {
	text string
	pos  int // rune index in the line
}

// splitWords splits a rendered table line at white space and commas; the
// colon-joined tags stay with their operand.
func splitWords(ln []preRune) []word {
	var out []word
	start := -1
	for i := 0; i <= len(ln); i++ {
		sep := i == len(ln) || unicode.IsSpace(ln[i].r) || ln[i].r == ','
		if sep && start >= 0 {
			out = append(out, word{text: runesText(ln[start:i]), pos: start})
			start = -1
		} else if !sep && start < 0 {
			start = i
		}
	}
	return out
}

func splitLines(rs []preRune) [][]preRune {
	var out [][]preRune
	start := 0
	for i, r := range rs {
		if r.r == '\n' {
			out = append(out, rs[start:i])
			start = i + 1
		}
	}
	return append(out, rs[start:])
}

func runesText(rs []preRune) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteRune(r.r)
	}
	return b.String()
}

// isRule reports whether a line is the rule under the headings (a run of
// dashes, drawn with the em dash in Sphinx output).
func isRule(ln []preRune) bool {
	for _, r := range ln {
		if !unicode.IsSpace(r.r) && r.r != '—' && r.r != '-' && r.r != '=' {
			return false
		}
	}
	return true
}

func validMnemonic(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// typeDwords returns how many 32-bit registers a type tag such as "b64",
// "f16", "f16x2" or "b128" fills, or 0 when the tag is not a type.
func typeDwords(tag string) int {
	if len(tag) < 2 || !strings.ContainsRune("bfiu", rune(tag[0])) {
		return 0
	}
	rest := tag[1:]
	count := 1
	if i := strings.IndexByte(rest, 'x'); i >= 0 {
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil || n <= 0 || n > 64 {
			return 0
		}
		count, rest = n, rest[:i]
	}
	bits, err := strconv.Atoi(rest)
	if err != nil || bits <= 0 || bits > 1024 {
		return 0
	}
	return (bits*count + 31) / 32
}

// leadingInt returns the number a string starts with, or 0.
func leadingInt(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return 0
		}
	}
	return n
}

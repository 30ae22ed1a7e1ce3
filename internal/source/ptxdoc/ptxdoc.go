// Package ptxdoc reads NVIDIA's PTX ISA documentation, as one Markdown file per
// section, into a markup-independent section model: which mnemonic(s) a section
// documents, its syntax code blocks, prose subsections, version/target notes
// and examples. Nothing here knows about forms or checking; internal/ptx does
// that from []Section, so another front end (NVIDIA's single-page HTML) only
// has to produce the same Section values.
package ptxdoc

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Kinds of documented entity.
const (
	KindInstruction     = "instruction"
	KindSpecialRegister = "special-register"
	KindDirective       = "directive"
)

// CodeBlock is one fenced code block.
type CodeBlock struct {
	Text    string // contents without the fences
	Line    int    // 1-based line of the first content line
	Caption string // prose line just before the block inside its subsection ("Integer type:"), if any
}

// Section is one documentation section that documents one or more mnemonics
// (instructions, special registers or directives).
type Section struct {
	ID        string   // anchor in NVIDIA's HTML ("integer-arithmetic-instructions-max") or the file stem
	Number    string   // "9.7.1.13"
	Title     string   // "Integer Arithmetic Instructions: max"
	File      string   // path relative to the documentation root, slash-separated
	Line      int      // line of the title
	Mnemonics []string // "max"; "bar", "barrier"; "%tid"; ".version"
	Group     string   // "Integer Arithmetic Instructions"
	// Summary is the summary sentence under the first mnemonic's name; a
	// section naming its mnemonics in groups ("`vadd4`, `vsub4`" ...
	// "`vavrg4`") gives each group its own, kept in Summaries by mnemonic.
	Summary   string
	Summaries map[string]string
	// Intro is the prose NVIDIA puts before the mnemonics' names (the
	// multimem section's paragraph on multimem addresses), Markdown.
	Intro  string
	Syntax []CodeBlock
	// Prose subsections, as Markdown text with the lines joined by "\n".
	Description, Semantics, Notes, PTXISANotes, TargetISANotes string
	SemanticsCode                                              []CodeBlock
	Examples                                                   []CodeBlock
	Kind                                                       string
	// First line of the version and target notes (0 if absent), for citations.
	PTXISANotesLine, TargetISANotesLine int
	// Subsections maps each subsection key the file has ("syntax",
	// "description", "semantics", "notes", "ptx-isa-notes",
	// "target-isa-notes", "examples") to the line of its first header, so
	// that the build's source gate can tell a complete section from one cut
	// short.
	Subsections map[string]int
	// OpenFence is the line of a code fence the file never closes (a file
	// cut short inside a code block), 0 when every fence is closed.
	OpenFence int
}

// ReadDir reads every section documenting an instruction, special register or
// directive under dir (the root holding 9_instruction_set/, 10_special_registers/,
// 11_directives/). Sections are returned in document order.
func ReadDir(dir string) ([]Section, error) {
	var out []Section
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") || d.Name() == "overview.md" {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		kind := kindForPath(rel)
		if kind == "" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sec, ok, err := Parse(rel, data)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		sec.Kind = kind
		out = append(out, sec)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("ptxdoc: reading %s: %w", dir, err)
	}
	sort.SliceStable(out, func(i, j int) bool { return lessNumber(out[i].Number, out[j].Number) })
	return out, nil
}

func kindForPath(rel string) string {
	switch {
	case strings.HasPrefix(rel, "9_instruction_set/97_instructions/"):
		return KindInstruction
	case strings.HasPrefix(rel, "10_special_registers/"):
		return KindSpecialRegister
	case strings.HasPrefix(rel, "11_directives/"):
		return KindDirective
	}
	return ""
}

// lessNumber orders dotted section numbers numerically ("9.7.2" < "9.7.10").
func lessNumber(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if ea != nil || eb != nil {
			if pa[i] != pb[i] {
				return pa[i] < pb[i]
			}
			continue
		}
		if na != nb {
			return na < nb
		}
	}
	return len(pa) < len(pb)
}

var (
	titleRe  = lazyre.New(`^# ([0-9.]+?)\.? (.*)$`)
	linkRe   = lazyre.New(`^#{2,} [0-9.]+ \[(.*?)\]\(https?://[^)#]*#([^)"\s]+)\)`)
	tickRe   = lazyre.New("`([^`]+)`")
	headerRe = lazyre.New(`^(Syntax( \(predefined\))?|Description|Semantics|Notes|Note|[A-Z][a-z]+( [A-Za-z]+)? Notes?|PTX ISA Notes|Target ISA Notes|Examples?:?|Examples? of [^.]{1,60})$`)
)

// Parse reads one section file. ok is false when the file documents no
// mnemonic (overview and background sections). name is used in messages and
// as Section.File.
func Parse(name string, data []byte) (sec Section, ok bool, err error) {
	sec.File = name
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	var (
		lineNo     int
		sub        string // current subsection header, "" before the first
		inCode     bool
		code       []string
		codeLine   int
		caption    string
		prose      = map[string][]string{}
		proseLine  = map[string]int{}
		preHeader  []string // lines between the title block and the first subsection header
		linkTitle  string
		titleLine2 string // continuation of a title that wrapped onto the next line
		sawTitle   bool
	)
	flushCode := func() {
		cb := CodeBlock{Text: strings.Join(code, "\n"), Line: codeLine, Caption: caption}
		switch sub {
		case "syntax":
			sec.Syntax = append(sec.Syntax, cb)
		case "examples":
			sec.Examples = append(sec.Examples, cb)
		case "semantics":
			sec.SemanticsCode = append(sec.SemanticsCode, cb)
			prose[sub] = append(prose[sub], "```", cb.Text, "```")
		default:
			if sub != "" {
				prose[sub] = append(prose[sub], "```", cb.Text, "```")
			}
		}
		code, caption = nil, ""
	}
	for sc.Scan() {
		lineNo++
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if inCode {
				inCode = false
				flushCode()
			} else {
				inCode = true
				codeLine = lineNo + 1
			}
			continue
		}
		if inCode {
			code = append(code, line)
			continue
		}
		trimmed := strings.TrimSpace(line)
		if !sawTitle {
			if m := titleRe.FindStringSubmatch(line); m != nil {
				sawTitle = true
				sec.Number, sec.Title, sec.Line = strings.TrimSuffix(m[1], "."), strings.TrimSpace(m[2]), lineNo
			}
			continue
		}
		if m := linkRe.FindStringSubmatch(line); m != nil && linkTitle == "" {
			linkTitle, sec.ID = m[1], m[2]
			continue
		}
		if linkTitle == "" && (strings.HasSuffix(sec.Title, ":") || strings.HasSuffix(sec.Title, ",")) && trimmed != "" && titleLine2 == "" {
			titleLine2 = trimmed
			continue
		}
		if trimmed == "Copy to clipboard" {
			continue
		}
		if headerRe.MatchString(trimmed) && !(trimmed == "Note" && (sub == "ptx-isa-notes" || sub == "target-isa-notes")) {
			// A "Note" inside the version/target notes is an aside in them.
			sub = subsectionKey(trimmed)
			if _, seen := proseLine[sub]; !seen {
				proseLine[sub] = lineNo
			}
			caption = ""
			continue
		}
		if sub == "" {
			preHeader = append(preHeader, trimmed)
			continue
		}
		if trimmed != "" {
			caption = trimmed
		}
		prose[sub] = append(prose[sub], line)
	}
	if err := sc.Err(); err != nil {
		return sec, false, fmt.Errorf("%s:%d: %w", name, lineNo, err)
	}
	if inCode {
		// An unterminated fence: keep what we have rather than dropping the section.
		sec.OpenFence = codeLine - 1
		flushCode()
	}
	if !sawTitle {
		return sec, false, nil
	}
	if titleLine2 != "" {
		sec.Title += " " + titleLine2
	}
	if i := strings.Index(sec.Title, ": "); i >= 0 {
		sec.Group = sec.Title[:i]
	}
	sec.Mnemonics = mnemonics(sec.Title, linkTitle)
	if sec.ID == "" {
		sec.ID = strings.TrimSuffix(filepath.Base(name), ".md")
	}
	sec.Intro, sec.Summaries = preamble(preHeader)
	if len(sec.Mnemonics) > 0 {
		sec.Summary = sec.SummaryOf(sec.Mnemonics[0])
	}
	sec.Description = joinProse(prose["description"])
	sec.Semantics = joinProse(prose["semantics"])
	sec.Notes = joinProse(prose["notes"])
	sec.PTXISANotes = joinProse(prose["ptx-isa-notes"])
	sec.TargetISANotes = joinProse(prose["target-isa-notes"])
	sec.PTXISANotesLine = proseLine["ptx-isa-notes"]
	sec.TargetISANotesLine = proseLine["target-isa-notes"]
	sec.Subsections = proseLine
	ok = len(sec.Mnemonics) > 0 && len(sec.Syntax) > 0
	return sec, ok, nil
}

// SummaryOf returns the summary NVIDIA writes under mnemonic's name, else
// the section's first summary.
func (s Section) SummaryOf(mnemonic string) string {
	if t, ok := s.Summaries[mnemonic]; ok {
		return t
	}
	if t, ok := s.Summaries[""]; ok {
		return t
	}
	for _, m := range s.Mnemonics {
		if t, ok := s.Summaries[m]; ok {
			return t
		}
	}
	return ""
}

// namesLineRe matches a line of nothing but ticked names: "`vadd4`, `vsub4`",
// "`%pm0` … `%pm7`", "`shfl` (deprecated)".
var namesLineRe = lazyre.New("^`[^`]+`((\\s*,\\s*|\\s*…\\s*)`[^`]+`)*( \\(deprecated\\))?$")

// preamble reads the lines between a section's heading and its first
// subsection. NVIDIA writes each group of mnemonics' names on a line of their
// own with the summary paragraph below it (a definition, ":   ...", for
// special registers); prose before the first such line introduces the
// section. Wrapped lines are joined. A summary without a names line above it
// is stored under "".
func preamble(lines []string) (intro string, summaries map[string]string) {
	summaries = map[string]string{}
	var (
		names    []string // the names line the current paragraph follows
		para     []string
		introPs  []string
		hasNames = hasNamesLine(lines)
	)
	flush := func() {
		if len(para) == 0 {
			return
		}
		text := strings.Join(para, " ")
		para = nil
		switch {
		case names != nil:
			for _, n := range names {
				summaries[n] = text
			}
			names = nil
		case !hasNames && len(summaries) == 0:
			summaries[""] = text
		default:
			introPs = append(introPs, text)
		}
	}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case namesLineRe.MatchString(l):
			flush()
			names = nil
			for _, m := range tickRe.FindAllStringSubmatch(l, -1) {
				names = append(names, m[1])
			}
		case l == "":
			flush()
		default:
			para = append(para, strings.TrimSpace(strings.TrimPrefix(l, ":")))
		}
	}
	flush()
	return strings.Join(introPs, "\n\n"), summaries
}

func hasNamesLine(lines []string) bool {
	for _, l := range lines {
		if namesLineRe.MatchString(strings.TrimSpace(l)) {
			return true
		}
	}
	return false
}

func subsectionKey(h string) string {
	switch {
	case strings.HasPrefix(h, "Syntax"):
		return "syntax"
	case h == "Description":
		return "description"
	case h == "Semantics":
		return "semantics"
	case h == "PTX ISA Notes":
		return "ptx-isa-notes"
	case h == "Target ISA Notes":
		return "target-isa-notes"
	case strings.HasPrefix(h, "Example"):
		return "examples"
	}
	return "notes"
}

func joinProse(lines []string) string {
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// mnemonics extracts the documented names from a section title. The linked
// heading puts each name in backticks ("`bar`, `barrier`"); the plain title is
// the fallback ("...: mbarrier.test_wait / mbarrier.try_wait").
func mnemonics(title, linkTitle string) []string {
	var names []string
	if i := strings.Index(linkTitle, ": "); i >= 0 {
		for _, m := range tickRe.FindAllStringSubmatch(linkTitle[i+2:], -1) {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		i := strings.Index(title, ": ")
		if i < 0 {
			return nil
		}
		rest := strings.ReplaceAll(title[i+2:], "(deprecated)", "")
		for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == '/' || r == ' ' }) {
			names = append(names, f)
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || strings.ContainsAny(n, " \t") || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

// KindForPath is the kind of entity the file at rel (relative to the
// documentation root) documents when it documents one, "" otherwise.
func KindForPath(rel string) string { return kindForPath(rel) }

// Missing lists what a complete section of its kind holds that s lacks,
// each as "the Examples subsection" or "the end of the code block opened
// at line N": every instruction, special-register and directive section of
// NVIDIA's documentation has Syntax, PTX ISA Notes, Target ISA Notes and
// Examples subsections, and instruction and special-register sections a
// Description. A section cut short loses the subsections after the cut.
// s.Kind must be set (ReadDir sets it; KindForPath gives it).
func (s Section) Missing() []string {
	var out []string
	if s.OpenFence > 0 {
		out = append(out, fmt.Sprintf("the end of the code block opened at line %d", s.OpenFence))
	}
	want := []struct{ key, name string }{
		{"syntax", "Syntax"}, {"description", "Description"}, {"ptx-isa-notes", "PTX ISA Notes"},
		{"target-isa-notes", "Target ISA Notes"}, {"examples", "Examples"},
	}
	for _, w := range want {
		if w.key == "description" && s.Kind == KindDirective {
			continue // two directives (.dwarf, .section) have none: their Syntax and Examples say it all
		}
		if _, ok := s.Subsections[w.key]; !ok {
			out = append(out, "the "+w.name+" subsection")
		}
	}
	return out
}

package amdmanual

import (
	"html"
	"regexp"
	"strings"
)

var (
	spanRE     = regexp.MustCompile(`<span\b[^>]*>\s*</span>|</?span\b[^>]*>`)
	brRE       = regexp.MustCompile(`(?i)<br\s*/?>`)
	emphasisRE = regexp.MustCompile(`(^|[\s(\[“"'])\*([^\s*](?:[^*]*[^\s*])?)\*($|[\s.,;:!?)\]”"'])`)
)

// Unescape undoes the escaping the PDF-to-Markdown converter applied to
// text: Markdown backslash escapes (`V\_MAX\_F32` -> V_MAX_F32), HTML
// entities (`&#124;` -> |, `&lt;` -> <), page anchors
// (`<span id="page-1-0"></span>`) and `<br>` line breaks inside table
// cells. It leaves emphasis markers alone; see Clean for prose.
func Unescape(s string) string {
	if strings.Contains(s, "<") {
		s = spanRE.ReplaceAllString(s, "")
		s = brRE.ReplaceAllString(s, "\n")
	}
	if strings.IndexByte(s, '\\') >= 0 {
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); i++ {
			c := s[i]
			// CommonMark: a backslash before ASCII punctuation escapes it;
			// before anything else it is a literal backslash.
			if c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
				b.WriteByte(s[i+1])
				i++
				continue
			}
			b.WriteByte(c)
		}
		s = b.String()
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	return strings.TrimSpace(s)
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// Clean is Unescape plus removal of Markdown emphasis (**bold**, *italic*),
// for prose and headings. It must not be used on pseudocode, where `*` is
// multiplication.
func Clean(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = Unescape(s)
	if strings.IndexByte(s, '*') >= 0 {
		// Twice, because adjacent emphases share the separating space.
		s = emphasisRE.ReplaceAllString(s, "$1$2$3")
		s = emphasisRE.ReplaceAllString(s, "$1$2$3")
	}
	return strings.TrimSpace(s)
}

// headingText returns the cleaned text of a Markdown ATX heading and whether
// the line is one.
func headingText(line string) (string, bool) {
	if !strings.HasPrefix(line, "#") {
		return "", false
	}
	i := 0
	for i < len(line) && i < 7 && line[i] == '#' {
		i++
	}
	if i >= len(line) || line[i] != ' ' {
		return "", false
	}
	return Clean(line[i+1:]), true
}

// splitRow splits a Markdown table row into trimmed, still-escaped cells. An
// escaped pipe (`\|`) does not split.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if line[i] == '|' {
			cells = append(cells, strings.TrimSpace(line[start:i]))
			start = i + 1
		}
	}
	return append(cells, strings.TrimSpace(line[start:]))
}

// isSeparatorRow reports whether a table row is the |---|---| line.
func isSeparatorRow(line string) bool {
	t := strings.Trim(strings.TrimSpace(line), "|")
	if t == "" {
		return false
	}
	for _, c := range t {
		if c != '-' && c != ':' && c != '|' && c != ' ' {
			return false
		}
	}
	return true
}

// codeMarkers are substrings that make an old-style description sentence
// pseudocode rather than prose.
var codeMarkers = []string{" = ", "=", ";", "//", "if(", "if (", "endif", "+=", "<<", ">>", "D.", "S0.", "S1.", "S2.", "{", "}", "[", "return", "MEM["}

func looksLikeCode(sentence string) bool {
	for _, m := range codeMarkers {
		if strings.Contains(sentence, m) {
			return true
		}
	}
	return false
}

// splitSentences splits an old-style description cell at ". " boundaries
// that are followed by an upper-case letter, a digit or a quote, keeping the
// period with the sentence. "S0.u" has no space after the dot, so operand
// suffixes never split.
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' {
			n := s[i+2]
			if n >= 'A' && n <= 'Z' || n >= '0' && n <= '9' || n == '\'' || n == '"' || n == '/' {
				out = append(out, strings.TrimSpace(s[start:i+1]))
				start = i + 2
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// splitProseCode separates the prose and the pseudocode of an old-style
// table cell (already unescaped). Sentences before the first code-like
// sentence and after the last one are prose; everything from the first to
// the last code-like sentence is pseudocode, so comments and explanations
// embedded in the code stay with it.
func splitProseCode(cell string) (prose, code string) {
	sents := splitSentences(cell)
	first, last := -1, -1
	for i, s := range sents {
		if looksLikeCode(s) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return strings.Join(sents, " "), ""
	}
	var p []string
	p = append(p, sents[:first]...)
	p = append(p, sents[last+1:]...)
	return strings.Join(p, " "), strings.Join(sents[first:last+1], "\n")
}

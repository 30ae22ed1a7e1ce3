package amdmanual

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"html"
	"strings"
)

var (
	spanRE     = lazyre.New(`<span\b[^>]*>\s*</span>|</?span\b[^>]*>`)
	brRE       = lazyre.New(`(?i)<br\s*/?>`)
	emphasisRE = lazyre.New(`(^|[\s(\[“"'])\*([^\s*](?:[^*]*[^\s*])?)\*($|[\s.,;:!?)\]”"'])`)
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
// pseudocode rather than prose. weakMarkers also appear in prose ("End of
// program; terminate wavefront.", "Increment the counter in
// SIMM16[3:0]."): they make a sentence code only when it does not read
// like prose.
// The operand markers (D., S0.) count only at the start of a word, so
// "Bitwise AND." is prose.
var (
	codeMarkers    = []string{" = ", "=", "//", "if(", "if (", "endif", "+=", "<<", ">>", "{", "}", "return", "MEM["}
	operandMarkers = []string{"D.", "S0.", "S1.", "S2."}
	weakMarkers    = []string{";", "["}
)

func looksLikeCode(sentence string) bool {
	for _, m := range codeMarkers {
		if strings.Contains(sentence, m) {
			return true
		}
	}
	for _, m := range operandMarkers {
		for i := 0; ; {
			j := strings.Index(sentence[i:], m)
			if j < 0 {
				break
			}
			if at := i + j; at == 0 || !isLetter(sentence[at-1]) {
				// "Return integer part of S0.f, round-to-zero semantics."
				// names an operand in prose.
				return !readsLikeProse(sentence)
			}
			i += j + len(m)
		}
	}
	for _, m := range weakMarkers {
		if strings.Contains(sentence, m) {
			return !readsLikeProse(sentence)
		}
	}
	return false
}

// readsLikeProse reports whether a sentence opens with a capitalised word
// ("End", "Bit", "If") or is mostly lower-case words ("S0 is Data, S1[4:0]
// is field offset", "1ULP accuracy, denormals are flushed"); tables of
// values ("TABLE: 0x1, 0x3, ...") and expressions do neither.
func readsLikeProse(sentence string) bool {
	words := strings.Fields(sentence)
	if len(words) == 0 {
		return false
	}
	if w := strings.TrimRight(words[0], ",:;."); len(w) >= 2 && w[0] >= 'A' && w[0] <= 'Z' && isLowerWord(w[1:]) {
		return true
	}
	lower := 0
	for _, w := range words {
		if isLowerWord(strings.TrimRight(w, ",:;.()")) {
			lower++
		}
	}
	return lower >= 2 && 2*lower >= len(words)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isLowerWord(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && c != '-' && c != '\'' {
			return false
		}
	}
	return true
}

// splitSentences splits an old-style description cell at ". " boundaries
// that are followed by an upper-case letter, a digit or a quote, keeping the
// period with the sentence. "S0.u" has no space after the dot, so operand
// suffixes never split.
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && (i == 0 || s[i-1] != '.') { // "for i in 0 ... 31 do" is one sentence
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
// table cell (already unescaped), sentence by sentence. Code-like
// sentences are pseudocode; so are sentences between two of them that do
// not read like prose (a table of values, "TABLE: 0x1, 0x3, ..."), so
// comments and data embedded in the code stay with it. Every other
// sentence is prose, in its order, wherever it stands: "D.f = pow(2.0,
// S0.f). Base 2 exponentiation. Examples: ... // exp(-INF) = 0" describes
// the instruction in its middle sentence.
func splitProseCode(cell string) (prose, code string) {
	sents := splitSentences(cell)
	first, last := -1, -1
	isCode := make([]bool, len(sents))
	for i, s := range sents {
		if looksLikeCode(s) {
			isCode[i] = true
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	var p, c []string
	for i, s := range sents {
		if isCode[i] || i > first && i < last && !readsLikeProse(s) {
			lead, code := leadProse(s)
			if lead != "" {
				p = append(p, lead)
			}
			if code != "" {
				c = append(c, code)
			}
		} else {
			p = append(p, s)
		}
	}
	return strings.Join(p, " "), strings.Join(c, "\n")
}

// stmtStartRe finds where the older guides' code starts in a sentence: an
// if, a for loop, a C declaration or an assignment to a name (with its
// type view and index): "Perform a conditional short jump when EXEC is
// nonzero. if(EXEC != 0) then ...", "Add a 16-bit signed constant to the
// destination. int32 tmp = D.i32; ...".
var stmtStartRe = lazyre.New(`(?:^|\s)((?:if\s*\(|for\s+[A-Za-z_]\w*\s+in\b|(?:u?int\d*|float|double)\s+[A-Za-z_]\w*\s*=[^=]|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?(?:\[[^\]]*\])*(?:\.[A-Za-z_]\w*)?\s*(?:=[^=>]|\+=|-=|\|=|&=)))`)

// workedExampleRE is a worked example, "S_ABS_I32(0x80000001) => 0x7fffffff".
var workedExampleRE = lazyre.New(`\b[A-Z][A-Z0-9_]*\([^()]*\)\s*=>`)

// enumerationRe is prose that names operands in the form of assignments:
// "S0 = Quotient, S1 = Denominator, S2 = Numerator.", "Bitfield extract
// with S0 = data, S1 = field_offset, ...".
var enumerationRe = lazyre.New(`^[A-Za-z_]\w* = [^=;]+?, [A-Za-z_]\w* = `)

// sourceEquationRe is an equation that explains a source operand: code
// never assigns to an instruction's inputs ("S0.f = x", "S0.f16 =
// significand * (2 ** exponent).").
var sourceEquationRe = lazyre.New(`^S[0-2](?:\.\w+)? = `)

// assignedRe is a statement's first assignment up to its end: what
// "VCC = IEEE numeric class function specified in S1.u, ..." assigns is
// prose.
var assignedRe = lazyre.New(`^[^=]*=\s*([^;]*)`)

// leadProse splits a code sentence into the prose that opens it and the
// statement sequence from its first statement on. A sentence that only
// names operands (enumerationRe), and an assembly example ("Examples:
// s_nop 0 // Wait 1 cycle."; worked examples "NAME(x) => y" stay code),
// are prose whole.
func leadProse(s string) (prose, code string) {
	if workedExampleRE.MatchString(s) {
		return "", s // worked examples stay with the code they exercise
	}
	if strings.HasPrefix(s, "Example:") || strings.HasPrefix(s, "Examples:") {
		return s, ""
	}
	m := stmtStartRe.FindStringSubmatchIndex(s)
	if m == nil {
		if readsLikeProse(s) {
			// "INEXACT exceptions are enabled for this conversion iff
			// CLAMP == 1.": no statement, a sentence.
			return s, ""
		}
		return "", s
	}
	at := m[2]
	if enumerationRe.MatchString(s[at:]) {
		return s, ""
	}
	if v := assignedRe.FindStringSubmatch(s[at:]); v != nil {
		rhs, _, _ := strings.Cut(v[1], "//")
		if readsLikeProse(rhs) && strings.Count(strings.TrimSpace(rhs), " ") >= 4 {
			return s, ""
		}
	}
	if sourceEquationRe.MatchString(s[at:]) {
		return s, ""
	}
	if at == 0 || !readsLikeProse(s[:at]) {
		return "", s
	}
	return strings.TrimSpace(s[:at]), s[at:]
}

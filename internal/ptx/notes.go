package ptx

import (
	"regexp"
	"strconv"
	"strings"
)

// This file reads the "PTX ISA Notes" and "Target ISA Notes" prose into a
// base requirement for the section and feature requirements such as
// "`max.NaN` introduced in PTX ISA version 7.0".

// feature is one parsed note sentence.
type feature struct {
	text     string       // the backticked subject, as written
	elems    [][][]string // all elements must hold; an element holds when any alternative's tokens are all present
	operands int          // required operand count, 0 for any
	version  string
	target   string
	line     int
}

// noteResult is what one section's notes say.
type noteResult struct {
	baseVersion, baseTarget string
	features                []feature
	unparsed                []string
	parsed                  int // sentences turned into a base or feature rule
	mnemonics               map[string]bool // a bare mnemonic span is context, not a feature
}

var (
	versionRe  = regexp.MustCompile(`(?i)introduced in PTX ISA(?: version)?\s+(\d+\.\d+)`)
	targetRe   = regexp.MustCompile(`\bsm_?(\d+)([af]?)\b`)
	allTargets = regexp.MustCompile(`(?i)supported on all target architectures`)
	verbRe     = regexp.MustCompile(`(?i)\b(introduced in|requires?|(?:is |are )?supported on|support requires)\b`)
	numberWord = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
	inputsRe   = regexp.MustCompile(`(?i)\b(one|two|three|four|five) input (?:arguments|operands)`)
)

// parseNotes reads both note texts. lineOf gives the first line of each text
// so features can cite a line.
func parseNotes(ptxNotes string, ptxLine int, targetNotes string, targetLine int, mnemonics []string) noteResult {
	r := noteResult{mnemonics: map[string]bool{}}
	for _, m := range mnemonics {
		r.mnemonics[m] = true
	}
	for _, p := range notesParagraphs(ptxNotes, ptxLine) {
		r.addSentence(p.text, p.line, false)
	}
	for _, p := range notesParagraphs(targetNotes, targetLine) {
		r.addSentence(p.text, p.line, true)
	}
	// PTX ISA 1.x only had sm_1x targets: a section introduced then that
	// names no base target runs on all of them.
	if r.baseTarget == "" && strings.HasPrefix(r.baseVersion, "1.") {
		r.baseTarget = "sm_10"
	}
	return r
}

type paragraph struct {
	text string
	line int
}

// notesParagraphs splits note prose into statements: one per paragraph, a
// paragraph's bullet list (targets) kept with the sentence that opens it.
func notesParagraphs(text string, firstLine int) []paragraph {
	var out []paragraph
	var cur []string
	curLine := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, splitSentences(strings.Join(cur, " "), curLine)...)
		}
		cur = nil
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			// A bullet list (targets) continues the sentence that opened
			// it, even across blank lines.
			if next := nextNonEmpty(lines[i+1:]); strings.HasPrefix(next, "* ") || strings.HasPrefix(next, "+ ") {
				continue
			}
			flush()
			continue
		}
		if len(cur) == 0 {
			curLine = firstLine + 1 + i
		}
		cur = append(cur, t)
	}
	flush()
	return out
}

func nextNonEmpty(lines []string) string {
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// splitSentences splits at ". " before a capital letter or a backtick,
// keeping bullet lists ("* `sm_100a`") with their sentence.
func splitSentences(s string, line int) []paragraph {
	var out []paragraph
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && (s[i+2] == '`' || s[i+2] >= 'A' && s[i+2] <= 'Z') && !strings.Contains(s[start:i], ":") {
			// "version 7.0. `max.NaN`": the dot after a number still ends it.
			out = append(out, paragraph{strings.TrimSpace(s[start : i+1]), line})
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, paragraph{rest, line})
	}
	return out
}

func (r *noteResult) addSentence(s string, line int, isTarget bool) {
	var version, target string
	if isTarget {
		if allTargets.MatchString(s) {
			target = "sm_10"
		} else {
			target = lowestTarget(s)
		}
	} else if m := versionRe.FindStringSubmatch(s); m != nil {
		version = m[1]
	}
	if version == "" && target == "" {
		r.unparsed = append(r.unparsed, s)
		return
	}
	loc := verbRe.FindStringIndex(s)
	subject := s
	if loc != nil {
		subject = s[:loc[0]]
	}
	subject = strings.TrimSpace(subject)
	spans := codeSpans(subject)
	if len(spans) == 0 {
		// Only a bare "Introduced in ..." / "Requires ..." states the base;
		// "Taking the address of kernel entry functions requires sm_35" does not.
		if len(strings.Fields(subject)) > 1 {
			r.unparsed = append(r.unparsed, s)
			return
		}
		if version != "" && r.baseVersion == "" {
			r.baseVersion = version
		}
		if target != "" && r.baseTarget == "" {
			r.baseTarget = target
		}
		r.parsed++
		return
	}
	// "`cvt` with `.e4m3x2`/`.e5m2x2`": one feature, the right side's spans
	// being alternatives. "`max` with three input arguments": an operand count.
	lower := strings.ToLower(subject)
	if k := strings.Index(lower, " with "); k >= 0 {
		left, right := codeSpans(subject[:k]), subject[k+6:]
		if len(left) > 0 {
			f := feature{text: strings.TrimSpace(subject), version: version, target: target, line: line}
			for _, l := range left {
				f.elems = append(f.elems, spanElements(l)...)
			}
			if m := inputsRe.FindStringSubmatch(right); m != nil {
				f.operands = 1 + numberWord[strings.ToLower(m[1])]
			}
			var alts [][]string
			for _, rs := range codeSpans(right) {
				for _, e := range spanElements(rs) {
					alts = append(alts, e...)
				}
			}
			if len(alts) > 0 {
				f.elems = append(f.elems, alts)
			}
			if f.operands == 0 && len(alts) == 0 {
				r.unparsed = append(r.unparsed, s)
				return
			}
			r.features = append(r.features, f)
			r.parsed++
			return
		}
	}
	// "`::entry` and `::func` sub-qualifiers on `.param` space": the spans
	// after " on " qualify each feature before it instead of being features.
	var context [][][]string
	if k := strings.Index(lower, " on "); k >= 0 {
		if left := codeSpans(subject[:k]); len(left) > 0 {
			for _, c := range codeSpans(subject[k+4:]) {
				context = append(context, spanElements(c)...)
			}
			spans = left
		}
	}
	for _, sp := range spans {
		if r.mnemonics[sp] && len(spans) > 1 {
			continue
		}
		elems := spanElements(sp)
		if len(elems) == 0 {
			continue
		}
		elems = append(elems, context...)
		r.features = append(r.features, feature{text: sp, elems: elems, version: version, target: target, line: line})
	}
	r.parsed++
}

// codeSpans returns the backticked spans of s that are not targets.
func codeSpans(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(s, -1) {
		if targetRe.MatchString(m[1]) && strings.HasPrefix(m[1], "sm") {
			continue
		}
		out = append(out, m[1])
	}
	return out
}

// spanElements reads "cvt.{u8/s8}.bf16", "max{.relu}.s16x2" or ".relu" into
// elements. A one-choice brace group is optional ("{.relu}") unless it names
// a data type ("{.bf16x2}"), which the notes use for required types.
func spanElements(span string) [][][]string {
	if strings.Contains(span, "/") && !strings.ContainsAny(span, "{}") {
		// ".u8/.s8": one element, alternatives.
		var alts [][]string
		for _, a := range strings.Split(span, "/") {
			if t := tokensOf(strings.TrimSpace(a)); len(t) > 0 {
				alts = append(alts, t)
			}
		}
		return [][][]string{alts}
	}
	var elems [][][]string
	i := 0
	for i < len(span) {
		switch c := span[i]; {
		case c == '.' || c == ' ':
			i++
		case c == '{':
			end := strings.IndexByte(span[i:], '}')
			if end < 0 {
				end = len(span) - i
			}
			inner := span[i+1 : i+end]
			i += end + 1
			var alts [][]string
			for _, a := range strings.FieldsFunc(inner, func(r rune) bool { return r == '/' || r == ',' || r == '|' }) {
				a = strings.TrimSpace(a)
				if t := tokensOf(a); len(t) > 0 {
					alts = append(alts, t)
				}
			}
			if len(alts) == 1 && !(len(alts[0]) == 1 && isType(alts[0][0])) {
				continue
			}
			if len(alts) > 0 {
				elems = append(elems, alts)
			}
		default:
			j := i
			for j < len(span) && span[j] != '.' && span[j] != '{' && span[j] != ' ' {
				j++
			}
			tok := span[i:j]
			i = j
			if strings.Contains(tok, "/") {
				var alts [][]string
				for _, a := range strings.Split(tok, "/") {
					alts = append(alts, []string{a})
				}
				elems = append(elems, alts)
				continue
			}
			elems = append(elems, [][]string{{tok}})
		}
	}
	return elems
}

// lowestTarget returns the lowest sm_ target named in s ("sm_100a" from a list).
func lowestTarget(s string) string {
	best := ""
	for _, m := range targetRe.FindAllStringSubmatch(s, -1) {
		t := "sm_" + m[1] + m[2]
		if best == "" || compareTargets(t, best) < 0 {
			best = t
		}
	}
	return best
}

// compareTargets orders "sm_80" < "sm_90" < "sm_90a"; "" (unknown) sorts first.
func compareTargets(a, b string) int {
	na, sa := targetKey(a)
	nb, sb := targetKey(b)
	switch {
	case na != nb:
		return cmpInt(na, nb)
	default:
		return cmpInt(sa, sb)
	}
}

func targetKey(t string) (num, suffix int) {
	// Hand-parsed: the checker compares targets once per instruction.
	rest, ok := strings.CutPrefix(t, "sm_")
	if !ok {
		rest, ok = strings.CutPrefix(t, "sm")
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if !ok || i == 0 {
		return -1, 0
	}
	num, _ = strconv.Atoi(rest[:i])
	switch rest[i:] {
	case "f":
		suffix = 1
	case "a":
		suffix = 2
	}
	return num, suffix
}

// compareVersions orders "1.0" < "7.0" < "8.10"; "" sorts first.
func compareVersions(a, b string) int {
	ma, na := versionKey(a)
	mb, nb := versionKey(b)
	if ma != mb {
		return cmpInt(ma, mb)
	}
	return cmpInt(na, nb)
}

func versionKey(v string) (major, minor int) {
	if v == "" {
		return -1, 0
	}
	a, b, _ := strings.Cut(v, ".")
	major, _ = strconv.Atoi(a)
	minor, _ = strconv.Atoi(b)
	return major, minor
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func maxVersion(a, b string) string {
	if compareVersions(a, b) >= 0 {
		return a
	}
	return b
}

func maxTarget(a, b string) string {
	if compareTargets(a, b) >= 0 {
		return a
	}
	return b
}

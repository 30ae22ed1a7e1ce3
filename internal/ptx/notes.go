package ptx

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// This file reads the "PTX ISA Notes" and "Target ISA Notes" prose into a
// base requirement for the section and feature requirements such as
// "`max.NaN` introduced in PTX ISA version 7.0".

// feature is one parsed note sentence (or one item of a sentence that lists
// several: "`.relu` modifier and `.bf16` destination formats").
type feature struct {
	text string // the backticked subject, as written
	// seq are elements that must appear in this order ("cvt" "f32" "bf16");
	// an element holds when any alternative's tokens are present.
	seq []seqElem
	// also are further conditions in any order ("on `.param` space").
	also     [][][]string
	operands int // required operand count, 0 for any
	version  string
	target   string
	// condTarget is the target a version note is restricted to ("`cvt` with
	// `.e4m3x2` for `sm_89` introduced in 8.1"); merged into alts.
	condTarget string
	alts       []Option // several (version, target) pairs, after merging
	line       int
}

// seqElem is one ordered element; position is "", "destination" or "source".
type seqElem struct {
	alts     [][]string
	position string
}

// noteResult is what one section's notes say.
type noteResult struct {
	baseVersion, baseTarget string
	// baseInferred is set when the base version was not stated as such but
	// taken from the earliest version the notes name.
	baseInferred bool
	features     []feature
	unparsed     []string
	parsed       int // sentences turned entirely into rules
	partly       int // sentences turned into rules, kept as text for the rest
	mnemonics    map[string]bool
	earliest     string // lowest version any version note names
}

var (
	versionRe  = lazyre.New(`(?i)(?:introduced|added) in PTX ISA(?: version)?\s+(\d+\.\d+)`)
	targetRe   = lazyre.New(`\bsm_?(\d+)([af]?)\b`)
	allTargets = lazyre.New(`(?i)supported on all target architectures`)
	verbRe     = lazyre.New(`(?i)\b((?:were |was |is |are )?(?:introduced|added) in|requires?|(?:is |are )?supported on|support requires)\b`)
	numberWord = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
	inputsRe   = lazyre.New(`(?i)\b(one|two|three|four|five) input (?:arguments|operands)`)
	// "for `sm_90` or higher" inside a version note's subject.
	forTargetRe = lazyre.New("\\s*\\bfor `(sm_?\\d+[af]?)`(?: or higher)?")
	destFormats = lazyre.New(`\{([^}]*)\}\s*destination (?:formats?|types?)`)
	sourceType  = lazyre.New(`(?i)\bsource types?\b`)
)

// proseClasses maps the prose names the notes give to groups of tokens
// ("Double precision `wmma`", "Cache operations require `sm_20`") to the
// tokens an instruction must have for the note to apply. "<generic>" is
// the pseudo token of an instruction that names no state space.
var proseClasses = map[string][]string{
	"double precision":                   {"f64"},
	"alternate floating point precision": {"bf16", "tf32"},
	"floating point":                     {"f16", "f32", "f64", "bf16", "tf32", "f16x2", "bf16x2"},
	"integer":                            {"s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64", "s4", "u4"},
	"sub-byte integer":                   {"s4", "u4"},
	"sub-byte":                           {"s4", "u4"},
	"single-bit":                         {"b1"},
	"generic addressing":                 {"<generic>"},
	"use of generic addressing":          {"<generic>"},
	"cache operations":                   {"ca", "cg", "cs", "lu", "cv", "wb", "wt"},
	"general rounding modifiers":         {"rn", "rz", "rm", "rp"},
	// "64-bit `add.cc` introduced in PTX ISA version 4.3".
	"64-bit": {"u64", "s64", "b64", "f64"},
	"32-bit": {"u32", "s32", "b32", "f32"},
	"16-bit": {"u16", "s16", "b16", "f16"},
}

// fillerWords may surround a bare mnemonic span without changing what the
// note is about ("`barrier` instruction").
var fillerWords = map[string]bool{"instruction": true, "instructions": true, "the": true}

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
	// No sentence states the base ("Unified mode texturing introduced in
	// PTX ISA version 1.0"): the earliest version the notes name is when the
	// instruction first existed.
	if r.baseVersion == "" && r.earliest != "" {
		r.baseVersion, r.baseInferred = r.earliest, true
	}
	// PTX ISA 1.x only had sm_1x targets: a section introduced then that
	// names no base target runs on all of them.
	if r.baseTarget == "" && strings.HasPrefix(r.baseVersion, "1.") {
		r.baseTarget = "sm_10"
	}
	r.mergeTargetAlternatives()
	return r
}

// mergeTargetAlternatives joins version notes that differ only in the
// target they hold for into one feature with alternatives.
func (r *noteResult) mergeTargetAlternatives() {
	var out []feature
	at := map[string]int{}
	for _, f := range r.features {
		if f.condTarget == "" {
			out = append(out, f)
			continue
		}
		opt := Option{PTXVersion: f.version, MinTarget: f.condTarget}
		if i, ok := at[f.text]; ok {
			out[i].alts = append(out[i].alts, opt)
			sortOptions(out[i].alts)
			continue
		}
		f.alts, f.version, f.condTarget = []Option{opt}, "", ""
		at[f.text] = len(out)
		out = append(out, f)
	}
	r.features = out
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
			// Nested items may come as a quote ("> + `sm_100f` ...").
			if next := strings.TrimPrefix(nextNonEmpty(lines[i+1:]), "> "); strings.HasPrefix(next, "* ") || strings.HasPrefix(next, "+ ") {
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

// addSentence turns one note sentence into the base version and target,
// features, or text kept unparsed.
func (r *noteResult) addSentence(s string, line int, isTarget bool) {
	version, target, targetAlts := r.sentenceFacts(s, isTarget)
	if version == "" && target == "" {
		if isSubheading(s) {
			return // "Note" above a paragraph: a heading, not a note
		}
		r.unparsed = append(r.unparsed, s)
		return
	}
	subject, condTarget := sentenceSubject(s, version)
	base := feature{version: version, target: target, condTarget: condTarget, line: line}
	if len(targetAlts) > 1 {
		// A list of architecture-specific targets, some only from a later
		// PTX version: the feature holds on any of them.
		base.target, base.alts = "", targetAlts
	}
	if len(codeSpans(subject)) == 0 {
		r.addProse(s, subject, base, target, targetAlts, isTarget)
		return
	}
	lower := strings.ToLower(subject)
	if r.addForFeature(subject, lower, base) || r.addWithFeature(s, subject, lower, base) {
		return
	}
	r.addSpanFeatures(s, subject, lower, base)
}

// sentenceFacts reads the version a PTX ISA note states, or the target
// (and the alternative targets) a target note states; it keeps the lowest
// version any note names.
func (r *noteResult) sentenceFacts(s string, isTarget bool) (version, target string, targetAlts []Option) {
	if isTarget {
		if allTargets.MatchString(s) {
			return "", "sm_10", nil
		}
		return "", lowestTarget(s), targetAlternatives(s)
	}
	if m := versionRe.FindStringSubmatch(s); m != nil {
		version = m[1]
		if r.earliest == "" || ptxorder.CompareVersions(version, r.earliest) < 0 {
			r.earliest = version
		}
	}
	return version, "", nil
}

// sentenceSubject is what a note is about: the words before its verb,
// less a version note's target restriction ("for `sm_89`"), returned apart.
func sentenceSubject(s, version string) (subject, condTarget string) {
	subject = s
	if loc := verbRe.FindStringIndex(s); loc != nil {
		subject = s[:loc[0]]
	}
	subject = strings.TrimSpace(subject)
	if version != "" {
		if m := forTargetRe.FindStringSubmatchIndex(subject); m != nil {
			condTarget = subject[m[2]:m[3]]
			if !strings.HasPrefix(condTarget, "sm_") {
				condTarget = "sm_" + strings.TrimPrefix(condTarget, "sm")
			}
			subject = strings.TrimSpace(subject[:m[0]] + subject[m[1]:])
		}
	}
	return subject, condTarget
}

// addProse reads a note whose subject has no code span: a bare
// "Introduced in ..." / "Requires ..." states the base (target is the
// note's lowest target), and named groups of tokens ("Generic addressing
// and cache operations") are features.
func (r *noteResult) addProse(s, subject string, base feature, target string, targetAlts []Option, isTarget bool) {
	if len(strings.Fields(subject)) <= 1 || isTarget && supportedOnListRe.MatchString(subject) {
		if base.version != "" && r.baseVersion == "" {
			r.baseVersion = base.version
		}
		if target != "" && r.baseTarget == "" {
			r.baseTarget = target
			if len(targetAlts) > 1 {
				// The base keeps the lowest target; a condition-free
				// feature carries the alternatives to every form.
				base.text = "supported targets"
				r.features = append(r.features, base)
			}
		}
		r.parsed++
		return
	}
	words := strings.ToLower(strings.Join(strings.Fields(subject), " "))
	var got []feature
	for _, item := range splitItems(words) {
		toks, ok := proseClasses[item]
		if !ok {
			r.unparsed = append(r.unparsed, s)
			return
		}
		f := base
		f.text = item
		f.also = [][][]string{alternativesOf(toks)}
		got = append(got, f)
	}
	r.features = append(r.features, got...)
	r.parsed++
}

// addForFeature reads "`.ftz` qualifier for `cvt.f32.bf16`": the right
// side is the instruction, the left side a further condition. It reports
// whether the note had that shape.
func (r *noteResult) addForFeature(subject, lower string, base feature) bool {
	k := strings.Index(lower, " for ")
	if k < 0 {
		return false
	}
	left, right := codeSpans(subject[:k]), codeSpans(subject[k+5:])
	if len(left) == 0 || len(right) != 1 {
		return false
	}
	f := base
	f.text = strings.TrimSpace(subject)
	f.addElems(spanElements(right[0]), "")
	for _, l := range left {
		f.also = append(f.also, spanElements(l)...)
	}
	r.features = append(r.features, f)
	r.parsed++
	return true
}

// addWithFeature reads "`cvt` with `.e4m3x2`/`.e5m2x2`" (one feature, the
// right side's spans being alternatives) and "`max` with three input
// arguments" (an operand count). It reports whether the note had that
// shape; one it cannot read further is kept unparsed.
func (r *noteResult) addWithFeature(s, subject, lower string, base feature) bool {
	k := strings.Index(lower, " with ")
	if k < 0 {
		return false
	}
	left, right := codeSpans(subject[:k]), subject[k+6:]
	if len(left) == 0 {
		return false
	}
	f := base
	f.text = strings.TrimSpace(subject)
	for _, l := range left {
		f.addElems(spanElements(l), "")
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
		pos := ""
		if sourceType.MatchString(right) {
			pos = "source"
		}
		f.addElems([][][]string{alts}, pos)
	}
	if f.operands == 0 && len(alts) == 0 {
		r.unparsed = append(r.unparsed, s)
		return true
	}
	r.features = append(r.features, f)
	r.parsed++
	return true
}

// addSpanFeatures makes a feature of each code span of the subject:
// "`::entry` and `::func` sub-qualifiers on `.param` space" (the spans
// after " on " qualify each feature), "{`.f16x2`, `.bf16`} destination
// formats" (those spans name the destination type only), a bare mnemonic
// (every form, or those prose in front of it names).
func (r *noteResult) addSpanFeatures(s, subject, lower string, base feature) {
	var context [][][]string
	if k := strings.Index(lower, " on "); k >= 0 {
		if left := codeSpans(subject[:k]); len(left) > 0 {
			for _, c := range codeSpans(subject[k+4:]) {
				context = append(context, spanElements(c)...)
			}
			subject = subject[:k]
		}
	}
	dest := map[string]bool{}
	for _, m := range destFormats.FindAllStringSubmatch(subject, -1) {
		for _, sp := range codeSpans(m[1]) {
			dest[sp] = true
		}
	}
	spans := codeSpans(subject)
	corrected, allMnemonics := r.correctedMnemonics(spans)
	complete := true
	for _, sp := range spans {
		if r.isMnemonic(sp) && !allMnemonics {
			continue // "`.cta` qualifier for `barrier`": context, not a feature
		}
		written := sp
		if m := corrected[sp]; m != "" {
			sp = m
		}
		elems := spanElements(sp)
		if len(elems) == 0 {
			continue
		}
		f := base
		f.text, f.also = written, append([][][]string(nil), context...)
		pos := ""
		if dest[sp] {
			pos = "destination"
		}
		f.addElems(elems, pos)
		if r.isMnemonic(sp) {
			// A bare mnemonic applies to every form; prose in front of it
			// narrows it ("Double precision `wmma`") or it stays text.
			classes, ok := qualifierClasses(subject)
			if !ok {
				complete = false
				continue
			}
			if len(classes) > 0 {
				for _, c := range classes {
					g := f
					g.text = c + " " + sp
					g.also = append(append([][][]string(nil), f.also...), alternativesOf(proseClasses[c]))
					r.features = append(r.features, g)
				}
				continue
			}
		}
		r.features = append(r.features, f)
	}
	if complete {
		r.parsed++
	} else {
		r.partly++
		r.unparsed = append(r.unparsed, s)
	}
}

// correctedMnemonics reads "`vadd2`, `vsub2`, `varvg2`, ...", where the
// notes misspell a mnemonic the section documents, as that mnemonic (the
// feature keeps the notes' spelling), and says whether every span is then
// a mnemonic.
func (r *noteResult) correctedMnemonics(spans []string) (corrected map[string]string, allMnemonics bool) {
	corrected = map[string]string{}
	for _, sp := range spans {
		if !r.isMnemonic(sp) {
			if m := r.misspelledMnemonic(sp, spans); m != "" {
				corrected[sp] = m
			}
		}
	}
	allMnemonics = true
	for _, sp := range spans {
		if !r.isMnemonic(sp) && corrected[sp] == "" {
			allMnemonics = false
		}
	}
	return corrected, allMnemonics
}

// isMnemonic reports whether a span names a whole mnemonic of the section
// or its first part ("`wmma`" in the wmma.load section).
func (r *noteResult) isMnemonic(span string) bool {
	for m := range r.mnemonics {
		if span == m || strings.HasPrefix(m, span+".") {
			return true
		}
	}
	return false
}

// misspelledMnemonic returns the section mnemonic that span is one swap of
// adjacent letters away from ("varvg2" for "vavrg2"), provided the sentence
// does not name that mnemonic already; "" when there is none.
func (r *noteResult) misspelledMnemonic(span string, spans []string) string {
	for m := range r.mnemonics {
		if len(m) != len(span) || slices.Contains(spans, m) {
			continue
		}
		diff := []int{}
		for i := range m {
			if m[i] != span[i] {
				diff = append(diff, i)
			}
		}
		if len(diff) == 2 && diff[1] == diff[0]+1 && m[diff[0]] == span[diff[1]] && m[diff[1]] == span[diff[0]] {
			return m
		}
	}
	return ""
}

var anySpan = lazyre.New("`[^`]*`")

// qualifierClasses reads the prose around a bare mnemonic span: no words
// (or only filler) gives no class; known class names give those classes;
// anything else is not understood.
func qualifierClasses(subject string) ([]string, bool) {
	prose := strings.ToLower(anySpan.ReplaceAllString(subject, " "))
	var words []string
	onlyJoins := true
	for _, w := range strings.Fields(prose) {
		bare := strings.Trim(w, ",")
		if bare != "" && !fillerWords[bare] {
			words = append(words, w)
			if bare != "and" {
				onlyJoins = false
			}
		}
	}
	// "`prefetch` and `prefetchu`": a list of mnemonics, nothing narrowing it.
	if len(words) == 0 || onlyJoins {
		return nil, true
	}
	var out []string
	for _, item := range splitItems(strings.Join(words, " ")) {
		if _, ok := proseClasses[item]; !ok {
			return nil, false
		}
		out = append(out, item)
	}
	return out, true
}

// splitItems splits "integer, sub-byte integer and single-bit" into its items.
func splitItems(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		for _, item := range strings.Split(part, " and ") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

func alternativesOf(toks []string) [][]string {
	out := make([][]string, len(toks))
	for i, t := range toks {
		out[i] = []string{t}
	}
	return out
}

// toSeq keeps the data-type elements in order (their position in the
// template matters: destination before source) and returns the others,
// which the notes do not always write in the syntax's order, as conditions
// in any order.
func toSeq(elems [][][]string, position string) (seq []seqElem, also [][][]string) {
	for _, e := range elems {
		if !allTypes(e) {
			also = append(also, e)
			continue
		}
		seq = append(seq, seqElem{alts: e, position: position})
	}
	return seq, also
}

// addElems adds a span's elements to f.
func (f *feature) addElems(elems [][][]string, position string) {
	seq, also := toSeq(elems, position)
	f.seq = append(f.seq, seq...)
	f.also = append(f.also, also...)
}

// sortOptions orders alternatives by version, then target.
func sortOptions(opts []Option) {
	sort.SliceStable(opts, func(i, j int) bool {
		if c := ptxorder.CompareVersions(opts[i].PTXVersion, opts[j].PTXVersion); c != 0 {
			return c < 0
		}
		return ptxorder.CompareTargets(opts[i].MinTarget, opts[j].MinTarget) < 0
	})
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
			if t := Tokens(strings.TrimSpace(a)); len(t) > 0 {
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
				if t := Tokens(a); len(t) > 0 {
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

var (
	// "Supported on following architectures:" states the base like a bare
	// "Requires ...".
	supportedOnListRe = regexp.MustCompile(`(?i)^supported on (?:the )?following architectures:?$`)
	// "from PTX ISA version 8.8", after a target or before a list (":").
	fromVersionRe = regexp.MustCompile(`(?i)from PTX ISA version (\d+\.\d+)(\s*:)?`)
)

// targetAlternatives reads a sentence that names architecture-specific
// targets ("`sm_100a`, `sm_101a` (Renamed to `sm_110a` from PTX ISA version
// 9.0), and family-specific architectures from PTX ISA version 8.8: `sm_100f`
// or higher in the same family") into (version, target) pairs, a version ""
// meaning the note's own. Pairs another pair beats on both counts are
// dropped. It returns nil when no target has an "a" or "f" suffix: then the
// lowest target is the whole story.
func targetAlternatives(s string) []Option {
	locs := targetRe.FindAllStringSubmatchIndex(s, -1)
	specific := false
	for _, m := range locs {
		if m[5] > m[4] {
			specific = true
		}
	}
	if !specific || len(locs) < 2 {
		return nil
	}
	var opts []Option
	context := "" // version a "... from PTX ISA version 8.8:" list header sets
	for i, m := range locs {
		next := len(s)
		if i+1 < len(locs) {
			next = locs[i+1][0]
		}
		after := s[m[1]:next]
		version := context
		// The target's own "from PTX ISA version" must come before any
		// list punctuation; later ones belong to what follows.
		if v := fromVersionRe.FindStringSubmatchIndex(after); v != nil && v[5] < 0 && !strings.ContainsAny(after[:v[0]], ":*+") {
			version = after[v[2]:v[3]]
		}
		for _, v := range fromVersionRe.FindAllStringSubmatch(after, -1) {
			if v[2] != "" {
				context = v[1]
			}
		}
		opts = append(opts, Option{PTXVersion: version, MinTarget: "sm_" + s[m[2]:m[3]] + s[m[4]:m[5]]})
	}
	opts = pruneOptions(opts)
	sortOptions(opts)
	return opts
}

// lowestTarget returns the lowest sm_ target named in s ("sm_100a" from a list).
func lowestTarget(s string) string {
	best := ""
	for _, m := range targetRe.FindAllStringSubmatch(s, -1) {
		t := "sm_" + m[1] + m[2]
		if best == "" || ptxorder.CompareTargets(t, best) < 0 {
			best = t
		}
	}
	return best
}

func maxVersion(a, b string) string {
	if ptxorder.CompareVersions(a, b) >= 0 {
		return a
	}
	return b
}

func maxTarget(a, b string) string {
	if ptxorder.CompareTargets(a, b) >= 0 {
		return a
	}
	return b
}

// isSubheading reports whether a notes paragraph is only a label the
// documents set above the next paragraph ("Note", "Notes:").
func isSubheading(s string) bool {
	switch strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ":")) {
	case "note", "notes":
		return true
	}
	return false
}

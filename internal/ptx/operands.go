package ptx

import (
	"regexp"
	"sort"
	"strings"
)

// Operand is one operand of a mnemonic's syntax lines, with the Description
// sentences about it.
type Operand struct {
	Name   string `json:"name"` // as written: "d", "[a]", "{d0, d1}", "p[|q]"
	Order  int    `json:"order"`
	Output bool   `json:"output"`
	// Types is set only when a sentence about the operand says it has the
	// instruction's type: the data types of the mnemonic's forms.
	Types []string `json:"types,omitempty"`
	// Description holds the sentences about this operand (see aboutOperand),
	// not every sentence that happens to name it.
	Description string `json:"description,omitempty"`
	File        string `json:"file"`
	Line        int    `json:"line"`
}

// operandsOf lists the operands of the first form's syntax line, then those
// only later forms have (max's third source c), and gives each the
// Description sentences about it.
func operandsOf(in *Instruction) []Operand {
	if len(in.Forms) == 0 || in.Kind != KindInstruction {
		return nil
	}
	var types []string
	seen := map[string]bool{}
	for _, fm := range in.Forms {
		for _, t := range fm.Types {
			if !seen[t] {
				seen[t] = true
				types = append(types, t)
			}
		}
	}
	sort.Strings(types)
	sentences := descriptionSentences(in.Description)
	var out []Operand
	have := map[string]bool{}
	for fi, f := range in.Forms {
		_, text := splitStatement(f.Syntax)
		names := operandNames(text)
		for i, n := range names {
			bare := bareOperand(n)
			if have[bare] || qualifierLikeRe.MatchString(n) {
				continue
			}
			have[bare] = true
			op := Operand{Name: n, Order: len(out), File: f.File, Line: f.Line}
			// Destinations are written first and named d (or p|q for
			// predicates); everything else is read.
			if fi == 0 && i == 0 && len(names) > 1 {
				switch c := strings.TrimLeft(n, "{"); {
				case strings.HasPrefix(c, "d"), c == "p", strings.HasPrefix(c, "p|"), strings.HasPrefix(c, "p["):
					op.Output = true
				}
			}
			var about []string
			plain := plainMention(bare)
			said := map[string]bool{}
			for _, s := range sentences {
				if !said[s] && (aboutOperand(s, bare) || plain.MatchString(s)) {
					said[s] = true
					about = append(about, s)
					if strings.Contains(strings.ToLower(s), "instruction type") && len(types) > 0 {
						op.Types = types
					}
				}
			}
			op.Description = strings.Join(about, " ")
			out = append(out, op)
		}
	}
	return out
}

var operandIdentRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_-]*`)

// qualifierLikeRe matches what a syntax line's typo leaves among the
// operands ("{.level::cache_hint}. vec_16_bit.half_word_type [a]").
var qualifierLikeRe = regexp.MustCompile(`^[A-Za-z_]\w*\.[A-Za-z]`)

// plainMention matches an operand named without code markup after the word
// operand: "Operand offset has `.s32` type".
func plainMention(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\boperands? ` + regexp.QuoteMeta(name) + `\b[^-]`)
}

// bareOperand is the name the prose uses for an operand: "d" for "{d0,
// d1}"'s first element is "d0", "p" for "p[|q]", "c" for "{!}c", "a" for "[a]".
func bareOperand(n string) string {
	n = strings.ReplaceAll(n, "{!}", "")
	return operandIdentRe.FindString(n)
}

// operandNames splits "d, a{, b}, [addr], {d0, d1}" into its operands,
// optional groups included.
func operandNames(s string) []string {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";"))
	if s == "" {
		return nil
	}
	// "a{, b}": an optional group adds its operands to the list.
	var flat strings.Builder
	for i := 0; i < len(s); i++ {
		if j, ok := optionalGroup(s, i); ok {
			if j == len(s) {
				break
			}
			flat.WriteString(s[i+1 : j])
			i = j
			continue
		}
		flat.WriteByte(s[i])
	}
	var out []string
	for _, p := range SplitTop(flat.String(), ',') {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// descriptionSentences splits the Description into sentences (prose only:
// code blocks and tables are not sentences).
func descriptionSentences(d string) []string {
	var out []string
	for _, u := range proseUnits(d) {
		for _, s := range proseSentences(u) {
			// A list item continuing a sentence ("load operation on the
			// multimem address `a`", "AND Operand `d` is ...") says nothing
			// on its own.
			if c := s[0]; c >= 'A' && c <= 'Z' || c == '`' || c == '*' {
				if !strings.HasPrefix(s, "AND ") && !strings.HasPrefix(s, "OR ") {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// spanGroupRe matches a run of code spans written as one list: "`d`, `a`
// and `b`", "`scale-a-data`, `scale-b-data`".
var spanGroupRe = regexp.MustCompile("`[^`]+`(?:(?:,\\s*|,?\\s+(?:and|or)\\s+|\\s*/\\s*)`[^`]+`)*")

// Words that, written just before an operand's name, make the sentence
// about the operand ("destination operand `d`", "register `d`"), and those
// that do so just after it ("the `c` predicate", "`c` and `d` represent").
var (
	operandNouns = wordSet("variable variables operand operands destination destinations source sources register registers address addresses argument arguments predicate predicates input inputs output outputs parameter parameters tuple tuples vector matrix matrices descriptor descriptors pointer mask")
	operandVerbs = wordSet("operand operands register registers predicate is are has have must specifies specify represents represent holds hold contains contain can may should will indicates indicate denotes denote points point refers refer provides provide gives give selects select determines determine defines define receives receive returns return was were cannot needs need stores store takes take supplies supply encodes encode identifies identify")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// aboutOperand reports whether a sentence is about the operand rather than
// naming it in passing: the sentence opens with the operand, or calls it an
// operand, a register, an address and so on, or makes it the subject of a
// verb ("Operands `d`, `a` and `b` have the same type", "the result is
// returned in register `d`", "`c` and `d` represent the accumulator").
// "Store the maximum of `a` and `b` in `d`" is about the operation, which
// the Description says once for all operands.
func aboutOperand(sentence, name string) bool {
	if name == "" {
		return false
	}
	for _, loc := range spanGroupRe.FindAllStringIndex(sentence, -1) {
		group := sentence[loc[0]:loc[1]]
		if !groupNames(group, name) {
			continue
		}
		before := strings.Fields(strings.ToLower(sentence[:loc[0]]))
		if len(before) == 0 || len(before) == 1 && (before[0] == "the" || before[0] == "while") {
			return true
		}
		if operandNouns[strings.Trim(before[len(before)-1], "(,;:")] {
			return true
		}
		if after := strings.Fields(strings.ToLower(sentence[loc[1]:])); len(after) > 0 && operandVerbs[strings.Trim(after[0], ",;:.)")] {
			return true
		}
	}
	return false
}

// groupNames reports whether a run of code spans names the operand.
func groupNames(group, name string) bool {
	for _, sp := range proseSpans(group) {
		if operandSpan(sp, name) {
			return true
		}
	}
	return false
}

// operandSpan: the span is the operand itself ("d", "[a]", "{d0, d1}"), not
// an expression or qualifier that starts with its name ("a+imm", ".d").
func operandSpan(span, name string) bool {
	s := strings.TrimSpace(span)
	s = strings.Trim(s, "[]{}")
	if s == name {
		return true
	}
	// "{byte-id-a, thread-id-a}": a tuple of operands.
	for _, p := range strings.Split(s, ",") {
		if strings.TrimSpace(p) == name {
			return true
		}
	}
	return false
}

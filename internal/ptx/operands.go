package ptx

import (
	"sort"
	"strings"
)

// Operand is one operand of a mnemonic's first syntax line, with the
// Description sentences that name it.
type Operand struct {
	Name   string `json:"name"` // as written: "d", "[a]", "{d0, d1}", "p[|q]"
	Order  int    `json:"order"`
	Output bool   `json:"output"`
	// Types is set only when the description says the operand has the
	// instruction's type: the data types of the mnemonic's forms.
	Types       []string `json:"types,omitempty"`
	Description string   `json:"description,omitempty"`
	File        string   `json:"file"`
	Line        int      `json:"line"`
}

// operandsOf derives the operand list from the first form's syntax line and
// the description prose.
func operandsOf(in *Instruction) []Operand {
	if len(in.Forms) == 0 || in.Kind != KindInstruction {
		return nil
	}
	f := in.Forms[0]
	_, text := splitStatement(f.Syntax)
	names := operandNames(text)
	sentences := descriptionSentences(in.Description)
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
	out := make([]Operand, 0, len(names))
	for i, n := range names {
		op := Operand{Name: n, Order: i, File: f.File, Line: f.Line}
		// Destinations are written first and named d (or p|q for
		// predicates); everything else is read.
		if i == 0 && len(names) > 1 {
			switch c := strings.TrimLeft(n, "{"); {
			case strings.HasPrefix(c, "d"), c == "p", strings.HasPrefix(c, "p|"), strings.HasPrefix(c, "p["):
				op.Output = true
			}
		}
		bare := strings.Trim(n, "[]{} ")
		if k := strings.IndexAny(bare, "|[,"); k > 0 {
			bare = bare[:k]
		}
		var about []string
		for _, s := range sentences {
			if mentionsOperand(s, bare) {
				about = append(about, s)
				if strings.Contains(strings.ToLower(s), "instruction type") && len(types) > 0 {
					op.Types = types
				}
			}
		}
		op.Description = strings.Join(about, " ")
		out = append(out, op)
	}
	return out
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
		if s[i] == '{' && strings.HasPrefix(strings.TrimLeft(s[i+1:], " "), ",") {
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				break
			}
			flat.WriteString(s[i+1 : i+j])
			i += j
			continue
		}
		flat.WriteByte(s[i])
	}
	var out []string
	for _, p := range splitTop(flat.String(), ',') {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func descriptionSentences(d string) []string {
	d = strings.Join(strings.Fields(d), " ")
	var out []string
	for _, p := range splitSentences(d, 0) {
		out = append(out, p.text)
	}
	return out
}

// mentionsOperand reports whether a sentence names the operand in code
// ("`d`", "`a`, `b`").
func mentionsOperand(sentence, name string) bool {
	if name == "" {
		return false
	}
	return strings.Contains(sentence, "`"+name+"`")
}

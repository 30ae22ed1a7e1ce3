package ptx

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// This file turns a syntax code block into statements and template-variable
// definitions, and one statement's opcode ("max{.ftz}{.NaN}.f32") into a
// pattern over the dot-separated tokens of an instruction.

// statement is one syntax line of a code block (possibly spanning lines).
type statement struct {
	text    string // the whole statement, whitespace collapsed
	comment string // trailing // comment, if any
	line    int    // 1-based line in the file
	group   int    // index of the statement/definition group it belongs to
}

// definition is one "name = { choices }" line; chained names share choices.
type definition struct {
	names   []string
	choices []string
	group   int
}

var dotSpaceRe = lazyre.New(`\.\s+([A-Za-z_])`)

var defStartRe = lazyre.New(`^(\.|::)?[A-Za-z_][\w:-]*\s*=`)

// splitBlock separates a syntax code block into statements and definitions.
// Definitions written after a run of statements scope to that run (their
// group) first; the mma block redefines .kind after every line.
func splitBlock(text string, firstLine int) ([]statement, []definition) {
	var (
		stmts   []statement
		defs    []definition
		group   int
		lastDef bool
		open    *statement // a statement not yet ended by ';'
		defBuf  string
		depth   int
	)
	finishDef := func() {
		if d, ok := parseDefinition(defBuf); ok {
			d.group = group
			defs = append(defs, d)
			lastDef = true
		}
		defBuf, depth = "", 0
	}
	for i, raw := range strings.Split(text, "\n") {
		lineNo := firstLine + i
		line, comment := raw, ""
		if k := strings.Index(line, "//"); k >= 0 {
			line, comment = line[:k], strings.TrimSpace(line[k+2:])
		}
		trimmed := strings.TrimSpace(line)
		if defBuf != "" {
			defBuf += " " + trimmed
			depth += strings.Count(trimmed, "{") - strings.Count(trimmed, "}")
			if depth <= 0 {
				finishDef()
			}
			continue
		}
		if trimmed == "" || strings.Trim(trimmed, "-=") == "" {
			continue
		}
		if defStartRe.MatchString(trimmed) {
			open = nil
			defBuf = trimmed
			depth = strings.Count(trimmed, "{") - strings.Count(trimmed, "}")
			if depth <= 0 {
				finishDef()
			}
			continue
		}
		indented := len(raw) > 0 && (raw[0] == ' ' || raw[0] == '\t')
		if open != nil && indented {
			open.text += " " + trimmed
			if comment != "" && open.comment == "" {
				open.comment = comment
			}
			if strings.HasSuffix(trimmed, ";") {
				open = nil
			}
			continue
		}
		if lastDef {
			group++
			lastDef = false
		}
		stmts = append(stmts, statement{text: trimmed, comment: comment, line: lineNo, group: group})
		if !strings.HasSuffix(trimmed, ";") {
			open = &stmts[len(stmts)-1]
		} else {
			open = nil
		}
	}
	if defBuf != "" {
		finishDef()
	}
	for i := range stmts {
		stmts[i].text = strings.Join(strings.Fields(stmts[i].text), " ")
		// "{.level::cache_hint}. vec_16_bit.half_word_type": a stray space
		// after a dot in NVIDIA's red syntax; the opcode goes on.
		stmts[i].text = dotSpaceRe.ReplaceAllString(stmts[i].text, ".$1")
	}
	return stmts, defs
}

// parseDefinition reads ".dtype = .atype = { .u8, .u16 };".
func parseDefinition(s string) (definition, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";"))
	parts := strings.Split(s, "=")
	if len(parts) < 2 {
		return definition{}, false
	}
	var d definition
	for _, n := range parts[:len(parts)-1] {
		n = strings.TrimSpace(n)
		if n == "" || strings.ContainsAny(n, " {}") {
			return definition{}, false
		}
		d.names = append(d.names, n)
	}
	rhs := strings.TrimSpace(parts[len(parts)-1])
	if o := strings.Index(rhs, "{"); o >= 0 {
		c := strings.LastIndex(rhs, "}")
		if c < o {
			c = len(rhs)
		}
		rhs = rhs[o+1 : c]
	}
	for _, item := range SplitTop(rhs, ',') {
		item = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(item), ";"))
		item = strings.TrimRight(item, "*") // "::discard*", ".64x128b**": stars mark footnotes
		if o := strings.IndexByte(item, '{'); o >= 0 {
			// ".param{::entry, ::func}": spaces inside the suffix group are fine.
			item = item[:o] + strings.Join(strings.Fields(item[o:]), "")
		}
		if item == "none" {
			// ".vec = { none, .v2, .v4 }": no vector modifier at all.
			d.choices = append(d.choices, "")
			continue
		}
		if item == "" || strings.ContainsAny(item, " \t") {
			continue // prose such as "where x,y are from { 0, 1 }"
		}
		if !(strings.HasPrefix(item, ".") || strings.HasPrefix(item, "::") || isIdentStart(item[0])) {
			continue
		}
		d.choices = append(d.choices, expandSuffixes(item)...)
	}
	return d, len(d.choices) > 0
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// expandSuffixes turns ".shared{::cta, ::cluster}" into .shared, .shared::cta, .shared::cluster.
func expandSuffixes(item string) []string {
	o := strings.Index(item, "{")
	if o < 0 {
		return []string{item}
	}
	c := strings.Index(item[o:], "}")
	if c < 0 {
		return []string{strings.ReplaceAll(item, "{", "")}
	}
	base, inner, rest := item[:o], item[o+1:o+c], item[o+c+1:]
	out := []string{base + rest}
	for _, s := range strings.Split(inner, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, base+s+rest)
		}
	}
	return out
}

// SplitTop splits s at sep outside (), [], {}.
func SplitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// splitStatement separates "max{.relu}.s32  d, a, b;" into opcode and operands.
func splitStatement(s string) (opcode, operands string) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";"))
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ' ', '\t':
			if depth <= 0 {
				// "cvt.rn.{.relu}.f16x2": no space inside opcodes, but a
				// space before "{" continuing the opcode happens ("b {, x}")
				// only in operands, so the first top-level space ends it.
				return s[:i], strings.TrimSpace(s[i:])
			}
		}
	}
	return s, ""
}

// node is one element of an opcode pattern.
type node struct {
	name    string     // as written: ".sync", ".dtype", "max", "vop2"
	isVar   bool       // name is a template variable
	choices [][]string // token sequences this node accepts
	suffix  string     // a "{::a, ::b}" group written after the name
	opt     bool       // an optional group: {...}
	alts    [][]node   // the group's alternatives (usually one)
}

// resolver returns a template variable's choices as written (".u16").
type resolver func(name string) ([]string, bool)

// pattern parses a stored form's statement: the opcode's pattern nodes,
// its template variables resolved from the form's own definitions, and
// the operand text.
func (f *Form) pattern() (nodes []node, operands string, err error) {
	vars := map[string][]string{}
	for _, v := range f.Variables {
		vars[v.Name] = v.Choices
	}
	opcode, operands := splitStatement(f.Syntax)
	nodes, err = parseOpcode(opcode, func(n string) ([]string, bool) { ch, ok := vars[n]; return ch, ok })
	return nodes, operands, err
}

// parseOpcode builds the pattern of an opcode such as
// "barrier{.cta}.red.popc{.aligned}.u32".
func parseOpcode(op string, resolve resolver) ([]node, error) {
	p := &opParser{s: op, resolve: resolve}
	nodes, err := p.seq(true)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.s) {
		return nil, fmt.Errorf("unexpected %q at offset %d in %q", p.s[p.i], p.i, op)
	}
	return nodes, nil
}

type opParser struct {
	s       string
	i       int
	resolve resolver
}

func isNameChar(c byte) bool {
	return c == '_' || c == ':' || c == '-' || c == '*' || c == '<' || c == '>' ||
		c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *opParser) seq(top bool) ([]node, error) {
	var out []node
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '}' || c == ',' || c == '|':
			if top {
				return nil, fmt.Errorf("unbalanced %q in %q", c, p.s)
			}
			return out, nil
		case c == '{':
			p.i++
			g := node{opt: true}
			for {
				alt, err := p.seq(false)
				if err != nil {
					return nil, err
				}
				if len(alt) > 0 {
					g.alts = append(g.alts, alt)
				}
				if p.i >= len(p.s) {
					return nil, fmt.Errorf("unclosed { in %q", p.s)
				}
				if p.s[p.i] == '}' {
					p.i++
					break
				}
				p.i++ // ',' or '|'
			}
			if len(g.alts) > 0 {
				out = append(out, g)
			}
		case c == '.':
			p.i++
			if p.i >= len(p.s) || p.s[p.i] == '{' || p.s[p.i] == '}' {
				continue // "cvt.rn.{.relu}", "{.abs.}": a stray dot
			}
			n, err := p.leaf(".")
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		case c == ' ' || c == '\t':
			p.i++
		case isNameChar(c):
			// The mnemonic's first part, or a token written without its dot.
			n, err := p.leaf("")
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		default:
			return nil, fmt.Errorf("unexpected %q in %q", c, p.s)
		}
	}
	return out, nil
}

// leaf reads a name and an optional "{::a, ::b}" suffix group after it.
func (p *opParser) leaf(prefix string) (node, error) {
	start := p.i
	for p.i < len(p.s) && isNameChar(p.s[p.i]) {
		p.i++
	}
	name := p.s[start:p.i]
	if name == "" {
		return node{}, fmt.Errorf("empty name at offset %d in %q", start, p.s)
	}
	full := prefix + name
	var written []string
	isVar := false
	suffix := ""
	if ch, ok := p.resolve(full); ok {
		written, isVar = ch, true
	} else {
		written = []string{full}
	}
	// Optional "::x" suffixes: ".shared{::cta, ::cluster}".
	if p.i+2 < len(p.s) && p.s[p.i] == '{' && strings.HasPrefix(strings.TrimLeft(p.s[p.i+1:], " "), "::") {
		end := strings.IndexByte(p.s[p.i:], '}')
		if end < 0 {
			return node{}, fmt.Errorf("unclosed { in %q", p.s)
		}
		inner := p.s[p.i+1 : p.i+end]
		suffix = p.s[p.i : p.i+end+1]
		p.i += end + 1
		var ext []string
		for _, w := range written {
			ext = append(ext, w)
			for _, s := range strings.Split(inner, ",") {
				if s = strings.TrimSpace(s); s != "" {
					ext = append(ext, w+s)
				}
			}
		}
		written = ext
	}
	n := node{name: full, isVar: isVar, suffix: suffix}
	for _, w := range expandSubVars(written, p.resolve) {
		n.choices = append(n.choices, Tokens(w))
	}
	return n, nil
}

// expandSubVars replaces "::x" segments defined as variables
// (".collector::buffer::op" with ::buffer = {::a}).
func expandSubVars(written []string, resolve resolver) []string {
	var out []string
	for _, w := range written {
		parts := strings.Split(w, "::")
		acc := []string{parts[0]}
		for _, seg := range parts[1:] {
			subs, ok := resolve("::" + seg)
			if !ok {
				subs = []string{"::" + seg}
			}
			var next []string
			for _, a := range acc {
				for _, s := range subs {
					next = append(next, a+s)
				}
			}
			acc = next
		}
		out = append(out, acc...)
	}
	return out
}

// Tokens splits ".xorsign.abs" into [xorsign abs]; "::fill" stays whole.
func Tokens(written string) []string {
	w := strings.TrimPrefix(written, ".")
	if w == "" {
		return nil
	}
	return strings.Split(w, ".")
}

// renderNodes writes a pattern back as syntax text.
func renderNodes(nodes []node) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(renderNode(n))
	}
	return b.String()
}

func renderNode(n node) string {
	if n.opt {
		parts := make([]string, len(n.alts))
		for i, a := range n.alts {
			parts[i] = renderNodes(a)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return n.name + n.suffix
}

// operandShape is what a syntax line's operand list allows.
type operandShape struct {
	required int
	optional []int // sizes of optional groups "{, a}" "{, a, b}"
}

// counts lists every operand count the shape allows.
func (s operandShape) counts() []int {
	set := map[int]bool{s.required: true}
	for _, g := range s.optional {
		for c := range maps.Clone(set) {
			set[c+g] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// optionalGroup reports whether s[i] opens an optional group of operands,
// a "{" whose content starts with a comma ("a{, b}", "b {, cache-policy}"),
// and returns the index of its closing brace, nested braces skipped
// (len(s) when it is not closed).
func optionalGroup(s string, i int) (end int, ok bool) {
	if s[i] != '{' || !strings.HasPrefix(strings.TrimLeft(s[i+1:], " "), ",") {
		return 0, false
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return j, true
			}
		}
	}
	return len(s), true
}

// parseOperands reads "d, a{, b}, {!}c" or "[a], b {, cache-policy}".
func parseOperands(s string) operandShape {
	var sh operandShape
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";"))
	if s == "" {
		return sh
	}
	// Pull out optional groups whose content starts with a comma.
	var rest strings.Builder
	for i := 0; i < len(s); i++ {
		if j, ok := optionalGroup(s, i); ok {
			inner := strings.TrimLeft(s[i+1:j], " ")
			inner = strings.TrimPrefix(inner, ",")
			sh.optional = append(sh.optional, len(SplitTop(inner, ',')))
			i = j
			continue
		}
		rest.WriteByte(s[i])
	}
	r := strings.TrimSpace(rest.String())
	r = strings.TrimSuffix(r, ",")
	if strings.TrimSpace(r) != "" {
		sh.required = len(SplitTop(r, ','))
	}
	return sh
}

var typeRe = regexp.MustCompile(`^(?:[subf](?:8|16|32|64|128)|b1|[us][24]|pred|bf16|bf16x2|f16x2|f32x2|tf32|[us]16x2|u?e\dm\d(?:x[24])?|s2f6x2|f8|f6|f4|f8x2|f8x4)$`)

// typeMemo remembers isType's answers: instructions repeat few tokens.
var typeMemo sync.Map

// isType reports whether tok (no dot) is a PTX data type.
func isType(tok string) bool {
	if v, ok := typeMemo.Load(tok); ok {
		return v.(bool)
	}
	t := typeRe.MatchString(tok)
	if len(tok) <= 16 {
		typeMemo.Store(tok, t)
	}
	return t
}

var stateSpaces = map[string]bool{"reg": true, "sreg": true, "const": true, "global": true, "local": true, "param": true, "shared": true, "tex": true}

// isStateSpace reports whether tok names a state space (".shared::cta" included).
func isStateSpace(tok string) bool {
	base, _, _ := strings.Cut(tok, "::")
	return stateSpaces[base]
}

var scopes = map[string]bool{"cta": true, "cluster": true, "gpu": true, "sys": true}

func isScope(tok string) bool { return scopes[tok] }

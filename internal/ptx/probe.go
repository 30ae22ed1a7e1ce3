package ptx

import (
	"slices"
	"strconv"
	"strings"
)

// This file writes concrete statements for a documented form, so ptxas can
// say which targets and PTX ISA versions accept it: the canonical statement
// (every optional part absent, every template variable at its first
// choice), and one statement per optional modifier and per further choice
// of a variable, so a page can say what each modifier requires.

// Probe is one statement generated from a form.
type Probe struct {
	Form int    // index into the instruction's Forms
	Text string // "max.NaN.f32 d, a, b;"
	// Lengths are the register counts of its vector operands, by operand
	// index, as Text writes them (Render writes others).
	Lengths map[int]int
	tokens  []string
	opts    map[int]bool
	// Feature names what this probe adds to the canonical statement: ""
	// for the canonical one, ".NaN" for an optional modifier, ".rn" for
	// another choice of a variable, ", c" for an optional operand.
	Feature string
	// Variable is the template variable Feature is a choice of (".rnd").
	Variable string
	// Optional says the feature is an optional part the base statement
	// leaves out (not another choice of a required variable).
	Optional bool
	set      map[int][]string // pattern node -> the tokens written for it
}

// MaxProbesPerForm bounds the statements generated for one form (a form
// with a 32-choice shape variable and ten optional modifiers).
const MaxProbesPerForm = 64

// FormProbes returns the probes of form fi of in: the canonical statement
// first. A form whose syntax does not parse gives none.
func FormProbes(in *Instruction, fi int) []Probe { return formProbes(in, fi, nil) }

// FormProbesFrom returns the probes of form fi built on another base than
// the canonical statement: from, a probe ptxas accepted where it rejected
// the canonical one (atom's first .op, .and, needs a bit-size type), so
// each optional part is tried where it can be.
func FormProbesFrom(in *Instruction, fi int, from Probe) []Probe { return formProbes(in, fi, from.set) }

func formProbes(in *Instruction, fi int, baseSet map[int][]string) []Probe {
	f := &in.Forms[fi]
	nodes, operands, err := f.pattern()
	if err != nil || len(nodes) == 0 {
		return nil
	}
	tmpl := parseOperandTemplate(operands)
	var out []Probe
	with := func(i int, t []string) map[int][]string {
		set := map[int][]string{}
		for k, v := range baseSet {
			set[k] = v
		}
		if i >= 0 {
			set[i] = t
		}
		return set
	}
	add := func(set map[int][]string, opts map[int]bool, feature, variable string, optional bool) {
		if len(out) >= MaxProbesPerForm {
			return
		}
		tokens := canonicalTokens(nodes, set)
		text, lengths := renderProbe(tmpl, tokens, opts, nil)
		for _, p := range out {
			if p.Text == text {
				return
			}
		}
		out = append(out, Probe{Form: fi, Text: text, Lengths: lengths, Feature: feature, Variable: variable, Optional: optional,
			tokens: tokens, opts: opts, set: set})
	}
	for i := range nodes {
		trimFootnotes(&nodes[i])
	}
	add(with(-1, nil), nil, "", "", false)
	// Each optional group, present alone; each choice of a variable.
	for i, n := range nodes {
		if _, fixed := baseSet[i]; fixed && !n.opt {
			continue
		}
		switch {
		case n.opt:
			for _, alt := range n.alts {
				for _, pick := range altChoices(alt) {
					add(with(i, pick.tokens), nil, "."+strings.Join(pick.tokens, "."), pick.variable, true)
				}
			}
		case n.isVar && len(n.choices) > 1:
			for _, ch := range n.choices[1:] {
				add(with(i, ch), nil, "."+strings.Join(ch, "."), n.name, false)
			}
		}
	}
	// Optional operand parts ("{, cache-policy}", "p[|q]", "{!}c").
	for k, o := range tmpl.optional {
		add(with(-1, nil), map[int]bool{k: true}, o, "", true)
	}
	return out
}

// ProbeKey identifies a statement by what ptxas reads in it: the first
// token, the other tokens as a set (ptxas reads modifiers in any order),
// the data types in order and the operands' shapes ("[x,x,{x}]": a
// texture with a sampler and one coordinate), names and values aside.
func ProbeKey(text string) string {
	tokens, operands, err := ParseInstruction(text)
	if err != nil || len(tokens) == 0 {
		return ""
	}
	return probeKey(tokens, operands)
}

// shapeOf writes an operand's structure: registers become x, special
// registers s, numbers n, the sink _; brackets, braces, '|' and '!' stay.
// Hand-written: the checker computes it for every instruction of a file.
func shapeOf(op string) string {
	b := make([]byte, 0, 8)
	for i := 0; i < len(op); {
		c := op[i]
		switch {
		case strings.IndexByte("[]{}(),|!", c) >= 0:
			b = append(b, c)
			i++
		case c == ' ' || c == '\t' || c == '+':
			i++
		case c >= '0' && c <= '9' || (c == '-' || c == '.') && i+1 < len(op) && op[i+1] >= '0' && op[i+1] <= '9':
			j := i + 1
			for j < len(op) && (isNameByte(op[j]) || op[j] == '.') {
				j++
			}
			b = append(b, 'n')
			i = j
		case isNameByte(c) || c == '%' || c == '$':
			j, dot := i+1, false
			for j < len(op) && (isNameByte(op[j]) || op[j] == '.' || op[j] == ':' || op[j] == '-' || op[j] == '$') {
				dot = dot || op[j] == '.'
				j++
			}
			switch {
			case j == i+1 && c == '_':
				b = append(b, '_') // the sink
			case c == '%' && dot:
				b = append(b, 's') // a special register: %tid.x
			default:
				b = append(b, 'x')
			}
			i = j
		default:
			i++
		}
	}
	return string(b)
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func probeKey(tokens []string, operands []string) string {
	shapes := make([]string, len(operands))
	for i, o := range operands {
		shapes[i] = shapeOf(o)
	}
	nOperands := strings.Join(shapes, ";")
	rest := append([]string(nil), tokens[1:]...)
	var types []string
	for _, t := range rest {
		if isType(t) {
			types = append(types, t)
		}
	}
	sortStrings(rest)
	return tokens[0] + "|" + strings.Join(rest, ".") + "|" + strings.Join(types, ".") + "|" + nOperands
}

func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// trimFootnotes drops the documentation's footnote marks from a pattern's
// tokens (".64x128b*").
func trimFootnotes(n *node) {
	for c := range n.choices {
		for t := range n.choices[c] {
			n.choices[c][t] = strings.TrimSuffix(n.choices[c][t], "*")
		}
	}
	for a := range n.alts {
		for k := range n.alts[a] {
			trimFootnotes(&n.alts[a][k])
		}
	}
}

func renderProbe(tmpl operandTemplate, tokens []string, opts map[int]bool, lengths map[int]int) (string, map[int]int) {
	text := strings.Join(tokens, ".")
	got := map[int]int{}
	if ops := tmpl.render(tokens, opts, lengths, got); ops != "" {
		text += " " + ops
	}
	return text + ";", got
}

// Render writes the probe again with the vector operands of lengths (by
// operand index) at those register counts, for a search of the sizes
// ptxas accepts; it returns the text and every vector operand's length.
func (p Probe) Render(in *Instruction, lengths map[int]int) (string, map[int]int) {
	_, operands := splitStatement(in.Forms[p.Form].Syntax)
	return renderProbe(parseOperandTemplate(operands), p.tokens, p.opts, lengths)
}

// Complete reports whether the probe writes every optional operand part
// of its form (or the form has none): a statement that leaves one out may
// be rejected for it (.L2::cache_hint wants its cache policy).
func (p Probe) Complete(in *Instruction) bool {
	_, operands := splitStatement(in.Forms[p.Form].Syntax)
	for k := range parseOperandTemplate(operands).optional {
		if !p.opts[k] {
			return false
		}
	}
	return true
}

type altPick struct {
	tokens   []string
	variable string
}

// altChoices lists the token sequences an optional group's alternative can
// add: one per choice of its variable parts (the first choice of the
// others).
func altChoices(alt []node) []altPick {
	first := func(ns []node) []string {
		var t []string
		for _, n := range ns {
			if n.opt {
				continue
			}
			if len(n.choices) > 0 {
				t = append(t, n.choices[0]...)
			}
		}
		return t
	}
	out := []altPick{{tokens: first(alt)}}
	for i, n := range alt {
		if n.opt || !n.isVar || len(n.choices) < 2 {
			if n.isVar && i == 0 && len(alt) == 1 {
				out[0].variable = n.name
			}
			continue
		}
		out[0].variable = n.name
		for _, ch := range n.choices[1:] {
			c := append([]node(nil), alt...)
			c[i] = node{name: n.name, choices: [][]string{ch}}
			out = append(out, altPick{tokens: first(c), variable: n.name})
		}
	}
	if len(out[0].tokens) == 0 {
		return out[1:]
	}
	return out
}

// canonicalTokens writes the tokens of nodes: optional groups absent
// unless set gives their tokens, variables at their first choice unless
// set gives another.
func canonicalTokens(nodes []node, set map[int][]string) []string {
	var out []string
	for i, n := range nodes {
		if t, ok := set[i]; ok {
			out = append(out, t...)
			continue
		}
		if n.opt || len(n.choices) == 0 {
			continue
		}
		out = append(out, n.choices[0]...)
	}
	return out
}

// operandTemplate is a form's operand list with its optional parts.
type operandTemplate struct {
	parts    []tmplPart
	optional []string // the text of each optional part, by index
}

type tmplPart struct {
	text string // literal text, or the optional part's text
	opt  int    // -1 for literal text, else the index into optional
}

// parseOperandTemplate reads "d[|p], a{.asel}, [a]{.unified}{, cache-policy}, {!}c":
// a brace group that starts with ",", ".", "!" or "-", or ends with ",",
// and "[|x]" are optional; other braces are vectors.
func parseOperandTemplate(s string) operandTemplate {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ";"))
	var t operandTemplate
	lit := strings.Builder{}
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, tmplPart{text: lit.String(), opt: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '[' && strings.HasPrefix(s[i:], "[|") {
			j := strings.IndexByte(s[i:], ']')
			if j > 0 {
				flush()
				t.parts = append(t.parts, tmplPart{text: s[i+1 : i+j], opt: len(t.optional)})
				t.optional = append(t.optional, s[i+1:i+j])
				i += j
				continue
			}
		}
		if c == '{' {
			j := MatchingClose(s, i)
			inner := s[i+1 : j]
			trimmed := strings.TrimSpace(inner)
			if trimmed != "" && (strings.ContainsRune(",.!-", rune(trimmed[0])) || strings.HasSuffix(trimmed, ",")) {
				flush()
				t.parts = append(t.parts, tmplPart{text: inner, opt: len(t.optional)})
				t.optional = append(t.optional, trimmed)
				i = j
				continue
			}
		}
		lit.WriteByte(c)
	}
	flush()
	return t
}

// render writes the operands for an instruction with tokens, with the
// optional parts in opts present; placeholders become registers,
// immediates or vectors of the size the tokens imply.
func (t operandTemplate) render(tokens []string, opts map[int]bool, lengths, got map[int]int) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.opt >= 0 && !opts[p.opt] {
			continue
		}
		b.WriteString(p.text)
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	text = strings.ReplaceAll(text, " ,", ",")
	text = strings.TrimSuffix(strings.TrimSpace(text), ",")
	if text == "" {
		return ""
	}
	ops := SplitTop(text, ',')
	for i := range ops {
		op := strings.TrimSpace(ops[i])
		if isImmediateRole(tokens, i) && IdentRe.FindString(op) == op {
			// "applypriority [a], size": size is the immediate 128.
			ops[i] = immediateValue(op)
			continue
		}
		ops[i] = concreteOperand(op, i, tokens, lengths, got)
	}
	return strings.Join(ops, ", ")
}

// immediates are the documentation's operand names that stand for
// immediate values, with a value ptxas accepts.
var immediates = map[string]string{
	"N": "0", "immLut": "0x80", "imm-reg-count": "64", "imm-scale-a": "1", "imm-scale-b": "1",
	"imm-trans-a": "0", "imm-trans-b": "0", "immHalfSplitoff": "0", "immAlign": "8",
	"cp-size": "16", "initval": "0", "ord": "0", "fraction": "0.5", "scale-input-d": "0",
	"sp-sel": "0", "imm": "4", "byte-id-a": "0", "thread-id-a": "0", "byte-id-b": "0", "thread-id-b": "0",
}

// videoSelector writes the video instructions' selector placeholders: a
// byte of a scalar video instruction, the half-words or bytes of a SIMD
// one.
func videoSelector(op string, tokens []string) string {
	mn := tokens[0]
	sel, mask := ".b0", ".b0"
	switch {
	case strings.HasSuffix(mn, "2"):
		sel, mask = ".h10", ".h0"
	case strings.HasSuffix(mn, "4"):
		sel, mask = ".b3210", ".b0"
	}
	for _, p := range []string{".asel", ".bsel", ".dsel"} {
		op = strings.ReplaceAll(op, p, sel)
	}
	return strings.ReplaceAll(op, ".mask", mask)
}

// concreteOperand turns one template operand into what a statement writes.
func concreteOperand(op string, index int, tokens []string, lengths, got map[int]int) string {
	if tokens[0] != "" && tokens[0][0] == 'v' && strings.ContainsAny(op, ".") {
		op = videoSelector(op, tokens)
	}
	neg := ""
	for strings.HasPrefix(op, "!") || strings.HasPrefix(op, "-") {
		neg += op[:1]
		op = op[1:]
	}
	switch {
	case op == "":
		return neg
	case strings.HasPrefix(op, "["):
		end := MatchingClose(op, 0)
		inner := SplitTop(op[1:end], ',')
		for k := range inner {
			inner[k] = concreteAddressPart(strings.TrimSpace(inner[k]), k, tokens)
		}
		return neg + "[" + strings.Join(inner, ", ") + "]" + AfterIndex(op, end)
	case strings.HasPrefix(op, "("):
		return op
	case strings.HasPrefix(op, "{"):
		inner := strings.TrimSpace(op[1:MatchingClose(op, 0)])
		if inner == "disable-output-lane" {
			// One mask word per 32 lanes of the CTA group's columns.
			n := 4
			if slices.Contains(tokens, "cta_group::2") {
				n = 8
			}
			return neg + vectorOf("disable_output_lane", n)
		}
		// "{byte-id-a, thread-id-a}" of mma's block scaling: a pair of
		// immediates, each replaced as a lone operand would be.
		parts := SplitTop(inner, ',')
		changed := false
		for k, p := range parts {
			if v, ok := immediates[strings.TrimSpace(p)]; ok {
				parts[k], changed = v, true
			} else {
				parts[k] = strings.TrimSpace(p)
			}
		}
		if changed {
			return neg + "{" + strings.Join(parts, ", ") + "}" + AfterIndex(op, MatchingClose(op, 0))
		}
		return neg + op
	}
	if v, ok := immediates[op]; ok {
		return neg + v
	}
	switch op {
	case "kernel":
		return "$U" // the unit's own entry
	case "sreg":
		// A special register of the instruction's width: "mov.u64 d,
		// sreg" reads a 64-bit one.
		for _, t := range tokens[1:] {
			if isType(t) && TypeBits("."+t) == 64 {
				return "%clock64"
			}
		}
		return "%tid.x"
	case "dPdx", "dPdy":
		// tex.grad's gradients: one element per dimension of the
		// geometry, the array index aside.
		return vectorOf(op, gradientCoords(tokens))
	}
	if strings.ContainsAny(op, "+") {
		// "avar+imm", "sh + imm": the offset is an immediate.
		return neg + RenameIdent(op, "imm", "4")
	}
	length := func(name string) (int, bool) {
		n, vec := vectorLength(tokens, index, name)
		if m, ok := lengths[index]; ok && vec {
			n = m
		}
		if vec {
			got[index] = n
		}
		return n, vec
	}
	if base, pred, ok := strings.Cut(op, "|"); ok {
		if n, vec := length(base); vec {
			return neg + vectorOf(base, n) + "|" + pred
		}
	}
	if op == "f" && (slices.Contains(tokens, "sp") || slices.Contains(tokens, "sp::ordered_metadata")) {
		return "0" // the sparsity selector of mma.sp
	}
	if n, vec := length(op); vec {
		base := strings.ReplaceAll(op, "-", "_")
		els := make([]string, n)
		for k := range els {
			els[k] = base + strconv.Itoa(k)
		}
		return neg + "{" + strings.Join(els, ", ") + "}"
	}
	return neg + op
}

// concreteAddressPart fills "[tensorMap, tensorCoords]" and "[a, c]" of
// tex: coordinates become vectors of the geometry's size.
func concreteAddressPart(p string, k int, tokens []string) string {
	if k == 0 {
		return p
	}
	switch p {
	case "tensorCoords":
		return vectorOf("tc", dims(tokens, 1))
	case "c", "{b,} c":
		return vectorOf("c", geometryCoords(tokens))
	case "b":
		if slices.Contains(tokens, "suld") || slices.Contains(tokens, "sust") || slices.Contains(tokens, "sured") {
			return vectorOf("x", geometryCoords(tokens))
		}
	}
	return p
}

func vectorOf(base string, n int) string {
	els := make([]string, n)
	for i := range els {
		els[i] = base + strconv.Itoa(i)
	}
	return "{" + strings.Join(els, ", ") + "}"
}

// dims reads ".3d" (tensor dimensions), def when absent.
func dims(tokens []string, def int) int {
	for _, t := range tokens {
		if len(t) == 2 && t[1] == 'd' && t[0] >= '1' && t[0] <= '5' {
			return int(t[0] - '0')
		}
	}
	return def
}

// geometryCoords is the size of a texture or surface coordinate vector:
// one per dimension plus the array index, rounded up to 2 or 4.
func geometryCoords(tokens []string) int {
	for _, t := range tokens {
		switch t {
		case "1d":
			return 1
		case "2d", "a1d":
			return 2
		case "3d", "a2d", "cube", "acube", "2dms", "a2dms":
			return 4
		}
	}
	return 1
}

// gradientCoords is the size of tex.grad's gradient vectors: one per
// dimension of the geometry (without an array's index), rounded up to 2
// or 4.
func gradientCoords(tokens []string) int {
	for _, t := range tokens {
		switch t {
		case "1d", "a1d":
			return 1
		case "2d", "a2d", "2dms", "a2dms":
			return 2
		case "3d", "cube", "acube":
			return 4
		}
	}
	return 1
}

// vectorLength says whether an operand is a vector and how many registers
// it holds: the .vN of loads and stores for their data operand, the .v4
// of texture results, the fragment sizes of the matrix instructions
// (matrix.go, always written as vectors, even of one register).
func vectorLength(tokens []string, index int, name string) (int, bool) {
	mn := tokens[0]
	vec := 0
	for _, t := range tokens {
		if len(t) >= 2 && t[0] == 'v' {
			if n, err := strconv.Atoi(t[1:]); err == nil && (n == 2 || n == 4 || n == 8) {
				vec = n
			}
		}
	}
	if n := fragmentLength(tokens, name); n > 0 {
		return n, true
	}
	if vec == 0 {
		return 1, false
	}
	if mn == "multimem" && len(tokens) > 1 && (tokens[1] == "st" || tokens[1] == "red") {
		// multimem.st and multimem.red store their second operand.
		mn = "st"
	}
	switch mn {
	case "ld", "ldu", "multimem", "suld", "tex", "tld4":
		if index == 0 {
			return vec, true
		}
	case "st", "sust":
		if index == 1 {
			return vec, true
		}
	case "atom", "red":
		if name == "d" || name == "b" {
			return vec, true
		}
	}
	return 1, false
}

package ptx

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// maxExpansion caps how many forms one syntax line may expand into; a line
// whose data-type choices multiply beyond it keeps them as variables.
const maxExpansion = 256

// Build merges the sections into one Instruction per mnemonic, in document
// order. Problems lists what could not be used (a syntax line that does not
// parse, a section that yields no form).
func Build(sections []ptxdoc.Section) ([]Instruction, []Problem) {
	var (
		out      []Instruction
		index    = map[string]int{}
		problems []Problem
	)
	sections, respelt := respellSyntax(sections)
	entry := func(name string, sec ptxdoc.Section) *Instruction {
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, Instruction{Name: name, Category: sec.Group, Kind: sec.Kind, Summary: sec.SummaryOf(name)})
		}
		return &out[i]
	}
	for _, sec := range sections {
		if len(sec.Mnemonics) == 0 {
			continue
		}
		notes := parseNotes(sec.PTXISANotes, sec.PTXISANotesLine, sec.TargetISANotes, sec.TargetISANotesLine, sec.Mnemonics)
		if sec.Kind == ptxdoc.KindSpecialRegister {
			notes.unparsed = withoutSregNotes(notes.unparsed, sregNotes(sec))
		}
		forms, probs := sectionForms(sec, notes)
		problems = append(problems, probs...)
		used := map[string]bool{}
		for _, m := range sec.Mnemonics {
			in := entry(m, sec)
			in.Sections = append(in.Sections, SectionRef{ID: sec.ID, File: sec.File, Line: sec.Line, Title: sec.Title})
			for _, cb := range sec.Syntax {
				for _, st := range statementsOf(cb) {
					if mnemonicOfLine(st, sec.Mnemonics) == m || len(sec.Mnemonics) == 1 {
						in.Syntax = append(in.Syntax, st)
					}
				}
			}
			for _, f := range forms[m] {
				in.Forms = append(in.Forms, f.Form)
				for _, k := range f.featuresUsed {
					used[k] = true
				}
			}
			in.Description = joinText(in.Description, descriptionOf(sec, m))
			in.Semantics = joinText(in.Semantics, sec.Semantics)
			for _, ex := range sec.Examples {
				in.Examples = append(in.Examples, Example{Text: ex.Text, File: sec.File, Line: ex.Line})
			}
			in.Notes = append(in.Notes, notes.unparsed...)
			in.Notes = append(in.Notes, respelt[sec.File]...)
		}
		if sec.Kind != ptxdoc.KindInstruction {
			continue
		}
		for _, f := range notes.features {
			if !used[f.text] {
				// Kept as text: the note names something no form has.
				for _, m := range sec.Mnemonics {
					in := &out[index[m]]
					in.Notes = append(in.Notes, noteText(f))
				}
			}
		}
		total := 0
		for _, fs := range forms {
			total += len(fs)
		}
		if total == 0 {
			problems = append(problems, Problem{File: sec.File, Line: sec.Line, Section: sec.Title, Message: "no syntax form could be read"})
		}
	}
	for i := range out {
		in := &out[i]
		in.Notes = dedupe(in.Notes)
		in.Operands = operandsOf(in)
		// A form with no stated version or target makes the entry's lowest
		// one unknown too ("ldu": only "ldu.f64" has a target).
		versionKnown, targetKnown := true, true
		for _, f := range in.Forms {
			versionKnown = versionKnown && f.PTXVersion != ""
			targetKnown = targetKnown && f.MinTarget != ""
			if f.PTXVersion != "" && (in.PTXVersion == "" || ptxorder.CompareVersions(f.PTXVersion, in.PTXVersion) < 0) {
				in.PTXVersion = f.PTXVersion
			}
			if f.MinTarget != "" && (in.MinTarget == "" || ptxorder.CompareTargets(f.MinTarget, in.MinTarget) < 0) {
				in.MinTarget = f.MinTarget
			}
		}
		if !versionKnown {
			in.PTXVersion = ""
		}
		if in.Kind == KindSpecialRegister {
			if need, ok := sregEntryNeed(in); ok {
				in.PTXVersion, in.MinTarget = need.PTXVersion, need.MinTarget
			}
		}
		if !targetKnown && in.Kind == KindInstruction {
			// Say so rather than leave the reader guessing: the notes give
			// targets only for some forms ("`ldu.f64` requires `sm_13`").
			in.MinTarget = ""
			in.Notes = append(in.Notes, "The Target ISA Notes state no minimum target for `"+in.Name+"` as a whole; the forms no target note names have no stated target.")
		}
	}
	return out, problems
}

func noteText(f feature) string {
	// A subject that is a sentence with its own code spans ("Support for
	// shape `.m16n8k16` and …") is kept as written: quoting it again would
	// turn its code into prose and its prose into code.
	s := f.text
	if !strings.Contains(s, "`") {
		s = "`" + s + "`"
	}
	if f.version != "" {
		s += " introduced in PTX ISA version " + f.version
	}
	if f.target != "" {
		s += " requires " + f.target
	}
	return s
}

func joinText(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "\n\n" + b
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// statementsOf returns a code block's syntax statements as text.
func statementsOf(cb ptxdoc.CodeBlock) []string {
	stmts, _ := splitBlock(cb.Text, cb.Line)
	out := make([]string, len(stmts))
	for i, s := range stmts {
		out[i] = s.text
	}
	return out
}

// mnemonicOfLine picks the longest section mnemonic the statement starts with.
func mnemonicOfLine(stmt string, mnemonics []string) string {
	best := ""
	for _, m := range mnemonics {
		if (stmt == m || strings.HasPrefix(stmt, m) && len(stmt) > len(m) && strings.ContainsRune(".{ ;", rune(stmt[len(m)]))) && len(m) > len(best) {
			best = m
		}
	}
	return best
}

type builtForm struct {
	Form
	featuresUsed []string
}

// sectionForms builds the forms of every syntax statement, keyed by mnemonic.
func sectionForms(sec ptxdoc.Section, notes noteResult) (map[string][]builtForm, []Problem) {
	out := map[string][]builtForm{}
	var problems []Problem
	prob := func(line int, msg string) {
		problems = append(problems, Problem{File: sec.File, Line: line, Section: sec.Title, Message: msg})
	}
	type blockDefs struct {
		stmts []statement
		defs  []definition
		cb    ptxdoc.CodeBlock
	}
	var blocks []blockDefs
	var sectionDefs []definition
	for _, cb := range sec.Syntax {
		st, defs := splitBlock(cb.Text, cb.Line)
		blocks = append(blocks, blockDefs{st, defs, cb})
		sectionDefs = append(sectionDefs, defs...)
	}
	lookup := func(defs []definition, group int, name string) ([]string, bool) {
		if group >= 0 {
			for _, d := range defs {
				if d.group == group {
					for _, n := range d.names {
						if n == name {
							return d.choices, true
						}
					}
				}
			}
			return nil, false
		}
		for _, d := range defs {
			for _, n := range d.names {
				if n == name {
					return d.choices, true
				}
			}
		}
		return nil, false
	}
	// The data types the section's syntax lines write literally.
	var sectionTypes []string
	seenType := map[string]bool{}
	for _, b := range blocks {
		for _, st := range b.stmts {
			op, _ := splitStatement(st.text)
			for _, t := range strings.Split(op, ".") {
				if isType(t) && !seenType[t] {
					seenType[t] = true
					sectionTypes = append(sectionTypes, "."+t)
				}
			}
		}
	}
	var sregs []sregNote
	if sec.Kind == ptxdoc.KindSpecialRegister {
		sregs = sregNotes(sec)
	}
	for _, b := range blocks {
		for _, st := range b.stmts {
			if sec.Kind == ptxdoc.KindSpecialRegister {
				for _, f := range sregForms(st, Option{PTXVersion: notes.baseVersion, MinTarget: notes.baseTarget}, sregs) {
					f.Description = firstNonEmpty(st.comment, f.Description, b.cb.Caption)
					f.File, f.Line = sec.File, st.line
					// The section documents its registers together: each
					// entry lists every declaration (sregEntryNeed picks
					// the entry's own minimum).
					for _, m := range sec.Mnemonics {
						out[m] = append(out[m], builtForm{Form: f})
					}
				}
				continue
			}
			if sec.Kind == ptxdoc.KindDirective && !directiveLine(st.text, sec.Mnemonics) {
				// Prose ("dwarf-lines have the following formats: ...")
				// or the format of an operand, not a form of the directive.
				continue
			}
			if sec.Kind != ptxdoc.KindInstruction || !checkable(sec.Mnemonics) {
				m := sec.Mnemonics[0]
				for _, cand := range sec.Mnemonics {
					if strings.Contains(st.text, cand) {
						m = cand
						break
					}
				}
				out[m] = append(out[m], builtForm{Form: Form{
					Syntax: st.text, Description: firstNonEmpty(st.comment, b.cb.Caption),
					PTXVersion: notes.baseVersion, MinTarget: notes.baseTarget, File: sec.File, Line: st.line,
				}})
				continue
			}
			group := st.group
			resolve := func(name string) ([]string, bool) {
				if c, ok := lookup(b.defs, group, name); ok {
					return c, true
				}
				if c, ok := lookup(b.defs, -1, name); ok {
					return c, true
				}
				if c, ok := lookup(sectionDefs, -1, name); ok {
					return c, true
				}
				if name == ".type" && len(sectionTypes) > 0 {
					// "fma.rnd.oob.{relu}.type": the block never defines
					// .type; the types its other lines write stand for it.
					return sectionTypes, true
				}
				return nil, false
			}
			opcode, operands := splitStatement(stripGuard(st.text))
			if !startsWithMnemonic(opcode, sec.Mnemonics, resolve) {
				continue // prose left in a code block ("FP8 floating point type")
			}
			nodes, err := parseOpcode(opcode, resolve)
			if err != nil {
				prob(st.line, "syntax line not understood: "+err.Error())
				continue
			}
			shape := parseOperands(operands)
			desc := firstNonEmpty(st.comment, b.cb.Caption)
			for _, variant := range splitMnemonicVariable(nodes, sec.Mnemonics) {
				m := mnemonicOfLine(renderNodes(variant), sec.Mnemonics)
				if m == "" {
					m = fallbackMnemonic(variant, sec.Mnemonics)
				}
				if m == "" {
					prob(st.line, "syntax line does not start with a documented mnemonic: "+st.text)
					continue
				}
				for _, exp := range expandTypes(variant) {
					f := makeForm(exp, operands, shape, notes, m)
					f.Variables = addSuffixVariables(f.Variables, f.Syntax, resolve)
					f.Description, f.File, f.Line = desc, sec.File, st.line
					for i := range f.Requirements {
						f.Requirements[i].File = sec.File
					}
					out[m] = append(out[m], f)
				}
			}
		}
	}
	return out, problems
}

// suffixVarRe finds "::dimension" in "get_first_ctaid{::dimension}": a
// suffix the block defines as a variable, which the pattern expands but
// makeForm does not record.
var suffixVarRe = regexp.MustCompile(`::[A-Za-z_][\w]*`)

// addSuffixVariables records the suffix variables a form's opcode uses, so
// the checker, which rebuilds the pattern from Syntax and Variables, reads
// "::dimension" as {::x, ::y, ::z} too.
func addSuffixVariables(vars []Variable, syntax string, resolve resolver) []Variable {
	opcode, _ := splitStatement(syntax)
	for _, name := range suffixVarRe.FindAllString(opcode, -1) {
		if ch, ok := resolve(name); ok {
			vars = appendVariable(vars, Variable{Name: name, Choices: ch})
		}
	}
	return vars
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// checkable is false for the sections documenting PTX's guard "@" and
// braces "{}": their syntax is not an opcode; they get text-only forms.
func checkable(mnemonics []string) bool {
	for _, m := range mnemonics {
		if m == "@" || m == "{}" {
			return false
		}
	}
	return true
}

// stripGuard drops a leading guard predicate: "@p bra tgt;" -> "bra tgt;".
func stripGuard(s string) string {
	if strings.HasPrefix(s, "@") {
		if sp := strings.IndexAny(s, " \t"); sp > 0 {
			return strings.TrimSpace(s[sp:])
		}
	}
	return s
}

// startsWithMnemonic reports whether an opcode starts like one of the
// section's mnemonics or with a variable naming them ("vop2").
func startsWithMnemonic(op string, mnemonics []string, resolve resolver) bool {
	end := strings.IndexAny(op, ".{")
	if end < 0 {
		end = len(op)
	}
	first := op[:end]
	if first == "" {
		return false
	}
	for _, m := range mnemonics {
		if Tokens(m)[0] == first {
			return true
		}
	}
	_, ok := resolve(first)
	return ok
}

// labelPrefixRe is the label a directive line may start with
// ("Label: .branchtargets list-of-labels;").
var labelPrefixRe = regexp.MustCompile(`^[A-Za-z_$][\w$]*:\s*`)

// directiveLine reports whether a statement of a directive's syntax block
// is a form of it: it starts, after an optional label, with one of the
// section's directives ("@@DWARF" for "@@dwarf") followed by a boundary.
// Code blocks also hold prose and the formats of a directive's operands.
func directiveLine(text string, mnemonics []string) bool {
	t := labelPrefixRe.ReplaceAllString(strings.TrimSpace(text), "")
	for _, m := range mnemonics {
		if len(t) >= len(m) && strings.EqualFold(t[:len(m)], m) && (len(t) == len(m) || strings.ContainsRune(" \t{(;", rune(t[len(m)]))) {
			return true
		}
	}
	return false
}

// splitMnemonicVariable turns "vop2.dtype..." (vop2 = {vadd2, vsub2, ...})
// or "mma.spvariant..." (.spvariant = {.sp, .sp::ordered_metadata}) into one
// pattern per choice of the variable that completes the mnemonic.
func splitMnemonicVariable(nodes []node, mnemonics []string) [][]node {
	var prefix []string
	for i := 0; i < len(nodes) && i < 3; i++ {
		n := nodes[i]
		if n.opt {
			break
		}
		if !n.isVar {
			if len(n.choices) != 1 {
				break
			}
			prefix = append(prefix, n.choices[0]...)
			continue
		}
		var out [][]node
		for _, ch := range n.choices {
			cand := strings.Join(append(append([]string(nil), prefix...), ch...), ".")
			// Only a variable that completes the mnemonic splits the line:
			// "sqrt.rnd" (.rnd = {.rn, ...}) is still the mnemonic sqrt.
			if m := mnemonicOfLine(cand, mnemonics); m == "" || len(Tokens(m)) <= len(prefix) {
				continue
			}
			c := append([]node(nil), nodes...)
			name := strings.Join(ch, ".")
			if i > 0 {
				name = "." + name
			}
			c[i] = node{name: name, choices: [][]string{ch}}
			out = append(out, c)
		}
		if len(out) > 0 {
			return out
		}
		break
	}
	return [][]node{nodes}
}

// fallbackMnemonic handles lines such as "mma.sp{::ordered_metadata}.sync":
// the mnemonic's tokens are all required tokens of the line.
func fallbackMnemonic(nodes []node, mnemonics []string) string {
	req := requiredTokens(nodes)
	best := ""
	for _, m := range mnemonics {
		ok := true
		for _, t := range Tokens(m) {
			if !req[t] {
				ok = false
				break
			}
		}
		if ok && len(m) > len(best) {
			best = m
		}
	}
	if best == "" && len(nodes) > 0 && len(mnemonics) == 1 && len(nodes[0].choices) == 1 &&
		len(nodes[0].choices[0]) > 0 && nodes[0].choices[0][0] == Tokens(mnemonics[0])[0] {
		best = mnemonics[0]
	}
	return best
}

// expandTypes makes one pattern per combination of the required data-type
// variables' choices (each occurrence separately: mma's A and B types differ).
func expandTypes(nodes []node) [][]node {
	var idx []int
	total := 1
	for i, n := range nodes {
		if n.opt || !n.isVar || len(n.choices) == 0 || !allTypes(n.choices) {
			continue
		}
		idx = append(idx, i)
		total *= len(n.choices)
	}
	if len(idx) == 0 || total > maxExpansion {
		return [][]node{nodes}
	}
	out := [][]node{append([]node(nil), nodes...)}
	for _, i := range idx {
		var next [][]node
		for _, p := range out {
			for _, ch := range nodes[i].choices {
				c := append([]node(nil), p...)
				c[i] = node{name: "." + strings.Join(ch, "."), choices: [][]string{ch}}
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

func allTypes(choices [][]string) bool {
	for _, c := range choices {
		if len(c) != 1 || !isType(c[0]) {
			return false
		}
	}
	return true
}

// requiredTokens returns the tokens every instruction matching nodes has.
func requiredTokens(nodes []node) map[string]bool {
	r := map[string]bool{}
	for _, n := range nodes {
		if n.opt || len(n.choices) != 1 {
			continue
		}
		for _, t := range n.choices[0] {
			addToken(r, t)
		}
	}
	return r
}

// possibleTokens returns every token some matching instruction may have.
func possibleTokens(nodes []node, into map[string]bool) {
	for _, n := range nodes {
		if n.opt {
			for _, a := range n.alts {
				possibleTokens(a, into)
			}
			continue
		}
		for _, c := range n.choices {
			for _, t := range c {
				addToken(into, t)
			}
		}
	}
}

// addToken records t and, for "shared::cta", its base "shared" so a note
// about ".shared" applies.
func addToken(set map[string]bool, t string) {
	set[t] = true
	if base, suffix, ok := strings.Cut(t, "::"); ok && base != "" {
		set[base] = true
		set["::"+suffix] = true
	}
}

func makeForm(nodes []node, operands string, shape operandShape, notes noteResult, mnemonic string) builtForm {
	opcode := renderNodes(nodes)
	f := builtForm{Form: Form{Syntax: strings.TrimSpace(opcode + " " + operands)}}
	if !strings.HasSuffix(f.Syntax, ";") {
		f.Syntax += ";"
	}
	mn := map[string]bool{}
	for _, t := range Tokens(mnemonic) {
		mn[t] = true
	}
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		if !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	var classify func(ns []node, optional bool)
	classify = func(ns []node, optional bool) {
		for _, n := range ns {
			if n.opt {
				for _, a := range n.alts {
					if len(a) > 1 && allLiteral(a) {
						// "{.xorsign.abs}": one modifier written as a unit.
						var toks []string
						for _, x := range a {
							toks = append(toks, x.choices[0]...)
						}
						add(&f.Modifiers, "."+strings.Join(toks, "."))
						continue
					}
					classify(a, true)
				}
				continue
			}
			if n.isVar {
				vs := Variable{Name: n.name}
				for _, c := range n.choices {
					vs.Choices = append(vs.Choices, "."+strings.Join(c, "."))
				}
				f.Variables = appendVariable(f.Variables, vs)
			}
			for _, c := range n.choices {
				if len(c) == 0 || len(c) == 1 && mn[c[0]] && !n.isVar && !optional {
					continue // "none", or the mnemonic itself
				}
				s := "." + strings.Join(c, ".")
				switch {
				case len(c) == 1 && isType(c[0]):
					add(&f.Types, s)
				case len(c) == 1 && isStateSpace(c[0]):
					add(&f.StateSpaces, s)
				case len(c) == 1 && isScope(c[0]):
					add(&f.Scopes, s)
				default:
					add(&f.Modifiers, s)
				}
			}
		}
	}
	classify(nodes, false)

	req := requiredTokens(nodes)
	poss := map[string]bool{}
	possibleTokens(nodes, poss)
	counts := shape.counts()
	varChoices := map[string][][]string{}
	var collectVars func(ns []node)
	collectVars = func(ns []node) {
		for _, n := range ns {
			if n.opt {
				for _, a := range n.alts {
					collectVars(a)
				}
			} else if n.isVar {
				varChoices[strings.TrimPrefix(n.name, ".")] = n.choices
			}
		}
	}
	collectVars(nodes)
	hasReqSpace, hasPossSpace := false, false
	for t := range req {
		if isStateSpace(t) {
			hasReqSpace = true
		}
	}
	for t := range poss {
		if isStateSpace(t) {
			hasPossSpace = true
		}
	}
	if !hasReqSpace {
		poss[genericToken] = true
	}
	if !hasPossSpace {
		req[genericToken] = true
	}
	positions := flatten(nodes, true, nil)
	f.Base = Option{PTXVersion: notes.baseVersion, MinTarget: notes.baseTarget}
	var fullReqs []Requirement
	for _, ft := range notes.features {
		also := substituteVariables(ft.also, varChoices)
		state := seqState(ft.seq, positions)
		for _, e := range also {
			state = min(state, elementState(e, req, poss))
		}
		if ft.operands != 0 {
			if !slices.Contains(counts, ft.operands) {
				state = 0
			} else if len(counts) > 1 {
				state = min(state, 1)
			}
		}
		if state == 0 {
			continue
		}
		f.featuresUsed = append(f.featuresUsed, ft.text)
		r := Requirement{Feature: ft.text, Operands: ft.operands, PTXVersion: ft.version, MinTarget: ft.target, Alternatives: ft.alts, Line: ft.line}
		for _, e := range ft.seq {
			r.Sequence = append(r.Sequence, Element{Alts: joinAlts(e.alts), Position: e.position})
		}
		for _, e := range also {
			r.When = append(r.When, joinAlts(e))
		}
		f.Requirements = append(f.Requirements, r)
		if state == 2 {
			fullReqs = append(fullReqs, r)
		}
	}
	// What every instruction of this form needs: the base raised by the
	// notes that always apply (the more specific note winning).
	opts := combine(f.Base, compileRequirements(fullReqs), func(*compiledReq) bool { return true })
	f.PTXVersion, f.MinTarget = opts[0].PTXVersion, opts[0].MinTarget
	if len(opts) > 1 {
		f.Alternatives = opts
	}
	sort.Strings(f.Types)
	return f
}

// substituteVariables replaces a note's token that names a template variable
// ("`.level::cache_hint` introduced in ...") by that variable's choices.
func substituteVariables(elems [][][]string, vars map[string][][]string) [][][]string {
	out := make([][][]string, len(elems))
	for i, e := range elems {
		for _, alt := range e {
			if len(alt) == 1 {
				if ch, ok := vars[alt[0]]; ok {
					out[i] = append(out[i], ch...)
					continue
				}
			}
			out[i] = append(out[i], alt)
		}
	}
	return out
}

func allLiteral(ns []node) bool {
	for _, n := range ns {
		if n.opt || n.isVar || len(n.choices) != 1 {
			return false
		}
	}
	return true
}

func appendVariable(vs []Variable, v Variable) []Variable {
	for _, x := range vs {
		if x.Name == v.Name {
			return vs
		}
	}
	return append(vs, v)
}

// elementState: 2 when some alternative is always present, 1 when it may be,
// 0 when it cannot be.
func elementState(e [][]string, req, poss map[string]bool) int {
	best := 0
	for _, alt := range e {
		inReq, inPoss := true, true
		for _, t := range alt {
			if !req[t] {
				inReq = false
			}
			if !poss[t] {
				inPoss = false
			}
		}
		switch {
		case inReq:
			return 2
		case inPoss:
			best = 1
		}
	}
	return best
}

// genericToken stands for "no state space written" (generic addressing).
const genericToken = "<generic>"

func joinAlts(e [][]string) string {
	alts := make([]string, len(e))
	for i, a := range e {
		alts[i] = strings.Join(a, "+")
	}
	return strings.Join(alts, "|")
}

// position is one node of a form pattern, optional groups flattened.
type position struct {
	choices  [][]string
	required bool
}

func flatten(nodes []node, required bool, out []position) []position {
	for _, n := range nodes {
		if n.opt {
			for _, a := range n.alts {
				out = flatten(a, false, out)
			}
			continue
		}
		out = append(out, position{n.choices, required})
	}
	return out
}

// seqState says whether a feature's ordered data-type elements hold in
// every instruction of the pattern (2), in some (1) or in none (0).
func seqState(seq []seqElem, positions []position) int {
	if len(seq) == 0 {
		return 2
	}
	firstType, srcFrom := typeSlots(positions, func(p position) bool { return p.required && allTypes(p.choices) })
	switch {
	case embedSeq(seq, 0, positions, 0, firstType, srcFrom, true):
		return 2
	case embedSeq(seq, 0, positions, 0, firstType, srcFrom, false):
		return 1
	}
	return 0
}

// typeSlots finds where the data types stand among an instruction's parts
// (pattern positions or tokens): firstType is the destination's, or -1
// when none is; source types start at srcFrom. A source type follows the
// destination type; an instruction with one data type (setp.lt.f64) names
// only its source.
func typeSlots[T any](parts []T, isType func(T) bool) (firstType, srcFrom int) {
	firstType, nTypes := -1, 0
	for i, p := range parts {
		if isType(p) {
			if firstType < 0 {
				firstType = i
			}
			nTypes++
		}
	}
	if nTypes == 1 {
		return firstType, firstType
	}
	return firstType, firstType + 1
}

// embedSeq places seq[i:] on positions[from:] in order. full demands
// required positions all of whose choices satisfy the element.
func embedSeq(seq []seqElem, i int, positions []position, from, firstType, srcFrom int, full bool) bool {
	if i == len(seq) {
		return true
	}
	e := seq[i]
	for k := from; k < len(positions); k++ {
		p := positions[k]
		switch e.position {
		case "destination":
			if k != firstType {
				continue
			}
		case "source":
			if firstType < 0 || k < srcFrom || !allTypes(p.choices) {
				continue
			}
		}
		if full && !p.required {
			continue
		}
		if positionMatches(e.alts, p.choices, full) && embedSeq(seq, i+1, positions, k+1, firstType, srcFrom, full) {
			return true
		}
	}
	return false
}

// positionMatches: with all, every choice must be one of alts; else some.
func positionMatches(alts, choices [][]string, all bool) bool {
	for _, c := range choices {
		hit := false
		for _, a := range alts {
			if len(a) == 1 && len(c) == 1 && tokenMatches(a[0], c[0]) {
				hit = true
				break
			}
		}
		if hit && !all {
			return true
		}
		if !hit && all {
			return false
		}
	}
	return all && len(choices) > 0
}

// tokenMatches reports whether a note's token names the instruction's token
// (".shared" names ".shared::cta" as well).
func tokenMatches(note, tok string) bool {
	if note == tok {
		return true
	}
	if base, suffix, ok := strings.Cut(tok, "::"); ok {
		return base == note || "::"+suffix == note
	}
	return false
}

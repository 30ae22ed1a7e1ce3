package ptx

import (
	"slices"
	"strconv"
	"strings"
)

// ptxasForms are forms ptxas accepts that no documented syntax line
// writes: a documented form with one type token changed. Each is ptxas's
// fact, kept apart from the documents' (the form's Source stays the
// documented line it is derived from, and a statement it matches says
// so in its Note), so the checker does not reject what ptxas assembles
// while the documents' own list is still shown as theirs.
var ptxasForms = []ptxasForm{
	{
		// set.CmpOp.bf16.stype: the documents' .stype list has .f16
		// (for set.CmpOp.f16.stype) but no .bf16; nvcc writes
		// set.nan.bf16.bf16 for __hisnan, and ptxas assembles it for
		// every CmpOp and BoolOp, needing what the .bf16.f16 form
		// needs (PTX ISA 7.8, sm_90). ptxas rejects set.CmpOp.f16.bf16
		// ("Unexpected instruction types"): only the source type equal
		// to the destination's is added.
		instructions: []string{"set"},
		from:         []string{"set.CmpOp.bf16.f16 d, a, b;", "set.CmpOp.BoolOp.bf16.f16 d, a, b, {!}c;"},
		token:        ".f16",
		with:         ".bf16",
		needs:        Option{PTXVersion: "7.8", MinTarget: "sm_90"},
		docs:         "the documents' .stype list = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f16, .f32, .f64 } has no .bf16",
	},
	{
		// wgmma's .sync.aligned: ptxas assembles every wgmma
		// instruction without .aligned (not without .sync: ".sync
		// modifier required"), needing what the form with it needs.
		instructions: []string{"wgmma.mma_async", "wgmma.mma_async.sp", "wgmma.fence", "wgmma.commit_group", "wgmma.wait_group"},
		token:        ".aligned",
		docs:         "the documents' syntax writes .sync.aligned, .aligned required",
	},
}

// ptxasForm derives forms from documented ones: the last occurrence of
// token in each from syntax line (every form of the instructions when
// from is empty) becomes with ("" drops it).
type ptxasForm struct {
	instructions []string
	from         []string
	token, with  string
	docs         string // what the documents say instead
	// needs is ptxas's version and target for the derived forms, used
	// where the form they come from has no ptxas verdict of its own (a
	// model read from the documents alone).
	needs Option
}

// ptxasExtraForms returns the forms ptxasForms add to in, each with the
// note a statement it matches carries.
func ptxasExtraForms(in *Instruction) ([]Form, []string) {
	var forms []Form
	var notes []string
	for _, pf := range ptxasForms {
		if !slices.Contains(pf.instructions, in.Name) {
			continue
		}
		for _, f := range in.Forms {
			nf, ok := pf.derive(f)
			if !ok {
				continue
			}
			if f.Oracle != nil {
				// The version and target ptxas found for the form it
				// is derived from; its probes are statements of that
				// form, not of this one.
				o := *f.Oracle
				o.Probes = nil
				nf.Oracle = &o
			} else if pf.needs != (Option{}) {
				nf.Oracle = &FormOracle{Status: "verified", Options: []Option{pf.needs}}
			}
			forms = append(forms, nf)
			notes = append(notes, "ptxas's fact: ptxas accepts "+pf.what(f, nf)+"; "+pf.docs+" ("+f.File+":"+strconv.Itoa(f.Line)+")")
		}
	}
	return forms, notes
}

// what says in words which form pf derives, nf, from f:
// "set.CmpOp.bf16.bf16 (.bf16 in place of set.CmpOp.bf16.f16 d, a, b;'s .f16)".
func (pf ptxasForm) what(f, nf Form) string {
	how := pf.with + " in place of " + f.Syntax + "'s " + pf.token
	if pf.with == "" {
		how = f.Syntax + " without " + pf.token
	}
	return strings.TrimSuffix(strings.Fields(nf.Syntax)[0], ";") + " (" + how + ")"
}

// derive is the form pf makes of documented form f, if it makes one.
func (pf ptxasForm) derive(f Form) (Form, bool) {
	if len(pf.from) > 0 && !slices.Contains(pf.from, f.Syntax) {
		return Form{}, false
	}
	k := lastToken(f.Syntax, pf.token)
	if k < 0 {
		return Form{}, false
	}
	nf := f
	nf.Syntax = f.Syntax[:k] + pf.with + f.Syntax[k+len(pf.token):]
	if pf.with != "" {
		nf.Types = replaceType(f.Types, pf.token, pf.with)
	}
	return nf, true
}

// lastToken is where token last stands in syntax as a whole token (not
// followed by a letter or digit: ".f16" of ".f16 d", not of ".f16x2"),
// -1 when it does not.
func lastToken(syntax, token string) int {
	for k := strings.LastIndex(syntax, token); k >= 0; k = strings.LastIndex(syntax[:k], token) {
		if e := k + len(token); e == len(syntax) || !isIdentChar(syntax[e]) {
			return k
		}
	}
	return -1
}

func replaceType(types []string, token, with string) []string {
	out := make([]string, 0, len(types))
	seen := map[string]bool{}
	for _, t := range types {
		if t == token {
			t = with
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// ptxasRejectedChoices are choices of a form's variable that ptxas
// rejects although the documents' list has them: the form keeps its
// other choices. Each is ptxas's fact, as ptxasForms are.
var ptxasRejectedChoices = []ptxasChoice{
	{
		// atom's three-operand form ("atom.op.type d, [a], b{,
		// cache-policy}") shares its .op list with the four-operand
		// one, .cas included; ptxas rejects atom.cas with three
		// operands ("Arguments mismatch"): compare-and-swap takes b
		// and c, the four-operand form.
		instruction: "atom",
		operands:    "d, [a], b{, cache-policy};",
		variable:    ".op",
		choice:      ".cas",
	},
}

// ptxasChoice is one choice ptxas rejects in the forms of an
// instruction whose operand list is operands.
type ptxasChoice struct {
	instruction, operands, variable, choice string
}

// withoutRejectedChoices returns f without the choices ptxas rejects in
// it, f itself when there are none.
func withoutRejectedChoices(name string, f *Form) *Form {
	var out *Form
	for _, pc := range ptxasRejectedChoices {
		if pc.instruction != name || !strings.HasSuffix(f.Syntax, " "+pc.operands) {
			continue
		}
		for i, v := range f.Variables {
			if v.Name != pc.variable || !slices.Contains(v.Choices, pc.choice) {
				continue
			}
			if out == nil {
				c := *f
				c.Variables = slices.Clone(f.Variables)
				out = &c
			}
			out.Variables[i].Choices = slices.DeleteFunc(slices.Clone(v.Choices), func(c string) bool { return c == pc.choice })
		}
	}
	if out == nil {
		return f
	}
	return out
}

// PTXASFact is one of ptxas's facts beyond the documents (ptxasForms,
// ptxasRejectedChoices) as it bears on one instruction, with the
// statements that show it: the build has ptxas judge them, so what pages
// and /quality show as ptxas's fact is the installed ptxas's verdict, not
// this table's claim.
type PTXASFact struct {
	// Accepts: ptxas assembles the statements (a form no documented line
	// writes); else it rejects them (a documented choice).
	Accepts bool
	// What says it in a line: "set.CmpOp.bf16.bf16 (.bf16 in place of
	// set.CmpOp.bf16.f16's .f16)".
	What string
	// Docs is what the documents say instead; Form (an index into in's
	// Forms) and File:Line are the first documented form the fact is about.
	Docs string
	Form int
	File string
	Line int
	// Statements are ptxas-ready statements of the fact: the canonical
	// statement of every form it derives or restricts. Their Form indexes
	// Of's forms (in's, with the derived forms after them).
	Statements []Probe
	Of         *Instruction
}

// PTXASFacts returns ptxas's facts beyond the documents for in, one per
// table entry that touches it.
func PTXASFacts(in *Instruction) []PTXASFact {
	var out []PTXASFact
	for _, pf := range ptxasForms {
		if !slices.Contains(pf.instructions, in.Name) {
			continue
		}
		withExtra := *in
		withExtra.Forms = slices.Clip(in.Forms)
		var fact PTXASFact
		for fi, f := range in.Forms {
			nf, ok := pf.derive(f)
			if !ok {
				continue
			}
			nf.Oracle = nil
			withExtra.Forms = append(withExtra.Forms, nf)
			if ps := FormProbes(&withExtra, len(withExtra.Forms)-1); len(ps) > 0 { // the canonical statement
				fact.Statements = append(fact.Statements, ps[0])
			}
			if fact.File == "" {
				fact.Form, fact.File, fact.Line, fact.What = fi, f.File, f.Line, pf.what(f, nf)
			}
		}
		if len(fact.Statements) > 0 {
			fact.Accepts, fact.Docs, fact.Of = true, pf.docs, &withExtra
			out = append(out, fact)
		}
	}
	for _, pc := range ptxasRejectedChoices {
		if pc.instruction != in.Name {
			continue
		}
		var fact PTXASFact
		for fi, f := range in.Forms {
			if !strings.HasSuffix(f.Syntax, " "+pc.operands) {
				continue
			}
			for _, p := range FormProbes(in, fi) {
				if p.Variable == pc.variable && p.Feature == pc.choice {
					fact.Statements = append(fact.Statements, p)
					break
				}
			}
			if fact.File == "" {
				fact.Form, fact.File, fact.Line = fi, f.File, f.Line
			}
		}
		if len(fact.Statements) > 0 {
			fact.What = pc.variable + " " + pc.choice + " in " + in.Name + "'s form \"" + in.Name + pc.variable + ".type " + pc.operands + "\""
			fact.Docs = "the documents' " + pc.variable + " list for that form has " + pc.choice
			fact.Of = in
			out = append(out, fact)
		}
	}
	return out
}

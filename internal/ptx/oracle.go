package ptx

import (
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// The checker's use of ptxas's verdicts (Form.Oracle, filled by the build):
// a statement ptxas judged (one gpuisa wrote for a form, compared by
// ProbeKey) gets ptxas's verdict exactly. Otherwise a variable the syntax
// shows as optional but ptxas requires (cvt's rounding mode for
// float-to-integer conversions) must be present; an optional part ptxas
// rejects on an accepted statement of the form, blaming only that part,
// is rejected with the form's other statements too (when ptxas blames a
// combination, ".1d cannot be combined with .im2col", it decides only its
// own statement); and the version and target are ptxas's, raised by each
// optional part the instruction uses. Below the oldest target and version
// ptxas can test, the documentation's older values stand: ptxas cannot
// contradict them there.

type compiledOracle struct {
	o        *FormOracle
	required []string // choices of the required variable
	features []compiledFeature
	probes   map[string]*ProbeVerdict
}

type compiledFeature struct {
	f        *OracleFeature
	tokens   []string
	operands int // > 0: an optional operand part adding this many operands
}

func compileOracle(f *Form) *compiledOracle {
	o := f.Oracle
	if o == nil {
		return nil
	}
	c := &compiledOracle{o: o, probes: map[string]*ProbeVerdict{}}
	for i := range o.Probes {
		c.probes[o.Probes[i].Key] = &o.Probes[i]
	}
	if o.Status != "verified" {
		// Only the statements ptxas judged one by one are answered.
		return c
	}
	if o.Required != "" {
		for _, v := range f.Variables {
			if v.Name == o.Required {
				for _, ch := range v.Choices {
					c.required = append(c.required, strings.TrimPrefix(ch, "."))
				}
			}
		}
	}
	for i := range o.Features {
		ft := &o.Features[i]
		cf := compiledFeature{f: ft}
		switch {
		case strings.HasPrefix(ft.Feature, ","):
			cf.operands = strings.Count(ft.Feature, ",")
		case strings.HasPrefix(ft.Feature, "."):
			cf.tokens = Tokens(ft.Feature)
		default:
			continue // "|q", "!": no requirement of their own
		}
		c.features = append(c.features, cf)
	}
	return c
}

// apply turns r (the documentation's verdict) into ptxas's; key is the
// instruction's ProbeKey.
func (c *compiledOracle) apply(r *Result, cf *compiledForm, tokens []string, nOperands int, key string) {
	o := c.o
	if p, ok := c.probes[key]; ok && p.Status != "not-verified" {
		if p.Status == "rejected" {
			r.Valid = false
			r.Reason = "ptxas rejects it: " + p.Message
			return
		}
		c.settle(r, append([]Option(nil), p.Options...), nil)
		return
	}
	if o.Status != "verified" {
		// ptxas rejected (or could not judge) every statement gpuisa wrote
		// for the form; others (two parts changed at once) may still be
		// valid: the documentation decides them.
		return
	}
	present := map[string]bool{}
	for _, t := range tokens[1:] {
		present[t] = true
	}
	if len(c.required) > 0 {
		found := false
		for _, t := range c.required {
			found = found || present[t]
		}
		if !found {
			r.Valid = false
			r.Reason = "ptxas requires one of ." + strings.Join(c.required, ", .") + " here"
			if o.Message != "" {
				r.Reason += " (" + o.Message + ")"
			}
			return
		}
	}
	minOps := nOperands
	if len(cf.counts) > 0 {
		minOps = min(minOps, slices.Min(cf.counts))
	}
	opts := append([]Option(nil), o.Options...)
	var raised []string
	for _, f := range c.features {
		if !f.holds(present, nOperands-minOps) {
			continue
		}
		if f.f.Status == "rejected" && f.f.Alone {
			r.Valid = false
			r.Reason = "ptxas rejects " + f.f.Feature + " with this form: " + f.f.Message
			return
		}
		if f.f.Status == "not-verified" {
			// ptxas could not judge the part (its probe lacked what the
			// part needs with it, .L2::cache_hint's cache-policy
			// operand): the notes about it still hold.
			next := opts
			for _, o := range docsNeedsOf(cf, tokens, nOperands, f.tokens) {
				next = raise(next, o)
			}
			if !sameOptions(next, opts) {
				raised = append(raised, f.f.Feature)
			}
			opts = next
			continue
		}
		if f.f.Status != "verified" || len(f.f.Options) == 0 {
			continue
		}
		next := raise(opts, f.f.Options)
		if !sameOptions(next, opts) {
			raised = append(raised, f.f.Feature)
		}
		opts = next
	}
	opts, raised = c.unprobed(cf, tokens, nOperands, present, opts, raised)
	c.settle(r, opts, raised)
}

// unprobed raises opts by the notes about each token of the statement
// that ptxas judged only in other combinations: a part probed as
// ".relaxed.cta" and ".acquire.cluster" says nothing of ".relaxed.cluster",
// whose .relaxed the notes still require their version for (PTX ISA 8.6,
// as ptxas does).
func (c *compiledOracle) unprobed(cf *compiledForm, tokens []string, nOperands int, present map[string]bool, opts []Option, raised []string) ([]Option, []string) {
	judged, covered := map[string]bool{}, map[string]bool{}
	minOps := nOperands
	if len(cf.counts) > 0 {
		minOps = min(minOps, slices.Min(cf.counts))
	}
	for _, f := range c.features {
		for _, t := range f.tokens {
			judged[t] = true
		}
		if f.holds(present, nOperands-minOps) {
			for _, t := range f.tokens {
				covered[t] = true
			}
		}
	}
	for _, t := range tokens[1:] {
		if !judged[t] || covered[t] {
			continue
		}
		covered[t] = true // once, if the statement repeats it
		next := opts
		for _, o := range docsNeedsOf(cf, tokens, nOperands, []string{t}) {
			next = raise(next, o)
		}
		if !sameOptions(next, opts) {
			raised = append(raised, "."+t)
		}
		opts = next
	}
	return opts, raised
}

// docsNeedsOf lists the options of the form's notes that hold for the
// statement and name one of feature's tokens among their conditions.
func docsNeedsOf(cf *compiledForm, tokens []string, nOperands int, feature []string) [][]Option {
	if len(feature) == 0 {
		return nil
	}
	present := presentTokens(tokens)
	var out [][]Option
	for i := range cf.reqs {
		q := &cf.reqs[i]
		if !q.names(feature) || !q.holds(tokens, present, nOperands) {
			continue
		}
		out = append(out, q.options)
	}
	return out
}

// names reports whether one of the requirement's conditions is one of
// the tokens.
func (c *compiledReq) names(tokens []string) bool {
	for _, e := range c.elements() {
		for _, alt := range e {
			for _, t := range alt {
				if slices.Contains(tokens, t) {
					return true
				}
			}
		}
	}
	return false
}

// settle sets r's version and target to ptxas's options, keeping the
// documentation's older values at ptxas's floor.
func (c *compiledOracle) settle(r *Result, opts []Option, raised []string) {
	o := c.o
	if len(opts) == 0 {
		return
	}
	doc := Option{PTXVersion: r.PTXVersion, MinTarget: r.MinTarget}
	for i := range opts {
		// ptxas's oldest target and its oldest version cannot be tested
		// below: an older documented value is kept.
		if opts[i].MinTarget == o.FloorTarget && doc.MinTarget != "" && ptxorder.CompareTargets(doc.MinTarget, o.FloorTarget) < 0 {
			opts[i].MinTarget = doc.MinTarget
		}
		if opts[i].PTXVersion == o.FloorVersion && doc.PTXVersion != "" && ptxorder.CompareVersions(doc.PTXVersion, o.FloorVersion) < 0 {
			opts[i].PTXVersion = doc.PTXVersion
		}
	}
	r.PTXVersion, r.MinTarget = opts[0].PTXVersion, opts[0].MinTarget
	r.Alternatives = nil
	if len(opts) > 1 {
		r.Alternatives = opts
	}
	r.RaisedBy = raised
	r.Verified = "ptxas"
}

var quotedRe = lazyre.New(`'\.?([^'\s]+)'`)

// NamesOtherToken reports whether ptxas's message quotes a token of the
// statement other than those of feature: ptxas blames a combination, not
// the feature alone.
func NamesOtherToken(msg, stmt, feature string) bool {
	if strings.Contains(msg, "require") {
		// "requires '.v8.b32/.v4.b64' type with ...", ".L2::cache_hint
		// modifier required": valid once something else is added.
		return true
	}
	tokens, _, err := ParseInstruction(stmt)
	if err != nil {
		return true
	}
	mine := map[string]bool{}
	for _, t := range Tokens(feature) {
		mine[t] = true
	}
	have := map[string]bool{}
	for _, t := range tokens[1:] {
		have[t] = true
	}
	for _, m := range quotedRe.FindAllStringSubmatch(msg, -1) {
		for _, t := range strings.Split(m[1], ".") {
			if have[t] && !mine[t] {
				return true
			}
		}
	}
	// "Operation .and requires .b32 or .b64 type": an unquoted modifier.
	for _, w := range strings.Fields(msg) {
		w = strings.Trim(w, ",;:()")
		if strings.HasPrefix(w, ".") && have[strings.TrimPrefix(w, ".")] && !mine[strings.TrimPrefix(w, ".")] {
			return true
		}
	}
	return false
}

func (f compiledFeature) holds(present map[string]bool, extraOperands int) bool {
	if f.operands > 0 {
		return extraOperands >= f.operands
	}
	for _, t := range f.tokens {
		if !present[t] {
			return false
		}
	}
	return len(f.tokens) > 0
}

// raise combines two lists of (version, target) pairs: an instruction
// needs one of each, so the pairs are the element-wise maxima, pruned.
func raise(a, b []Option) []Option {
	var out []Option
	for _, x := range a {
		for _, y := range b {
			out = append(out, Option{PTXVersion: maxVersion(x.PTXVersion, y.PTXVersion), MinTarget: maxTarget(x.MinTarget, y.MinTarget)})
		}
	}
	return pruneOptions(out)
}

func sameOptions(a, b []Option) bool { return slices.Equal(a, b) }

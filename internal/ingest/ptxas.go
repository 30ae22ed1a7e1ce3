package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxoracle"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// SASSTargets are the targets whose SASS the pages show for every example
// and form: one per GPU generation from Turing on.
var SASSTargets = ptxoracle.SASSTargets

// ptxasResult is what the PTX oracle pass did.
type ptxasResult struct {
	Documents []isa.Document
	Problems  []string
	Report    *quality.PTXReport
	// Tools are the tools the pass ran (nil when none was found): the
	// SASS index names them.
	Tools *ptxas.Tools
}

// findPTXAS finds NVIDIA's tools, installing the pinned wheels into the
// cache's venv first when none is found and installing is allowed.
func findPTXAS(ctx context.Context, opts Options, cacheDir string, log io.Writer) (*ptxas.Tools, error) {
	find := ptxas.FindOptions{PTXAS: opts.PTXAS, NVDisasm: opts.NVDisasm, CacheDir: cacheDir}
	tools, err := ptxas.Find(ctx, find)
	if err == nil || !errors.Is(err, ptxas.ErrNotFound) || opts.NoInstall || len(opts.PTXAS) > 0 {
		return tools, err
	}
	fmt.Fprintf(log, "ptxas not found: installing NVIDIA's CUDA tool wheels into %s (--no-install skips this)\n", ptxas.VenvDir(cacheDir))
	if ierr := ptxas.Install(ctx, cacheDir, log); ierr != nil {
		return nil, fmt.Errorf("%v; installing them failed: %w", err, ierr)
	}
	return ptxas.Find(ctx, find)
}

// applyPTXAS is the PTX oracle pass: every documented form (its statement,
// and the statement with each optional part) and every statement of
// NVIDIA's examples is assembled by ptxas on every sm_ target; the forms,
// examples and target grids of the PTX instructions (insts) and the
// checker's model (model) get ptxas's facts, with the documentation's kept
// beside them where they differ.
func applyPTXAS(ctx context.Context, opts Options, model []ptx.Instruction, insts []*isa.Instruction, docVersion string, prog Progress) (*ptxasResult, error) {
	res := &ptxasResult{Report: &quality.PTXReport{DocVersion: docVersion}}
	rep := (*ptxReport)(res.Report)
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	tools, session, engine, err := newPTXOracle(ctx, opts, model, docVersion, prog, log)
	if err != nil {
		if errors.Is(err, errNoPTXAS) {
			msg := "not verified by ptxas: " + strings.TrimPrefix(err.Error(), errNoPTXAS.Error()+": ")
			rep.Notes = append(rep.Notes, msg)
			res.Problems = append(res.Problems, "ptx: "+msg)
			return res, nil
		}
		return nil, err
	}
	rep.Tools = tools.Describe()
	res.Tools = tools
	res.Documents = ptxasDocuments(tools)
	step := ""
	engine.Options.Progress = func(s string, done, total int) {
		if s != step {
			if step != "" {
				prog.Done()
			}
			step = s
			prog.Start(s, total)
		}
		if done > 0 {
			prog.Advance(1)
		}
	}
	for _, t := range engine.Targets() {
		rep.Targets = append(rep.Targets, t.Target)
	}

	c := newPTXCorpus(model)
	facts := c.addFacts()
	if err := c.judgeAll(ctx, engine); err != nil {
		return nil, err
	}
	if step != "" {
		prog.Done()
		step = ""
	}
	rep.Verified = true
	rep.Run.Statements = len(c.items)
	// The verdicts are in; the listings below keep caches of their own.
	if err := session.Release(); err != nil {
		return nil, err
	}

	sassFor := c.sassWanted()
	prog.Start(fmt.Sprintf("disassembling %d statements with nvdisasm", len(sassFor)), len(SASSTargets))
	sass, err := engine.SASS(ctx, c.verdicts, sassFor, SASSTargets, func() { prog.Advance(1) })
	prog.Done()
	if err != nil {
		res.Problems = append(res.Problems, "ptx: SASS listings: "+err.Error())
		rep.Notes = append(rep.Notes, "SASS listings not produced: "+err.Error())
	}
	st := session.Stats()
	rep.Run.Processes, rep.Run.Assembled, rep.Run.CacheHits = st.Processes, st.Assembled, st.CacheHits
	for _, v := range c.verdicts {
		if v.Searched {
			rep.Run.Searched++
		}
	}

	a := &ptxApplier{corpus: c, tools: tools, sass: sass, rep: rep, docCheck: ptx.NewChecker(model)}
	if ts := engine.Targets(); len(ts) > 0 {
		a.floorTarget, a.floorVersion = ts[0].Target, ts[0].MinPTX
	}
	rep.FloorTarget, rep.FloorVersion = a.floorTarget, a.floorVersion
	byName := map[string]*isa.Instruction{}
	for _, in := range insts {
		byName[in.Name] = in
	}
	for i := range model {
		m := &model[i]
		if in := byName[m.Name]; in != nil && m.Kind == ptx.KindInstruction {
			a.instruction(m, in, &c.insts[i])
		}
	}
	facts.apply(a, model, byName)
	return res, nil
}

// ptxasDocuments are the source documents of NVIDIA's tools the pass ran.
func ptxasDocuments(tools *ptxas.Tools) []isa.Document {
	var docs []isa.Document
	for _, t := range tools.PTXAS {
		docs = append(docs, isa.Document{
			Source: isa.SourcePTXAS, File: t.Path, Title: "NVIDIA ptxas " + t.Version,
			Version:     fmt.Sprintf("CUDA %s, PTX ISA up to %s, %s to %s", t.Release, t.MaxPTX, t.Targets[0], t.Targets[len(t.Targets)-1]),
			Attribution: "NVIDIA's PTX assembler, run by gpuisa build", License: "NVIDIA CUDA Toolkit EULA (run, not redistributed)",
		})
	}
	if tools.NVDisasm != "" {
		docs = append(docs, isa.Document{Source: isa.SourcePTXAS, File: tools.NVDisasm, Title: "NVIDIA nvdisasm " + tools.NVDisasmVersion,
			Attribution: "NVIDIA's disassembler, run by gpuisa build", License: "NVIDIA CUDA Toolkit EULA (run, not redistributed)"})
	}
	return docs
}

// ptxCorpus is every statement the pass has ptxas judge (items, with
// their verdicts in the same order once judged), and where each came
// from: the probes of every form and the statements of every example.
type ptxCorpus struct {
	model    []ptx.Instruction
	items    []ptxoracle.Item
	verdicts []ptxoracle.Verdict
	insts    []instCorpus // one per model instruction
}

// instCorpus is one instruction's statements; empty for a directive.
type instCorpus struct {
	forms    []formCorpus
	examples [][]int // per example, the item of each of its statements
}

// formCorpus is one form's statements.
type formCorpus struct {
	// first are the form's probes on its canonical statement (first[0]).
	first []probeItem
	// probes are the probes that stand: first, or where ptxas rejects the
	// canonical statement but accepts another probe, the probes rebuilt on
	// that one (rebased).
	probes  []probeItem
	rebased bool
	// dense is the item of the dense counterpart of a sparse mma ptxas
	// could not be given operands for; -1 if none.
	dense int
}

// probeItem is one probe and the item that has ptxas judge it.
type probeItem struct {
	probe ptx.Probe
	item  int
}

// newPTXCorpus makes the first corpus: every probe of every form, then
// every example statement, instruction by instruction.
func newPTXCorpus(model []ptx.Instruction) *ptxCorpus {
	c := &ptxCorpus{model: model, insts: make([]instCorpus, len(model))}
	for i := range model {
		in := &model[i]
		if in.Kind != ptx.KindInstruction {
			continue
		}
		ic := &c.insts[i]
		ic.forms = make([]formCorpus, len(in.Forms))
		for f := range in.Forms {
			ic.forms[f].first = c.addProbes(in, ptx.FormProbes(in, f))
			ic.forms[f].probes = ic.forms[f].first
			ic.forms[f].dense = -1
		}
		ic.examples = make([][]int, len(in.Examples))
		for e, ex := range in.Examples {
			for _, st := range ptx.ExampleStatements(ex.Text) {
				ic.examples[e] = append(ic.examples[e], len(c.items))
				c.items = append(c.items, ptxoracle.Item{Stmt: st})
			}
		}
	}
	return c
}

// addProbes adds an item for each probe of in.
func (c *ptxCorpus) addProbes(in *ptx.Instruction, ps []ptx.Probe) []probeItem {
	out := make([]probeItem, len(ps))
	for k, p := range ps {
		out[k] = probeItem{probe: p, item: len(c.items)}
		c.items = append(c.items, ptxoracle.Item{Stmt: ptx.Statement{Text: p.Text}, Lengths: p.Lengths, Complete: p.Complete(in),
			Rerender: func(l map[int]int) (string, map[int]int) { return p.Render(in, l) }})
	}
	return out
}

// judgeAll has ptxas judge the first corpus, then the probes rebuilt
// where it rejects a canonical statement, then the dense counterparts.
func (c *ptxCorpus) judgeAll(ctx context.Context, engine *ptxoracle.Engine) error {
	var err error
	if c.verdicts, err = engine.Check(ctx, c.items); err != nil {
		return err
	}
	c.rebase()
	if err := c.judgeMore(ctx, engine); err != nil {
		return err
	}
	c.addDense()
	return c.judgeMore(ctx, engine)
}

// judgeMore has ptxas judge the items added since the last batch.
func (c *ptxCorpus) judgeMore(ctx context.Context, engine *ptxoracle.Engine) error {
	batch := c.items[len(c.verdicts):]
	if len(batch) == 0 {
		return nil
	}
	more, err := engine.Check(ctx, batch)
	if err != nil {
		return err
	}
	c.verdicts = append(c.verdicts, more...)
	return nil
}

// rebase: where ptxas rejects a form's canonical statement but accepts
// another of its statements (atom's first .op, .and, needs a bit-size
// type), the optional parts are tried again on that one.
func (c *ptxCorpus) rebase() {
	for i := range c.insts {
		for f := range c.insts[i].forms {
			fc := &c.insts[i].forms[f]
			if len(fc.first) == 0 || c.verdicts[fc.first[0].item].Status == ptxoracle.Accepted {
				continue
			}
			k := c.representative(fc.first)
			if k < 0 {
				continue
			}
			in := &c.model[i]
			fc.probes = c.addProbes(in, ptx.FormProbesFrom(in, f, fc.first[k].probe))
			fc.rebased = true
		}
	}
}

// addDense adds the dense counterpart of a sparse mma ptxas could not be
// given operands for: ptxas says only "Arguments mismatch" of one whose
// types break a rule, and names the rule for the dense mma with the same
// types.
func (c *ptxCorpus) addDense() {
	for i := range c.insts {
		for f := range c.insts[i].forms {
			fc := &c.insts[i].forms[f]
			if len(fc.first) == 0 || c.representative(fc.probes) >= 0 {
				continue
			}
			v := c.verdicts[fc.first[0].item]
			if v.Status != ptxoracle.Rejected || v.Exhausted || !ptxoracle.OperandError(v.Message) {
				continue
			}
			if text, ok := ptx.DenseCounterpart(v.Stmt.Text); ok {
				fc.dense = len(c.items)
				c.items = append(c.items, ptxoracle.Item{Stmt: ptx.Statement{Text: text}})
			}
		}
	}
}

// representative picks the probe whose verdict stands for the form: the
// canonical statement when ptxas accepts it, else the first probe it
// accepts (a float-to-integer cvt needs a rounding modifier the syntax
// line shows as optional); -1 when it accepts none.
func (c *ptxCorpus) representative(ps []probeItem) int {
	for k, p := range ps {
		if c.verdicts[p.item].Status == ptxoracle.Accepted {
			return k
		}
	}
	return -1
}

// repItem is the item of the form's representative probe; -1 if none.
func (c *ptxCorpus) repItem(fc *formCorpus) int {
	if k := c.representative(fc.probes); k >= 0 {
		return fc.probes[k].item
	}
	return -1
}

// sassWanted are the items whose SASS the pages show: each form's
// representative and each accepted example statement.
func (c *ptxCorpus) sassWanted() map[int]bool {
	want := map[int]bool{}
	for i := range c.insts {
		for f := range c.insts[i].forms {
			if it := c.repItem(&c.insts[i].forms[f]); it >= 0 {
				want[it] = true
			}
		}
		for _, ex := range c.insts[i].examples {
			for _, it := range ex {
				if c.verdicts[it].Status == ptxoracle.Accepted {
					want[it] = true
				}
			}
		}
	}
	return want
}

// ptxApplier gives the PTX instructions and the checker's model ptxas's
// verdicts on the corpus, and reports what it found.
type ptxApplier struct {
	corpus                    *ptxCorpus
	tools                     *ptxas.Tools
	sass                      map[int][]isa.SASS // by item
	rep                       *ptxReport
	docCheck                  *ptx.Checker // over the documentation's notes
	floorTarget, floorVersion string       // the oldest target ptxas can test
}

// instruction applies the verdicts on one instruction's forms and
// examples; its target grid is the union of its verified forms'.
func (a *ptxApplier) instruction(m *ptx.Instruction, in *isa.Instruction, ic *instCorpus) {
	details := map[string]isa.TargetResult{}
	for f := range m.Forms {
		a.rep.Forms++
		if f < len(in.Forms) {
			a.form(m, f, &in.Forms[f], in, &ic.forms[f], details)
		}
	}
	if len(details) > 0 {
		in.Targets = map[string]string{}
		in.TargetDetails = nil
		names := make([]string, 0, len(details))
		for t, d := range details {
			names = append(names, t)
			in.Targets[t] = d.Status
		}
		ptxorder.SortTargets(names)
		for _, t := range names {
			in.TargetDetails = append(in.TargetDetails, details[t])
		}
		recomputeMinimums(in)
	}
	a.examples(m, in, ic)
}

// form applies the verdicts on form f (form, of in): its check, targets
// and requirements, its optional parts' checks and the checker's oracle.
// details gathers the instruction's target grid.
func (a *ptxApplier) form(m *ptx.Instruction, f int, form *isa.Form, in *isa.Instruction, fc *formCorpus, details map[string]isa.TargetResult) {
	rep := a.rep
	if len(fc.probes) == 0 {
		form.Check = &isa.PTXCheck{Statement: form.Syntax, Status: isa.PTXNotVerified, Message: "gpuisa could not write a statement for this form"}
		form.Status = isa.PTXNotVerified
		rep.FormsNotVerified++
		rep.NotVerified = append(rep.NotVerified, quality.PTXFinding{Mnemonic: m.Name, Statement: form.Syntax, Message: form.Check.Message, Prov: form.Prov})
		return
	}
	chk, repIdx := a.formCheck(fc)
	form.Check = &chk
	form.Status = chk.Status
	switch chk.Status {
	case isa.PTXVerified:
		rep.FormsVerified++
	case isa.PTXRejected:
		rep.FormsRejected++
		rejectForm(form)
		rep.RejectedForms = append(rep.RejectedForms, quality.PTXFinding{Mnemonic: m.Name, Statement: chk.Statement, Message: chk.Message, Prov: form.Prov})
	default:
		rep.FormsNotVerified++
		rep.NotVerified = append(rep.NotVerified, quality.PTXFinding{Mnemonic: m.Name, Statement: chk.Statement, Message: chk.Message, Prov: form.Prov})
	}
	if chk.Status == isa.PTXVerified {
		v := a.corpus.verdicts[repIdx]
		form.Targets = map[string]string{}
		for _, t := range v.Targets {
			status := "unsupported"
			if t.OK {
				status = "supported"
			}
			form.Targets[t.Target] = status
			// The instruction supports a target when one form does;
			// an unsupported target keeps the first form's message.
			if d, seen := details[t.Target]; !seen || d.Status == "unsupported" && t.OK {
				details[t.Target] = isa.TargetResult{Target: t.Target, Status: status, Printed: v.Stmt.Text, Message: t.Message}
			}
		}
		corrected, findings := settleForm(m, f, form, chk, a.floorTarget)
		if corrected {
			rep.FormsCorrected++
			in.Conflicts = append(in.Conflicts, formConflict(form, chk))
		}
		rep.addFindings(findings)
	}
	features := a.optionalParts(m, form, chk, fc.probes)
	m.Forms[f].Oracle = a.formOracle(chk, features, fc)
}

// rejectForm takes the requirements off a form ptxas rejects on every
// target (the documents' syntax line spells out combinations their prose
// forbids, such as wmma's mixed .s8/.u8 operands): showing "PTX 6.3,
// sm_72" beside it would say it assembles there. The documentation's
// values stay as its variant.
func rejectForm(form *isa.Form) {
	if form.MinTarget != "" {
		form.DocMinTarget = form.MinTarget
	}
	if form.PTXVersion != "" {
		form.DocPTXVersion = form.PTXVersion
	}
	form.MinTarget, form.PTXVersion = "", ""
}

// formCheck is ptxas's check of a form with probes: its representative
// probe's (the item returned), or where ptxas accepts none, its canonical
// statement's (-1), with what ptxas says of the dense counterpart.
func (a *ptxApplier) formCheck(fc *formCorpus) (isa.PTXCheck, int) {
	vs := a.corpus.verdicts
	repIdx, canonIdx := a.corpus.repItem(fc), fc.first[0].item
	canon := vs[canonIdx]
	var chk isa.PTXCheck
	if repIdx >= 0 {
		chk = toCheck(vs[repIdx], a.tools, a.sass[repIdx])
		if repIdx != canonIdx {
			chk.Message = "ptxas rejects the form's first statement (" + canon.Stmt.Text + ": " + canon.Message + ")"
		}
		return chk, repIdx
	}
	chk = toCheck(canon, a.tools, nil)
	if d := fc.dense; d >= 0 && chk.Status == isa.PTXNotVerified {
		// Only a rule about the types carries over: the dense mma
		// may lack the shape (m16n8k32 of .f16) altogether.
		if dc := toCheck(vs[d], a.tools, nil); dc.Status == isa.PTXRejected && typeRuleRe.MatchString(dc.Message) {
			chk.Status = isa.PTXRejected
			chk.Message = canon.Message + "; of the dense mma with these types (" + vs[d].Stmt.Text + ") ptxas says: " + dc.Message
		}
	}
	return chk, -1
}

// optionalParts gives the form each optional part (every probe but the
// first) as ptxas saw it, and returns them as the checker's oracle has
// them.
func (a *ptxApplier) optionalParts(m *ptx.Instruction, form *isa.Form, chk isa.PTXCheck, ps []probeItem) []ptx.OracleFeature {
	form.ModifierChecks = nil
	var features []ptx.OracleFeature
	for _, p := range ps[1:] {
		v := a.corpus.verdicts[p.item]
		mc := isa.ModifierCheck{Modifier: p.probe.Feature, Variable: p.probe.Variable, Check: toCheck(v, a.tools, nil)}
		if chk.Status == isa.PTXVerified && mc.Check.Status == isa.PTXVerified {
			mc.Raises = ptxorder.CompareVersions(mc.Check.PTXVersion, chk.PTXVersion) > 0 || ptxorder.CompareTargets(mc.Check.MinTarget, chk.MinTarget) > 0
		}
		form.ModifierChecks = append(form.ModifierChecks, mc)
		of := ptx.OracleFeature{Feature: p.probe.Feature, Variable: p.probe.Variable, Status: mc.Check.Status,
			Options: optionsOf(mc.Check), Message: mc.Check.Message}
		// A part ptxas rejects on an accepted base is rejected with the
		// whole form, unless ptxas blames another part of the base
		// (".1d cannot be combined with .im2col").
		if of.Status == isa.PTXRejected && chk.Status == isa.PTXVerified {
			of.Alone = !ptx.NamesOtherToken(of.Message, v.Stmt.Text, p.probe.Feature)
		}
		features = append(features, of)
		if mc.Check.Status == isa.PTXVerified {
			a.rep.addFindings(compareDoc(a.docCheck, m.Name, v.Stmt.Text, mc.Check, a.floorTarget, form.Prov))
		}
	}
	return features
}

// formOracle is what the checker's model keeps of ptxas's verdicts on a
// form: its check, its optional parts, and every statement ptxas judged,
// for the checker to answer exactly.
func (a *ptxApplier) formOracle(chk isa.PTXCheck, features []ptx.OracleFeature, fc *formCorpus) *ptx.FormOracle {
	vs := a.corpus.verdicts
	oracle := &ptx.FormOracle{Status: chk.Status, Statement: chk.Statement, Options: optionsOf(chk), Features: features,
		Message: chk.Message, FloorTarget: a.floorTarget, FloorVersion: a.floorVersion}
	seen := map[string]bool{}
	for _, p := range append(append([]probeItem(nil), fc.first...), fc.probes...) {
		v := vs[p.item]
		key := ptx.ProbeKey(v.Stmt.Text)
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		c := toCheck(v, a.tools, nil)
		oracle.Probes = append(oracle.Probes, ptx.ProbeVerdict{Key: key, Status: c.Status, Options: optionsOf(c), Message: c.Message})
	}
	// An optional part ptxas needs although the syntax shows it as
	// optional ("Rounding modifier required"): the first statement
	// was rejected for wanting it, the one with the part accepted.
	if fc.rebased && strings.Contains(vs[fc.first[0].item].Message, "required") {
		for _, p := range fc.first {
			if vs[p.item].Status == ptxoracle.Accepted {
				if p.probe.Optional && p.probe.Variable != "" {
					oracle.Required = p.probe.Variable
				}
				break
			}
		}
	}
	return oracle
}

// examples applies the verdicts on each statement of the instruction's
// examples.
func (a *ptxApplier) examples(m *ptx.Instruction, in *isa.Instruction, ic *instCorpus) {
	rep := a.rep
	for e := range in.Examples {
		if e >= len(ic.examples) {
			continue
		}
		ex := &in.Examples[e]
		ex.Checks = nil
		for _, it := range ic.examples[e] {
			v := a.corpus.verdicts[it]
			chk := toCheck(v, a.tools, a.sass[it])
			if v.ContextDropped {
				chk.Message = "ptxas rejects it with the example's declarations (" + v.ContextMessage + "); it assembles without them"
			}
			ex.Checks = append(ex.Checks, chk)
			rep.ExampleStatements++
			switch {
			case chk.Status == isa.PTXVerified && !v.ContextDropped:
				rep.ExamplesAccepted++
			case chk.Status == isa.PTXVerified:
				rep.Errata = append(rep.Errata, quality.PTXFinding{Mnemonic: m.Name, Statement: v.Stmt.Text, Message: v.ContextMessage, Context: true, Prov: ex.Prov})
			case chk.Status == isa.PTXRejected:
				rep.Errata = append(rep.Errata, quality.PTXFinding{Mnemonic: m.Name, Statement: v.Stmt.Text, Message: chk.Message, Prov: ex.Prov})
			default:
				rep.NotVerified = append(rep.NotVerified, quality.PTXFinding{Mnemonic: m.Name, Statement: v.Stmt.Text, Message: chk.Message, Prov: ex.Prov})
			}
		}
	}
}

// errNoPTXAS wraps why ptxas cannot run: the build goes on unverified.
var errNoPTXAS = errors.New("no ptxas")

// newPTXOracle finds (or installs) NVIDIA's tools and sets up the engine
// the pass and its tests run statements through.
func newPTXOracle(ctx context.Context, opts Options, model []ptx.Instruction, docVersion string, prog Progress, log io.Writer) (*ptxas.Tools, *ptxas.Session, *ptxoracle.Engine, error) {
	cacheDir := opts.CacheDir
	if cacheDir == "" {
		cacheDir = ptxas.DefaultCacheDir()
	}
	tools, err := findPTXAS(ctx, opts, cacheDir, log)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", errNoPTXAS, err)
	}
	session := ptxas.NewSession(tools, cacheDir)
	session.ParseOnly = true
	engine, err := ptxoracle.New(ctx, session, ptxharness.NewHarness(model), ptxoracle.Options{DocVersion: docVersion})
	if err != nil {
		return nil, nil, nil, err
	}
	return tools, session, engine, nil
}

// typeRuleRe matches ptxas's messages about mma's data types (".dtype
// must be '.f32' when .ctype is '.f32'").
var typeRuleRe = regexp.MustCompile(`\.[abcd]type\b`)

// toCheck turns a verdict into the model's check. ptxas rejecting every
// operand typing the harness tried is "not verified", not "rejected":
// the verdict would be about the harness, unless the harness tried every
// typing it could write (Exhausted).
func toCheck(v ptxoracle.Verdict, tools *ptxas.Tools, sass []isa.SASS) isa.PTXCheck {
	c := isa.PTXCheck{Statement: v.Stmt.Text, Searched: v.Searched, SASS: sass}
	switch v.Status {
	case ptxoracle.Accepted:
		c.Status = isa.PTXVerified
		target, version, floor := v.MinTarget()
		c.MinTarget, c.PTXVersion, c.Floor = target, version, floor
		if tool, ok := tools.ToolFor(target); ok {
			c.Tool = "ptxas " + tool.Version
		}
		c.Options = frontier(v.Targets)
	case ptxoracle.Rejected:
		c.Status, c.Message = isa.PTXRejected, v.Message
		if v.Exhausted {
			c.Message = "ptxas rejects it with every register type gpuisa can give its operands: " + v.Message
		} else if ptxoracle.OperandError(v.Message) {
			c.Status = isa.PTXNotVerified
			c.Message = "ptxas rejected every operand typing gpuisa tried: " + v.Message
		}
	default:
		c.Status, c.Message = isa.PTXNotVerified, v.Message
	}
	return c
}

// frontier lists the (lowest PTX version, target) pairs of the accepting
// targets that no other pair beats on both, oldest target first: "sm_89
// with PTX 8.1, sm_90 with PTX 7.8". One pair means no trade-off.
func frontier(ts []ptxoracle.TargetResult) []isa.PTXOption {
	var out []isa.PTXOption
	for _, t := range ts {
		if !t.OK || ptxorder.TargetSuffix(t.Target) != "" {
			continue
		}
		dominated := false
		for _, o := range out {
			if ptxorder.CompareVersions(o.PTXVersion, t.MinPTX) <= 0 {
				dominated = true // an older target needs no newer PTX
				break
			}
		}
		if !dominated {
			out = append(out, isa.PTXOption{PTXVersion: t.MinPTX, MinTarget: t.Target})
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

func optionsOf(c isa.PTXCheck) []ptx.Option {
	if c.Status != isa.PTXVerified {
		return nil
	}
	if len(c.Options) == 0 {
		return []ptx.Option{{PTXVersion: c.PTXVersion, MinTarget: c.MinTarget}}
	}
	out := make([]ptx.Option, len(c.Options))
	for i, o := range c.Options {
		out[i] = ptx.Option{PTXVersion: o.PTXVersion, MinTarget: o.MinTarget}
	}
	return out
}

// ptxReport adds the pass's helpers to the report.
type ptxReport quality.PTXReport

// finding is a disagreement between the documentation and ptxas.
type finding struct {
	quality.PTXFinding
	strict bool // the documentation asks for more than ptxas needs
}

func (r *ptxReport) addFindings(fs []finding) {
	for _, f := range fs {
		if f.strict {
			r.TooStrict = append(r.TooStrict, f.PTXFinding)
		} else {
			r.TooLoose = append(r.TooLoose, f.PTXFinding)
		}
	}
}

// compareMinimums compares the documentation's lowest version and target
// with ptxas's. ptxas cannot test below its oldest target, nor below the
// oldest version a target allows (chk.Floor): a lower documented value is
// consistent with it there.
func compareMinimums(mnemonic, stmt, docV, docT string, chk isa.PTXCheck, floorTarget string, prov isa.Prov) (targetDiffers, versionDiffers bool, out []finding) {
	add := func(fact, doc, got string, strict bool) {
		out = append(out, finding{PTXFinding: quality.PTXFinding{Mnemonic: mnemonic, Statement: stmt, Fact: fact, Doc: doc, PTXAS: got,
			Message: fact + ": the documentation's notes, as gpuisa reads them, say " + doc + "; ptxas accepts " + got, Prov: prov}, strict: strict})
	}
	if c := ptxorder.CompareTargets(docT, chk.MinTarget); docT != "" && c != 0 && !(c < 0 && chk.MinTarget == floorTarget) {
		targetDiffers = true
		add("minimum target", docT, chk.MinTarget, c > 0)
	}
	if c := ptxorder.CompareVersions(docV, chk.PTXVersion); docV != "" && c != 0 && !(c < 0 && chk.Floor) {
		versionDiffers = true
		add("PTX ISA version", docV, chk.PTXVersion, c > 0)
	}
	return targetDiffers, versionDiffers, out
}

// settleForm decides what the form shows: the documentation's minimum
// version and target where ptxas agrees (or cannot test that low),
// ptxas's where it contradicts them or the documentation is silent, with
// the documentation's kept beside. It returns whether ptxas's fact
// replaced the documentation's, and the disagreements.
func settleForm(m *ptx.Instruction, f int, form *isa.Form, chk isa.PTXCheck, floorTarget string) (bool, []finding) {
	docV, docT := m.Forms[f].DocMinimums()
	td, vd, findings := compareMinimums(m.Name, chk.Statement, docV, docT, chk, floorTarget, form.Prov)
	corrected := false
	if docT == "" || td {
		if docT != "" {
			form.DocMinTarget = docT
		}
		form.MinTarget, corrected = chk.MinTarget, true
	}
	if docV == "" || vd {
		if docV != "" {
			form.DocPTXVersion = docV
		}
		form.PTXVersion, corrected = chk.PTXVersion, true
	}
	return corrected, findings
}

// compareDoc compares the documentation's requirement for one statement
// (the checker over the documentation's notes) with ptxas's.
func compareDoc(doc *ptx.Checker, mnemonic, stmt string, chk isa.PTXCheck, floorTarget string, prov isa.Prov) []finding {
	r := doc.Check(stmt)
	if !r.Valid || chk.Status != isa.PTXVerified {
		return nil
	}
	docV, docT := r.PTXVersion, r.MinTarget
	for _, o := range r.Alternatives {
		if o.PTXVersion != "" && ptxorder.CompareVersions(o.PTXVersion, docV) < 0 {
			docV = o.PTXVersion
		}
		if o.MinTarget != "" && ptxorder.CompareTargets(o.MinTarget, docT) < 0 {
			docT = o.MinTarget
		}
	}
	_, _, out := compareMinimums(mnemonic, stmt, docV, docT, chk, floorTarget, prov)
	return out
}

func formConflict(form *isa.Form, chk isa.PTXCheck) isa.Conflict {
	doc := strings.TrimSpace(orDash(form.DocPTXVersion, form.PTXVersion) + " / " + orDash(form.DocMinTarget, form.MinTarget))
	return isa.Conflict{
		Fact: "PTX ISA version / minimum target of " + form.Syntax,
		Values: []isa.ConflictValue{
			{Value: doc, Prov: form.Prov},
			{Value: chk.PTXVersion + " / " + chk.MinTarget + " (" + chk.Statement + ")", Prov: isa.Prov{Source: isa.SourcePTXAS}},
		},
		Note: "ptxas's values are shown as the form's requirements",
	}
}

func orDash(a, b string) string {
	if a != "" {
		return a
	}
	if b != "" {
		return b
	}
	return "—"
}

// recomputeMinimums sets the instruction's lowest version and target from
// its forms.
func recomputeMinimums(in *isa.Instruction) {
	v, t := "", ""
	for _, f := range in.Forms {
		if f.Check == nil || f.Check.Status != isa.PTXVerified {
			continue
		}
		if v == "" || ptxorder.CompareVersions(f.PTXVersion, v) < 0 {
			v = f.PTXVersion
		}
		if t == "" || ptxorder.CompareTargets(f.MinTarget, t) < 0 {
			t = f.MinTarget
		}
	}
	if v != "" {
		in.PTXVersion = v
	}
	if t != "" {
		in.MinTarget = t
	}
}

// VerifyPTX reads the PTX documentation from the sources and runs the PTX
// oracle pass alone (what `gpuisa verify` reports), without writing a
// database.
func VerifyPTX(ctx context.Context, opts Options, prog Progress) (*quality.PTXReport, error) {
	if prog == nil {
		prog = nopProgress{}
	}
	src, err := SourcesDir(opts.Sources)
	if err != nil {
		return nil, err
	}
	arch, insts, _, _, model, version, err := readPTX(src, prog)
	if err != nil {
		return nil, err
	}
	if arch == nil {
		return &quality.PTXReport{Notes: []string{"no PTX documentation in " + src}}, nil
	}
	res, err := applyPTXAS(ctx, opts, model, insts, version, prog)
	if err != nil {
		return nil, err
	}
	return res.Report, nil
}

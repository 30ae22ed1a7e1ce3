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
	for _, t := range tools.PTXAS {
		res.Documents = append(res.Documents, isa.Document{
			Source: isa.SourcePTXAS, File: t.Path, Title: "NVIDIA ptxas " + t.Version,
			Version:     fmt.Sprintf("CUDA %s, PTX ISA up to %s, %s to %s", t.Release, t.MaxPTX, t.Targets[0], t.Targets[len(t.Targets)-1]),
			Attribution: "NVIDIA's PTX assembler, run by gpuisa build", License: "NVIDIA CUDA Toolkit EULA (run, not redistributed)",
		})
	}
	if tools.NVDisasm != "" {
		res.Documents = append(res.Documents, isa.Document{Source: isa.SourcePTXAS, File: tools.NVDisasm, Title: "NVIDIA nvdisasm " + tools.NVDisasmVersion,
			Attribution: "NVIDIA's disassembler, run by gpuisa build", License: "NVIDIA CUDA Toolkit EULA (run, not redistributed)"})
	}
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

	// The corpus: every probe of every form, then every example statement.
	var (
		items    []ptxoracle.Item
		probeAt  = map[probeRef]int{}
		probes   = make([][][]ptx.Probe, len(model))
		exAt     = map[[3]int]int{} // instruction, example, statement -> item
		exStmts  = make([][][]ptx.Statement, len(model))
		docCheck = ptx.NewChecker(model)
	)
	for i := range model {
		in := &model[i]
		if in.Kind != ptx.KindInstruction {
			continue
		}
		probes[i] = make([][]ptx.Probe, len(in.Forms))
		for f := range in.Forms {
			probes[i][f] = ptx.FormProbes(in, f)
			for k, p := range probes[i][f] {
				p := p
				probeAt[probeRef{i, f, k}] = len(items)
				items = append(items, ptxoracle.Item{Stmt: ptx.Statement{Text: p.Text}, Lengths: p.Lengths, Complete: p.Complete(in),
					Rerender: func(l map[int]int) (string, map[int]int) { return p.Render(in, l) }})
			}
		}
		exStmts[i] = make([][]ptx.Statement, len(in.Examples))
		for e, ex := range in.Examples {
			exStmts[i][e] = ptx.ExampleStatements(ex.Text)
			for k, st := range exStmts[i][e] {
				exAt[[3]int{i, e, k}] = len(items)
				items = append(items, ptxoracle.Item{Stmt: st})
			}
		}
	}
	verdicts, err := engine.Check(ctx, items)
	if err != nil {
		return nil, err
	}
	// checkMore has ptxas check a further batch; its items and verdicts
	// follow the first batch's.
	checkMore := func(batch []ptxoracle.Item) error {
		if len(batch) == 0 {
			return nil
		}
		more, err := engine.Check(ctx, batch)
		if err != nil {
			return err
		}
		items = append(items, batch...)
		verdicts = append(verdicts, more...)
		return nil
	}
	// Where ptxas rejects a form's canonical statement but accepts another
	// of its statements (atom's first .op, .and, needs a bit-size type),
	// the optional parts are tried again on that one.
	canonical := map[[2]int]int{} // instruction, form -> stage-1 canonical item
	stage1 := map[[2]int][]int{}  // instruction, form -> stage-1 items
	var again []ptxoracle.Item
	type rebase struct{ in, form int }
	var rebased []rebase
	for i := range model {
		for f := range probes[i] {
			ps := probes[i][f]
			if len(ps) == 0 {
				continue
			}
			canonical[[2]int{i, f}] = probeAt[probeRef{i, f, 0}]
			for k := range ps {
				stage1[[2]int{i, f}] = append(stage1[[2]int{i, f}], probeAt[probeRef{i, f, k}])
			}
			if verdicts[probeAt[probeRef{i, f, 0}]].Status == ptxoracle.Accepted {
				continue
			}
			r := representative(verdicts, ps, func(k int) int { return probeAt[probeRef{i, f, k}] })
			if r < 0 {
				continue
			}
			for k := range ps {
				if probeAt[probeRef{i, f, k}] != r {
					continue
				}
				in := &model[i]
				probes[i][f] = ptx.FormProbesFrom(in, f, ps[k])
				rebased = append(rebased, rebase{i, f})
				for k2, p := range probes[i][f] {
					p := p
					probeAt[probeRef{i, f, k2}] = len(items) + len(again)
					again = append(again, ptxoracle.Item{Stmt: ptx.Statement{Text: p.Text}, Lengths: p.Lengths, Complete: p.Complete(in),
						Rerender: func(l map[int]int) (string, map[int]int) { return p.Render(in, l) }})
				}
			}
		}
	}
	if err := checkMore(again); err != nil {
		return nil, err
	}
	// A sparse mma ptxas could not be given operands for: ptxas says only
	// "Arguments mismatch" of one whose types break a rule, and names the
	// rule for the dense mma with the same types.
	denseAt := map[[2]int]int{}
	var dense []ptxoracle.Item
	for key, c := range canonical {
		if representative(verdicts, probes[key[0]][key[1]], func(k int) int { return probeAt[probeRef{key[0], key[1], k}] }) >= 0 {
			continue
		}
		v := verdicts[c]
		if v.Status != ptxoracle.Rejected || v.Exhausted || !ptxoracle.OperandError(v.Message) {
			continue
		}
		if text, ok := ptx.DenseCounterpart(v.Stmt.Text); ok {
			denseAt[key] = len(items) + len(dense)
			dense = append(dense, ptxoracle.Item{Stmt: ptx.Statement{Text: text}})
		}
	}
	if err := checkMore(dense); err != nil {
		return nil, err
	}
	if step != "" {
		prog.Done()
		step = ""
	}
	rep.Verified = true
	rep.Run.Statements = len(items)

	// SASS for each form's statement and each accepted example statement.
	sassFor := map[int]bool{}
	reps := map[[2]int]int{} // instruction, form -> item of its representative
	for ref := range probeAt {
		if ref.probe == 0 {
			reps[[2]int{ref.in, ref.form}] = representative(verdicts, probes[ref.in][ref.form], func(k int) int { return probeAt[probeRef{ref.in, ref.form, k}] })
		}
	}
	isRebased := map[[2]int]bool{}
	for _, rb := range rebased {
		isRebased[[2]int{rb.in, rb.form}] = true
	}
	for _, it := range reps {
		if it >= 0 {
			sassFor[it] = true
		}
	}
	for _, it := range exAt {
		if verdicts[it].Status == ptxoracle.Accepted {
			sassFor[it] = true
		}
	}
	prog.Start(fmt.Sprintf("disassembling %d statements with nvdisasm", len(sassFor)), len(SASSTargets))
	sass, err := engine.SASS(ctx, verdicts, sassFor, SASSTargets, func() { prog.Advance(1) })
	prog.Done()
	if err != nil {
		res.Problems = append(res.Problems, "ptx: SASS listings: "+err.Error())
		rep.Notes = append(rep.Notes, "SASS listings not produced: "+err.Error())
	}
	st := session.Stats()
	rep.Run.Processes, rep.Run.Assembled, rep.Run.CacheHits = st.Processes, st.Assembled, st.CacheHits
	for _, v := range verdicts {
		if v.Searched {
			rep.Run.Searched++
		}
	}

	byName := map[string]*isa.Instruction{}
	for _, in := range insts {
		byName[in.Name] = in
	}
	floorTarget, floorVersion := "", ""
	if ts := engine.Targets(); len(ts) > 0 {
		floorTarget, floorVersion = ts[0].Target, ts[0].MinPTX
	}
	rep.FloorTarget, rep.FloorVersion = floorTarget, floorVersion
	for i := range model {
		m := &model[i]
		in := byName[m.Name]
		if in == nil || m.Kind != ptx.KindInstruction {
			continue
		}
		details := map[string]isa.TargetResult{}
		for f := range m.Forms {
			rep.Forms++
			if f >= len(in.Forms) {
				continue
			}
			form := &in.Forms[f]
			var ps []ptx.Probe
			if f < len(probes[i]) {
				ps = probes[i][f]
			}
			if len(ps) == 0 {
				form.Check = &isa.PTXCheck{Statement: form.Syntax, Status: isa.PTXNotVerified, Message: "gpuisa could not write a statement for this form"}
				rep.FormsNotVerified++
				rep.NotVerified = append(rep.NotVerified, quality.PTXFinding{Mnemonic: m.Name, Statement: form.Syntax, Message: form.Check.Message, Prov: form.Prov})
				continue
			}
			repIdx, ok := reps[[2]int{i, f}]
			if !ok {
				repIdx = -1
			}
			canonIdx := canonical[[2]int{i, f}]
			canon := verdicts[canonIdx]
			var chk isa.PTXCheck
			if repIdx >= 0 {
				chk = toCheck(verdicts[repIdx], tools, sass[repIdx])
				if repIdx != canonIdx {
					chk.Message = "ptxas rejects the form's first statement (" + canon.Stmt.Text + ": " + canon.Message + ")"
				}
			} else {
				chk = toCheck(canon, tools, nil)
				if d, ok := denseAt[[2]int{i, f}]; ok && chk.Status == isa.PTXNotVerified {
					// Only a rule about the types carries over: the dense mma
					// may lack the shape (m16n8k32 of .f16) altogether.
					if dc := toCheck(verdicts[d], tools, nil); dc.Status == isa.PTXRejected && typeRuleRe.MatchString(dc.Message) {
						chk.Status = isa.PTXRejected
						chk.Message = canon.Message + "; of the dense mma with these types (" + verdicts[d].Stmt.Text + ") ptxas says: " + dc.Message
					}
				}
			}
			form.Check = &chk
			switch chk.Status {
			case isa.PTXVerified:
				rep.FormsVerified++
			case isa.PTXRejected:
				rep.FormsRejected++
				rep.RejectedForms = append(rep.RejectedForms, quality.PTXFinding{Mnemonic: m.Name, Statement: chk.Statement, Message: chk.Message, Prov: form.Prov})
			default:
				rep.FormsNotVerified++
				rep.NotVerified = append(rep.NotVerified, quality.PTXFinding{Mnemonic: m.Name, Statement: chk.Statement, Message: chk.Message, Prov: form.Prov})
			}
			if chk.Status == isa.PTXVerified {
				v := verdicts[repIdx]
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
				corrected, findings := settleForm(m, f, form, chk, floorTarget)
				if corrected {
					rep.FormsCorrected++
					in.Conflicts = append(in.Conflicts, formConflict(form, chk))
				}
				rep.addFindings(findings)
			}
			// Each optional part, as ptxas saw it.
			form.ModifierChecks = nil
			var oracleFeatures []ptx.OracleFeature
			for k := 1; k < len(ps); k++ {
				v := verdicts[probeAt[probeRef{i, f, k}]]
				mc := isa.ModifierCheck{Modifier: ps[k].Feature, Variable: ps[k].Variable, Check: toCheck(v, tools, nil)}
				if chk.Status == isa.PTXVerified && mc.Check.Status == isa.PTXVerified {
					mc.Raises = ptxorder.CompareVersions(mc.Check.PTXVersion, chk.PTXVersion) > 0 || ptxorder.CompareTargets(mc.Check.MinTarget, chk.MinTarget) > 0
				}
				form.ModifierChecks = append(form.ModifierChecks, mc)
				of := ptx.OracleFeature{Feature: ps[k].Feature, Variable: ps[k].Variable, Status: mc.Check.Status,
					Options: optionsOf(mc.Check), Message: mc.Check.Message}
				// A part ptxas rejects on an accepted base is rejected with the
				// whole form, unless ptxas blames another part of the base
				// (".1d cannot be combined with .im2col").
				if of.Status == isa.PTXRejected && chk.Status == isa.PTXVerified {
					of.Alone = !ptx.NamesOtherToken(of.Message, v.Stmt.Text, ps[k].Feature)
				}
				oracleFeatures = append(oracleFeatures, of)
				if mc.Check.Status == isa.PTXVerified {
					rep.addFindings(compareDoc(docCheck, m.Name, v.Stmt.Text, mc.Check, floorTarget, form.Prov))
				}
			}
			oracle := &ptx.FormOracle{Status: chk.Status, Statement: chk.Statement, Options: optionsOf(chk), Features: oracleFeatures,
				Message: chk.Message, FloorTarget: floorTarget, FloorVersion: floorVersion}
			// Every statement ptxas judged, for the checker to answer exactly.
			seen := map[string]bool{}
			judged := append(append([]int(nil), stage1[[2]int{i, f}]...), probeItems(probeAt, i, f, len(ps))...)
			for _, it := range judged {
				v := verdicts[it]
				key := ptx.ProbeKey(v.Stmt.Text)
				if key == "" || seen[key] {
					continue
				}
				seen[key] = true
				c := toCheck(v, tools, nil)
				oracle.Probes = append(oracle.Probes, ptx.ProbeVerdict{Key: key, Status: c.Status, Options: optionsOf(c), Message: c.Message})
			}
			// An optional part ptxas needs although the syntax shows it as
			// optional ("Rounding modifier required"): the first statement
			// was rejected for wanting it, the one with the part accepted.
			if isRebased[[2]int{i, f}] && strings.Contains(canon.Message, "required") {
				first := ptx.FormProbes(m, f)
				for k, it := range stage1[[2]int{i, f}] {
					if k < len(first) && verdicts[it].Status == ptxoracle.Accepted {
						if first[k].Optional && first[k].Variable != "" {
							oracle.Required = first[k].Variable
						}
						break
					}
				}
			}
			m.Forms[f].Oracle = oracle
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
		for e := range in.Examples {
			if e >= len(exStmts[i]) {
				continue
			}
			in.Examples[e].Checks = nil
			for k := range exStmts[i][e] {
				it := exAt[[3]int{i, e, k}]
				v := verdicts[it]
				chk := toCheck(v, tools, sass[it])
				if v.ContextDropped {
					chk.Message = "ptxas rejects it with the example's declarations (" + v.ContextMessage + "); it assembles without them"
				}
				in.Examples[e].Checks = append(in.Examples[e].Checks, chk)
				rep.ExampleStatements++
				switch {
				case chk.Status == isa.PTXVerified && !v.ContextDropped:
					rep.ExamplesAccepted++
				case chk.Status == isa.PTXVerified:
					rep.Errata = append(rep.Errata, quality.PTXFinding{Mnemonic: m.Name, Statement: v.Stmt.Text, Message: v.ContextMessage, Context: true, Prov: in.Examples[e].Prov})
				case chk.Status == isa.PTXRejected:
					rep.Errata = append(rep.Errata, quality.PTXFinding{Mnemonic: m.Name, Statement: v.Stmt.Text, Message: chk.Message, Prov: in.Examples[e].Prov})
				default:
					rep.NotVerified = append(rep.NotVerified, quality.PTXFinding{Mnemonic: m.Name, Statement: v.Stmt.Text, Message: chk.Message, Prov: in.Examples[e].Prov})
				}
			}
		}
	}
	return res, nil
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

func probeItems(at map[probeRef]int, i, f, n int) []int {
	out := make([]int, 0, n)
	for k := 0; k < n; k++ {
		out = append(out, at[probeRef{i, f, k}])
	}
	return out
}

// probeRef names one probe: instruction, form and probe index.
type probeRef struct{ in, form, probe int }

// representative picks the probe whose verdict stands for the form: the
// canonical statement when ptxas accepts it, else the first probe it
// accepts (a float-to-integer cvt needs a rounding modifier the syntax
// line shows as optional); -1 when it accepts none.
func representative(vs []ptxoracle.Verdict, ps []ptx.Probe, item func(int) int) int {
	for k := range ps {
		if vs[item(k)].Status == ptxoracle.Accepted {
			return item(k)
		}
	}
	return -1
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

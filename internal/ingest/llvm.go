package ingest

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmcap"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
	"github.com/gpuisa/gpuisa/internal/source/llvmtest"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// LLVMResult is what the LLVM pass did: the documents it read, what it
// could not do, and the data-quality report.
type LLVMResult struct {
	Documents []isa.Document
	Problems  []string
	Report    quality.Report
	// Added are the instructions only LLVM documents for a family (no AMD
	// instruction has their encoding); the caller adds them to the model.
	Added []*isa.Instruction
	// LLVMMC and CacheDir are the assembler and result cache the pass used
	// ("" when it did not verify), for later passes that assemble too.
	LLVMMC, CacheDir string
}

// LoadAMD reads the AMD guides and XML from the sources directory and links
// the families: the model the LLVM pass works on (what `gpuisa verify`
// checks without writing a database).
func LoadAMD(ctx context.Context, sources string, prog Progress) ([]isa.Architecture, []*isa.Instruction, []string, error) {
	if prog == nil {
		prog = nopProgress{}
	}
	src, err := SourcesDir(sources)
	if err != nil {
		return nil, nil, nil, err
	}
	archs, insts, _, problems, err := loadAMD(ctx, src, prog)
	return archs, insts, problems, err
}

// loadAMD reads the AMD guides and XML under src, merges them and links the
// families; it returns the documents read and what the readers could not
// recover. Both Run and LoadAMD start here.
func loadAMD(ctx context.Context, src string, prog Progress) ([]isa.Architecture, []*isa.Instruction, []isa.Document, []string, error) {
	archs, insts, docs, problems, err := readAMDGuides(ctx, src, prog)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	xmlDocs, err := mergeAMDXML(src, &archs, &insts, prog)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	prose, more := addProseInstructions(src, archs, insts)
	insts, problems = append(insts, prose...), append(problems, more...)
	merge.LinkFamilies(insts)
	return archs, insts, append(docs, xmlDocs...), problems, nil
}

// ApplyLLVM is the LLVM pass: it attaches LLVM's syntax (opts.LLVMDocDir,
// else the llvm-NN-doc package's pages) to the AMD instructions, builds
// examples (verbatim from the MC tests of opts.LLVMProject or
// $GPUISA_LLVM_PROJECT when given, else from the syntax), assembles every
// example on every gfx target llvm-mc knows (one llvm-mc per target,
// cached in opts.CacheDir), and fills examples, target matrices, llvm-mc
// aliases and cross-check conflicts. Without llvm-mc, or with
// opts.NoVerify, targets stay empty and the report says why. Families'
// Documents gain the LLVM documents; archs is modified in place.
func ApplyLLVM(ctx context.Context, opts Options, archs []isa.Architecture, insts []*isa.Instruction, prog Progress) (*LLVMResult, error) {
	if prog == nil {
		prog = nopProgress{}
	}
	res := &LLVMResult{}
	p := &llvmPass{ctx: ctx, opts: opts, prog: prog, res: res, rep: &res.Report, archs: archs, insts: insts}
	// 1. Syntax pages.
	if err := p.attachSyntax(); err != nil {
		return nil, err
	}
	// 2. Candidate examples.
	tests, project, err := p.readMCTests()
	if err != nil {
		return nil, err
	}
	p.pool = newCandidatePool(p.pages, tests, p.pageFile, project)
	// 3. Verification.
	if p.llvmMC = p.findLLVMMC(); p.llvmMC == "" {
		applyUnverified(archs, insts, p.matches, p.pool, p.rep)
		return res, nil
	}
	if err := p.findTargets(); err != nil {
		return nil, err
	}
	p.planJobs()
	if err := p.verifyCandidates(); err != nil {
		return nil, err
	}
	if err := p.synthesizeCandidates(); err != nil {
		return nil, err
	}
	p.applyVerdicts()
	// What LLVM calls the opcodes whose AMD names it rejects.
	if _, err := llvmNames(ctx, p.llvmMC, p.version, archs, p.insts, p.byInst, p.famTargets); err != nil {
		res.Problems = append(res.Problems, "llvm: "+err.Error())
	}
	if err := p.addGeneratedExamples(); err != nil {
		return nil, err
	}
	p.addLLVMOnly()
	p.linkRenames()
	// Last, once every alias is in: where llvm-mc takes each.
	p.prog.Start("checking aliases with llvm-mc", 1)
	if _, err := p.verifyAliases(); err != nil {
		res.Problems = append(res.Problems, "llvm: "+err.Error())
	}
	p.prog.Advance(1)
	p.prog.Done()
	for i := range archs {
		if archs[i].Vendor == isa.VendorAMD {
			archs[i].Documents = append(archs[i].Documents, res.Documents[len(res.Documents)-1])
		}
	}
	res.Report = computeQuality(qualityInput{
		Report: *p.rep, Archs: archs, Insts: p.insts, Syntax: p.matches, Results: p.byInst,
		FamilyTargets: p.famTargets, LLVMAccepted: p.llvmOnlyAccepted(),
	})
	return res, nil
}

// llvmPass is the LLVM pass's state, filled in by its steps in order.
type llvmPass struct {
	ctx   context.Context
	opts  Options
	prog  Progress
	res   *LLVMResult
	rep   *quality.Report
	archs []isa.Architecture
	insts []*isa.Instruction // with the LLVM-only instructions once added

	pages    []llvmdoc.Page
	pageFile func(path string) string
	matches  map[string]*merge.SyntaxMatch
	pool     *candidatePool

	llvmMC, version, cacheDir string
	targets, unknown          []string            // the gfx targets llvm-mc knows and does not
	famTargets                map[string][]string // by family, the targets llvm-mc knows

	jobs     []llvmJob
	batch    verify.Batch
	llvmOnly map[string][]merge.Candidate // by family "\x00" name, the candidates of a name only LLVM documents
	vres     verify.Results
	tIndex   map[string]int
	// outcomes finds llvm-mc's verdicts on a line: the batch's, then those
	// of the synthesized and generated candidates as they are made.
	outcomes func(asm string) ([]verify.Outcome, bool)
	byInst   map[*isa.Instruction]merge.Result
}

// llvmJob is one AMD instruction's verification.
type llvmJob struct {
	in   *isa.Instruction
	arch *isa.Architecture
	v    merge.Verification
}

// attachSyntax reads LLVM's syntax pages and attaches them to the
// instructions and families.
func (p *llvmPass) attachSyntax() error {
	res, rep := p.res, p.rep
	docDir := p.opts.LLVMDocDir
	if docDir == "" {
		docDir = llvmdoc.DocDir()
	}
	if docDir == "" {
		res.Problems = append(res.Problems, "llvm: LLVM's AMDGPU syntax pages not found (install llvm-22-doc or set GPUISA_LLVM_DOC): no LLVM syntax attached")
		rep.Notes = append(rep.Notes, "LLVM's AMDGPU syntax pages were not found")
		rep.Gaps = append(rep.Gaps, quality.OracleGap{Tool: "llvm-22-doc", Step: "LLVM syntax",
			Text: "no LLVM syntax attached: LLVM's AMDGPU syntax pages (llvm-22-doc) not found", Fix: llvmcap.InstallCommand})
	} else {
		var err error
		step(p.prog, "reading LLVM AMDGPU syntax pages", func() { p.pages, err = llvmdoc.ReadDir(docDir) })
		if err != nil {
			return fmt.Errorf("LLVM syntax pages: %w", err)
		}
		rep.SyntaxDocs = docDir
	}
	p.pageFile = func(path string) string { return lastElems(path, 3) }
	pageDocs := map[string]isa.Document{}
	for _, pg := range p.pages {
		if len(llvmdoc.PageArchs(pg.GFX)) == 0 {
			continue
		}
		doc := isa.Document{
			Source: isa.SourceLLVMDoc, File: p.pageFile(pg.File),
			Title:       "LLVM AMDGPU assembler syntax: " + pg.GFX,
			Version:     lastElems(docDir, 2),
			Attribution: "from LLVM's AMDGPU assembler syntax documentation",
			License:     "Apache-2.0 WITH LLVM-exception",
		}
		pageDocs[pg.GFX] = doc
		res.Documents = append(res.Documents, doc)
	}
	p.matches = merge.AttachLLVMSyntax(p.insts, p.pages, p.pageFile)
	// The operands now say which VOP3 encodings write a carry-out.
	merge.CarryOutLayouts(p.archs, p.insts)
	for i := range p.archs {
		if m := p.matches[p.archs[i].ID]; m != nil {
			for _, gfx := range m.Pages {
				p.archs[i].Documents = append(p.archs[i].Documents, pageDocs[gfx])
			}
		}
	}
	return nil
}

// readMCTests reads LLVM's MC tests when an llvm-project checkout is
// given; it returns them and the checkout.
func (p *llvmPass) readMCTests() ([]llvmtest.Example, string, error) {
	project := p.opts.LLVMProject
	if project == "" {
		project = os.Getenv("GPUISA_LLVM_PROJECT")
	}
	if project == "" {
		p.rep.Examples = llvmdoc.ExampleProvenance + " (no llvm-project checkout given)"
		return nil, "", nil
	}
	var tests []llvmtest.Example
	dir := filepath.Join(project, "llvm", "test", "MC", "AMDGPU")
	var err error
	step(p.prog, "reading LLVM MC tests", func() { tests, err = llvmtest.ReadDir(dir) })
	if err != nil {
		return nil, "", fmt.Errorf("LLVM MC tests (--llvm-project %s): %w", project, err)
	}
	p.rep.Examples = "from LLVM's MC tests (" + dir + ") where they have one, else built from LLVM's documented syntax"
	return tests, project, nil
}

// findLLVMMC is the llvm-mc to verify with; "" (and the report says why)
// when verification is skipped or none is found.
func (p *llvmPass) findLLVMMC() string {
	if p.opts.NoVerify {
		p.rep.Notes = append(p.rep.Notes, "verification skipped (--no-verify)")
		p.res.Problems = append(p.res.Problems, "llvm: verification skipped: target compatibility not verified")
		return ""
	}
	path, err := verify.FindLLVMMC()
	if err != nil {
		all := llvmcap.MissingTargets(nil)
		g := quality.OracleGap{Tool: "llvm-mc", Step: quality.StepTargets, Fix: llvmcap.InstallCommand}
		for _, f := range all {
			g.Families, g.Targets = append(g.Families, f.Name), append(g.Targets, f.Targets...)
		}
		g.Text = strings.Join(g.Families, ", ") + ": not verified: llvm-mc not found"
		p.rep.Gaps = append(p.rep.Gaps, g)
		p.rep.Notes = append(p.rep.Notes, err.Error())
		p.res.Problems = append(p.res.Problems, "llvm: "+err.Error()+": target compatibility not verified")
		return ""
	}
	return path
}

// findTargets asks llvm-mc its version and the gfx targets it knows.
func (p *llvmPass) findTargets() error {
	res, rep := p.res, p.rep
	version, err := verify.Version(p.ctx, p.llvmMC)
	if err != nil {
		return err
	}
	known, err := verify.KnownTargets(p.ctx, p.llvmMC)
	if err != nil {
		return err
	}
	var targets, unknown []string
	for _, t := range isa.AllGFXTargets {
		if known[t] {
			targets = append(targets, t)
		} else {
			unknown = append(unknown, t)
		}
	}
	if len(unknown) > 0 {
		res.Problems = append(res.Problems, fmt.Sprintf("llvm: %s does not know %s: left out of the target matrices", version, strings.Join(unknown, ", ")))
	}
	rep.LLVMMC, rep.Verified, rep.Targets, rep.UnknownTargets = version, true, targets, unknown
	for _, g := range llvmcap.DescribeGaps(llvmcap.Short("llvm-mc", version), llvmcap.MissingTargets(known)) {
		rep.Gaps = append(rep.Gaps, quality.OracleGap{Tool: "llvm-mc", Version: version, Step: quality.StepTargets,
			Families: g.Families, Targets: g.Targets, Text: g.Text, Fix: llvmcap.InstallCommand})
	}
	res.Documents = append(res.Documents, isa.Document{
		Source: isa.SourceLLVMMC, File: filepath.Base(p.llvmMC), Title: "LLVM assembler (llvm-mc), run on every example for every gfx target",
		Version: version, Attribution: "verified with the LLVM assembler", License: "Apache-2.0 WITH LLVM-exception",
	})
	p.version, p.targets, p.unknown = version, targets, unknown
	p.famTargets = map[string][]string{}
	for _, a := range isa.Archs() {
		for _, t := range a.Targets {
			if known[t] {
				p.famTargets[a.ID] = append(p.famTargets[a.ID], t)
			}
		}
	}
	return nil
}

// planJobs gathers every candidate of every AMD instruction, and the bare
// names, into one batch, and the names LLVM documents for a family that
// AMD does not: are they accepted on the family's targets?
func (p *llvmPass) planJobs() {
	archByID := map[string]*isa.Architecture{}
	for i := range p.archs {
		archByID[p.archs[i].ID] = &p.archs[i]
	}
	for _, in := range p.insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		cands := p.pool.candidates(in, p.matches[in.Arch], p.famTargets[in.Arch])
		for _, c := range cands {
			p.batch.Add(c.Asm)
		}
		p.batch.Add(in.Name)
		p.jobs = append(p.jobs, llvmJob{in: in, arch: archByID[in.Arch], v: merge.Verification{
			Targets: p.targets, Unknown: p.unknown, FamilyTargets: p.famTargets[in.Arch],
			Candidates: cands, Probe: in.Name, Version: p.version,
		}})
	}
	p.llvmOnly = map[string][]merge.Candidate{}
	for arch, m := range p.matches {
		for _, name := range m.UnmatchedLLVM {
			cands := p.pool.byName(name, arch, p.famTargets[arch])
			p.llvmOnly[arch+"\x00"+name] = cands
			for _, c := range cands {
				p.batch.Add(c.Asm)
			}
		}
	}
}

// verifyCandidates has llvm-mc assemble the batch on every target,
// through the result cache.
func (p *llvmPass) verifyCandidates() error {
	p.cacheDir = p.opts.CacheDir
	if p.cacheDir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			p.cacheDir = filepath.Join(d, "gpuisa")
		} else {
			p.res.Problems = append(p.res.Problems, "llvm: no user cache directory ("+err.Error()+"): llvm-mc results are not cached")
		}
	}
	p.res.LLVMMC, p.res.CacheDir = p.llvmMC, p.cacheDir
	p.prog.Start(fmt.Sprintf("verifying %d lines with llvm-mc on %d targets", len(p.batch.Inputs), len(p.targets)), len(p.targets))
	vres, err := verify.Run(p.ctx, p.batch.Inputs, p.targets, verify.Options{
		LLVMMC: p.llvmMC, CacheDir: p.cacheDir,
		Progress: func(done, total int, target string) { p.prog.Advance(1) },
	})
	p.prog.Done()
	if err != nil {
		return err
	}
	p.vres = vres
	p.rep.Run = runStats(&p.batch, vres)
	p.tIndex = targetIndex(vres.Targets)
	return nil
}

// synthesizeCandidates is the second pass: instructions whose name
// llvm-mc knows on a family target but whose examples it all rejected (or
// that have none) try operand patterns of similar instructions, on the
// family's targets.
func (p *llvmPass) synthesizeCandidates() error {
	batch, vres := &p.batch, p.vres
	first := func(asm string) ([]verify.Outcome, bool) {
		if i, ok := batch.Index[asm]; ok {
			return vres.Outcomes[i], true
		}
		return nil, false
	}
	pending := make([]job2, len(p.jobs))
	for i := range p.jobs {
		p.jobs[i].v.Outcomes = first
		pending[i] = job2{p.jobs[i].in, &p.jobs[i].v}
	}
	var extra map[*isa.Instruction][]merge.Candidate
	var stats synthStats
	var err error
	step(p.prog, "trying operand patterns where no example was accepted", func() {
		extra, stats, err = synthesize(p.ctx, pending, p.pool, len(vres.Targets), p.tIndex, p.llvmMC, p.cacheDir)
	})
	if err != nil {
		return err
	}
	p.rep.Run.Add(stats.RunStats)
	for i := range p.jobs {
		p.jobs[i].v.Candidates = append(p.jobs[i].v.Candidates, extra[p.jobs[i].in]...)
	}
	p.outcomes = func(asm string) ([]verify.Outcome, bool) {
		if i, ok := batch.Index[asm]; ok {
			return vres.Outcomes[i], true
		}
		row, ok := stats.rows[asm]
		return row, ok
	}
	return nil
}

// applyVerdicts applies llvm-mc's verdicts to every job, in parallel.
func (p *llvmPass) applyVerdicts() {
	jobs, outcomes := p.jobs, p.outcomes
	p.prog.Start("applying llvm-mc's verdicts", len(jobs))
	results := make([]merge.Result, len(jobs))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			for i := w; i < len(jobs); i += workers {
				j := jobs[i]
				j.v.Outcomes = outcomes
				results[i] = merge.ApplyVerification(j.in, j.arch, j.v)
			}
		})
	}
	wg.Wait()
	p.prog.Advance(len(jobs))
	p.prog.Done()
	p.byInst = make(map[*isa.Instruction]merge.Result, len(jobs))
	for i, j := range jobs {
		p.byInst[j.in] = results[i]
	}
}

// addGeneratedExamples: where still nothing was accepted, llvm-mc writes the
// example itself (from its disassembly), and the verdicts are applied
// again with them.
func (p *llvmPass) addGeneratedExamples() error {
	byInst := p.byInst
	var gen *generated
	var err error
	step(p.prog, "generating examples from llvm-mc's disassembly", func() {
		gen, err = generateExamples(p.ctx, p.llvmMC, p.version, p.archs, p.insts, byInst, p.famTargets, p.vres.Targets, p.cacheDir)
	})
	if err != nil {
		return err
	}
	p.rep.Run.Add(gen.stats)
	earlier := p.outcomes
	withGenerated := func(asm string) ([]verify.Outcome, bool) {
		if row, ok := earlier(asm); ok {
			return row, true
		}
		row, ok := gen.rows[asm]
		return row, ok
	}
	for i := range p.jobs {
		j := &p.jobs[i]
		cands := gen.cands[j.in]
		if why, ok := gen.failed[j.in]; ok {
			r := byInst[j.in]
			r.Reason += "; " + why
			byInst[j.in] = r
		}
		if len(cands) == 0 {
			continue
		}
		if byInst[j.in].Rejected {
			// AMD's name is unknown to llvm-mc here: the examples are in
			// LLVM's spelling, and the name stays unsupported.
			r := byInst[j.in]
			if attachSpelled(j.in, cands, withGenerated, p.famTargets[j.in.Arch], p.tIndex) {
				r.Spelled = true
				byInst[j.in] = r
			}
			continue
		}
		j.v.Candidates = append(j.v.Candidates, cands...)
		j.v.Outcomes = withGenerated
		byInst[j.in] = merge.ApplyVerification(j.in, j.arch, j.v)
	}
	p.outcomes = withGenerated
	return nil
}

// addLLVMOnly adds the names only LLVM documents (aliases of AMD
// instructions with the same encoding, or instructions AMD's guide
// lacks) and the assembler's operands.
func (p *llvmPass) addLLVMOnly() {
	outcomes := p.outcomes
	verifyOne := func(in *isa.Instruction, arch *isa.Architecture, cands []merge.Candidate) merge.Result {
		return merge.ApplyVerification(in, arch, merge.Verification{Targets: p.targets, Unknown: p.unknown,
			FamilyTargets: p.famTargets[in.Arch], Candidates: cands, Probe: in.Name, Outcomes: outcomes, Version: p.version})
	}
	p.res.Added, _ = llvmOnlyNames(p.archs, p.insts, p.llvmOnly, outcomes, p.famTargets, p.tIndex, verifyOne, p.byInst)
	p.insts = append(p.insts, p.res.Added...)
	assemblerOperands(p.insts, p.pages, p.pageFile, outcomes, p.tIndex, p.famTargets, p.version)
	if len(p.res.Added) > 0 {
		merge.LinkFamilies(p.insts) // the added ones join their namesakes in other families
	}
}

// linkRenames: renames llvm-mc's verdicts prove join the lineages; the
// grids then show the other spelling where only it assembles.
func (p *llvmPass) linkRenames() {
	rep := p.rep
	p.prog.Start("linking renames across generations", 1)
	links := lineageLinks(p.archs, p.insts, p.version)
	refused := merge.LinkFamilies(p.insts, links...)
	spelled := applyOtherSpellings(p.insts)
	// Older guides give many instructions pseudocode only: the same
	// instruction's description from the nearest family that has one.
	rep.Borrowed = merge.BorrowDescriptions(p.insts)
	// ... and where their pseudocode is when they have none.
	merge.PointToSemantics(p.insts)
	p.prog.Advance(1)
	p.prog.Done()
	rep.Lineage = quality.LineageStats{Links: len(links), Refused: len(refused), OtherSpellings: spelled}
	for _, l := range refused {
		rep.Lineage.RefusedLinks = append(rep.Lineage.RefusedLinks, fmt.Sprintf("%s %s ~ %s %s: %s (each family would have two instructions of one lineage)",
			l.Arch, l.Name, l.OtherArch, l.OtherName, l.Evidence))
	}
}

// llvmOnlyAccepted are, by family, the names only LLVM documents that
// llvm-mc accepts on one of the family's targets.
func (p *llvmPass) llvmOnlyAccepted() map[string]map[string]bool {
	accepted := map[string]map[string]bool{}
	for key, cands := range p.llvmOnly {
		arch, name, _ := strings.Cut(key, "\x00")
		for _, c := range cands {
			hit := false
			row, _ := p.outcomes(c.Asm)
			for _, t := range p.famTargets[arch] {
				if i, ok := p.tIndex[t]; ok && i < len(row) && row[i].Supported {
					hit = true
					break
				}
			}
			if hit {
				if accepted[arch] == nil {
					accepted[arch] = map[string]bool{}
				}
				accepted[arch][name] = true
				break
			}
		}
	}
	return accepted
}

// applyUnverified shows examples built from the family's own syntax,
// marked as not yet verified, and leaves target matrices empty.
func applyUnverified(archs []isa.Architecture, insts []*isa.Instruction, matches map[string]*merge.SyntaxMatch, pool *candidatePool, rep *quality.Report) {
	results := map[*isa.Instruction]merge.Result{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		in.Examples = in.Examples[:0]
		for _, c := range pool.candidates(in, matches[in.Arch], nil) {
			if !c.Own || len(in.Examples) >= 2 {
				continue
			}
			in.Examples = append(in.Examples, isa.Example{Asm: c.Asm, Source: c.Source + " (not yet verified)", Prov: c.Prov})
		}
		results[in] = merge.Result{Reason: "not verified"}
	}
	rep.Borrowed = merge.BorrowDescriptions(insts)
	merge.PointToSemantics(insts)
	*rep = computeQuality(qualityInput{Report: *rep, Archs: archs, Insts: insts, Syntax: matches, Results: results})
}

// lastElems keeps the last n elements of a path, with forward slashes, so
// provenance does not depend on where the documents are installed.
func lastElems(path string, n int) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	if len(parts) > n {
		parts = parts[len(parts)-n:]
	}
	return strings.Join(parts, "/")
}

// candidatePool holds every example that can be built or quoted, by the
// instruction name it stands for.
type candidatePool struct {
	built   map[string][]builtExample // name -> examples built from syntax rows
	builtAt map[string]builtExample   // "GFX:line" of the row -> its example
	tests   map[string][]testExample  // name -> MC test lines

	shapeOnce sync.Once
	shapeBy   map[string][]string // name prefix -> operand patterns, most common first
}

func rowKey(gfx string, line int) string { return fmt.Sprintf("%s:%d", gfx, line) }

type builtExample struct {
	asm   string
	gfx   string
	prov  isa.Prov
	archs []string // families the page documents
}

type testExample struct {
	asm   string
	prov  isa.Prov
	mcpus map[string]bool
}

// maxTestsPerName bounds the MC test lines verified per name: the tests
// hold hundreds of variants of common instructions, and a few suffice.
const maxTestsPerName = 4

func newCandidatePool(pages []llvmdoc.Page, tests []llvmtest.Example, pageFile func(string) string, project string) *candidatePool {
	p := &candidatePool{built: map[string][]builtExample{}, builtAt: map[string]builtExample{}, tests: map[string][]testExample{}}
	for _, pg := range pages {
		archs := llvmdoc.PageArchs(pg.GFX)
		if len(archs) == 0 {
			continue
		}
		for _, row := range pg.Instructions {
			asm, ok := llvmdoc.BuildExample(row)
			if !ok {
				continue
			}
			ex := builtExample{asm: asm, gfx: pg.GFX, archs: archs,
				prov: isa.Prov{Source: isa.SourceLLVMDoc, File: pageFile(pg.File), Line: row.Line}}
			p.builtAt[rowKey(pg.GFX, row.Line)] = ex
			bases := merge.LLVMBaseNames(row.Mnemonic)
			names := map[string]bool{row.Mnemonic: true}
			for i, b := range bases {
				if len(bases) == 2 && bases[1-i] != "v_dual_mov_b32" && bases[1-i] != b {
					continue
				}
				names[b] = true
			}
			for n := range names {
				p.built[n] = append(p.built[n], ex)
			}
		}
	}
	for _, t := range tests {
		name := strings.ToLower(strings.Fields(t.Asm)[0])
		name = merge.StripLLVMSuffix(name)
		hasEnc := false
		for _, c := range t.Checks {
			if c.Encoding != nil {
				hasEnc = true
			}
		}
		if !hasEnc || len(p.tests[name]) >= maxTestsPerName {
			continue
		}
		file := t.File
		if rel, err := filepath.Rel(project, t.File); err == nil {
			file = filepath.ToSlash(rel)
		}
		mcpus := map[string]bool{}
		for cpu := range t.TargetEncodings() {
			mcpus[cpu] = true
		}
		p.tests[name] = append(p.tests[name], testExample{asm: t.Asm, mcpus: mcpus,
			prov: isa.Prov{Source: isa.SourceLLVMTest, File: file, Line: t.Line}})
	}
	for n := range p.built {
		sortBuilt(p.built[n])
	}
	return p
}

func sortBuilt(list []builtExample) {
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].prov.File != list[j].prov.File {
			return list[i].prov.File < list[j].prov.File
		}
		return list[i].prov.Line < list[j].prov.Line
	})
}

// candidates returns an instruction's examples in order of preference:
// MC test lines run on the family's targets, examples built from the
// family's own syntax rows (including rows matched through aliases), then
// test lines and built examples of the same name from other families.
func (p *candidatePool) candidates(in *isa.Instruction, m *merge.SyntaxMatch, famTargets []string) []merge.Candidate {
	var out []merge.Candidate
	seen := map[string]bool{}
	push := func(c merge.Candidate) {
		if !seen[c.Asm] {
			seen[c.Asm] = true
			out = append(out, c)
		}
	}
	fam := map[string]bool{}
	for _, t := range famTargets {
		fam[t] = true
	}
	tests := p.tests[in.Name]
	ownTest := func(t testExample) bool {
		for cpu := range t.mcpus {
			if fam[cpu] {
				return true
			}
		}
		return false
	}
	for _, t := range tests {
		if ownTest(t) {
			push(testCandidate(t, true))
		}
	}
	for _, e := range proseExamples(in) {
		push(merge.Candidate{Asm: e.Asm, Own: true, Prov: e.Prov, Source: e.Source})
	}
	if m != nil {
		for _, row := range m.Rows[in.Name] {
			if b, ok := p.builtAt[rowKey(row.Family, row.Line)]; ok {
				push(builtCandidate(b, true))
			}
		}
	}
	for _, t := range tests {
		if !ownTest(t) {
			push(testCandidate(t, false))
		}
	}
	for _, b := range p.built[in.Name] {
		own := false
		for _, a := range b.archs {
			if a == in.Arch {
				own = true
			}
		}
		push(builtCandidate(b, own))
	}
	return out
}

// byName returns the candidates for a name LLVM documents for a family.
func (p *candidatePool) byName(name, arch string, famTargets []string) []merge.Candidate {
	return p.candidates(&isa.Instruction{Arch: arch, Name: name}, nil, famTargets)
}

func testCandidate(t testExample, own bool) merge.Candidate {
	return merge.Candidate{Asm: t.asm, Own: own, Prov: t.prov,
		Source: fmt.Sprintf("from LLVM's MC tests, %s:%d", filepath.Base(t.prov.File), t.prov.Line)}
}

func builtCandidate(b builtExample, own bool) merge.Candidate {
	return merge.Candidate{Asm: b.asm, Own: own, Prov: b.prov,
		Source: llvmdoc.ExampleProvenance + " (" + b.gfx + " page)"}
}

func targetIndex(targets []string) map[string]int {
	idx := make(map[string]int, len(targets))
	for i, t := range targets {
		idx[t] = i
	}
	return idx
}

// job2 is an instruction with its verification input, for synthesize.
type job2 struct {
	in *isa.Instruction
	v  *merge.Verification
}

// synthStats is what the second pass ran, with its verdicts: rows aligned
// with the first pass's targets, filled for the families' targets only.
type synthStats struct {
	quality.RunStats
	rows map[string][]verify.Outcome
}

// SynthesizedProvenance labels examples gpuisa made by trying the operands
// of similar instructions; they are shown only when llvm-mc accepts them.
const SynthesizedProvenance = "built by gpuisa from the operands of similar LLVM-documented instructions (no LLVM syntax row of its own accepted)"

// maxShapes bounds the operand patterns tried per instruction.
const maxShapes = 24

// synthesize makes extra candidates for instructions that have no example
// llvm-mc accepted on a family target although llvm-mc knows the name
// there, and assembles them on the family's targets (one verify.Run per
// set of family targets).
func synthesize(ctx context.Context, jobs []job2, pool *candidatePool, nTargets int, tIndex map[string]int, llvmMC, cacheDir string) (map[*isa.Instruction][]merge.Candidate, synthStats, error) {
	st := synthStats{rows: map[string][]verify.Outcome{}}
	out := map[*isa.Instruction][]merge.Candidate{}
	groups := map[string][]job2{} // family targets -> jobs
	for _, j := range jobs {
		if len(j.v.FamilyTargets) == 0 || accepted(j.v, tIndex) || !nameKnown(j.v, tIndex) {
			continue
		}
		key := strings.Join(j.v.FamilyTargets, ",")
		groups[key] = append(groups[key], j)
	}
	keys := slices.Sorted(maps.Keys(groups))
	for _, key := range keys {
		targets := strings.Split(key, ",")
		var batch verify.Batch
		for _, j := range groups[key] {
			for _, ops := range pool.shapes(j.in.Name) {
				asm := j.in.Name
				if ops != "" {
					asm += " " + ops
				}
				c := merge.Candidate{Asm: asm, Source: SynthesizedProvenance, Prov: isa.Prov{Source: isa.SourceGPUISA, File: "internal/ingest/llvm.go"}}
				out[j.in] = append(out[j.in], c)
				batch.Add(asm)
			}
		}
		r, err := verify.Run(ctx, batch.Inputs, targets, verify.Options{LLVMMC: llvmMC, CacheDir: cacheDir})
		if err != nil {
			return nil, st, err
		}
		st.Add(runStats(&batch, r))
		for i, in := range batch.Inputs {
			full := st.rows[in.Asm]
			if full == nil {
				full = make([]verify.Outcome, nTargets)
				st.rows[in.Asm] = full
			}
			for ti, t := range targets {
				if k, ok := tIndex[t]; ok {
					full[k] = r.Outcomes[i][ti]
				}
			}
		}
	}
	return out, st, nil
}

// lineRow finds the first pass's verdicts on asm.
func lineRow(v *merge.Verification, asm string) []verify.Outcome {
	if v.Outcomes == nil {
		return nil
	}
	row, _ := v.Outcomes(asm)
	return row
}

// accepted reports whether a candidate was accepted on a family target.
func accepted(v *merge.Verification, tIndex map[string]int) bool {
	for _, c := range v.Candidates {
		row := lineRow(v, c.Asm)
		for _, t := range v.FamilyTargets {
			if i, ok := tIndex[t]; ok && i < len(row) && row[i].Supported {
				return true
			}
		}
	}
	return false
}

// nameKnown reports whether llvm-mc knows the bare name on a family target.
func nameKnown(v *merge.Verification, tIndex map[string]int) bool {
	row := lineRow(v, v.Probe)
	for _, t := range v.FamilyTargets {
		if i, ok := tIndex[t]; ok && i < len(row) && !merge.NameRejected(row[i].Error) {
			return true
		}
	}
	return false
}

// genericShapes are operand patterns common across AMD encodings, tried
// after the patterns of similar instructions.
var genericShapes = []string{
	"", "0", "s1", "s[2:3]", "s1, s2", "s1, s2, s3", "s[2:3], s[4:5]", "s[2:3], s[4:5], s[6:7]", "s[2:3], s[4:5], s1",
	"v1", "v1, v2", "v1, v2, v3", "v1, v2, v3, v4", "v[2:3], v[4:5]", "v[2:3], v[4:5], v[6:7]",
	"v[2:3], v[4:5], v[6:7], v[8:9]", "v1, v[2:3]", "v[2:3], v1", "v[2:3], v1, v2", "v1, v[2:3], v[4:5]",
	"v1, v[2:3], off", "v[2:3], v1, off", "v[2:3], v[4:5], off", "v1, v2, s[2:3]", "v[2:3], off", "v1, off",
}

// shapes returns operand patterns to try for a name: those of built
// examples whose names share the first two words (global_load_*), then
// the first word (global_*), most common first, then genericShapes.
func (p *candidatePool) shapes(name string) []string {
	p.shapeOnce.Do(p.indexShapes)
	var out []string
	seen := map[string]bool{}
	add := func(list []string) {
		for _, s := range list {
			if len(out) >= maxShapes {
				return
			}
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	words := strings.Split(name, "_")
	if len(words) >= 2 {
		add(p.shapeBy[words[0]+"_"+words[1]])
	}
	add(p.shapeBy[words[0]])
	add(genericShapes)
	return out
}

// indexShapes collects the operand patterns of every built example by the
// first one and two words of its name, most common first.
func (p *candidatePool) indexShapes() {
	counts := map[string]map[string]int{}
	for name, list := range p.built {
		if strings.HasPrefix(name, "v_dual_") {
			continue
		}
		words := strings.Split(name, "_")
		keys := []string{words[0]}
		if len(words) >= 2 {
			keys = append(keys, words[0]+"_"+words[1])
		}
		for _, b := range list {
			_, ops, _ := strings.Cut(b.asm, " ")
			for _, k := range keys {
				if counts[k] == nil {
					counts[k] = map[string]int{}
				}
				counts[k][ops]++
			}
		}
	}
	p.shapeBy = map[string][]string{}
	for k, m := range counts {
		list := make([]string, 0, len(m))
		for ops := range m {
			list = append(list, ops)
		}
		sort.Slice(list, func(i, j int) bool {
			if m[list[i]] != m[list[j]] {
				return m[list[i]] > m[list[j]]
			}
			return list[i] < list[j]
		})
		p.shapeBy[k] = list
	}
}

// runStats is what llvm-mc's run r over the batch did.
func runStats(b *verify.Batch, r verify.Results) quality.RunStats {
	return quality.RunStats{Lines: len(b.Inputs), Processes: r.Processes, Assembled: r.Assembled, CacheHits: r.CacheHits}
}

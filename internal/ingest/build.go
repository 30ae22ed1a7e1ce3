// Package ingest runs the whole pipeline behind `gpuisa build`: it finds the
// upstream sources, runs every reader, merges their output into the model and
// writes the SQLite database atomically.
package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/quality"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// Version is gpuisa's version, recorded in every database.
const Version = "0.1.0"

// Options configures a build.
type Options struct {
	Sources string // upstream sources directory (see SourcesDir)
	Out     string // database path
	// Progress receives progress; nil means silent.
	Progress Progress
	// LLVMDocDir is LLVM's AMDGPU syntax pages (html/AMDGPU); "" finds the
	// llvm-22-doc package's copy.
	LLVMDocDir string
	// LLVMProject is an llvm-project checkout whose llvm/test/MC/AMDGPU
	// tests give verbatim examples; "" means none.
	LLVMProject string
	// CacheDir keeps llvm-mc results between builds; "" means the user
	// cache directory.
	CacheDir string
	// ConceptsDir replaces the built-in concept catalogue (for editing it).
	ConceptsDir string
	// NoVerify skips running llvm-mc and ptxas (pages then say "not yet
	// verified").
	NoVerify bool
	// AllowPartial builds from an incomplete or damaged source tree: what
	// the source gate rejects (see gate.go) is left out, or for a readable
	// file that lacks some of its facts kept as it is, and every gap is
	// listed among the problems, which the quality report shows. Without it
	// any such gap is an upstream error (exit status 3).
	AllowPartial bool
	// NoPTXAS skips ptxas alone; NoInstall keeps the build from installing
	// NVIDIA's wheels into the cache when no ptxas is found, and Debian's
	// llvm-22 and llvm-22-doc when they are missing (see ensureLLVM).
	NoPTXAS, NoInstall bool
	// PTXAS are ptxas binaries to use (default: $GPUISA_PTXAS, the cache's
	// venv, PATH); NVDisasm likewise for nvdisasm.
	PTXAS    []string
	NVDisasm string
	// Log receives messages a build prints outside its progress steps
	// (installing NVIDIA's wheels or LLVM 22, what an older LLVM could not
	// check); nil discards them.
	Log io.Writer
	// Timings is a results file of `gpuisa ptx bench` run on a GPU (else
	// $GPUISA_TIMINGS); "" means none: PTX pages then show no measurement.
	Timings string
	// SemResults is a results file of `gpuisa semgpu` run on a GPU (else
	// $GPUISA_SEM_RESULTS); "" means none: the PTX models are then checked
	// against nothing but the documentation they were written from.
	SemResults string
	// Answers renders the site's pages from the database as written, to be
	// stored in it (the CLI passes the web server's renderer: a fresh
	// server's first request for a page is then a row read); nil stores
	// none and the server renders each page on its first request.
	Answers store.AnswerFunc
	// AnswersBy is the identity Answers stamps on its answers (its
	// renderer's version): the previous database at Out keeps its answers
	// when that renderer rendered them from the same rows (store.Build).
	AnswersBy string
	// PageCache is the page cache's directory (store.Build.AnswersCache):
	// a build of the same rows by the same renderer copies the answers an
	// earlier build kept there instead of rendering them; "" keeps none.
	PageCache string
	// Provisional is what this build leaves for a later one to verify
	// (isa.BuildInfo.Provisional): serve builds such a database for its
	// first answers and verifies it in the background.
	Provisional string
}

// Progress reports the pipeline's steps.
type Progress interface {
	Start(step string, total int)
	Advance(n int)
	Done()
}

// step runs fn as one step of prog, titled title.
func step(prog Progress, title string, fn func()) {
	prog.Start(title, 1)
	fn()
	prog.Advance(1)
	prog.Done()
}

// Report summarises a build.
type Report struct {
	Out      string
	Counts   map[string]int
	Problems []string // what readers could not recover, "family: line N: ..."
	Elapsed  time.Duration
}

// SourcesDir returns the sources directory: the flag, else $GPUISA_SOURCES,
// else ../shared/upstream (relative to the working directory) when it exists.
func SourcesDir(flag string) (string, error) {
	if flag != "" {
		return checkDir(flag)
	}
	if env := os.Getenv("GPUISA_SOURCES"); env != "" {
		return checkDir(env)
	}
	if dir, err := checkDir(filepath.Join("..", "shared", "upstream")); err == nil {
		return dir, nil
	}
	return "", errs.Invalid("no sources: pass --sources DIR or set GPUISA_SOURCES (../shared/upstream does not exist)")
}

func checkDir(dir string) (string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return "", errs.Invalid("sources directory %s: %v", dir, err)
	}
	if !st.IsDir() {
		return "", errs.Invalid("sources %s is not a directory", dir)
	}
	return dir, nil
}

// Run builds the database. On any error the previous database at opts.Out is
// left untouched.
func Run(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	if opts.Progress == nil {
		opts.Progress = nopProgress{}
	}
	src, err := SourcesDir(opts.Sources)
	if err != nil {
		return nil, err
	}
	gate, err := gateSources(ctx, src, opts.AllowPartial)
	if err != nil {
		return nil, err
	}
	defer gate.cleanup()
	src = gate.src
	rep := &Report{Out: opts.Out, Problems: gate.problems}
	var docs []isa.Document

	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	ensureLLVM(ctx, opts, log)

	archs, insts, amdDocs, problems, err := loadAMD(ctx, src, opts.Progress)
	if err != nil {
		return nil, err
	}
	docs = append(docs, amdDocs...)
	rep.Problems = append(rep.Problems, problems...)

	llvm, err := ApplyLLVM(ctx, opts, archs, insts, opts.Progress)
	if err != nil {
		return nil, err
	}
	insts = append(insts, llvm.Added...)
	docs = append(docs, llvm.Documents...)
	rep.Problems = append(rep.Problems, llvm.Problems...)
	if doc, problem := applyProcessors(opts, archs); doc != nil {
		docs = append(docs, *doc)
	} else if problem != "" {
		rep.Problems = append(rep.Problems, problem)
	}

	if !opts.NoVerify {
		doc, costs, err := applyMCA(ctx, opts, insts, opts.Progress)
		if err != nil {
			return nil, fmt.Errorf("llvm-mca: %w", err)
		}
		if doc != nil {
			docs = append(docs, *doc)
		}
		llvm.Report.Cost = costs
	}

	// llvm-mc runs again only for the concept catalogue's proposals, after
	// the PTX stages: its loaded caches are released until then.
	verify.ReleaseCaches()

	extras := map[string][]byte{}
	ptxArch, ptxInsts, ptxDocs, ptxProblems, ptxModel, ptxVersion, err := readPTX(src, opts.Progress)
	if err != nil {
		return nil, err
	}
	if ptxArch != nil {
		var sassTools *ptxas.Tools
		if !opts.NoVerify && !opts.NoPTXAS {
			pres, err := applyPTXAS(ctx, opts, ptxModel, ptxInsts, ptxVersion, opts.Progress)
			if err != nil {
				return nil, fmt.Errorf("ptxas: %w", err)
			}
			ptxArch.Documents = append(ptxArch.Documents, pres.Documents...)
			ptxDocs = append(ptxDocs, pres.Documents...)
			ptxProblems = append(ptxProblems, pres.Problems...)
			llvm.Report.PTX = pres.Report
			sassTools = pres.Tools
		} else {
			llvm.Report.PTX = &quality.PTXReport{Notes: []string{"not verified by ptxas: the build ran with --no-verify or --no-ptxas"}}
		}
		if doc, err := applyTimings(opts, ptxModel, ptxInsts); err != nil {
			return nil, err
		} else if doc != nil {
			ptxArch.Documents = append(ptxArch.Documents, *doc)
			ptxDocs = append(ptxDocs, *doc)
		}
		archs = append(archs, *ptxArch)
		insts = append(insts, ptxInsts...)
		docs = append(docs, ptxDocs...)
		rep.Problems = append(rep.Problems, ptxProblems...)
		var raw []byte
		var sassErr error
		step(opts.Progress, "deriving the SASS reference", func() { raw, sassErr = sassIndex(sassTools, ptxInsts) })
		if sassErr != nil {
			return nil, sassErr
		} else if raw != nil {
			extras[sassindex.Key] = raw
		}
		model, err := json.Marshal(ptxModel)
		if err != nil {
			return nil, err
		}
		extras[store.KeyPTXModel] = model
	}

	var cat *concepts.Catalogue
	if len(ptxInsts) > 0 {
		var files []byte
		var catProblems []string
		cat, files, catProblems, err = applyConcepts(opts.ConceptsDir, insts, opts.Progress, len(gate.gaps) > 0)
		if err != nil {
			return nil, err
		}
		rep.Problems = append(rep.Problems, catProblems...)
		extras[store.KeyConcepts] = files
		// What the catalogue proposes, assembled for every family target;
		// without llvm-mc `gpuisa port` assembles it when asked, or says
		// "not verified".
		if llvm.LLVMMC != "" {
			if extras[store.KeyConceptVerdicts], err = conceptVerdicts(ctx, cat, insts, llvm, opts.Progress); err != nil {
				return nil, err
			}
			verify.ReleaseCaches()
		}
	}

	// The pseudocode made executable: coverage, LLVM's folding, the
	// differences across vendors (sem.go).
	semRep, diffs, err := applySem(ctx, opts, insts, cat, opts.Progress)
	if err != nil {
		return nil, err
	}
	llvm.Report.Sem = semRep
	if diffs != nil {
		extras[store.KeySemDifferences] = diffs
	}

	// The report also carries what the readers could not recover.
	llvm.Report.ReaderProblems = rep.Problems
	logGaps(log, &llvm.Report)
	if extras[store.KeyQuality], err = json.Marshal(llvm.Report); err != nil {
		return nil, err
	}
	hashAs := map[string][]byte{}
	if hashAs[store.KeyQuality], err = json.Marshal(llvm.Report.WithoutRunCounters()); err != nil {
		return nil, err
	}

	codecProblems, err := prepareCodecs(opts, archs, insts, extras)
	if err != nil {
		return nil, err
	}
	rep.Problems = append(rep.Problems, codecProblems...)

	counts := map[string]int{}
	for _, in := range insts {
		counts[in.Arch]++
	}
	for i := range archs {
		archs[i].Count = counts[archs[i].ID]
	}
	if err := diffFacts(extras, archs, insts); err != nil {
		return nil, err
	}
	rep.Counts = counts
	info := isa.BuildInfo{Version: Version, Documents: docs, Counts: counts, Provisional: opts.Provisional}
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		var sec int64
		if _, err := fmt.Sscan(epoch, &sec); err == nil {
			info.Built = time.Unix(sec, 0).UTC().Format(time.RFC3339)
		}
	}
	opts.Progress.Start("writing "+opts.Out, 1)
	// The rows are written when the answers start rendering, the next step.
	var written sync.Once
	rowsWritten := func() { written.Do(func() { opts.Progress.Advance(1); opts.Progress.Done() }) }
	var answers store.AnswerFunc
	if opts.Answers != nil {
		answers = func(ctx context.Context, r store.Reader, put func(store.Answer) error) error {
			rowsWritten()
			return opts.Answers(ctx, r, put)
		}
	}
	if err := store.Write(ctx, opts.Out, &store.Build{Info: info, Archs: archs, Instructions: insts, Extras: extras, HashAs: hashAs, Answers: answers, AnswersBy: opts.AnswersBy, AnswersCache: opts.PageCache}); err != nil {
		return nil, fmt.Errorf("write %s: %w", opts.Out, err)
	}
	rowsWritten()
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// relPath records a source file relative to the sources directory, with
// forward slashes, so provenance does not depend on where sources live.
func relPath(src, path string) string {
	if rel, err := filepath.Rel(src, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

func readAMDGuides(ctx context.Context, src string, prog Progress) ([]isa.Architecture, []*isa.Instruction, []isa.Document, []string, error) {
	dir := filepath.Join(src, "amd-isa-manuals")
	type job struct {
		family, path string
	}
	var jobs []job
	for _, id := range isa.AMDArchIDs() {
		p := filepath.Join(dir, id, "README.md")
		if _, err := os.Stat(p); err == nil {
			jobs = append(jobs, job{id, p})
		}
	}
	if len(jobs) == 0 {
		return nil, nil, nil, nil, errs.Invalid("no AMD guides under %s (expected <family>/README.md)", dir)
	}
	prog.Start("reading AMD ISA guides", len(jobs))
	type result struct {
		guide *amdmanual.Guide
		err   error
	}
	results := make([]result, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	for i, j := range jobs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				results[i].err = ctx.Err()
				return
			}
			g, err := amdmanual.ParseFile(j.path, j.family)
			results[i] = result{g, err}
			mu.Lock()
			prog.Advance(1)
			mu.Unlock()
		})
	}
	wg.Wait()
	prog.Done()
	var archs []isa.Architecture
	var insts []*isa.Instruction
	var docs []isa.Document
	var problems []string
	for i, r := range results {
		if r.err != nil {
			if errors.Is(r.err, context.Canceled) {
				return nil, nil, nil, nil, r.err
			}
			return nil, nil, nil, nil, &errs.Error{Kind: errs.KindUpstream, Msg: "AMD guide", Err: r.err}
		}
		file := relPath(src, jobs[i].path)
		a, ins := merge.AMDGuide(r.guide, file)
		doc := isa.Document{
			Source: isa.SourceAMDManual, File: file, Title: r.guide.Title,
			Attribution: "AMD; Markdown conversion of the official PDF",
			License:     "AMD retains rights; shown with attribution as a reference",
		}
		a.Documents = append(a.Documents, doc)
		docs = append(docs, doc)
		archs = append(archs, a)
		insts = append(insts, ins...)
		for _, p := range r.guide.Problems {
			problems = append(problems, fmt.Sprintf("%s: %s", jobs[i].family, p.String()))
		}
	}
	return archs, insts, docs, problems, nil
}

type nopProgress struct{}

func (nopProgress) Start(string, int) {}
func (nopProgress) Advance(int)       {}
func (nopProgress) Done()             {}

// LineProgress writes one plain line per step, for logs and CI, with the
// step's wall time and the CPU time it took in gpuisa and in the tools it
// ran (cpuTimes).
type LineProgress struct {
	W          io.Writer
	step       string
	total      int
	n          int
	start      time.Time
	self, tool time.Duration
}

func (p *LineProgress) Start(step string, total int) {
	p.step, p.total, p.n, p.start = step, total, 0, time.Now()
	p.self, p.tool = cpuTimes()
	fmt.Fprintf(p.W, "%s…\n", step)
}
func (p *LineProgress) Advance(n int) { p.n += n }
func (p *LineProgress) Done() {
	self, tool := cpuTimes()
	fmt.Fprintf(p.W, "%s: %d/%d done in %s (CPU: gpuisa %s, tools %s)\n", p.step, p.n, p.total,
		time.Since(p.start).Round(time.Millisecond), (self - p.self).Round(10*time.Millisecond), (tool - p.tool).Round(10*time.Millisecond))
}

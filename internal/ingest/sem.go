package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmcap"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmfold"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/semgpu"
	"github.com/gpuisa/gpuisa/internal/oracle/semoracle"
	"github.com/gpuisa/gpuisa/internal/ptx/semptx"
	"github.com/gpuisa/gpuisa/internal/store/quality"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
	"github.com/gpuisa/gpuisa/internal/xvendor/semdiff"
)

// semRandom is the random cases per instruction the build's oracle check
// draws beside the special-value corpus (the tests draw more).
const semRandom = 100

// applySem evaluates the families' pseudocode (both notations: semFamilies): coverage per family,
// the comparison with LLVM's constant folding (opt, one process per target,
// cached; skipped with --no-verify or without opt), and the cross-vendor
// differences of the concept catalogue's relations by evaluation. It
// returns the report and the differences for the concept pages and port
// (store.KeySemDifferences); cat may be nil (no PTX sources).
func applySem(ctx context.Context, opts Options, insts []*isa.Instruction, cat *concepts.Catalogue, prog Progress) (*quality.SemReport, []byte, error) {
	rep := &quality.SemReport{Families: []quality.SemFamily{}, Groups: []quality.SemGroup{}, Checked: []quality.SemChecked{},
		Tolerated: []quality.SemTolerated{}, Findings: []quality.SemFinding{}, Contradictions: []quality.SemContradiction{}}
	texts := map[string]map[string]string{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD || in.Semantics == "" || !slices.Contains(semFamilies, in.Arch) {
			continue
		}
		if texts[in.Arch] == nil {
			texts[in.Arch] = map[string]string{}
		}
		texts[in.Arch][in.Name] = in.Semantics
	}
	libs := map[string]*sem.Library{}
	prog.Start("parsing and analysing the pseudocode", len(semFamilies))
	for _, fam := range semFamilies {
		if texts[fam] == nil {
			prog.Advance(1)
			continue
		}
		lib := sem.NewLibrary(fam, texts[fam])
		libs[fam] = lib
		f := quality.SemFamily{Arch: fam, Why: []quality.Count{}}
		why := map[string]int{}
		for _, n := range lib.Names() {
			in := lib.Get(n)
			f.Pages++
			switch {
			case in.Err != nil:
				why["does not parse"]++
			case !in.Executable():
				f.Parsed++
				why[problemKind(in.Info.Problems[0])]++
			default:
				f.Parsed++
				f.Executable++
			}
		}
		f.ParsedPct = 100 * float64(f.Parsed) / float64(max(f.Pages, 1))
		f.ExecPct = 100 * float64(f.Executable) / float64(max(f.Pages, 1))
		for k, n := range why {
			f.Why = append(f.Why, quality.Count{Key: k, Count: n})
		}
		sort.Slice(f.Why, func(i, j int) bool {
			if f.Why[i].Count != f.Why[j].Count {
				return f.Why[i].Count > f.Why[j].Count
			}
			return f.Why[i].Key < f.Why[j].Key
		})
		rep.Families = append(rep.Families, f)
		prog.Advance(1)
	}
	prog.Done()
	tol, err := semoracle.Tolerated()
	if err != nil {
		return nil, nil, err
	}
	if opts.NoVerify {
		rep.Notes = append(rep.Notes, "not checked against LLVM's constant folding: the build ran with --no-verify")
	} else if err := checkAgainstLLVM(ctx, opts, libs, tol, rep, prog); err != nil {
		return nil, nil, err
	}
	if err := applySemResults(opts, rep); err != nil {
		return nil, nil, err
	}
	var diffs []byte
	if cat != nil {
		var res *semdiff.Result
		kept := derivationFile(semCacheDir(opts), cat, libs)
		if diffs = loadDerivation(kept); diffs != nil {
			res = &semdiff.Result{}
			if json.Unmarshal(diffs, res) != nil {
				res, diffs = nil, nil
			}
		}
		if res == nil {
			step(prog, "deriving the cross-vendor differences by evaluation", func() {
				res = semdiff.Derive(cat, libs, semdiff.Options{Known: func(arch, name, kind string) string { return semoracle.Known(tol, arch, name, kind) }})
			})
		}
		rep.Pairs = len(res.Pairs)
		for _, p := range res.Pairs {
			if p.Differ > 0 {
				rep.Differing++
			}
		}
		for _, c := range res.Contradictions {
			rep.Contradictions = append(rep.Contradictions, quality.SemContradiction{Concept: c.Concept, PTX: c.PTX + c.Variant,
				Arch: c.Arch, AMD: c.AMD, Claim: c.Claim, Finding: c.Finding, Known: c.Known})
		}
		if diffs == nil {
			if diffs, err = json.Marshal(res); err != nil {
				return nil, nil, err
			}
			_ = keepDerivation(kept, diffs) // only saves time (keepDerivation)
		}
	}
	return rep, diffs, nil
}

// semCacheDir is where the pseudocode's checks are kept: the build's cache
// directory, else the user's.
func semCacheDir(opts Options) string {
	if opts.CacheDir != "" {
		return opts.CacheDir
	}
	return ptxas.DefaultCacheDir()
}

// semFamilies are the AMD families whose guide pseudocode the evaluator
// reads, line by line, oldest first: the newer notation's
// (isa.TraitPseudocode, semdiff.Families) and the older C-like one's
// (isa.TraitOldPseudocode).
var semFamilies = func() []string {
	var out []string
	for _, l := range isa.Lines() {
		for _, id := range isa.LineFamilies(l.ID) {
			if a := isa.MustArch(id); a.Has(isa.TraitPseudocode) || a.Has(isa.TraitOldPseudocode) {
				out = append(out, id)
			}
		}
	}
	return out
}()

// problemKind groups a why-not-executable message by its gist.
func problemKind(p string) string {
	switch {
	case strings.Contains(p, "Calc") && strings.Contains(p, "Addr"), strings.Contains(p, "MEM"), strings.Contains(p, "ADDR"),
		strings.Contains(p, "LDS"), strings.Contains(p, "DATA"):
		return "memory"
	case strings.HasPrefix(p, sem.MatrixProblem):
		return "matrix operation (sparse, scaled or of formats eval does not model)"
	case strings.Contains(p, "eval of a prose"), strings.Contains(p, "prose"):
		return "prose"
	case strings.HasPrefix(p, "calls "):
		return "calls an instruction that cannot run"
	case strings.HasPrefix(p, "unknown function"):
		return "unknown function"
	case strings.HasPrefix(p, "unknown name"):
		return "unknown name"
	case strings.Contains(p, "VGPR"), strings.Contains(p, "SGPR"), strings.Contains(p, "register file"):
		return "register file by index"
	case strings.HasPrefix(p, "state "):
		return "state not modelled"
	}
	return "other"
}

// checkAgainstLLVM runs semoracle and folds its results into the report.
func checkAgainstLLVM(ctx context.Context, opts Options, libs map[string]*sem.Library, tol []semoracle.Tolerance, rep *quality.SemReport, prog Progress) error {
	path, err := llvmfold.Find()
	if err != nil {
		if errors.Is(err, llvmfold.ErrNotFound) {
			rep.Notes = append(rep.Notes, "not checked against LLVM's constant folding: "+err.Error())
			return nil
		}
		return err
	}
	if gap := checkOpt(ctx, path, libs); gap != nil {
		rep.Notes = append(rep.Notes, "not checked against LLVM's constant folding: "+gap.Text)
		rep.Gap = gap
		return nil
	}
	cacheDir := semCacheDir(opts)
	prog.Start("checking the pseudocode against LLVM's constant folding", 1)
	res, err := semoracle.Check(ctx, libs, tol, semoracle.Options{Opt: path, CacheDir: cacheDir, Random: semRandom})
	prog.Advance(1)
	prog.Done()
	if err != nil {
		return fmt.Errorf("llvm constant folding: %w", err)
	}
	rep.Opt = res.Opt
	groups := map[string]*quality.SemGroup{}
	checked := map[string]map[string]bool{}
	type tolAgg struct {
		n     int
		where []string
		ex    string
	}
	tols := map[string]*tolAgg{}
	for _, r := range res.Results {
		if r.ErrorText != "" && r.Folded == 0 {
			continue // not executable: counted in the coverage
		}
		g := groups[r.Group]
		if g == nil {
			g = &quality.SemGroup{Group: r.Group}
			groups[r.Group] = g
		}
		g.Instructions++
		g.Cases += r.Cases
		g.Folded += r.Folded
		g.Agree += r.Agree
		g.Differ += r.Differ
		nt := 0
		for reason, n := range r.Tolerated {
			nt += n
			t := tols[reason]
			if t == nil {
				t = &tolAgg{}
				tols[reason] = t
			}
			t.n += n
			t.where = append(t.where, r.Arch+" "+r.Name)
			if t.ex == "" {
				ex := r.TolExamples[reason]
				t.ex = fmt.Sprintf("%s %s(%s): pseudocode %s, LLVM %s", r.Arch, r.Name, strings.Join(ex.Inputs, ", "), ex.AMD, ex.LLVM)
			}
		}
		g.Tolerated += nt
		if r.Folded > 0 {
			if checked[r.Arch] == nil {
				checked[r.Arch] = map[string]bool{}
			}
			checked[r.Arch][r.Name] = true
		}
		rep.Checked = append(rep.Checked, quality.SemChecked{Arch: r.Arch, Name: r.Name, Group: r.Group, Folded: r.Folded,
			Agree: r.Agree, Tolerated: nt, Differ: r.Differ})
		if r.Differ > 0 {
			ex := r.Examples[0]
			rep.Findings = append(rep.Findings, quality.SemFinding{Arch: r.Arch, Name: r.Name, Differ: r.Differ,
				Example: fmt.Sprintf("(%s): pseudocode %s, LLVM %s", strings.Join(ex.Inputs, ", "), ex.AMD, ex.LLVM)})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		rep.Groups = append(rep.Groups, *groups[k])
	}
	for _, reason := range slices.Sorted(maps.Keys(tols)) {
		t := tols[reason]
		rep.Tolerated = append(rep.Tolerated, quality.SemTolerated{Reason: reason, Count: t.n, Instructions: t.where, Example: t.ex})
	}
	sort.SliceStable(rep.Tolerated, func(i, j int) bool { return rep.Tolerated[i].Count > rep.Tolerated[j].Count })
	for i := range rep.Families {
		rep.Families[i].Checked = len(checked[rep.Families[i].Arch])
	}
	return nil
}

// applySemResults holds the PTX models to a GPU's results file, when given.
func applySemResults(opts Options, rep *quality.SemReport) error {
	path := opts.SemResults
	if path == "" {
		path = os.Getenv("GPUISA_SEM_RESULTS")
	}
	if path == "" {
		return nil
	}
	r, err := semgpu.Load(path)
	if err != nil {
		return err
	}
	b, err := semgpu.Generate(semptx.Models(), semgpu.Options{})
	if err != nil {
		return err
	}
	c := semgpu.Compare(b, r)
	h := &quality.SemHardware{File: path, GPU: c.GPU, Target: c.Target, Statements: c.Statements, Cases: c.Cases, Agree: c.Agree,
		Mismatches: []string{}, Missing: c.Missing}
	for _, m := range c.Mismatches {
		h.Mismatches = append(h.Mismatches, fmt.Sprintf("%s (%s): model %s, GPU %s", m.Statement, m.Inputs, m.Model, m.Hardware))
	}
	rep.Hardware = h
	return nil
}

// checkOpt asks the opt found to fold a few AMDGPU intrinsics (one
// process, on the first family's target): one older than the check needs
// reads none of its queries or folds them otherwise, and is skipped with
// the reason rather than given every family's queries.
func checkOpt(ctx context.Context, path string, libs map[string]*sem.Library) *quality.OracleGap {
	target := ""
	for _, a := range isa.AMDArchIDs() {
		if libs[a] != nil && semoracle.Target(a) != "" {
			target = semoracle.Target(a)
			break
		}
	}
	if target == "" {
		return nil
	}
	err := llvmfold.Capable(ctx, path, target)
	if err == nil {
		return nil
	}
	version, _ := llvmfold.Version(ctx, path)
	var names []string
	for _, a := range isa.AMDArchIDs() {
		if libs[a] != nil {
			if arch, ok := isa.LookupArch(a); ok {
				names = append(names, arch.Name)
			}
		}
	}
	return &quality.OracleGap{Tool: "opt", Version: version, Step: "semantics check", Families: names,
		Text: strings.Join(names, ", ") + ": pseudocode not checked against LLVM's constant folding: " + llvmcap.Short("opt", version) + ": " + err.Error(),
		Fix:  llvmcap.InstallCommand}
}

package cudacorpus

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

var (
	// sm_90a: wgmma and setmaxnreg exist only on the architecture-specific target.
	corpusTargets = flag.String("corpus.targets", "sm_75,sm_80,sm_90,sm_90a,sm_100,sm_120", "targets nvcc compiles the corpus for (comma list, or \"all\" for every one nvcc supports)")
	corpusSeed    = flag.Int64("corpus.seed", 1, "seed of the statements mutated")
	corpusPerKind = flag.Int("corpus.perkind", 2, "mutants of each statement kind per file")
	corpusDocs    = flag.Bool("corpus.docs", false, "judge the model built from the PTX documents in-process (no ptxas verdicts: a reader change measured before a database is rebuilt; what only the verdicts settle, fma{.oob}'s sm_90 among them, fails there) instead of $GPUISA_DB's")
	corpusShowTol = flag.Bool("corpus.showtolerated", false, "log every difference testdata/tolerated.txt tolerates")
)

// corpusModel is the checker's model from the database $GPUISA_DB names:
// the one gpuisa serves, with ptxas's recorded verdicts. The documents'
// notes alone are not what the checker answers with (fma{.oob}'s note,
// read without ptxas, raises every fma.f16 to sm_90), so without a
// database the test skips; -corpus.docs judges the documents' model
// anyway, to measure a reader change before a database is rebuilt.
func corpusModel(t *testing.T) ([]ptx.Instruction, string) {
	if *corpusDocs {
		secs, err := ptxdoc.ReadDir(testenv.PTXDocs(t))
		if err != nil {
			t.Fatal(err)
		}
		instrs, _ := ptx.Build(secs)
		return instrs, "the documents (-corpus.docs: no ptxas verdicts)"
	}
	p := os.Getenv("GPUISA_DB")
	if p == "" {
		t.Skip("GPUISA_DB not set: the corpus test judges the checker of a built database (GPUISA_DB=/path/gpuisa.db go test ./internal/oracle/cudacorpus)")
	}
	db, err := store.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, err := db.Extra(context.Background(), store.KeyPTXModel)
	if err != nil {
		t.Fatal(err)
	}
	var instrs []ptx.Instruction
	if err := json.Unmarshal(raw, &instrs); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return instrs, "database " + p
}

func corpusNVCC(t *testing.T) *NVCC {
	p := os.Getenv("GPUISA_NVCC")
	if p == "" {
		p = ptxas.NVCC(ptxas.DefaultCacheDir())
	}
	if p == "" {
		t.Skip("nvcc with its front end not installed (`go run ./cmd/gpuisa tools install`, or set GPUISA_NVCC): skipping the CUDA corpus")
	}
	n, err := Probe(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// tolerated is one known difference (testdata/tolerated.txt): which side
// accepts, the opcode (a regular expression), the kind of file, why.
type tolerated struct {
	ptxasValid bool
	opcode     *regexp.Regexp
	kind       *regexp.Regexp
	reason     string
}

func readTolerated(t *testing.T) []tolerated {
	var out []tolerated
	for _, r := range testenv.ReadTable(t, filepath.Join("testdata", "tolerated.txt"), "|", 4) {
		op, err := regexp.Compile("^(?:" + r.Fields[1] + ")$")
		if err != nil {
			t.Fatalf("testdata/tolerated.txt:%d: %v", r.Line, err)
		}
		kind, err := regexp.Compile("^(?:" + r.Fields[2] + ")$")
		if err != nil {
			t.Fatalf("testdata/tolerated.txt:%d: %v", r.Line, err)
		}
		if r.Fields[0] != "ptxas-valid" && r.Fields[0] != "ptxas-invalid" {
			t.Fatalf("testdata/tolerated.txt:%d: first field %q: want ptxas-valid or ptxas-invalid", r.Line, r.Fields[0])
		}
		out = append(out, tolerated{r.Fields[0] == "ptxas-valid", op, kind, r.Fields[3]})
	}
	return out
}

// corpusFile is one PTX file to judge: nvcc's output or a mutant.
type corpusFile struct {
	name, kind, target, src string
	parent                  int // the nvcc output a mutant comes from (index in the files); -1 for nvcc's
}

// TestCorpusAgreesWithPTXAS compiles the CUDA corpus for the targets,
// mutates each file and compares the checker's verdicts, per file and per
// statement line, with ptxas's on the same file. Differences must be in
// testdata/tolerated.txt; the agreement per mnemonic group is logged.
func TestCorpusAgreesWithPTXAS(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the CUDA corpus compiles with nvcc and assembles with ptxas")
	}
	instrs, from := corpusModel(t)
	nvcc := corpusNVCC(t)
	tools := testenv.PTXAS(t)
	checker := ptx.NewChecker(instrs)
	cacheDir := ptxas.DefaultCacheDir()
	targets := nvcc.Targets
	if *corpusTargets != "all" {
		targets = strings.Split(*corpusTargets, ",")
	}
	files := compileCorpus(t, nvcc, cacheDir, targets)
	files = append(files, mutateCorpus(files, checker, nvcc.Targets)...)
	judge, err := NewJudge(ptxas.NewSession(tools, cacheDir), cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := judgeAll(t, judge, checker, files)
	if err := judge.Save(); err != nil {
		t.Error(err)
	}
	tol := readTolerated(t)
	report(t, files, verdicts, tol, from)
}

func compileCorpus(t *testing.T, nvcc *NVCC, cacheDir string, targets []string) []corpusFile {
	type job struct {
		k      Kernel
		target string
	}
	var jobs []job
	for _, tg := range targets {
		for _, k := range Kernels() {
			jobs = append(jobs, job{k, tg})
		}
	}
	out := make([]corpusFile, len(jobs))
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		src, err := nvcc.Compile(context.Background(), cacheDir, j.k, j.target)
		if err != nil {
			t.Errorf("%s for %s: %v", j.k.Name, j.target, err)
			return
		}
		out[i] = corpusFile{name: j.k.Name + "@" + j.target, kind: "nvcc", target: j.target, src: src, parent: -1}
	})
	var ok []corpusFile
	for _, f := range out {
		if f.src != "" {
			ok = append(ok, f)
		}
	}
	return ok
}

// mutateCorpus derives mutants of every file: its .target lowered to each
// lower target nvcc knows, its .version lowered to the .target's own
// introduction and to one version between, and statement changes.
func mutateCorpus(files []corpusFile, c *ptx.Checker, all []string) []corpusFile {
	rnd := rand.New(rand.NewSource(*corpusSeed))
	var out []corpusFile
	for fi, f := range files {
		var lower []string
		for _, tg := range all {
			if ptxorder.CompareTargets(tg, f.target) < 0 && ptxorder.TargetSuffix(tg) == "" {
				lower = append(lower, tg)
			}
		}
		var versions []string
		if intro := c.TargetIntroduced(f.target); intro != "" {
			versions = append(versions, intro)
			vs := ptxorder.VersionsUpTo("9.5")
			for i, v := range vs {
				if v == intro && i+3 < len(vs) {
					versions = append(versions, vs[i+3])
				}
			}
		}
		for _, m := range Mutations(f.src, lower, versions, *corpusPerKind, rnd) {
			tg := f.target
			if m.Kind == MutTarget {
				tg = strings.TrimSpace(m.What[strings.Index(m.What, "->")+2:])
			}
			out = append(out, corpusFile{name: fmt.Sprintf("%s %s (%s)", f.name, m.Kind, m.What), kind: m.Kind, target: tg, src: m.Src, parent: fi})
		}
	}
	return out
}

func judgeAll(t *testing.T, j *Judge, c *ptx.Checker, files []corpusFile) []Verdict {
	out := make([]Verdict, len(files))
	parallel(len(files), func(i int) {
		f := files[i]
		msgs, err := j.Messages(context.Background(), f.target, f.src)
		if err != nil {
			t.Errorf("%s: ptxas: %v", f.name, err)
			return
		}
		out[i] = Compare(c.CheckSource(f.name, f.src), msgs)
	})
	return out
}

func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// report logs the agreement and fails on every difference the table does
// not tolerate, and on agreement under the acceptance's 99.5%.
func report(t *testing.T, files []corpusFile, vs []Verdict, tol []tolerated, from string) {
	groups, kinds := map[string]*Count{}, map[string]*Count{}
	var lines, agree, fileAgree, tolerated int
	for i, v := range vs {
		f := files[i]
		if kinds[f.kind] == nil {
			kinds[f.kind] = &Count{}
		}
		kinds[f.kind].Lines++
		if v.PTXASValid == v.CheckerValid {
			fileAgree++
			kinds[f.kind].Agree++
		} else if len(v.Lines) == 0 {
			t.Logf("%s: file verdicts differ on no statement line: ptxas valid=%v, checker valid=%v", f.name, v.PTXASValid, v.CheckerValid)
		}
		for g, c := range v.ByGroup {
			if groups[g] == nil {
				groups[g] = &Count{}
			}
			groups[g].Lines += c.Lines
			groups[g].Agree += c.Agree
		}
		lines += v.Statements
		agree += v.Statements - len(v.Lines)
		for _, d := range v.Lines {
			if why := tolerate(tol, d, f.kind); why != "" {
				if *corpusShowTol {
					t.Logf("TOL %s:%d: %s: ptxas valid=%v (%s), checker: %s", f.name, d.Line, d.Text, d.PTXASValid, d.PTXAS, d.Checker)
				}
				tolerated++
				continue
			}
			t.Errorf("%s:%d: %s: ptxas valid=%v (%s), checker: %s", f.name, d.Line, d.Text, d.PTXASValid, d.PTXAS, d.Checker)
		}
	}
	t.Logf("model from %s; %d files (%d nvcc outputs and mutants), %d statement lines", from, len(files), len(files), lines)
	t.Logf("per file: %d of %d agree (%.2f%%)", fileAgree, len(files), pct(fileAgree, len(files)))
	var kb strings.Builder
	for _, k := range []string{"nvcc", MutTarget, MutVersion, MutDropSync, MutDropAlign, MutType, MutOperand, MutStateSpace} {
		if c := kinds[k]; c != nil {
			fmt.Fprintf(&kb, "  %-20s %5d files %7.2f%%\n", k, c.Lines, pct(c.Agree, c.Lines))
		}
	}
	t.Logf("per file and kind:\n%s", kb.String())
	t.Logf("per line: %d of %d agree (%.3f%%); %d differences tolerated by testdata/tolerated.txt", agree, lines, pct(agree, lines), tolerated)
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, g := range names {
		c := groups[g]
		fmt.Fprintf(&b, "  %-12s %6d lines %7.2f%%\n", g, c.Lines, pct(c.Agree, c.Lines))
	}
	t.Logf("per mnemonic group:\n%s", b.String())
	if pct(agree, lines) < 99.5 {
		t.Errorf("per-line agreement %.3f%% is under 99.5%%", pct(agree, lines))
	}
	minimaAgreement(t, files, vs)
}

// minimaAgreement logs how often the checker's minimum PTX ISA version
// and target for a line ptxas accepts in nvcc's output agree with
// ptxas's: the line's verdicts in every mutant of the file with its
// .target lowered (each lower target nvcc knows) and its .version
// lowered agree with ptxas's there. Per mnemonic group; the whole must
// reach 99%.
func minimaAgreement(t *testing.T, files []corpusFile, vs []Verdict) {
	type key struct{ file, line int }
	missT, missV := map[key]bool{}, map[key]bool{}
	for i, f := range files {
		if f.parent < 0 || f.kind != MutTarget && f.kind != MutVersion {
			continue
		}
		for _, d := range vs[i].Lines {
			if f.kind == MutTarget {
				missT[key{f.parent, d.Line}] = true
			} else {
				missV[key{f.parent, d.Line}] = true
			}
		}
	}
	tg, vg := map[string]*Count{}, map[string]*Count{}
	var all Count
	for i, f := range files {
		if f.parent >= 0 {
			continue
		}
		for line, g := range vs[i].Groups {
			if vs[i].PTXASBad[line] {
				continue
			}
			for _, m := range []struct {
				c    map[string]*Count
				miss map[key]bool
			}{{tg, missT}, {vg, missV}} {
				if m.c[g] == nil {
					m.c[g] = &Count{}
				}
				m.c[g].Lines++
				all.Lines++
				if !m.miss[key{i, line}] {
					m.c[g].Agree++
					all.Agree++
				}
			}
		}
	}
	names := make([]string, 0, len(tg))
	for g := range tg {
		names = append(names, g)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, g := range names {
		fmt.Fprintf(&b, "  %-12s %6d lines  target %7.2f%%  version %7.2f%%\n", g, tg[g].Lines, pct(tg[g].Agree, tg[g].Lines), pct(vg[g].Agree, vg[g].Lines))
	}
	t.Logf("minimum target and version of the lines ptxas accepts in nvcc's output, per mnemonic group (agreeing in every lowered mutant):\n%s", b.String())
	t.Logf("minimum target and version: %d of %d agree (%.3f%%)", all.Agree, all.Lines, pct(all.Agree, all.Lines))
	if pct(all.Agree, all.Lines) < 99 {
		t.Errorf("minimum target and version agreement %.3f%% is under 99%%", pct(all.Agree, all.Lines))
	}
}

func tolerate(tol []tolerated, d LineDiff, kind string) string {
	op := Opcode(d.Text)
	for _, x := range tol {
		if x.ptxasValid == d.PTXASValid && x.opcode.MatchString(op) && x.kind.MatchString(kind) {
			return x.reason
		}
	}
	return ""
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

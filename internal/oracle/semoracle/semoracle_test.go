package semoracle

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/amd/sem/semtest"
	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmfold"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
)

func guideLibraries(t *testing.T, fams []string) map[string]*sem.Library {
	libs := map[string]*sem.Library{}
	for _, fam := range fams {
		libs[fam] = sem.NewLibrary(fam, semtest.Pseudocode(t, fam))
	}
	return libs
}

// TestAgainstLLVM is the oracle check of issue 21: every instruction with
// a folding LLVM counterpart agrees bit for bit on the corpus except the
// differences testdata/tolerated.tsv lists.
func TestAgainstLLVM(t *testing.T) {
	if _, err := llvmfold.Find(); err != nil {
		t.Skipf("no opt: %v", err)
	}
	fams := []string{"rdna3", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5", "rdna1", "rdna2", "cdna1", "cdna2", "vega", "vega7"}
	if f := os.Getenv("GPUISA_SEM_FAMILIES"); f != "" {
		fams = strings.Split(f, ",")
	}
	libs := guideLibraries(t, fams)
	tol, err := Tolerated()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Check(context.Background(), libs, tol, Options{CacheDir: ptxas.DefaultCacheDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d opt processes, %d queries folded, %d from the cache", rep.Opt, rep.Stats.Processes, rep.Stats.Folded, rep.Stats.CacheHits)
	type agg struct{ insts, cases, folded, agree, tolerated, differ int }
	groups := map[string]*agg{}
	for _, r := range rep.Results {
		g := groups[r.Group]
		if g == nil {
			g = &agg{}
			groups[r.Group] = g
		}
		g.insts++
		g.cases += r.Cases
		g.folded += r.Folded
		g.agree += r.Agree
		for _, n := range r.Tolerated {
			g.tolerated += n
		}
		g.differ += r.Differ
		if r.Differ > 0 || r.Errors > 0 {
			t.Errorf("%s %s: %d of %d folded cases differ, %d evaluator errors %s", r.Arch, r.Name, r.Differ, r.Folded, r.Errors, r.ErrorText)
			for _, ex := range r.Examples {
				t.Logf("    %v (%v): pseudocode %s, LLVM %s", ex.Inputs, ex.Classes, ex.AMD, ex.LLVM)
			}
		}
	}
	// What each row allows, so the table's size is measured, not assumed.
	used := map[string]int{}
	for _, r := range rep.Results {
		for why, n := range r.Tolerated {
			used[why] += n
		}
	}
	for _, row := range tol {
		t.Logf("testdata/tolerated.tsv:%d %-22s %-6s %-15s %6d cases", row.Line, row.Instruction, row.Families, row.Kind, used[row.Reason])
	}
	if os.Getenv("GPUISA_SEM_FAMILIES") == "" {
		// Every row must still allow something: a row the evaluator no
		// longer needs (a reading fixed) is dropped, not kept as slack.
		for _, row := range tol {
			if used[row.Reason] == 0 {
				t.Errorf("testdata/tolerated.tsv:%d (%s %s %s) tolerates no difference: drop it", row.Line, row.Instruction, row.Families, row.Kind)
			}
		}
	}
	names := slices.Sorted(maps.Keys(groups))
	for _, n := range names {
		g := groups[n]
		t.Logf("%-11s %3d instructions, %7d cases, %7d folded: %7d agree, %6d tolerated, %5d differ", n, g.insts, g.cases, g.folded, g.agree, g.tolerated, g.differ)
	}
}

// TestKeptChecksShareAFile: checks of other code or pseudocode kept after
// one leave it readable until keptChecks newer ones were kept; then the
// oldest go and the newest stay.
func TestKeptChecksShareAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "semcheck-cdna4.gob")
	kept := func(i int) *keptFamily { return &keptFamily{file: file, key: fmt.Sprintf("key%d", i), version: "v"} }
	res := []Result{{Group: "max"}}
	for i := range keptChecks + 3 {
		if err := kept(i).save(res, i); err != nil {
			t.Fatal(err)
		}
		if _, _, ok := kept(0).load(); ok != (i < keptChecks) {
			t.Errorf("after %d more kept: the first check readable %v, want %v", i, ok, i < keptChecks)
		}
	}
	got, st, ok := kept(keptChecks + 2).load()
	if !ok || len(got) != 1 || got[0].Group != "max" || st.CacheHits != keptChecks+2 {
		t.Errorf("the newest check read back as %+v, %+v, %v", got, st, ok)
	}
	m, err := filecache.Load[keptEntry](file)
	if err != nil || len(m) != keptChecks {
		t.Errorf("the file keeps %d checks (%v), want %d", len(m), err, keptChecks)
	}
}

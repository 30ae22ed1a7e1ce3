package ingest

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmcap"
	"github.com/gpuisa/gpuisa/internal/store/quality"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// llvm14Path puts wrappers of LLVM 14's tools alone on PATH, each logging
// its arguments; it skips loudly without LLVM 14.
func llvm14Path(t *testing.T) (log string) {
	t.Helper()
	_, log = testenv.LLVM14Only(t, "llvm-mc", "llvm-mca", "opt")
	return log
}

// TestLLVM14Steps: with only LLVM 14 on PATH the build's LLVM steps
// finish at once: llvm-mc's gaps name every family whose targets it does
// not know, with the fix, and are logged once; llvm-mca 14 is never run
// with the flags it lacks (asked once, then skipped); opt 14 is given no
// family's queries. The report's text and gaps say so.
func TestLLVM14Steps(t *testing.T) {
	log := llvm14Path(t)
	ctx := context.Background()
	start := time.Now()

	p := &llvmPass{ctx: ctx, prog: nopProgress{}, res: &LLVMResult{}, rep: &quality.Report{}, llvmMC: "llvm-mc"}
	if err := p.findTargets(); err != nil {
		t.Fatal(err)
	}
	if len(p.rep.Gaps) == 0 {
		t.Fatal("llvm-mc 14: no gap reported")
	}
	named := map[string]bool{}
	for _, g := range p.rep.Gaps {
		if g.Fix != llvmcap.InstallCommand || g.Step != quality.StepTargets || len(g.Targets) == 0 {
			t.Errorf("gap %+v: want the install command, the step and the targets", g)
		}
		for _, f := range g.Families {
			named[f] = true
		}
	}
	for _, a := range isa.Archs() {
		lacks := false
		for _, tgt := range a.Targets {
			lacks = lacks || !contains(p.targets, tgt)
		}
		if a.Vendor == isa.VendorAMD && lacks != named[a.Name] {
			t.Errorf("%s: lacks a target %v, named %v", a.Name, lacks, named[a.Name])
		}
	}

	// llvm-mca: the examples of one instruction on the targets llvm-mc
	// 14 knows.
	in := &isa.Instruction{Vendor: isa.VendorAMD, Arch: "x", Name: "s_nop", Targets: map[string]string{},
		Examples: []isa.Example{{Asm: "s_nop 0", Encoding: "[0x00,0x00,0x80,0xbf]"}}}
	for _, tgt := range p.targets {
		in.Targets[tgt] = "supported"
	}
	doc, cost, err := applyMCA(ctx, Options{CacheDir: t.TempDir()}, []*isa.Instruction{in}, nopProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if doc != nil || cost.Gap == nil || cost.Gap.Fix != llvmcap.InstallCommand || len(in.Cost) != 0 {
		t.Errorf("llvm-mca 14: doc %v, gap %+v, costs %v; want skipped with the fix", doc, cost.Gap, in.Cost)
	}

	libs := map[string]*sem.Library{}
	for _, a := range isa.AMDArchIDs() {
		libs[a] = &sem.Library{Arch: a}
	}
	gap := checkOpt(ctx, "opt", libs)
	if gap == nil || gap.Fix != llvmcap.InstallCommand || len(gap.Families) != len(libs) {
		t.Errorf("opt 14: gap %+v, want every family named with the fix", gap)
	}
	t.Logf("LLVM 14's steps in %s", time.Since(start).Round(time.Millisecond))

	calls, _ := os.ReadFile(log)
	opts := 0
	for _, l := range strings.Split(strings.TrimSpace(string(calls)), "\n") {
		if strings.HasPrefix(l, "llvm-mca ") && strings.Contains(l, "-instruction-tables") && !strings.Contains(l, "-mcpu=help") {
			t.Errorf("llvm-mca 14 run on a target with flags it lacks: %s", l)
		}
		if strings.HasPrefix(l, "opt ") && !strings.Contains(l, "--version") {
			opts++
		}
	}
	if opts != 1 { // the probe alone
		t.Errorf("opt 14 given queries %d times, want once (the probe):\n%s", opts, calls)
	}

	rep := quality.Report{Gaps: p.rep.Gaps, Cost: cost, Sem: &quality.SemReport{Gap: gap}}
	var logged, summary bytes.Buffer
	logGaps(&logged, &rep)
	if err := quality.WriteSummary(&summary, rep); err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.OracleGaps() {
		if strings.Count(logged.String(), g.Text) != 1 || !strings.Contains(summary.String(), g.Text) {
			t.Errorf("gap %q: logged %d times; in the summary: %v", g.Text, strings.Count(logged.String(), g.Text), strings.Contains(summary.String(), g.Text))
		}
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

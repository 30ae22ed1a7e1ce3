package ingest

import (
	"context"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/mca"
	"github.com/gpuisa/gpuisa/internal/store/costview"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// costFixture is the AMD model with llvm-mc's verdicts and llvm-mca's costs.
func costFixture(t *testing.T) []*isa.Instruction {
	t.Helper()
	src := upstreamDir(t)
	testenv.LLVMMC(t)
	if _, err := mca.Find(); err != nil {
		t.Skipf("llvm-mca not installed (apt-get install llvm-22): %v", err)
	}
	ctx := context.Background()
	archs, insts, _, err := LoadAMD(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyLLVM(ctx, Options{Sources: src}, archs, insts, nil)
	if err != nil {
		t.Fatal(err)
	}
	insts = append(insts, res.Added...)
	if _, _, err := applyMCA(ctx, Options{}, insts, nopProgress{}); err != nil {
		t.Fatal(err)
	}
	return insts
}

func TestCostFacts(t *testing.T) {
	insts := costFixture(t)
	find := func(arch, name string) *isa.Instruction {
		for _, in := range insts {
			if in.Arch == arch && in.Name == name {
				return in
			}
		}
		t.Fatalf("no %s %s", arch, name)
		return nil
	}
	mfma := find("cdna3", "v_mfma_f32_32x32x8_f16").Cost["gfx942"]
	if mfma.Unit != "HWXDL" || len(mfma.Resources) == 0 || mfma.Resources[0].Cycles != 8 || mfma.Latency == 0 {
		t.Errorf("v_mfma_f32_32x32x8_f16 on gfx942: %+v, want HWXDL[8] (the guide's 8 passes) and a latency", mfma)
	}
	if c := find("rdna3", "v_max_f32").Cost["gfx1100"]; c.Unit != "HWVALU" {
		t.Errorf("v_max_f32 on gfx1100: %+v, want HWVALU", c)
	}
	if c := find("cdna3", "global_load_dword").Cost["gfx942"]; c.Unit != "HWVMEM" || !c.MayLoad {
		t.Errorf("global_load_dword on gfx942: %+v, want HWVMEM and may-load", c)
	}

	// "Every instruction that uses the XDL unit on gfx942", slowest first:
	// matrix instructions only, v_mfma_f32_32x32x8_f16 among them, latencies
	// not increasing.
	var cdna3 []*isa.Instruction
	for _, in := range insts {
		if in.Arch == "cdna3" {
			cdna3 = append(cdna3, in)
		}
	}
	xdl, err := costview.Build(isa.Architecture{ID: "cdna3", Targets: []string{"gfx940", "gfx941", "gfx942"}}, costview.Entries(cdna3),
		costview.Query{Target: "gfx942", Unit: "xdl", Sort: "latency"})
	if err != nil {
		t.Fatal(err)
	}
	if xdl.Total < 20 {
		t.Errorf("%d cdna3 instructions use HWXDL on gfx942, want the MFMA family (20 or more)", xdl.Total)
	}
	sawMFMA := false
	for i, r := range xdl.Rows {
		if !strings.HasPrefix(r.Name, "v_mfma") && !strings.HasPrefix(r.Name, "v_smfmac") {
			t.Errorf("%s uses HWXDL on gfx942: %+v", r.Name, r.Cost)
		}
		if i > 0 && r.Cost.Latency > xdl.Rows[i-1].Cost.Latency {
			t.Errorf("latency order: %s %d after %s %d", r.Name, r.Cost.Latency, xdl.Rows[i-1].Name, xdl.Rows[i-1].Cost.Latency)
		}
		sawMFMA = sawMFMA || r.Name == "v_mfma_f32_32x32x8_f16"
	}
	if !sawMFMA {
		t.Errorf("v_mfma_f32_32x32x8_f16 is not among the XDL instructions on gfx942")
	}
}

// TestCostsEqualADirectRun: the numbers recorded for a seeded sample of
// 200 (instruction, target) pairs over all families are those llvm-mca
// prints when run on the line alone.
func TestCostsEqualADirectRun(t *testing.T) {
	insts := costFixture(t)
	type pair struct {
		in     *isa.Instruction
		target string
	}
	byArch := map[string][]pair{}
	for _, in := range insts {
		ts := slices.Sorted(maps.Keys(in.Cost))
		for _, tg := range ts {
			byArch[in.Arch] = append(byArch[in.Arch], pair{in, tg})
		}
	}
	rnd := rand.New(rand.NewSource(19))
	var sample []pair
	for _, a := range isa.AMDArchIDs() {
		ps := byArch[a]
		for k := 0; k < 17 && len(ps) > 0; k++ {
			sample = append(sample, ps[rnd.Intn(len(ps))])
		}
	}
	if len(sample) < 200 {
		t.Fatalf("only %d pairs to sample", len(sample))
	}
	path, _ := mca.Find()
	bad := 0
	for _, p := range sample {
		c := p.in.Cost[p.target]
		cmd := exec.Command(path, "-mtriple=amdgcn", "-mcpu="+p.target, "-instruction-tables=full")
		cmd.Stdin = strings.NewReader(c.Asm + "\n")
		raw, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s on %s: llvm-mca: %v: %s", c.Asm, p.target, err, raw)
			bad++
			continue
		}
		want := mca.ParseTable(string(raw))
		if len(want) != 1 {
			t.Errorf("%s on %s: %d rows from a direct run", c.Asm, p.target, len(want))
			bad++
			continue
		}
		w := want[0]
		if w.Latency != c.Latency || w.RThroughput != c.RThroughput || w.UOps != c.UOps || w.Unit() != c.Unit || w.Opcode != c.Opcode || w.MayLoad != c.MayLoad || w.MayStore != c.MayStore {
			t.Errorf("%s %s on %s: recorded %+v, a direct run gives %+v", p.in.Arch, c.Asm, p.target, c, w)
			bad++
		}
	}
	t.Logf("%d pairs compared with a direct llvm-mca run, %d differ", len(sample), bad)
}

// A results file of gpuisa ptx bench gives the PTX instruction it names its
// measurement (the numbers here are made up by the test: it checks the
// format and the matching, not a GPU).
func TestTimingsFileReachesTheInstruction(t *testing.T) {
	src := upstreamDir(t)
	_, insts, _, _, model, _, err := readPTX(src, nopProgress{})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "results.json")
	data := `{"gpu": "a test GPU", "target": "sm_90", "driver": "1.0", "cuda": "13.0", "date": "2026-12-01T00:00:00Z",
	  "entries": [{"statement": "max.f32 d, a, b;", "latency_cycles": 4.5, "throughput_cycles": 1.25}]}`
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := applyTimings(Options{Timings: file}, model, insts)
	if err != nil || doc == nil {
		t.Fatalf("applyTimings: %v", err)
	}
	for _, in := range insts {
		if in.Name == "max" {
			if len(in.Measured) != 1 || in.Measured[0].LatencyCycles != 4.5 || in.Measured[0].GPU != "a test GPU" {
				t.Errorf("max: measured %+v", in.Measured)
			}
			return
		}
	}
	t.Fatal("no max")
}

// TestFormatLines: an F8F6F4 instruction's example is also modelled in its
// FP6 and FP4 formats; other instructions are modelled as written.
func TestFormatLines(t *testing.T) {
	got := formatLines("v_mfma_f32_32x32x64_f8f6f4", "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[32:47]")
	want := []string{"v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:21], v[24:29], v[32:47] cbsz:2 blgp:2",
		"v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:27], v[32:47] cbsz:4 blgp:4"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("formatLines = %q, want %q", got, want)
	}
	if got := formatLines("v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]"); got != nil {
		t.Errorf("an F16 instruction: %q", got)
	}
}

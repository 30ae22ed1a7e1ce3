package ingest

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/mca"
	"github.com/gpuisa/gpuisa/internal/store/costview"
)

// matrixLines reads testdata/matrix_lines.txt: "gfxNNN<TAB>line" (written
// for these tests: one line per dense matrix shape and type the Instinct
// products' datasheets rate, and the F8F6F4 formats by their modifiers).
func matrixLines(t *testing.T) map[string][]string {
	t.Helper()
	path := filepath.Join("testdata", "matrix_lines.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		target, line, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("%s:%d: want target<TAB>line", path, n)
		}
		out[target] = append(out[target], line)
	}
	return out
}

// TestMatrixWorkFromLLVMMCA runs llvm-mca on matrix instructions of every
// Instinct product's target and holds the work the model implies against
// the figures and AMD's published peaks: 32x32x8 f16 on gfx942 is 8
// passes, 32 cycles, 512 FLOPs per cycle per SIMD; ranked by work per cycle
// the 4x4x4 f16 comes below 32x32x8; MI300X's implied dense FP16 is within
// 1% of 1307.4 TFLOPS; and every published peak is checked.
func TestMatrixWorkFromLLVMMCA(t *testing.T) {
	path, err := mca.Find()
	if err != nil {
		t.Skipf("llvm-mca not installed (apt-get install llvm-22): %v", err)
	}
	lines := matrixLines(t)
	res, err := mca.Run(context.Background(), lines, mca.Options{LLVMMCA: path})
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][]costview.Entry{} // by family
	for target, ls := range lines {
		arch, _ := isa.ArchForTarget(target)
		for i, l := range ls {
			c := res.Costs[target][i]
			if !c.OK {
				t.Errorf("%s: llvm-mca did not model %q", target, l)
				continue
			}
			c.Printed = l
			name, _, _ := strings.Cut(l, " ")
			tables[arch] = append(tables[arch], costview.Entry{Name: name, Cost: map[string]isa.Cost{target: toCost(c)}})
		}
	}
	cdna3 := isa.MustArch("cdna3")
	for _, e := range tables["cdna3"] {
		if e.Name != "v_mfma_f32_32x32x8_f16" {
			continue
		}
		w, ok := costview.WorkOf(cdna3, e.Name, e.Cost["gfx942"])
		if !ok || w.Passes != 8 || w.Cycles != 32 || w.PerCycleSIMD != 512 {
			t.Errorf("v_mfma_f32_32x32x8_f16 on gfx942: %+v; want 8 passes, 32 cycles, 512 FLOPs per cycle per SIMD", w)
		}
	}
	tab, err := costview.Build(isa.Architecture{ID: "cdna3", Targets: cdna3.Targets}, tables["cdna3"], costview.Query{Sort: "work", DType: "fp16"})
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{}
	for i, r := range tab.Rows {
		rank[r.Name] = i
	}
	if rank["v_mfma_f32_4x4x4_16b_f16"] <= rank["v_mfma_f32_32x32x8_f16"] {
		t.Errorf("by work per cycle, 4x4x4 f16 at %d is not below 32x32x8 f16 at %d", rank["v_mfma_f32_4x4x4_16b_f16"], rank["v_mfma_f32_32x32x8_f16"])
	}
	checks := costview.CheckPeaks(isa.InstinctProducts, func(arch string) ([]costview.Entry, error) { return tables[arch], nil })
	n := 0
	for _, p := range isa.InstinctProducts {
		n += len(p.Peaks)
	}
	if len(checks) != n {
		t.Errorf("%d checks of %d published peaks", len(checks), n)
	}
	for _, c := range checks {
		if c.Implied == 0 {
			t.Errorf("%s %s: not checked: %s", c.Product, c.DType, c.Note)
		}
		if c.Product == "AMD Instinct MI300X" && c.DType == isa.DTypeFP16 && math.Abs(c.Implied-1307.4) > 0.01*1307.4 {
			t.Errorf("MI300X dense FP16: implied %.1f TFLOPS, published 1307.4", c.Implied)
		}
		verdict := "agrees"
		if !c.Agrees {
			verdict = "DISAGREES"
		}
		t.Logf("%-20s %-5s published %8.1f implied %8.1f (%+.1f%%) %s by %s (%d passes)", c.Product, c.DType, c.Published, c.Implied, c.DiffPct, verdict, c.Instruction, c.Passes)
	}
}

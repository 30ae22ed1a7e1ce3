package web

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/costview"
)

// TestCostWorkOnARealDatabase holds the real database's cost tables to
// the figures: v_mfma_f32_32x32x8_f16 on gfx942 is 8 passes, 32
// cycles and 512 FLOPs per cycle per SIMD; by work per cycle the fp16 4x4x4
// ranks below 32x32x8; MI300X's implied dense FP16 is within 1% of 1307.4
// TFLOPS; every published peak is checked, and /quality lists each
// disagreement with both numbers.
func TestCostWorkOnARealDatabase(t *testing.T) {
	s := realServer(t)
	if _, err := s.costEntries(context.Background(), "cdna3"); err != nil {
		t.Skipf("the real database has no cost tables (built without llvm-mca-22): %v", err)
	}
	rec := get(t, s, "/api/v1/archs/cdna3/cost?target=gfx942&dtype=fp16&sort=work&limit=0")
	var res costTableResult
	if rec.Code == http.StatusBadRequest {
		t.Skipf("this database's cost tables have no fp16 matrix rows on gfx942 (a test build without every llvm-mca verdict): %s", rec.Body.String())
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("API: %d %v", rec.Code, err)
	}
	rank := map[string]int{}
	for i, r := range res.Rows {
		rank[r.Name] = i
		if r.Name == "v_mfma_f32_32x32x8_f16" && (r.Work == nil || r.Work.Passes != 8 || r.Work.Cycles != 32 || r.Work.PerCycleSIMD != 512) {
			t.Errorf("v_mfma_f32_32x32x8_f16 on gfx942: %+v; want 8 passes, 32 cycles, 512 FLOPs per cycle per SIMD", r.Work)
		}
	}
	a, okA := rank["v_mfma_f32_4x4x4_16b_f16"]
	b, okB := rank["v_mfma_f32_32x32x8_f16"]
	if !okA || !okB || a <= b {
		t.Errorf("fp16 by work per cycle: 4x4x4 at %d (%v), 32x32x8 at %d (%v)", a, okA, b, okB)
	}
	checks := s.allPeaks(context.Background())
	n := 0
	for _, p := range isa.InstinctProducts {
		n += len(p.Peaks)
	}
	if len(checks) != n {
		t.Errorf("%d checks of %d published peaks", len(checks), n)
	}
	q := get(t, s, "/quality").Body.String()
	for _, c := range checks {
		if c.Product == "AMD Instinct MI300X" && c.DType == isa.DTypeFP16 && math.Abs(c.Implied-1307.4) > 0.01*1307.4 {
			t.Errorf("MI300X dense FP16: implied %.1f, published 1307.4", c.Implied)
		}
		if c.Implied == 0 && c.Note == "" {
			t.Errorf("%s %s: neither checked nor explained", c.Product, c.DType)
		}
		if !c.Agrees && (!strings.Contains(q, numText(c.Published)) || c.Implied > 0 && !strings.Contains(q, numText(c.Implied))) {
			t.Errorf("/quality does not list %s %s with both numbers (%s, %s)", c.Product, c.DType, numText(c.Published), numText(c.Implied))
		}
		if !c.Agrees {
			t.Logf("disagreement: %s %s published %.1f implied %.1f %s", c.Product, c.DType, c.Published, c.Implied, c.Note)
		}
	}
}

// shapeRe finds an MxNxK shape in a name.
var shapeRe = regexp.MustCompile(`\d+x\d+x\d+`)

// TestEveryMatrixNameOfARealDatabaseParses: every AMD matrix instruction
// with a shape in its name, in every family, is read by isa.ParseMatrix;
// where the family has a pass length, each modelled cost of one has passes.
func TestEveryMatrixNameOfARealDatabaseParses(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	parsed := 0
	for _, a := range s.archs {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		list, err := s.store.List(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range list {
			if !isa.IsMatrix(in.Name) || !shapeRe.MatchString(in.Name) {
				continue
			}
			if _, err := isa.ParseMatrix(in.Name, "", ""); err != nil {
				t.Errorf("%s %s: %v", a.ID, in.Name, err)
				continue
			}
			parsed++
		}
		entries, err := s.costEntries(ctx, a.ID)
		if err != nil {
			continue // built without llvm-mca
		}
		info := isa.ArchInfoFor(a.ID)
		for _, e := range entries {
			for target, c := range e.Cost {
				if w, ok := costview.WorkOf(info, e.Name, c); ok && info.CyclesPerPass > 0 && w.Passes == 0 {
					t.Errorf("%s %s on %s: no passes in %+v", a.ID, e.Name, target, c)
				}
			}
		}
	}
	if parsed == 0 {
		t.Fatal("no matrix instruction in the real database")
	}
	t.Logf("%d matrix names parsed", parsed)
}

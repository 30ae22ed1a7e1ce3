package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/costview"
)

// sampleMFMADB writes the sample database with CDNA 3 MFMA instructions
// (webfake.AddSampleMFMA) and returns its path.
func sampleMFMADB(t *testing.T) string {
	t.Helper()
	b := webfake.Build()
	webfake.AddSampleMFMA(b)
	path := filepath.Join(t.TempDir(), "mfma.db")
	if err := store.Write(t.Context(), path, b); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCostWork: gpuisa cost ranks by work per cycle with a data-type
// filter, prints a matrix instruction's passes, cycles and work per cycle,
// and --peaks holds CDNA 3's products against the model.
func TestCostWork(t *testing.T) {
	db := sampleMFMADB(t)
	out, errOut, code := run(t, "cost", "cdna3", "--dtype", "f16", "--sort", "work", "--db", db)
	if code != 0 {
		t.Fatalf("cost --dtype f16 --sort work: exit %d: %s", code, errOut)
	}
	i, j := strings.Index(out, "v_mfma_f32_32x32x8_f16"), strings.Index(out, "v_mfma_f32_4x4x4_16b_f16")
	if i < 0 || j < i || !strings.Contains(out, "work/cycle/CU") || strings.Contains(out, "v_max_f32") {
		t.Errorf("cost cdna3 --dtype f16 --sort work:\n%s", out)
	}
	out, errOut, code = run(t, "cost", "cdna3", "v_mfma_f32_32x32x8_f16", "--json", "--db", db)
	var res struct {
		Work map[string]costview.Work `json:"work"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("cost cdna3 v_mfma_f32_32x32x8_f16 --json: exit %d %v: %s%s", code, err, out, errOut)
	}
	if w := res.Work["gfx942"]; w.Passes != 8 || w.Cycles != 32 || w.PerCycleSIMD != 512 || w.Ops != 16384 {
		t.Errorf("work on gfx942: %+v, want 8 passes, 32 cycles, 512 FLOPs per cycle per SIMD", w)
	}
	out, errOut, code = run(t, "cost", "cdna3", "--peaks", "--db", db)
	if code != 0 || !strings.Contains(out, "AMD Instinct MI300X") || !strings.Contains(out, "1307.4") || !strings.Contains(out, "not checked") {
		t.Errorf("cost cdna3 --peaks: exit %d:\n%s%s", code, out, errOut)
	}
	if _, _, code := run(t, "cost", "cdna3", "--dtype", "colour", "--db", db); code == 0 {
		t.Error("--dtype colour accepted")
	}
}

package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
)

// mfmaServer serves the sample database with CDNA 3 MFMA instructions
// added (webfake.AddSampleMFMA).
func mfmaServer(t *testing.T) *server {
	t.Helper()
	b := webfake.Build()
	webfake.AddSampleMFMA(b)
	return testServer(t, webfake.Open(t, b), Options{})
}

// TestCostWork: the cost page, its API and the instruction page show a
// matrix instruction's passes, cycles and work per cycle; ranking by work
// per cycle with the data-type filter puts 4x4x4 f16 below 32x32x8; /quality
// lists the product peaks, disagreements with both numbers.
func TestCostWork(t *testing.T) {
	s := mfmaServer(t)
	rec := get(t, s, "/api/v1/archs/cdna3/cost?target=gfx942&dtype=f16&sort=work")
	var res costTableResult
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("API: %d %v %s", rec.Code, err, rec.Body)
	}
	var order []string
	for _, r := range res.Rows {
		order = append(order, r.Name)
		if r.Work == nil {
			t.Errorf("%s: no work under dtype fp16", r.Name)
			continue
		}
		if r.Name == "v_mfma_f32_32x32x8_f16" && (r.Work.Passes != 8 || r.Work.Cycles != 32 || r.Work.PerCycleSIMD != 512 || r.Work.Ops != 16384) {
			t.Errorf("32x32x8 f16: %+v, want 8 passes, 32 cycles, 16384 FLOPs, 512 per cycle per SIMD", r.Work)
		}
	}
	if got := strings.Join(order, " "); got != "v_mfma_f32_16x16x16_f16 v_mfma_f32_32x32x8_f16 v_mfma_f32_4x4x4_16b_f16" {
		t.Errorf("fp16 by work per cycle: %s", got)
	}
	if res.DType != "fp16" || strings.Join(res.DTypes, ",") != "fp16" {
		t.Errorf("dtype %q, dtypes %v", res.DType, res.DTypes)
	}
	body := get(t, s, "/amdgpu/cdna3/cost?target=gfx942&unit=XDL&sort=work").Body.String()
	for _, w := range []string{`<select id="cq-dtype" name="dtype">`, "Work / cycle / CU", ">2,048<", "16,384 FLOPs", "4 cycles per pass", "Implied product peaks", "AMD Instinct MI300X", "1,307.4"} {
		if !strings.Contains(body, w) {
			t.Errorf("the cost page lacks %q", w)
		}
	}
	if i, j := strings.Index(body, "v_mfma_f32_32x32x8_f16</code>"), strings.Index(body, "v_mfma_f32_4x4x4_16b_f16</code>"); i < 0 || j < i {
		t.Errorf("the page ranks 4x4x4 f16 (%d) above 32x32x8 (%d)", j, i)
	}
	if rec := get(t, s, "/amdgpu/cdna3/cost?dtype=colour"); rec.Code != http.StatusBadRequest {
		t.Errorf("dtype=colour: %d", rec.Code)
	}
	page := get(t, s, "/amdgpu/cdna3/v_mfma_f32_32x32x8_f16").Body.String()
	for _, w := range []string{"16,384 FLOPs</strong>", "<strong>32 cycles</strong>", "512 FLOPs per cycle per SIMD"} {
		if !strings.Contains(page, w) {
			t.Errorf("the instruction page lacks %q", w)
		}
	}
	q := get(t, s, "/quality").Body.String()
	// MI300X FP16 agrees (1307.4 both); its FP64 has no instruction in the
	// sample and is listed as not checked, with the published figure.
	for _, w := range []string{"Product peaks against the cost model", "AMD Instinct MI300X", "not checked", "1,307.4", "163.4", "datasheet"} {
		if !strings.Contains(q, w) {
			t.Errorf("/quality lacks %q", w)
		}
	}
}

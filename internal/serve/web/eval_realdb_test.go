package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestEvaluationOnARealDatabase: the Maximum concept page lists the
// special inputs where AMD and PTX differ, derived by evaluation (issue
// 21); /quality has the evaluation's section; a real page's Try it runs.
func TestEvaluationOnARealDatabase(t *testing.T) {
	s := realServer(t)
	body := get(t, s, "/concepts/maximum").Body.String()
	for _, want := range []string{`id="evaluated"`, "Differences by evaluation", "v_max_f32", "signalling NaN", "quieted NaN", "The same result on every input"} {
		if !strings.Contains(body, want) {
			t.Errorf("/concepts/maximum lacks %q", want)
		}
	}
	q := get(t, s, "/quality").Body.String()
	for _, want := range []string{`id="pseudocode"`, "Pseudocode, evaluated", "RDNA 4", "AMD–PTX pairs"} {
		if !strings.Contains(q, want) {
			t.Errorf("/quality lacks %q", want)
		}
	}
	page := get(t, s, "/amdgpu/rdna4/v_max_num_f32").Body.String()
	if !strings.Contains(page, `id="tryit"`) || !strings.Contains(page, "<code>D0 = 1.5</code>") {
		t.Error("rdna4 v_max_num_f32 has no Try it box with max(nan, 1.5) = 1.5")
	}
	if rec := get(t, s, "/api/v1/eval?arch=rdna4&name=v_max_num_f32&s0=nan&s1=1.0"); !strings.Contains(rec.Body.String(), `"value":"1"`) {
		t.Errorf("eval rdna4 v_max_num_f32(nan, 1.0): %s", rec.Body)
	}
	// Memory instructions say why they cannot run.
	if page := get(t, s, "/amdgpu/rdna4/global_load_b32").Body.String(); !strings.Contains(page, "cannot be run here") {
		t.Error("global_load_b32's box does not say why it cannot run")
	}
}

// TestEvalAsAMDMeansItOnARealDatabase is issue 28's pseudocode item over
// the API: CDNA's signed-zero branches, a shift amount above the width
// taken by its low bits, a missing source named (400), and a matrix
// operation answered over whole matrices, on the API and the page's box.
func TestEvalAsAMDMeansItOnARealDatabase(t *testing.T) {
	s := realServer(t)
	for path, want := range map[string]string{
		"/api/v1/eval?arch=cdna3&name=v_max_f32&s0=-0&s1=0":                           `"bits":"0x00000000"`,
		"/api/v1/eval?arch=cdna3&name=v_min_f32&s0=-0&s1=0":                           `"bits":"0x80000000"`,
		"/api/v1/eval?arch=cdna3&name=v_lshlrev_b32&s0=33&s1=1":                       `"value":"2"`,
		"/api/v1/eval?arch=cdna3&name=v_mfma_f32_4x4x4_16b_f16&s0=1&s1=2&s2=0.5":      `"values":["8.5",`,
		"/api/v1/eval?arch=rdna4&name=v_wmma_f32_16x16x16_f16&s0=1&s1=-2&s2=0.25":     `"values":["-31.75",`,
		"/api/v1/eval?arch=cdna3&name=v_mfma_i32_16x16x32_i8&s0=-1&s1=2&s2=3&trace=1": `"values":["-61",`,
	} {
		if rec := get(t, s, path); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d, want %s: %.300s", path, rec.Code, want, rec.Body)
		}
	}
	for path, want := range map[string]string{
		"/api/v1/eval?arch=cdna3&name=v_max_f32&s0=1":                             "no value given for S1",
		"/api/v1/eval?arch=cdna3&name=v_fma_f32&s0=1&s1=2&s2=3&s3=4":              "does not read S3",
		"/api/v1/eval?arch=cdna3&name=v_mfma_f32_4x4x4_16b_f16&s0=1&s1=2":         "no value given for S2 (C)",
		"/api/v1/eval?arch=cdna3&name=v_smfmac_f32_16x16x32_f16&s0=1&s1=2&s2=3":   "A is sparse",
		"/api/v1/eval?arch=cdna4&name=v_mfma_f32_16x16x128_f8f6f4&s0=1&s1=2&s2=3": "CBSZ, BLGP",
	} {
		if rec := get(t, s, path); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d, want 400 saying %q: %s", path, rec.Code, want, rec.Body)
		}
	}
	// VCC read by the pseudocode: the box asks for it and runs the sample.
	if page := get(t, s, "/amdgpu/cdna3/v_cndmask_b32").Body.String(); !strings.Contains(page, `name="vcc"`) || !strings.Contains(page, "<code>D0 = 5</code>") {
		t.Error("cdna3 v_cndmask_b32's Try it box does not ask for VCC and run VCC = 0x1 (D0 = S1 = 5)")
	}
	page := get(t, s, "/amdgpu/cdna3/v_mfma_f32_4x4x4_16b_f16").Body.String()
	if !strings.Contains(page, `id="tryit"`) || !strings.Contains(page, "tryit-matrix") || !strings.Contains(page, "<code>-11.75</code>") {
		t.Error("cdna3 v_mfma_f32_4x4x4_16b_f16 has no Try it box with D = 1.5 * -2 * 4 + 0.25 = -11.75 row by row")
	}
}

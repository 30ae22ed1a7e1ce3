package web

import (
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

package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
)

func TestAPIEval(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/api/v1/eval?arch=cdna4&name=v_max_f32&s0=2,-1&s1=1.5&trace=1")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var r sem.Response
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Lanes) != 2 || len(r.Lanes[0].Outputs) != 1 {
		t.Fatalf("lanes %+v", r.Lanes)
	}
	if got := r.Lanes[0].Outputs[0]; got.Name != "D0" || got.Value != "2" || got.Bits != "0x40000000" {
		t.Errorf("lane 0: %+v, want D0 = 2", got)
	}
	if got := r.Lanes[1].Outputs[0].Value; got != "1.5" {
		t.Errorf("lane 1: D0 = %s, want 1.5", got)
	}
	if len(r.Trace) != 2 || !strings.Contains(r.Trace[0].Target, "D0") {
		t.Errorf("trace %+v", r.Trace)
	}
	if !strings.Contains(rec.Body.String(), `"wave":[]`) || !strings.Contains(rec.Body.String(), `"changes":[]`) {
		t.Errorf("lists must be [], not null: %s", rec.Body)
	}
	for path, want := range map[string]int{
		"/api/v1/eval?arch=cdna4&name=v_max_f32&s0=banana":                      http.StatusBadRequest,
		"/api/v1/eval?arch=cdna4&name=v_max_f32&round=sideways":                 http.StatusBadRequest,
		"/api/v1/eval?arch=rdna3&name=v_max_f33":                                http.StatusNotFound,
		"/api/v1/eval?arch=rdna9&name=v_max_f32":                                http.StatusNotFound,
		"/api/v1/eval?arch=ptx&name=max":                                        http.StatusBadRequest,
		"/api/v1/eval?name=v_max_f32":                                           http.StatusBadRequest,
		"/api/v1/eval?arch=cdna4&name=v_max_f32&s0=" + strings.Repeat("9", 100): http.StatusBadRequest,
		"/api/v1/eval?arch=cdna4&name=v_max_f32&s0=1":                           http.StatusBadRequest, // S1 missing
		"/api/v1/eval?arch=cdna4&name=v_max_f32&s0=1&s1=2&s3=4":                 http.StatusBadRequest, // S3 not read
		"/api/v1/eval?arch=cdna4&name=v_max_f32&s0=1&s1=2&op_sel=zz":            http.StatusBadRequest,
		"/api/v1/eval?arch=cdna4&name=v_max_f32&s0=1&s1=2&op_sel=0x3&m0=0x10":   http.StatusOK,
	} {
		if rec := get(t, s, path); rec.Code != want {
			t.Errorf("%s: status %d, want %d: %s", path, rec.Code, want, rec.Body)
		}
	}
}

func TestTryItOnPage(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/amdgpu/cdna4/v_max_f32")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	body := rec.Body.String()
	for _, want := range []string{`id="tryit"`, `action="/api/v1/eval"`, `name="s0"`, `name="s1"`, "tryit.js", `class="tryit-result"`, "D0 = "} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// The sample RDNA 3 text calls max(), which no built-in is: the box says so.
	if body := get(t, s, "/amdgpu/rdna3/v_max_f32").Body.String(); !strings.Contains(body, "cannot be run here: unknown function max") {
		t.Error("rdna3 v_max_f32's box does not say why it cannot run")
	}
	// A PTX page has no box.
	if rec := get(t, s, "/ptx/max"); strings.Contains(rec.Body.String(), `id="tryit"`) {
		t.Error("a PTX page has a Try it box")
	}
}

// TestEvalIsFast: "try it" answers well under 10 ms.
func TestEvalIsFast(t *testing.T) {
	s := newTestServer(t)
	get(t, s, "/api/v1/eval?arch=cdna4&name=v_max_f32&s0=1&s1=2") // loads the library
	start := time.Now()
	const n = 50
	for i := 0; i < n; i++ {
		// Distinct URLs: the answer cache must not serve them.
		rec := get(t, s, "/api/v1/eval?arch=cdna4&name=v_max_f32&s1=2&s0="+strings.Repeat("1", i%9+1))
		if rec.Code != http.StatusOK {
			t.Fatal(rec.Body)
		}
	}
	if per := time.Since(start) / n; per > 10*time.Millisecond {
		t.Errorf("%v per evaluation, over 10 ms", per)
	}
}

package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/famdiff"
)

func TestDiffAPI(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/api/v1/diff/rdna3/rdna4")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	if strings.Contains(rec.Body.String(), "null") {
		t.Errorf("a null list in %s", rec.Body.String())
	}
	var r famdiff.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Renamed) != 1 || r.Renamed[0].From != "v_max_f32" || r.Renamed[0].To != "v_max_num_f32" || len(r.Renamed[0].Evidence) == 0 {
		t.Errorf("renamed = %+v", r.Renamed)
	}
	for path, want := range map[string]int{
		"/api/v1/diff/rdna3/ptx:8.0": http.StatusBadRequest,
		"/api/v1/diff/rdna3/rdna9":   http.StatusNotFound,
		"/api/v1/diff/ptx/rdna3":     http.StatusBadRequest,
	} {
		if rec := get(t, s, path); rec.Code != want || !strings.Contains(rec.Body.String(), `"error"`) {
			t.Errorf("GET %s: %d %s, want %d", path, rec.Code, rec.Body.String(), want)
		}
	}
}

package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestTargetSuggestionsRealDB: names a letter or two off a product or a
// target ("mi300", "MI300") and targets written where an instruction was
// expected ("sm_90" under /ptx) are answered with the targets they may
// mean: on the search page, the not-found pages and the API's 404.
func TestTargetSuggestionsRealDB(t *testing.T) {
	s := realServer(t)
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/search?q=mi300", http.StatusOK, `Did you mean a target?`},
		{"/search?q=MI300", http.StatusOK, `<code>gfx942</code>`},
		{"/amdgpu/mi300", http.StatusNotFound, `href="/amdgpu/gfx942"`},
		{"/amdgpu/mi300/v_max_f32", http.StatusNotFound, `href="/amdgpu/gfx942"`},
		{"/ptx/sm_90", http.StatusNotFound, `href="/ptx/targets/sm_90"`},
		{"/search?q=sm_90", http.StatusOK, `href="/ptx/targets/sm_90"`},
		{"/no/such/sm_90", http.StatusNotFound, `href="/ptx/targets/sm_90"`},
	} {
		rec := get(t, s, c.path)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("GET %s: %d (want %d), has %q: %v", c.path, rec.Code, c.status, c.want, strings.Contains(rec.Body.String(), c.want))
		}
	}
	// sm_ targets are not attributed to LLVM's AMDGPU table.
	if body := get(t, s, "/search?q=sm_90").Body.String(); strings.Contains(body, "AMDGPU processor table") {
		t.Error("/search?q=sm_90 attributes sm_90 to LLVM's AMDGPU processor table")
	}
	// The suggestion is the answer: no "Nothing matched" under it, and
	// the API carries it too.
	if body := get(t, s, "/search?q=mi300").Body.String(); strings.Contains(body, "Nothing matched") || strings.Contains(body, "0 results") {
		t.Error(`/search?q=mi300 says "Nothing matched" under its target suggestion`)
	}
	var sr SearchResult
	if rec := get(t, s, "/api/v1/search?q=mi300"); rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &sr) != nil ||
		len(sr.NearTargets) == 0 || sr.NearTargets[0].Target != "gfx942" {
		t.Errorf("/api/v1/search?q=mi300: %d %s, want near_targets with gfx942", rec.Code, rec.Body.String())
	}
	rec := get(t, s, "/api/v1/archs/mi300")
	var e struct {
		Suggestions []string `json:"suggestions"`
	}
	if rec.Code != http.StatusNotFound || json.Unmarshal(rec.Body.Bytes(), &e) != nil || !strings.Contains(strings.Join(e.Suggestions, " "), "gfx942") {
		t.Errorf("/api/v1/archs/mi300: %d %s", rec.Code, rec.Body.String())
	}
}

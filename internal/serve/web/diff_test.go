package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
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

func links(doc *html.Node) map[string]bool {
	out := map[string]bool{}
	for _, a := range findAll(doc, tag("a")) {
		out[attr(a, "href")] = true
	}
	return out
}

func TestDiffPages(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/diff/rdna3/rdna4")
	l := links(doc)
	// The rename links both pages and shows its evidence.
	if !l["/amdgpu/rdna3/v_max_f32"] || !l["/amdgpu/rdna4/v_max_num_f32"] {
		t.Errorf("the rename row does not link both pages: %v", l)
	}
	body := text(doc)
	if !strings.Contains(body, "gpuisa's merge links v_max_f32 and v_max_num_f32") || !strings.Contains(body, "Renamed 1") {
		t.Errorf("rename evidence or count missing:\n%.3000s", body)
	}
	rec := get(t, s, "/diff?a=rdna3&b=rdna4")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/diff/rdna3/rdna4" {
		t.Errorf("the picker's form: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	if rec := get(t, s, "/diff/gfx1100/gfx1200"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/diff/rdna3/rdna4" {
		t.Errorf("gfx targets: %d %s, want a redirect to the families' diff", rec.Code, rec.Header().Get("Location"))
	}
	for _, p := range []string{"/diff", "/ptx/versions", "/ptx/targets", "/ptx/versions/8.0", "/ptx/targets/sm_90", "/ptx/targets/sm_90a", "/diff/sm_80/sm_90", "/diff/ptx:7.8/ptx:8.0"} {
		mustPage(t, s, p)
	}
	for p, want := range map[string]int{"/ptx/versions/7.99": 404, "/ptx/targets/sm_99": 404, "/diff/rdna3/sm_90": 400, "/diff/rdna3/rdna9": 404} {
		if rec := get(t, s, p); rec.Code != want {
			t.Errorf("GET %s: %d, want %d", p, rec.Code, want)
		}
	}
	if rec := get(t, s, "/ptx/versions/80"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/ptx/versions/8.0" {
		t.Errorf("/ptx/versions/80: %d %s", rec.Code, rec.Header().Get("Location"))
	}
}

func TestNewInFamilyAndSpans(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/amdgpu/rdna4")
	badges := texts(findAll(doc, func(n *html.Node) bool { return n.Data == "span" && hasClass(n, "new") }))
	if !slices.Contains(badges, "renamed from v_max_f32") {
		t.Errorf("RDNA 4's index marks %q, want v_max_num_f32 renamed from v_max_f32", badges)
	}
	if !links(doc)["/diff/rdna3/rdna4"] || !links(doc)["/amdgpu/rdna4?new=1#family-list"] {
		t.Error("the family index lacks the diff link or the filter")
	}
	only := mustPage(t, s, "/amdgpu/rdna4?new=1")
	for _, row := range findAll(only, func(n *html.Node) bool { return n.Data == "tr" && attr(n, "data-name") != "" }) {
		if len(findAll(row, func(n *html.Node) bool { return n.Data == "span" && hasClass(n, "new") })) == 0 {
			t.Errorf("?new=1 lists %s, which is not new", attr(row, "data-name"))
		}
	}
	// The fake has nothing of the RDNA line before RDNA 3: nothing is marked.
	if rec := get(t, s, "/amdgpu/rdna3"); strings.Contains(rec.Body.String(), `class="badge new"`) {
		t.Error("RDNA 3's index marks instructions although the fake has no older RDNA family")
	}
	body := text(mustPage(t, s, "/amdgpu/rdna3/v_max_f32"))
	if !strings.Contains(body, "RDNA: first appears in RDNA 3, still in RDNA 4, the newest") {
		t.Errorf("the instruction page lacks where it first and last appears:\n%.4000s", body)
	}
}

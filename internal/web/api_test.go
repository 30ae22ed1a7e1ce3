package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/web/webfake"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.golden.json")

func TestAPIInstructionIsTheModelDocument(t *testing.T) {
	s := newTestServer(t)
	fake := webfake.New()
	for _, c := range []struct{ path, arch, name string }{
		{"/api/v1/archs/cdna4/instructions/v_max_f32", "cdna4", "v_max_f32"},
		{"/api/v1/archs/CDNA4/instructions/V_MAX_F32_E64", "cdna4", "v_max_f32"},
		{"/api/v1/archs/ptx/instructions/max", "ptx", "max"},
		{"/api/v1/archs/rdna4/instructions/v_max_f32", "rdna4", "v_max_num_f32"},
	} {
		rec := get(t, s, c.path)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", c.path, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("content type %q", ct)
		}
		in, err := fake.Instruction(context.Background(), c.arch, c.name)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(in)
		if got := bytes.TrimSpace(rec.Body.Bytes()); !bytes.Equal(got, want) {
			t.Errorf("GET %s: body is not json.Marshal of the instruction", c.path)
		}
	}
}

func TestAPIListsAndSearch(t *testing.T) {
	s := newTestServer(t)
	var archs []isa.Architecture
	decodeJSON(t, get(t, s, "/api/v1/archs"), http.StatusOK, &archs)
	var ids []string
	for _, a := range archs {
		ids = append(ids, a.ID)
	}
	if !slices.Equal(ids, []string{"rdna4", "rdna3", "cdna4", "cdna3", "ptx"}) {
		t.Errorf("archs %q", ids)
	}
	var list []isa.Summary
	decodeJSON(t, get(t, s, "/api/v1/archs/cdna4/instructions"), http.StatusOK, &list)
	if len(list) != 5 || !sort.SliceIsSorted(list, func(i, j int) bool { return list[i].Name < list[j].Name }) {
		t.Errorf("cdna4 list: %d entries, sorted=%v", len(list), sort.SliceIsSorted(list, func(i, j int) bool { return list[i].Name < list[j].Name }))
	}
	var a isa.Architecture
	decodeJSON(t, get(t, s, "/api/v1/archs/gfx950"), http.StatusOK, &a)
	if a.ID != "cdna4" || len(a.Formats) == 0 {
		t.Errorf("arch gfx950 = %s with %d formats", a.ID, len(a.Formats))
	}
	for _, c := range []struct{ q, arch, name string }{
		{"v_max_f23", "cdna4", "v_max_f32"},
		{"fused+multiply+add", "ptx", "fma"},
		{"v_ma", "rdna3", "v_max_f32"},
	} {
		var res SearchResult
		decodeJSON(t, get(t, s, "/api/v1/search?q="+c.q), http.StatusOK, &res)
		found := false
		for _, h := range res.Hits {
			found = found || (h.Arch == c.arch && h.Name == c.name)
		}
		if !found {
			t.Errorf("search %q: no %s %s in %+v", c.q, c.arch, c.name, res.Hits)
		}
	}
	var res SearchResult
	decodeJSON(t, get(t, s, "/api/v1/search?q=max&arch=ptx&limit=1"), http.StatusOK, &res)
	if len(res.Hits) != 1 || res.Hits[0].Arch != "ptx" {
		t.Errorf("arch/limit not applied: %+v", res.Hits)
	}
	var info isa.BuildInfo
	decodeJSON(t, get(t, s, "/api/v1/info"), http.StatusOK, &info)
	if info.ID != "fake-build-1" {
		t.Errorf("info id %q", info.ID)
	}
}

func TestAPIErrors(t *testing.T) {
	s := newTestServer(t)
	cases := []struct {
		path       string
		status     int
		suggestion string
	}{
		{"/api/v1/archs/cdna4/instructions/v_max_f23", 404, "v_max_f32"},
		{"/api/v1/archs/cdna9", 404, "cdna4"},
		{"/api/v1/archs/cdna9/instructions", 404, "cdna4"},
		{"/api/v1/search", 400, ""},
		{"/api/v1/search?q=max&limit=0", 400, ""},
		{"/api/v1/search?q=max&limit=abc", 400, ""},
		{"/api/v1/search?q=" + strings.Repeat("a", 201), 400, ""},
		{"/api/v1/nothing", 404, ""},
	}
	for _, c := range cases {
		var e apiError
		decodeJSON(t, get(t, s, c.path), c.status, &e)
		if e.Error == "" {
			t.Errorf("%s: empty error message", c.path)
		}
		if c.suggestion != "" && !contains(e.Suggestions, c.suggestion) {
			t.Errorf("%s: suggestions %q lack %q", c.path, e.Suggestions, c.suggestion)
		}
	}
}

func decodeJSON(t *testing.T, rec interface {
	Result() *http.Response
}, status int, v any) {
	t.Helper()
	resp := rec.Result()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("%s: status %d, want %d: %s", resp.Request.URL, resp.StatusCode, status, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
}

func TestOpenAPIGolden(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/api/v1/openapi.json")
	if rec.Code != http.StatusOK {
		t.Fatal(rec.Code)
	}
	golden := filepath.Join("testdata", "openapi.golden.json")
	if *update {
		if err := os.WriteFile(golden, rec.Body.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestOpenAPIGolden -update to create it)", err)
	}
	if !bytes.Equal(rec.Body.Bytes(), want) {
		t.Errorf("openapi.json differs from %s; if the change is intended, rerun with -update", golden)
	}

	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for _, p := range s.apiPatterns {
		method, path, _ := strings.Cut(p, " ")
		registered[path] = true
		if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
			t.Errorf("route %s is not documented in openapi.json", p)
		}
	}
	for path := range doc.Paths {
		if !registered[path] {
			t.Errorf("openapi.json documents %s, which no handler serves", path)
		}
	}
	// the instruction schema names every JSON key of the model
	var full map[string]any
	json.Unmarshal(rec.Body.Bytes(), &full)
	props := full["components"].(map[string]any)["schemas"].(map[string]any)["Instruction"].(map[string]any)["properties"].(map[string]any)
	for _, k := range []string{"arch", "name", "encodings", "opcodes", "targets", "forms", "sources"} {
		if _, ok := props[k]; !ok {
			t.Errorf("Instruction schema lacks %q", k)
		}
	}
	// and describes what ptxas said about PTX
	schemas := full["components"].(map[string]any)["schemas"].(map[string]any)
	for schema, keys := range map[string][]string{
		"Instruction": {"targets", "target_details"},
		"Form":        {"targets", "check", "modifier_checks", "doc_min_target", "doc_ptx_version"},
		"Example":     {"checks"},
		"PTXCheck":    {"status", "min_target", "ptx_version", "sass"},
		"SASSLine":    {"control"},
	} {
		props := schemas[schema].(map[string]any)["properties"].(map[string]any)
		for _, k := range keys {
			p, ok := props[k].(map[string]any)
			if d, _ := p["description"].(string); !ok || d == "" {
				t.Errorf("%s.%s is not described: %v", schema, k, props[k])
			}
		}
	}
}

func TestETagAndConditionalGet(t *testing.T) {
	s := newTestServer(t)
	for _, path := range []string{"/amdgpu/cdna4/v_max_f32", "/api/v1/archs", "/"} {
		rec := get(t, s, path)
		etag := rec.Header().Get("ETag")
		if !strings.Contains(etag, "fake-build-1") {
			t.Errorf("%s: ETag %q not keyed to the build", path, etag)
		}
		if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, "max-age=") {
			t.Errorf("%s: Cache-Control %q", path, cc)
		}
		again := get(t, s, path, "If-None-Match", etag)
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Errorf("%s: revalidation gave %d with %d bytes", path, again.Code, again.Body.Len())
		}
		if other := get(t, s, path, "If-None-Match", `W/"another-build.x"`); other.Code != http.StatusOK {
			t.Errorf("%s: stale ETag gave %d", path, other.Code)
		}
	}
	// a new build gives new ETags
	fake := webfake.New()
	fake.SetBuildID("fake-build-2")
	s2, err := newServer(fake, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := get(t, s, "/").Header().Get("ETag"), get(t, s2, "/").Header().Get("ETag"); a == b {
		t.Errorf("ETag %q did not change with the build", a)
	}
	// errors are never cached
	if rec := get(t, s, "/amdgpu/cdna4/nope"); rec.Header().Get("ETag") != "" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("404 cached: ETag %q Cache-Control %q", rec.Header().Get("ETag"), rec.Header().Get("Cache-Control"))
	}
	// static assets live long
	css := get(t, s, s.staticURL("style.css"))
	if css.Code != 200 || !strings.Contains(css.Header().Get("Cache-Control"), "max-age=31536000") ||
		!strings.Contains(css.Header().Get("Content-Type"), "text/css") {
		t.Errorf("style.css: %d %q %q", css.Code, css.Header().Get("Cache-Control"), css.Header().Get("Content-Type"))
	}
	if rec := get(t, s, "/static/nope.css"); rec.Code != 404 {
		t.Errorf("missing asset: %d", rec.Code)
	}
}

func TestGzip(t *testing.T) {
	s := newTestServer(t)
	for _, path := range []string{"/amdgpu/cdna4/v_max_f32", "/api/v1/archs/cdna4/instructions/v_max_f32", s.staticURL("style.css")} {
		plain := get(t, s, path)
		zipped := get(t, s, path, "Accept-Encoding", "br, gzip")
		if zipped.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: not compressed", path)
		}
		if !strings.Contains(zipped.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: no Vary", path)
		}
		zr, err := gzip.NewReader(zipped.Body)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, plain.Body.Bytes()) {
			t.Errorf("%s: gzip body differs from plain body", path)
		}
		if zipped.Body.Len() >= plain.Body.Len() {
			t.Errorf("%s: gzip did not shrink the body", path)
		}
		if refused := get(t, s, path, "Accept-Encoding", "gzip;q=0"); refused.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: compressed although gzip;q=0", path)
		}
	}
}

func TestHealthzAndServer(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/healthz")
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "ok fake-build-1") {
		t.Errorf("healthz: %d %q", rec.Code, rec.Body)
	}
	srv := NewServer(":0", s)
	if srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 || srv.ReadHeaderTimeout == 0 {
		t.Errorf("timeouts not set: %+v", srv)
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil) succeeded")
	}
}

func TestAnswerCache(t *testing.T) {
	cached := newTestServer(t)
	uncached, err := newServer(webfake.New(), Options{CacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/amdgpu/cdna4/v_max_f32", "/api/v1/archs/cdna4/instructions/v_max_f32", "/search?q=max"} {
		want := get(t, uncached, path).Body.String()
		for i := 0; i < 2; i++ {
			if got := get(t, cached, path).Body.String(); got != want {
				t.Errorf("%s (request %d): cached answer differs", path, i+1)
			}
		}
		if _, ok := cached.cache.get(path); !ok {
			t.Errorf("%s was not cached", path)
		}
		zipped := get(t, cached, path, "Accept-Encoding", "gzip")
		if zipped.Header().Get("Content-Encoding") == "gzip" {
			zr, _ := gzip.NewReader(zipped.Body)
			body, _ := io.ReadAll(zr)
			if string(body) != want {
				t.Errorf("%s: cached gzip body differs", path)
			}
		}
		if rec := get(t, cached, path, "If-None-Match", cached.etag); rec.Code != http.StatusNotModified {
			t.Errorf("%s: cached answer ignores If-None-Match: %d", path, rec.Code)
		}
	}
	// errors are not cached
	get(t, cached, "/amdgpu/cdna4/nope")
	if _, ok := cached.cache.get("/amdgpu/cdna4/nope"); ok {
		t.Error("a 404 was cached")
	}
}

func TestPageCacheEvictsByBytes(t *testing.T) {
	c := newPageCache(8000)
	body := bytes.Repeat([]byte("x"), 700)
	for i := 0; i < 20; i++ {
		c.put(strings.Repeat("k", i+1), response{status: 200, body: body})
	}
	if c.size > c.limit {
		t.Errorf("size %d over limit %d", c.size, c.limit)
	}
	if _, ok := c.get("k"); ok {
		t.Error("oldest entry survived")
	}
	if _, ok := c.get(strings.Repeat("k", 20)); !ok {
		t.Error("newest entry evicted")
	}
	c.put("big", response{status: 200, body: bytes.Repeat([]byte("x"), 5000)})
	if _, ok := c.get("big"); ok {
		t.Error("an entry larger than an eighth of the cache was kept")
	}
	var nilCache *pageCache
	nilCache.put("a", response{status: 200})
	if _, ok := nilCache.get("a"); ok {
		t.Error("disabled cache returned an entry")
	}
}

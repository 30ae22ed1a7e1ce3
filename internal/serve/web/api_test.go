package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.golden.json")

func TestAPIInstructionIsTheModelDocument(t *testing.T) {
	s := newTestServer(t)
	fake := webfake.New(t)
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
		isa.FillLists(in) // lists are [], never null (the JSON contract)
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
			// An unscoped search gives a name once, with every family that
			// has it (Archs).
			found = found || (h.Name == c.name && (h.Arch == c.arch || slices.Contains(h.Archs, c.arch)))
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
	if info.ID != sampleID(t) {
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
		if c.suggestion != "" && !slices.Contains(e.Suggestions, c.suggestion) {
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
		if !strings.Contains(etag, sampleID(t)) {
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
	other := webfake.Build()
	other.Instructions[0].Summary += " (another build)"
	s2 := testServer(t, webfake.Open(t, other), Options{})
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
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "ok "+sampleID(t)) {
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
	uncached := testServer(t, webfake.New(t), Options{CacheBytes: -1})
	for _, path := range []string{"/amdgpu/cdna4/v_max_f32", "/api/v1/archs/cdna4/instructions/v_max_f32", "/search?q=max", "/api/v1/archs"} {
		want := get(t, uncached, path).Body.String()
		for i, enc := range []string{"", "gzip", "", "gzip, deflate, br"} {
			rec := get(t, cached, path, "Accept-Encoding", enc)
			if rec.Code != 200 {
				t.Fatalf("%s: %d", path, rec.Code)
			}
			body := rec.Body.Bytes()
			if rec.Header().Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("%s (%q): Content-Length %s for %d bytes", path, enc, rec.Header().Get("Content-Length"), len(body))
			}
			switch ce := rec.Header().Get("Content-Encoding"); {
			case enc == "" && ce != "":
				t.Errorf("%s: %s to a client that takes none", path, ce)
				continue
			case enc != "" && ce != "gzip" && ce != "br":
				t.Errorf("%s (%q): Content-Encoding %q", path, enc, ce)
				continue
			case ce == "gzip":
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				body, err = io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
			case ce == "br":
				body, _ = io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
			}
			if string(body) != want {
				t.Errorf("%s (request %d, %q): kept answer differs from a rendered one", path, i+1, enc)
			}
		}
		if cached.cache.get(path) == nil {
			t.Errorf("%s was not kept", path)
		}
		if rec := get(t, cached, path, "If-None-Match", cached.etag); rec.Code != http.StatusNotModified {
			t.Errorf("%s: kept answer ignores If-None-Match: %d", path, rec.Code)
		}
	}
	// errors are not kept
	get(t, cached, "/amdgpu/cdna4/nope")
	if cached.cache.get("/amdgpu/cdna4/nope") != nil {
		t.Error("a 404 was kept")
	}
}

// TestBrotliIsMadeInTheBackground: a client taking br gets gzip until the
// worker has compressed the answer, then br.
func TestBrotliIsMadeInTheBackground(t *testing.T) {
	s := newTestServer(t)
	const path = "/amdgpu/cdna4/v_max_f32"
	plain := get(t, s, path).Body.String()
	deadline := time.Now().Add(10 * time.Second)
	for {
		rec := get(t, s, path, "Accept-Encoding", "br;q=1.0, gzip;q=0.5")
		if rec.Header().Get("Content-Encoding") == "br" {
			body, err := io.ReadAll(brotli.NewReader(rec.Body))
			if err != nil || string(body) != plain {
				t.Errorf("brotli body differs (%v)", err)
			}
			break
		}
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding %q", rec.Header().Get("Content-Encoding"))
		}
		if time.Now().After(deadline) {
			t.Fatal("no brotli answer after 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if rec := get(t, s, path, "Accept-Encoding", "br;q=0, gzip"); rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("br;q=0: %q", rec.Header().Get("Content-Encoding"))
	}
}

func TestAcceptedCodings(t *testing.T) {
	for h, want := range map[string]codings{
		"":                        {},
		"gzip":                    {gzip: true},
		"gzip, deflate, br, zstd": {gzip: true, br: true},
		"br;q=1.0, gzip;q=0.8":    {gzip: true, br: true},
		"gzip;q=0":                {},
		"gzip; q=0.000, br":       {br: true},
		"*":                       {gzip: true},
		"*;q=0":                   {},
		"identity":                {},
		"x-gzip":                  {gzip: true},
		" gzip ;q=0.5":            {gzip: true},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if h != "" {
			r.Header.Set("Accept-Encoding", h)
		}
		if got := acceptedCodings(r); got != want {
			t.Errorf("%q: %+v, want %+v", h, got, want)
		}
	}
}

func TestAnswerCacheEvictsByBytes(t *testing.T) {
	c := newAnswerCache(40000)
	body := bytes.Repeat([]byte("x"), 700)
	mk := func() *answer {
		a := newAnswer("text/plain", "", "", body, false)
		a.gz = bytes.Repeat([]byte("z"), 3000) // a fixed cost, whatever gzip makes of it
		return a
	}
	for i := 0; i < 20; i++ {
		c.put(strings.Repeat("k", i+1), mk())
		c.get(strings.Repeat("k", 20)) // hit: keeps its CLOCK bit
	}
	if c.size.Load() > c.limit {
		t.Errorf("size %d over limit %d", c.size.Load(), c.limit)
	}
	if c.get("k") != nil {
		t.Error("oldest entry survived")
	}
	if c.get(strings.Repeat("k", 19)) == nil {
		t.Error("newest entry evicted")
	}
	big := newAnswer("text/plain", "", "", nil, false)
	big.gz = bytes.Repeat([]byte("x"), 6000)
	if got := c.put("big", big); got != big || c.get("big") != nil {
		t.Error("an entry larger than an eighth of the cache was kept")
	}
	first, second := mk(), mk()
	if c.put("same", first) != first || c.put("same", second) != first {
		t.Error("a second answer for a kept key replaced the first")
	}
	var nilCache *answerCache
	nilCache.put("a", mk())
	if nilCache.get("a") != nil {
		t.Error("disabled cache returned an entry")
	}
}

// TestOpenAPISchemasResolve holds the document's schemas to what they
// describe: every $ref names a schema, no schema is only a reference (the
// Error schema once referred to itself), and every struct type an
// operation answers with has a schema of its own (two types of one name,
// ptx.Result and famdiff.Result, once shared one).
func TestOpenAPISchemasResolve(t *testing.T) {
	raw, err := openAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for name, s := range doc.Components.Schemas {
		if _, only := s["$ref"]; only && len(s) == 1 {
			t.Errorf("schema %s is only a reference (%v)", name, s["$ref"])
		}
	}
	for _, ref := range regexp.MustCompile(`"#/components/schemas/([^"]+)"`).FindAllSubmatch(raw, -1) {
		if _, ok := doc.Components.Schemas[string(ref[1])]; !ok {
			t.Errorf("$ref to %s, which the document does not define", ref[1])
		}
	}
	set := &schemaSet{defs: map[string]any{}, owner: map[string]reflect.Type{}}
	for _, op := range apiOperations {
		schemaOf(reflect.TypeOf(op.Result), set)
	}
	seen := map[reflect.Type]string{}
	for name, typ := range set.owner {
		if other, dup := seen[typ]; dup {
			t.Errorf("%v has two schemas, %s and %s", typ, other, name)
		}
		seen[typ] = name
	}
}

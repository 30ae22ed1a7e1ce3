package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
)

// TestWrongMethodsAnswer405: every route, known or not, takes GET and HEAD
// only, and says so (the API also answers CORS preflights, OPTIONS).
func TestWrongMethodsAnswer405(t *testing.T) {
	s := newTestServer(t)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, "OPTIONS", "PROPFIND"} {
		for _, p := range []string{"/", "/amdgpu/cdna4/v_max_f32", "/api/v1/info", "/api/v1/nope", "/no/such/page", "/static/app.css"} {
			if m == "OPTIONS" && strings.HasPrefix(p, "/api/") {
				continue // a CORS preflight: 204
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(m, p, strings.NewReader("x")))
			if rec.Code != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d, want 405", m, p, rec.Code)
			}
			if allow := rec.Header().Get("Allow"); !strings.Contains(allow, "GET") || !strings.Contains(allow, "HEAD") {
				t.Errorf("%s %s: Allow %q", m, p, allow)
			}
		}
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/amdgpu/cdna4/v_max_f32", nil))
	if rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d body bytes", rec.Code, rec.Body.Len())
	}
}

// TestResponseHeaders: the isolation headers and the build id on every
// answer, charset on every text and JSON answer.
func TestResponseHeaders(t *testing.T) {
	s := newTestServer(t)
	for _, p := range []string{"/", "/amdgpu/cdna4/v_max_f32", "/amdgpu/cdna4/nope", "/api/v1/info", "/api/v1/archs/cdna4/instructions/v_max_f32",
		"/api/v1/archs/cdna4/instructions/nope", "/api/v1/search?q=max", "/api/v1/openapi.json", "/healthz"} {
		rec := get(t, s, p)
		h := rec.Header()
		for _, k := range []string{"Content-Security-Policy", "Permissions-Policy", "Cross-Origin-Opener-Policy", "Cross-Origin-Resource-Policy",
			"X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"} {
			if h.Get(k) == "" {
				t.Errorf("%s: no %s", p, k)
			}
		}
		if h.Get(BuildHeader) != sampleID(t) {
			t.Errorf("%s: %s %q", p, BuildHeader, h.Get(BuildHeader))
		}
		if ct := h.Get("Content-Type"); !strings.HasSuffix(ct, "; charset=utf-8") {
			t.Errorf("%s: Content-Type %q has no charset", p, ct)
		}
	}
}

// missingDocStore resolves every name the sample has but finds no document
// for v_max_f32 on CDNA 4: a name that resolves while its row is missing.
type missingDocStore struct{ *store.DB }

func (m missingDocStore) Instruction(ctx context.Context, arch, name string) (*isa.Instruction, error) {
	if a, n, err := m.Resolve(ctx, arch, name); err == nil && a == "cdna4" && n == "v_max_f32" {
		return nil, errs.NotFound([]string{"v_max_f16"}, "no instruction %q in %s", name, arch)
	}
	return m.DB.Instruction(ctx, arch, name)
}

// TestCompareWithAMissingDocument: /compare/<name> used to panic (a nil
// suggestion function) when a name resolved but its document was missing.
func TestCompareWithAMissingDocument(t *testing.T) {
	s := testServer(t, missingDocStore{webfake.New(t)}, Options{})
	rec := get(t, s, "/compare/v_max_f32")
	if rec.Code != http.StatusOK {
		t.Fatalf("compare: %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), `href="/amdgpu/cdna4/v_max_f32"`) {
		t.Error("the family without a document is compared")
	}
}

// TestFailedExportKeepsThePreviousSite: an export that fails part way (here
// cancelled after a few files) leaves the site that was there untouched and
// no partial one behind.
func TestFailedExportKeepsThePreviousSite(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	if _, err := Export(context.Background(), webfake.New(t), dir, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "index.html")
	before, err := os.ReadFile(marker)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = Export(ctx, webfake.New(t), dir, ExportOptions{Progress: func(done, total int) {
		if done == 3 {
			cancel()
		}
	}})
	if err == nil {
		t.Fatal("a cancelled export succeeded")
	}
	if after, err := os.ReadFile(marker); err != nil || string(after) != string(before) {
		t.Errorf("the previous site changed: %v", err)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left beside the site: %v", names)
	}
	// A complete export replaces it whole.
	st, err := Export(context.Background(), webfake.New(t), dir, ExportOptions{Precompress: true})
	if err != nil || st.Pages == 0 {
		t.Fatalf("%+v %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "amdgpu", "cdna4", "v_max_f32", "index.html.gz")); err != nil {
		t.Errorf("no precompressed page: %v", err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries beside the replaced site", len(entries))
	}
}

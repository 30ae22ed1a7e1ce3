package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestAsmDocsGolden: Compiler Explorer's format over the sample store, for
// AMD (newest family, one family, suffixes, case) and PTX (modifiers), and
// the 404s in Compiler Explorer's error shape; every answer carries CORS.
// Rewrite with -update after an intended change.
func TestAsmDocsGolden(t *testing.T) {
	s := newTestServer(t)
	paths := []string{
		"/api/asm/amdgpu/v_max_f32",
		"/api/asm/amdgpu/rdna3/V_MAX_F32_E64",
		"/api/asm/amdgpu/cdna4/v_max_f32_e32",
		"/api/asm/rdna4/v_max_f32",
		"/api/asm/ptx/max",
		"/api/asm/ptx/MAX.NaN.F32",
		"/api/asm/amd_cdna3/v_max_f32",
		"/api/asm/ptx/max.u32",
		"/api/asm/amdgpu/v_bogus_f32",
		"/api/asm/ptx/mxa",
		"/api/asm/x86/mov",
		"/api/asm/amdgpu/rdna9/v_max_f32",
	}
	type answer struct {
		Status int             `json:"status"`
		CORS   string          `json:"cors"`
		Body   json.RawMessage `json:"body"`
	}
	got := map[string]answer{}
	for _, p := range paths {
		for round := 0; round < 2; round++ { // the second answer comes from the cache
			rec := get(t, s, p)
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%s: not JSON: %s", p, rec.Body.String())
			}
			a := answer{Status: rec.Code, CORS: rec.Header().Get("Access-Control-Allow-Origin"), Body: json.RawMessage(bytes.TrimSpace(rec.Body.Bytes()))}
			if round == 1 && (a.Status != got[p].Status || a.CORS != got[p].CORS || !bytes.Equal(a.Body, got[p].Body)) {
				t.Errorf("%s: the cached answer differs", p)
			}
			got[p] = a
		}
	}
	body, _ := json.MarshalIndent(got, "", "  ")
	body = append(body, '\n')
	golden := filepath.Join("testdata", "asmdocs.golden.json")
	if *update {
		if err := os.WriteFile(golden, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/serve/web -run TestAsmDocsGolden -update)", err)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("answers differ from %s; if intended, rerun with -update:\n%s", golden, body)
	}
	// The contract itself, beside the golden file.
	for _, p := range paths[:8] {
		var doc map[string]any
		json.Unmarshal(got[p].Body, &doc)
		if got[p].Status != 200 || len(doc) != 3 || doc["tooltip"] == "" || doc["html"] == "" || !strings.HasPrefix(doc["url"].(string), "http://example.com/") {
			t.Errorf("%s: %d %v", p, got[p].Status, doc)
		}
	}
	for _, p := range paths[8:] {
		var doc map[string]any
		json.Unmarshal(got[p].Body, &doc)
		if got[p].Status != 404 || doc["error"] == nil || got[p].CORS != "*" {
			t.Errorf("%s: %d %v", p, got[p].Status, doc)
		}
	}
}

// TestAsmDocEscapes: upstream text reaches the html only escaped.
func TestAsmDocEscapes(t *testing.T) {
	s := newTestServer(t)
	in := &isa.Instruction{Arch: "cdna4", Name: "v_x", Kind: isa.KindNative, Summary: `<script>alert(1)</script> & "more"`,
		Operands: []isa.Operand{{Name: "<b>", Output: true}},
		Concepts: []isa.ConceptRef{{Name: "<i>c</i>", Relation: "equivalent", Members: []isa.Member{{Arch: "ptx", Name: "<img src=x>"}}}}}
	req := httptest.NewRequest(http.MethodGet, "/api/asm/cdna4/v_x", nil)
	doc, err := s.asmDocOf(req, in, "v_x", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "<b>", "<i>", "<img"} {
		if strings.Contains(doc.HTML, bad) {
			t.Errorf("html carries %q: %s", bad, doc.HTML)
		}
	}
	if !strings.Contains(doc.HTML, "&lt;script&gt;") {
		t.Errorf("html lost the text: %s", doc.HTML)
	}
}

// TestCORS: GET answers under /api/ allow any origin, OPTIONS is a 204
// preflight; pages are not opened to other origins.
func TestCORS(t *testing.T) {
	s := newTestServer(t)
	req := httptest.NewRequest(http.MethodOptions, "/api/v1/archs", nil)
	req.Header.Set("Origin", "https://godbolt.org")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "content-type")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	h := rec.Header()
	if rec.Code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") || h.Get("Access-Control-Allow-Headers") != "content-type" {
		t.Errorf("preflight: %d %v", rec.Code, h)
	}
	for _, p := range []string{"/api/v1/archs", "/api/v1/archs/cdna4/instructions/v_max_f32", "/api/v1/nothing"} {
		if got := get(t, s, p).Header().Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("GET %s: Access-Control-Allow-Origin %q", p, got)
		}
	}
	if got := get(t, s, "/amdgpu/cdna4/v_max_f32").Header().Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("a page allows origin %q", got)
	}
}

// TestAsmDocsRealDB: on the real database the two answers the issue names.
func TestAsmDocsRealDB(t *testing.T) {
	s := realServer(t)
	for _, c := range []struct{ path, html, url string }{
		{"/api/asm/amdgpu/v_max_f32", "VOP2 opcode", "/amdgpu/"},
		{"/api/asm/amdgpu/cdna3/v_max_f32_e64", "VOP2 opcode 11", "/amdgpu/cdna3/v_max_f32"},
		{"/api/asm/ptx/max", "max", "/ptx/max"},
		{"/api/asm/ptx/max.NaN.f32", "forms", "/ptx/max"},
	} {
		rec := get(t, s, c.path)
		var doc AsmDoc
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &doc) != nil || doc.Tooltip == "" {
			t.Errorf("%s: %d %s", c.path, rec.Code, rec.Body.String())
			continue
		}
		if !strings.Contains(doc.HTML, c.html) || !strings.Contains(doc.URL, c.url) || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %+v", c.path, doc)
		}
	}
}

// TestCompilerExplorerKeys: every GPU key of Compiler Explorer's list (a
// fixture in its format) is one family's CEKey, every family's CEKey is in
// the list, and the endpoint answers each key the sample store has.
func TestCompilerExplorerKeys(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "ce_instructionsets.ts"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, line := range strings.Split(string(data), "\n") {
		if k, ok := strings.CutPrefix(strings.TrimSpace(line), "'"); ok {
			keys = append(keys, strings.TrimSuffix(k, "',"))
		}
	}
	byKey := map[string]string{}
	for _, a := range isa.Archs() {
		if a.CEKey != "" {
			byKey[a.CEKey] = a.ID
		}
	}
	s := newTestServer(t)
	have := map[string]bool{}
	for _, a := range s.archs {
		have[a.ID] = true
	}
	gpu := 0
	for _, k := range keys {
		if !strings.HasPrefix(k, "amd_") && k != "ptx" {
			continue
		}
		gpu++
		id, ok := byKey[k]
		if !ok {
			t.Errorf("Compiler Explorer's %s is no family's CEKey", k)
			continue
		}
		delete(byKey, k)
		if !have[id] {
			continue
		}
		op := "v_max_f32"
		if id == "ptx" {
			op = "max"
		}
		rec := get(t, s, "/api/asm/"+k+"/"+op)
		var doc AsmDoc
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &doc) != nil || !strings.Contains(doc.URL, "/"+id+"/") && id != "ptx" {
			t.Errorf("/api/asm/%s/%s: %d %s", k, op, rec.Code, rec.Body.String())
		}
	}
	if gpu < 11 {
		t.Errorf("%d GPU keys read from the fixture", gpu)
	}
	for k, id := range byKey {
		t.Errorf("%s's CEKey %s is not in Compiler Explorer's list", id, k)
	}
}

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
	// Every Compiler Explorer key answers with its own family's facts.
	for _, a := range isa.Archs() {
		if a.CEKey == "" {
			continue
		}
		op, page, fact := "s_endpgm", "/amdgpu/"+a.ID+"/s_endpgm", "<b>"+a.Name+"</b>"
		if a.Kind == isa.KindVirtual {
			op, page, fact = "max.NaN.f32", "/ptx/max", ".f32 d, a, b"
		}
		rec := get(t, s, "/api/asm/"+a.CEKey+"/"+op)
		var doc AsmDoc
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &doc) != nil || !strings.HasSuffix(doc.URL, page) || !strings.Contains(doc.HTML, fact) {
			t.Errorf("/api/asm/%s/%s: %d %.400s", a.CEKey, op, rec.Code, rec.Body.String())
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

// ceFormat is testdata/ce_asmdocs_format.json: the answer Compiler
// Explorer's client expects, and the key it asks for per gfx target.
type ceFormat struct {
	Answer struct {
		Status int
		Fields map[string]string
	} `json:"answer"`
	Unknown struct {
		Status int
		Fields map[string]string
	} `json:"unknown"`
	Targets [][2]string `json:"targets"`
}

func readCEFormat(t *testing.T) ceFormat {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "ce_asmdocs_format.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f ceFormat
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("testdata/ce_asmdocs_format.json: %v", err)
	}
	if len(f.Answer.Fields) == 0 || len(f.Unknown.Fields) == 0 || len(f.Targets) == 0 {
		t.Fatalf("testdata/ce_asmdocs_format.json: empty %+v", f)
	}
	return f
}

// ceKeyOf is the key Compiler Explorer asks for when it compiles for
// target: the first prefix that matches, "" for none.
func ceKeyOf(f ceFormat, target string) string {
	for _, p := range f.Targets {
		if strings.HasPrefix(target, p[0]) {
			return p[1]
		}
	}
	return ""
}

// TestCompilerExplorerTargets: for every AMD target of every family, the
// key Compiler Explorer asks for (the fixture's prefix rule) is the
// family's CEKey, so the tooltip comes from the family the code was
// compiled for; a family none of whose targets has a key (Vega) has none.
func TestCompilerExplorerTargets(t *testing.T) {
	f := readCEFormat(t)
	for _, a := range isa.Archs() {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		for _, target := range a.Targets {
			if got := ceKeyOf(f, target); got != a.CEKey {
				t.Errorf("%s (%s): Compiler Explorer asks for %q, the family's CEKey is %q", target, a.ID, got, a.CEKey)
			}
		}
	}
}

// TestCompilerExplorerAnswerShape: every GPU key of the list answers in
// the fixture's shape: the answer's fields exactly, each a non-empty
// string, the url absolute, the tooltip without markup, the html a
// fragment; an unknown opcode the unknown shape with its status. PTX
// opcodes written with modifiers answer the form they select.
func TestCompilerExplorerAnswerShape(t *testing.T) {
	f := readCEFormat(t)
	s := newTestServer(t)
	have := map[string]bool{}
	for _, a := range s.archs {
		have[a.ID] = true
	}
	checked := 0
	for _, a := range isa.Archs() {
		if a.CEKey == "" || !have[a.ID] {
			continue
		}
		op := "v_max_f32"
		if a.Kind == isa.KindVirtual {
			op = "max.NaN.f32"
		}
		rec := get(t, s, "/api/asm/"+a.CEKey+"/"+op)
		var doc map[string]any
		if rec.Code != f.Answer.Status || json.Unmarshal(rec.Body.Bytes(), &doc) != nil || len(doc) != len(f.Answer.Fields) {
			t.Errorf("/api/asm/%s/%s: %d %s", a.CEKey, op, rec.Code, rec.Body.String())
			continue
		}
		for field := range f.Answer.Fields {
			v, ok := doc[field].(string)
			if !ok || v == "" {
				t.Errorf("/api/asm/%s/%s: %s is %v", a.CEKey, op, field, doc[field])
			}
		}
		tip, _ := doc["tooltip"].(string)
		html, _ := doc["html"].(string)
		u, _ := doc["url"].(string)
		if strings.ContainsAny(tip, "<>") || strings.Contains(html, "<html") || !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			t.Errorf("/api/asm/%s/%s: %v", a.CEKey, op, doc)
		}
		if a.Kind == isa.KindVirtual && (!strings.Contains(tip, ".f32") || strings.Contains(tip, ".atype")) {
			t.Errorf("/api/asm/%s/%s: the tooltip is not the f32 form's: %q", a.CEKey, op, tip)
		}
		if a.Kind != isa.KindVirtual && !strings.Contains(u, "/amdgpu/"+a.ID+"/") {
			t.Errorf("/api/asm/%s/%s: the page of another family: %s", a.CEKey, op, u)
		}
		rec = get(t, s, "/api/asm/"+a.CEKey+"/no_such_op")
		var bad map[string]any
		if rec.Code != f.Unknown.Status || json.Unmarshal(rec.Body.Bytes(), &bad) != nil {
			t.Errorf("/api/asm/%s/no_such_op: %d %s", a.CEKey, rec.Code, rec.Body.String())
		}
		for field := range f.Unknown.Fields {
			if v, ok := bad[field].(string); !ok || v == "" {
				t.Errorf("/api/asm/%s/no_such_op: no %s: %v", a.CEKey, field, bad)
			}
		}
		checked++
	}
	if checked < 3 {
		t.Errorf("%d keys checked against the sample store", checked)
	}
}

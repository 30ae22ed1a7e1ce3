package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
)

// realDB is the real database the tests read: GPUISA_DB, else one built
// once from the upstream sources (without llvm-mc, whose verification has
// its own tests), shared with the other test binaries (package realdb).
var realDB = realdb.DB{Env: "GPUISA_DB"}

// realServer serves the real database (realDB), answer cache off; the test
// is skipped when there is none.
func realServer(tb testing.TB) *server {
	tb.Helper()
	path, err := realDB.Path(ingest.Options{NoVerify: true})
	if err != nil {
		tb.Fatalf("building the real database: %v", err)
	}
	if path == "" {
		tb.Skip("no GPUISA_DB and no upstream sources (../shared/upstream or $GPUISA_SOURCES): skipping tests on the real database")
	}
	return testServer(tb, realdb.Open(tb, path), Options{CacheBytes: -1})
}

// TestEveryPageOfARealDatabase renders every family index and instruction
// page, and the API document of each, from the real database (realDB). No
// page may fail, and every API document keeps the JSON contract
// (jsonContract).
func TestEveryPageOfARealDatabase(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	contract := instructionContract(t)
	pages, slowest := 0, time.Duration(0)
	slowestPath, heaviestPath, heaviest := "", "", 0
	for _, a := range s.archs {
		if rec := get(t, s, archURL(a.ID)); rec.Code != http.StatusOK {
			t.Errorf("%s: %d", archURL(a.ID), rec.Code)
		}
		list, err := s.store.List(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range familyPageURLs(a, list) {
			if rec := get(t, s, p); rec.Code != http.StatusOK {
				t.Errorf("GET %s: %d %.200s", p, rec.Code, rec.Body.String())
			}
		}
		for _, sum := range list {
			const htmlPage, apiDocument = 0, 1
			for i, p := range []string{htmlPage: instrURL(sum.Arch, sum.Name), apiDocument: "/api/v1/archs/" + url.PathEscape(sum.Arch) + "/instructions/" + url.PathEscape(sum.Name)} {
				start := time.Now()
				rec := get(t, s, p)
				if d := time.Since(start); d > slowest {
					slowest, slowestPath = d, p
				}
				pages++
				if rec.Code != http.StatusOK {
					t.Errorf("GET %s: %d %.200s", p, rec.Code, rec.Body.String())
				}
				if i == apiDocument {
					contract.check(t, p, rec.Body.Bytes())
				}
				// Every instruction page is under 150 KB of HTML (the
				// long tables and listings have pages of their own).
				if n := rec.Body.Len(); i == htmlPage && n > maxInstructionPage {
					t.Errorf("GET %s: %d bytes of HTML, over %d", p, n, maxInstructionPage)
				} else if i == htmlPage && n > heaviest {
					heaviest, heaviestPath = n, p
				}
			}
		}
	}
	t.Logf("heaviest instruction page %s: %d bytes", heaviestPath, heaviest)
	contract.report(t)
	extra := []string{"/", "/search?q=v_max_f23", "/search?q=fused+multiply+add", "/compare/v_max_f32", "/ptx/max",
		"/concepts", "/quality", "/search?q=0x160a04c1", "/decode?arch=cdna4&hex=0x160a04c1"}
	if cd, err := s.conceptCatalogue(); err == nil {
		for _, c := range cd.cat.Concepts {
			extra = append(extra, conceptURL(c.ID))
		}
	}
	if rep, err := s.qualityReport(); err == nil {
		for _, f := range rep.Families {
			extra = append(extra, "/quality/"+f.Arch)
		}
	}
	for _, p := range extra {
		if rec := get(t, s, p); rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", p, rec.Code)
		}
	}
	t.Logf("%d pages and API answers rendered; slowest %v (%s)", pages, slowest, slowestPath)
}

// Page weight: an instruction page and a family index's HTML.
const (
	maxInstructionPage = 150 << 10
	maxFamilyIndex     = 100 << 10 // the RDNA 4 index (issue 15)
	// maxOtherIndex holds the other families' indexes: CDNA 5 lists 1,321
	// names, some 800 of them marked new or renamed against CDNA 4.
	maxOtherIndex = 120 << 10
	maxFirstByte  = 50 * time.Millisecond
)

// TestPageWeightAndSpeedRealDB: the family indexes are under 100 KB
// (RDNA 4's has over 1,200 instructions) and the pages people open first
// answer in under 50 ms with the answer cache off: the fastest of five
// renders (the handler renders a page whole before its first byte), after
// one that builds the family's decoder, as a running server does at start.
// The fastest, not the median, because the machines the tests share run
// other work; the log has both.
func TestPageWeightAndSpeedRealDB(t *testing.T) {
	s := realServer(t)
	// On a machine busier than it has CPUs, render times measure the other
	// work: they are logged, not held to the limit.
	hold := true
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		var l1 float64
		if _, err := fmt.Sscan(string(load), &l1); err == nil && l1 > float64(runtime.NumCPU()) {
			hold = false
			t.Logf("load average %.1f on %d CPUs: render times are logged, not held to %v", l1, runtime.NumCPU(), maxFirstByte)
		}
	}
	for _, a := range s.archs {
		limit := maxOtherIndex
		if a.ID == "rdna4" {
			limit = maxFamilyIndex
		}
		if n := get(t, s, archURL(a.ID)).Body.Len(); n > limit {
			t.Errorf("%s: %d bytes, over %d", archURL(a.ID), n, limit)
		}
	}
	for _, p := range []string{"/amdgpu/cdna4/v_max_f32", "/amdgpu/cdna3/v_mfma_f32_32x32x8_f16", "/ptx/max", "/ptx/mma",
		"/ptx/cvt", "/", "/amdgpu/rdna4", "/ptx", "/amdgpu/rdna4/category/vector-arithmetic"} {
		get(t, s, p)
		var times []time.Duration
		for range 5 {
			start := time.Now()
			if rec := get(t, s, p); rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d", p, rec.Code)
			}
			times = append(times, time.Since(start))
		}
		slices.Sort(times)
		if hold && times[0] > maxFirstByte {
			t.Errorf("GET %s: %v at best, over %v (%v)", p, times[0], maxFirstByte, times)
		}
		t.Logf("GET %s: fastest %v, median %v", p, times[0], times[2])
	}
}

// BenchmarkRealNewPages renders the concept, quality and decode pages from
// the database named by GPUISA_DB, cache off, after a first render that
// parses the catalogue and builds the decoders.
func BenchmarkRealNewPages(b *testing.B) {
	s := realServer(b)
	for _, p := range []string{"/concepts", "/concepts/maximum", "/quality", "/quality/cdna4",
		"/decode?arch=cdna4&hex=0x160a04c1+0x7e0a02ff+0x3f800000", "/search?q=0x160a04c1", "/amdgpu/cdna4/v_max_f32"} {
		b.Run(strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "_", "+", "_").Replace(p), func(b *testing.B) {
			get(b, s, p) // warm: catalogue parsed, decoders built
			for b.Loop() {
				if rec := get(b, s, p); rec.Code != http.StatusOK {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

// BenchmarkRealInstructionPage renders /amdgpu/cdna4/v_max_f32 from the
// database named by GPUISA_DB, cache off (store reads included).
func BenchmarkRealInstructionPage(b *testing.B) {
	s := realServer(b)
	// The first page of a family builds its decoder (for the examples'
	// field diagrams); a running server has done that at start.
	get(b, s, "/amdgpu/cdna4/v_max_f32")
	b.ReportAllocs()
	for b.Loop() {
		if rec := get(b, s, "/amdgpu/cdna4/v_max_f32"); rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}

// TestDualIssueDecodeOfARealDatabase decodes an RDNA 3 VOPD word on the
// decode page and the API: both operations, their pages and opcodes.
func TestDualIssueDecodeOfARealDatabase(t *testing.T) {
	s := realServer(t)
	rec := get(t, s, "/decode?arch=rdna3&hex=0xc8500501+0x00020104+0x3f800000")
	body := rec.Body.String()
	for _, want := range []string{
		"v_dual_fmaak_f32 v0, v1, v2, 0x3f800000 :: v_dual_mov_b32 v3, v4",
		`href="/amdgpu/rdna3/v_dual_mov_b32"`, "Operands of Y: <code>v3</code>, <code>v4</code>", "opcode 1, 8",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("decode page lacks %q", want)
		}
	}
	rec = get(t, s, "/api/v1/decode?arch=rdna3&hex=0xc8500501+0x00020104+0x3f800000")
	if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, `"dual":{"name":"v_dual_mov_b32","mnemonic":"v_dual_mov_b32","opcode":8,"operands":["v3","v4"]}`) {
		t.Errorf("API: %d %.600s", rec.Code, body)
	}
}

// jsonContract holds each instruction document the API answers to the
// OpenAPI document's Instruction schema: every required property is
// present, and none that the schema types as a list or an object is null
// (examples was null in 83 RDNA 3 documents, operands missing from 1,321
// CDNA 5 ones). TestEveryPageOfARealDatabase fetches every document, so
// it checks them on the same walk; GPUISA_DB points it at a verified build.
type jsonContract struct {
	schemas         map[string]map[string]any
	checked, failed int
}

func instructionContract(t *testing.T) *jsonContract {
	t.Helper()
	raw, err := openAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	return &jsonContract{schemas: spec.Components.Schemas}
}

func (c *jsonContract) check(t *testing.T, path string, body []byte) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c.checked++
	if errs := contractErrors(c.schemas, map[string]any{"$ref": "#/components/schemas/Instruction"}, doc, ""); len(errs) > 0 {
		c.failed++
		if c.failed <= 20 {
			t.Errorf("%s: %s", path, strings.Join(errs, "; "))
		}
	}
}

func (c *jsonContract) report(t *testing.T) {
	t.Helper()
	if c.failed > 0 {
		t.Errorf("%d of %d documents break the JSON contract", c.failed, c.checked)
	}
	if c.checked == 0 {
		t.Error("no instruction document was checked against the OpenAPI schema")
	}
	t.Logf("%d instruction documents checked against the OpenAPI schema", c.checked)
}

// contractErrors lists where v breaks schema: a required property missing,
// or null where the schema says array or object.
func contractErrors(schemas map[string]map[string]any, schema map[string]any, v any, path string) []string {
	if ref, ok := schema["$ref"].(string); ok {
		schema = schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
	}
	var out []string
	typ, _ := schema["type"].(string)
	if v == nil {
		if typ == "array" || typ == "object" {
			out = append(out, path+" is null, the schema says "+typ)
		}
		return out
	}
	switch typ {
	case "array":
		items, _ := schema["items"].(map[string]any)
		if list, ok := v.([]any); ok && items != nil {
			for i, e := range list {
				out = append(out, contractErrors(schemas, items, e, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return out
		}
		props, _ := schema["properties"].(map[string]any)
		req, _ := schema["required"].([]any)
		for _, r := range req {
			name := r.(string)
			val, present := obj[name]
			if !present {
				out = append(out, path+"."+name+" is missing")
				continue
			}
			if ps, ok := props[name].(map[string]any); ok {
				out = append(out, contractErrors(schemas, ps, val, path+"."+name)...)
			}
		}
		for name, val := range obj {
			if ps, ok := props[name].(map[string]any); ok && !slices.Contains(req, any(name)) {
				out = append(out, contractErrors(schemas, ps, val, path+"."+name)...)
			}
		}
		if add, ok := schema["additionalProperties"].(map[string]any); ok {
			for k, val := range obj {
				out = append(out, contractErrors(schemas, add, val, path+"."+k)...)
			}
		}
	}
	return out
}

// BenchmarkRealPTXPages renders the largest PTX pages from the real
// database, cache off.
func BenchmarkRealPTXPages(b *testing.B) {
	s := realServer(b)
	for _, p := range []string{"/ptx/max", "/ptx/mma", "/ptx/cvt"} {
		b.Run(strings.TrimPrefix(p, "/ptx/"), func(b *testing.B) {
			get(b, s, p)
			b.ReportAllocs()
			for b.Loop() {
				if rec := get(b, s, p); rec.Code != http.StatusOK {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

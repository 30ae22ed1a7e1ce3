package web

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
)

// hrefsUnder are the hrefs under n that start with prefix.
func hrefsUnder(n *html.Node, prefix string) []string {
	var out []string
	for _, a := range findAll(n, tag("a")) {
		if h := attr(a, "href"); strings.HasPrefix(h, prefix) {
			out = append(out, h)
		}
	}
	return out
}

// TestSASSPages: on the sample, /sass lists both opcodes with their
// targets, /sass/sm_90 only what sm_90's listings have, and /sass/FMNMX
// its grid, modifiers and shapes per target, the PTX statements that lower
// to it (linked to /ptx/max), the decoded control fields and whose output
// the SASS is.
func TestSASSPages(t *testing.T) {
	s := newTestServer(t)
	idx := text(mustPage(t, s, "/sass"))
	wantText(t, "/sass", idx, "2 SASS opcodes", "FMNMX", "IMNMX", "sm_75", "sm_90", "NVIDIA's ptxas and nvdisasm output", "ptxas 0.0-sample")

	sm90 := mustPage(t, s, "/sass/sm_90")
	rows := findAll(sm90, tag("table"))
	if len(rows) != 1 {
		t.Fatalf("/sass/sm_90 has %d tables", len(rows))
	}
	if got := hrefsUnder(rows[0], "/sass/"); !slices.Contains(got, "/sass/FMNMX") || slices.Contains(got, "/sass/IMNMX") || !slices.Contains(hrefsUnder(sm90, "/sass/"), "/sass/sm_75") {
		t.Errorf("/sass/sm_90 links %q: want FMNMX and the other targets, not IMNMX (not on sm_90)", got)
	}
	// Against sm_80, IMNMX is gone on sm_90.
	wantText(t, "/sass/sm_90", text(sm90), "Against sm_80", "seen there and not here: IMNMX")

	doc := mustPage(t, s, "/sass/FMNMX")
	grid := findAll(section(t, doc, "targets"), tag("li"))
	if len(grid) != 3 {
		t.Fatalf("FMNMX's grid has %d targets, want the index's 3", len(grid))
	}
	for _, li := range grid {
		if !hasClass(li, "t-supported") {
			t.Errorf("FMNMX not seen on %s", text(li))
		}
	}
	forms := text(section(t, doc, "forms"))
	wantText(t, "FMNMX modifiers", forms, ".NAN", "(none)", "R, R, R, P")
	ptx := section(t, doc, "ptx")
	wantText(t, "FMNMX from PTX", text(ptx), "max.f32 d, a, b;", "form max{.ftz}{.NaN}.f32 d, a, b;", "max.NaN.f32 f1, f2, f3", "sm_75, sm_90")
	if got := hrefsUnder(ptx, "/ptx/"); !slices.Contains(got, "/ptx/max#sass") || !slices.Contains(got, "/ptx/max") {
		t.Errorf("FMNMX's PTX links %q, want /ptx/max", got)
	}
	amd := section(t, doc, "amd")
	wantText(t, "FMNMX's AMD counterparts", text(amd), "max", "v_max_f32", "CDNA 4")
	if got := hrefsUnder(amd, "/amdgpu/"); len(got) == 0 {
		t.Error("FMNMX's AMD counterparts link no AMD page")
	}
	ctrl := text(section(t, doc, "control"))
	wantText(t, "FMNMX control", ctrl, "Decoded by gpuisa from nvdisasm's output", "S01 y0", "Stall")
	wantText(t, "FMNMX page", text(doc), "NVIDIA's ptxas and nvdisasm output", "first sm_75", "last sm_90")

	// The PTX page links each SASS line's opcode to its page.
	if got := hrefsUnder(mustPage(t, s, "/ptx/max"), "/sass/"); !slices.Contains(got, "/sass/FMNMX") || !slices.Contains(got, "/sass/IMNMX") {
		t.Errorf("/ptx/max links %q, want FMNMX and IMNMX", got)
	}
}

// TestSASSRedirectsAndMisses: an opcode written in lower case or with
// modifiers goes to its page; an unknown name is a 404 that suggests.
func TestSASSRedirectsAndMisses(t *testing.T) {
	s := newTestServer(t)
	for _, p := range []string{"/sass/fmnmx", "/sass/FMNMX.NAN"} {
		if rec := get(t, s, p); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/sass/FMNMX" {
			t.Errorf("GET %s: %d %q, want 301 to /sass/FMNMX", p, rec.Code, rec.Header().Get("Location"))
		}
	}
	rec := get(t, s, "/sass/FMNMY")
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `href="/sass/FMNMX"`) {
		t.Errorf("GET /sass/FMNMY: %d, want 404 suggesting FMNMX:\n%.400s", rec.Code, rec.Body.String())
	}
	if rec := get(t, s, "/sass/sm_86"); rec.Code != http.StatusNotFound {
		t.Errorf("GET /sass/sm_86 (no listings there): %d", rec.Code)
	}
	x, err := s.sassIndex()
	if err != nil || len(x.Targets) == 0 {
		t.Fatalf("the fixture's SASS index: %v", err)
	}
	upper := strings.ToUpper(x.Targets[0])
	if rec := get(t, s, "/sass/"+upper); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/sass/"+x.Targets[0] {
		t.Errorf("GET /sass/%s: %d %q, want 301 to /sass/%s", upper, rec.Code, rec.Header().Get("Location"), x.Targets[0])
	}
}

// TestSASSWithoutIndex: a database built without nvdisasm has no SASS
// reference: /sass is a 404 that says why, the API the same.
func TestSASSWithoutIndex(t *testing.T) {
	b := webfake.Build()
	delete(b.Extras, sassindex.Key)
	s := testServer(t, webfake.Open(t, b), Options{})
	rec := get(t, s, "/sass")
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "without ptxas and nvdisasm") {
		t.Errorf("GET /sass without the index: %d %.300s", rec.Code, rec.Body.String())
	}
	if rec := get(t, s, "/api/asm/sass/FMNMX"); rec.Code != http.StatusNotFound {
		t.Errorf("GET /api/asm/sass/FMNMX without the index: %d", rec.Code)
	}
	pages, _, err := s.exportURLs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if strings.HasPrefix(p, "/sass") {
			t.Errorf("exported %s without an index", p)
		}
	}
}

// TestSASSAsmDoc: /api/asm/sass/OPCODE answers in Compiler Explorer's
// format (testdata/ce_asmdocs_format.json), for the opcode as a listing
// writes it too; an unknown opcode in its unknown shape.
func TestSASSAsmDoc(t *testing.T) {
	f := readCEFormat(t)
	s := newTestServer(t)
	for _, op := range []string{"FMNMX", "FMNMX.NAN", "fmnmx"} {
		rec := get(t, s, "/api/asm/sass/"+op)
		var doc map[string]string
		if rec.Code != f.Answer.Status || json.Unmarshal(rec.Body.Bytes(), &doc) != nil || len(doc) != len(f.Answer.Fields) {
			t.Fatalf("/api/asm/sass/%s: %d %s", op, rec.Code, rec.Body.String())
		}
		for field := range f.Answer.Fields {
			if doc[field] == "" {
				t.Errorf("/api/asm/sass/%s: empty %s", op, field)
			}
		}
		if doc["url"] != "http://example.com/sass/FMNMX" || strings.ContainsAny(doc["tooltip"], "<>") || !strings.Contains(doc["tooltip"], "sm_75 to sm_90") ||
			!strings.Contains(doc["html"], "decoded by gpuisa from nvdisasm's output") || !strings.Contains(doc["html"], "<code>max</code>") {
			t.Errorf("/api/asm/sass/%s: %v", op, doc)
		}
		if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("/api/asm/sass/%s: no CORS", op)
		}
	}
	// SASS is no AMD family: under amdgpu/ it is an unknown family.
	if rec := get(t, s, "/api/asm/amdgpu/sass/FMNMX"); rec.Code != f.Unknown.Status || strings.Contains(rec.Body.String(), "nvdisasm") {
		t.Errorf("/api/asm/amdgpu/sass/FMNMX: %d %.300s", rec.Code, rec.Body.String())
	}
	rec := get(t, s, "/api/asm/sass/NOSUCH")
	var bad map[string]any
	if rec.Code != f.Unknown.Status || json.Unmarshal(rec.Body.Bytes(), &bad) != nil || !strings.Contains(bad["error"].(string), "NOSUCH") {
		t.Errorf("/api/asm/sass/NOSUCH: %d %s", rec.Code, rec.Body.String())
	}
}

// everySASSPage fetches /sass, every target's and every opcode's page of
// s's index, and the /sass links of the PTX pages named; each must answer
// 200. It returns the index.
func everySASSPage(t *testing.T, s *server, ptxPages ...string) *sassindex.Index {
	t.Helper()
	x, err := s.sassIndex()
	if err != nil {
		t.Fatal(err)
	}
	pages, _, err := s.exportURLs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := s.sassURLs()
	if len(want) != 1+len(x.Targets)+len(x.Opcodes) {
		t.Fatalf("%d SASS pages for %d targets and %d opcodes", len(want), len(x.Targets), len(x.Opcodes))
	}
	for _, p := range want {
		if !slices.Contains(pages, p) {
			t.Errorf("%s is not among the prerendered pages", p)
		}
		if rec := get(t, s, p); rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d %.200s", p, rec.Code, rec.Body.String())
		}
	}
	for _, pp := range ptxPages {
		for _, l := range hrefsUnder(mustPage(t, s, pp), "/sass/") {
			if rec := get(t, s, l); rec.Code != http.StatusOK {
				t.Errorf("%s links %s: %d", pp, l, rec.Code)
			}
		}
	}
	return x
}

// TestEverySASSOpcodeHasAPage on the sample.
func TestEverySASSOpcodeHasAPage(t *testing.T) {
	if x := everySASSPage(t, newTestServer(t), "/ptx/max", "/ptx/max/sass"); len(x.Opcodes) != 2 {
		t.Errorf("the sample's index has %d opcodes, want FMNMX and IMNMX", len(x.Opcodes))
	}
}

// TestSASSRealDB: on the database built with ptxas and nvdisasm, every
// opcode of the index has a page, FFMA's shows the fma forms and
// spans the targets from sm_75, and the API answers it.
func TestSASSRealDB(t *testing.T) {
	s := ptxasServer(t)
	x := everySASSPage(t, s, "/ptx/fma", "/ptx/mma", "/ptx/ld")
	if len(x.Opcodes) < 100 || len(x.Targets) < 7 {
		t.Errorf("the real index has %d opcodes on %d targets", len(x.Opcodes), len(x.Targets))
	}
	t.Logf("%d opcodes on %v, from %d listings (%d lines); tools %v", len(x.Opcodes), x.Targets, x.Provenance.Statements, x.Provenance.Lines, x.Provenance.Tools)
	for _, op := range []string{"FFMA", "HMMA", "IADD3", "LDG", "SHFL", "BAR"} {
		if x.Opcode(op) == nil {
			t.Errorf("no %s in the real index", op)
		}
	}
	doc := mustPage(t, s, "/sass/FFMA")
	if got := hrefsUnder(section(t, doc, "ptx"), "/ptx/"); !slices.Contains(got, "/ptx/fma#sass") {
		t.Errorf("FFMA's PTX links %q lack /ptx/fma", got)
	}
	wantText(t, "FFMA", text(doc), "first sm_75", "R, R, R, R", "Decoded by gpuisa from nvdisasm's output", "nvdisasm ")
	// The diff between targets skips the specific ones (sm_90a lists only
	// what no plain target accepts).
	wantText(t, "/sass/sm_100", text(mustPage(t, s, "/sass/sm_100")), "Against sm_90:")
	if got := text(mustPage(t, s, "/sass/sm_90a")); strings.Contains(got, "Against") || !strings.Contains(got, "architecture-specific") {
		t.Errorf("/sass/sm_90a compares itself or does not say it is specific:\n%.600s", got)
	}
	rec := get(t, s, "/api/asm/sass/FFMA.FTZ")
	var d AsmDoc
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &d) != nil || !strings.Contains(d.Tooltip, "fma") || !strings.HasSuffix(d.URL, "/sass/FFMA") {
		t.Errorf("/api/asm/sass/FFMA.FTZ: %d %s", rec.Code, rec.Body.String())
	}
}

// TestSASSControlRoundTripsRealDB: for 1,000 sm_90 lines of the PTX
// pages (every line of the instructions in name order until then), the
// control fields gpuisa decoded re-encode to the control bits of the
// encoding nvdisasm printed (issue 31's acceptance).
func TestSASSControlRoundTripsRealDB(t *testing.T) {
	s := ptxasServer(t)
	ctx := context.Background()
	list, err := s.store.List(ctx, "ptx")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, sum := range list {
		in, err := s.store.Instruction(ctx, "ptx", sum.Name)
		if err != nil {
			t.Fatal(err)
		}
		var checks []isa.PTXCheck
		for _, f := range in.Forms {
			if f.Check != nil {
				checks = append(checks, *f.Check)
			}
		}
		for _, ex := range in.Examples {
			checks = append(checks, ex.Checks...)
		}
		for _, c := range checks {
			for _, ss := range c.SASS {
				if ss.Target != "sm_90" {
					continue
				}
				for _, l := range ss.Lines {
					if n == 1000 {
						t.Logf("%d sm_90 lines round-trip", n)
						return
					}
					d, ok := sassindex.ParseControl(l.Control)
					bits, eok := sassindex.EncodedControl(l.Encoding)
					if !ok || !eok || d.Bits() != bits {
						t.Errorf("%s %q: control %q re-encodes to %#x, the encoding %s has %#x", sum.Name, l.Text, l.Control, d.Bits(), l.Encoding, bits)
					}
					n++
				}
			}
		}
	}
	t.Errorf("only %d sm_90 lines in the real database", n)
}

package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func TestInstructionPageSectionsInDesignOrder(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")

	h1 := findAll(doc, tag("h1"))
	if len(h1) != 1 || text(h1[0]) != "v_max_f32" {
		t.Fatalf("h1 = %q, want one h1 v_max_f32", texts(h1))
	}
	// The first screen answers (syntax, where it runs, the PTX
	// counterpart); then operands, encoding, semantics, examples, the
	// target grid, other generations, related, reference and sources.
	want := []string{"Description", "Operands", "Encoding", "Semantics", "Examples", "Target compatibility",
		"Other generations", "Related PTX Concepts", "More in this category", "Reference", "Sources"}
	if got := texts(findAll(doc, tag("h2"))); !slices.Equal(got, want) {
		t.Errorf("h2 order:\n got %q\nwant %q", got, want)
	}
	answer := findAll(doc, func(n *html.Node) bool { return n.Data == "dl" && hasClass(n, "answer") })
	if len(answer) != 1 {
		t.Fatalf("%d answer blocks, want 1", len(answer))
	}
	wantText(t, "first screen", text(answer[0]), "Syntax", "v_max_f32 v5, v1, v2", "Runs on", "gfx950", "every CDNA 4 target",
		"PTX", "max", "equivalent with restrictions: NaN inputs are handled differently")
	if !slices.Contains(hrefs(answer[0]), "/ptx/max") || !slices.Contains(hrefs(answer[0]), "#generations") {
		t.Errorf("the first screen does not link the counterpart and the other generations: %q", hrefs(answer[0]))
	}
	// The data checks fold into one badge before the answer.
	badge := findAll(doc, func(n *html.Node) bool { return n.Data == "details" && hasClass(n, "badge-v") })
	if len(badge) != 1 || !strings.Contains(text(badge[0]), "verified by llvm-mc") ||
		!strings.Contains(text(badge[0]), "Opcode 11 in OP rebuilds 0x16000000") {
		t.Errorf("verification badge %q", texts(badge))
	}
	meta := findAll(doc, func(n *html.Node) bool { return hasClass(n, "meta") })
	if len(meta) != 1 {
		t.Fatalf("want one header meta line, got %d", len(meta))
	}
	for _, w := range []string{"GPU Native ISA", "AMD", "Vector unit", "CDNA 4"} {
		if !strings.Contains(text(meta[0]), w) {
			t.Errorf("header meta %q lacks %q", text(meta[0]), w)
		}
	}
	body := get(t, s, "/amdgpu/cdna4/v_max_f32").Body.String()
	for _, w := range []string{"Vector Arithmetic", "VOP2", "VOP3A", "0x16000000",
		"Opcode 11 in OP rebuilds 0x16000000", "FMT_NUM_F32", "OPR_VGPR", "gfx950", "gfx1100", "Maximum",
		"equivalent with restrictions", "Not the same in every generation", "The same in"} {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %q", w)
		}
	}
	// the encoding diagram: one SVG per 32-bit row (wide) and per 16-bit row
	// (narrow): VOP2 1+2 rows, VOP3A 2+4 rows; then the example's decoded
	// VOP2 bytes, 1+2 rows.
	if n := len(findAll(doc, tag("svg"))); n != 12 {
		t.Errorf("got %d diagram rows, want 12", n)
	}
	links := hrefs(doc)
	for _, w := range []string{"/amdgpu/rdna3/v_max_f32", "/amdgpu/cdna3/v_max_f32", "/amdgpu/rdna4/v_max_num_f32",
		"/ptx/max", "/amdgpu/cdna4/v_min_f32", "/compare/v_max_f32"} {
		if !slices.Contains(links, w) {
			t.Errorf("page has no link to %s", w)
		}
	}
}

func TestTargetsNotYetVerified(t *testing.T) {
	s := newTestServer(t)
	body := get(t, s, "/amdgpu/rdna3/v_max_f32").Body.String()
	if !strings.Contains(body, "Not yet verified") {
		t.Error("rdna3 v_max_f32 has no target results but the page does not say not yet verified")
	}
	doc := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	items := findAll(doc, func(n *html.Node) bool { return n.Data == "li" && strings.HasPrefix(attr(n, "class"), "t-") })
	if len(items) == 0 {
		t.Fatal("no target list")
	}
	// one entry per gfx target the assembler knows
	seen := map[string]bool{}
	for _, li := range items {
		seen[strings.Fields(text(li))[0]] = true
	}
	for _, want := range []string{"gfx600", "gfx950", "gfx1251"} {
		if !seen[want] {
			t.Errorf("target list lacks %s", want)
		}
	}
}

func TestPTXPageSections(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/ptx/max")
	want := []string{"Syntax", "Counterparts on AMD", "Forms", "Operands", "Description", "Semantics", "Examples",
		"Target compatibility", "Compiles to", "More in this category", "Reference", "Sources"}
	if got := texts(findAll(doc, tag("h2"))); !slices.Equal(got, want) {
		t.Errorf("h2 order:\n got %q\nwant %q", got, want)
	}
	meta := findAll(doc, func(n *html.Node) bool { return hasClass(n, "meta") })
	if len(meta) != 1 || !strings.Contains(text(meta[0]), "GPU Virtual ISA") || !strings.Contains(text(meta[0]), "NVIDIA") {
		t.Errorf("header meta = %q", texts(meta))
	}
	forms := findAll(doc, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "forms") })
	if len(forms) != 1 {
		t.Fatalf("want one forms table, got %d", len(forms))
	}
	if rows := findAll(forms[0], tag("tr")); len(rows) != 4 { // header + 3 forms
		t.Errorf("forms table has %d rows, want 4", len(rows))
	}
	body := text(doc)
	for _, w := range []string{"no fixed binary encoding", "sm_80", ".bf16x2", "PTX ISA version"} {
		if !strings.Contains(body, w) {
			t.Errorf("PTX page lacks %q", w)
		}
	}
	if !slices.Contains(hrefs(doc), "/amdgpu/cdna4/v_max_f32") {
		t.Error("PTX max does not link its AMD concept members")
	}
	// A multi-line example keeps its line breaks: a // comment must not
	// run into the code after it.
	if !slices.Contains(exampleTexts(doc), "// sample comment\nmax.NaN.f32 f1, f2, f3;") {
		t.Errorf("examples %q lack the multi-line example in a <pre>", exampleTexts(doc))
	}
}

// exampleTexts returns the raw text of the pre-formatted examples.
func exampleTexts(doc *html.Node) []string {
	var out []string
	for _, sec := range findAll(doc, func(n *html.Node) bool { return n.Data == "section" && attr(n, "aria-labelledby") == "examples" }) {
		for _, pre := range findAll(sec, tag("pre")) {
			out = append(out, rawText(pre))
		}
	}
	return out
}

func TestTablesHaveHeadersWithScope(t *testing.T) {
	s := newTestServer(t)
	for _, path := range []string{"/", "/amdgpu/cdna4", "/amdgpu/cdna4/v_max_f32", "/ptx/max", "/compare/v_max_f32", "/ptx"} {
		doc := mustPage(t, s, path)
		for _, table := range findAll(doc, tag("table")) {
			ths := findAll(table, tag("th"))
			if len(ths) == 0 {
				t.Errorf("%s: a table has no th", path)
			}
			for _, th := range ths {
				if sc := attr(th, "scope"); sc != "col" && sc != "row" {
					t.Errorf("%s: th %q has scope %q", path, text(th), sc)
				}
			}
			if len(findAll(table, tag("thead"))) != 1 {
				t.Errorf("%s: a table has no thead", path)
			}
		}
		// every form control has a label
		labels := map[string]bool{}
		for _, l := range findAll(doc, tag("label")) {
			labels[attr(l, "for")] = true
		}
		for _, in := range findAll(doc, func(n *html.Node) bool { return n.Data == "input" || n.Data == "select" }) {
			if !labels[attr(in, "id")] {
				t.Errorf("%s: control %q has no label", path, attr(in, "id"))
			}
		}
	}
}

func TestUpstreamTextIsEscaped(t *testing.T) {
	s := newTestServer(t)
	raw := get(t, s, "/amdgpu/cdna4/v_max_f32").Body.String()
	if strings.Contains(raw, "<p>bigger") || strings.Contains(raw, "<p> Written") {
		t.Error("upstream markup reached the page unescaped")
	}
	if !strings.Contains(raw, "&lt;p&gt;bigger&lt;/p&gt; &amp;amp; kept") {
		t.Error("semantics not escaped as text")
	}
	doc := parseHTML(t, raw)
	pres := findAll(doc, func(n *html.Node) bool { return n.Data == "pre" && hasClass(n, "semantics") })
	if len(pres) != 1 {
		t.Fatalf("want one semantics block, got %d", len(pres))
	}
	sem := rawText(pres[0])
	if !strings.Contains(sem, "<p>bigger</p> &amp; kept") {
		t.Errorf("semantics text = %q, want the original characters", sem)
	}
	if !strings.Contains(sem, "\n    D.f = S0.f") {
		t.Error("semantics lost its layout (newlines and indentation)")
	}
	if len(findAll(pres[0], func(n *html.Node) bool { return true })) != 1 {
		t.Error("semantics block contains elements")
	}
	ptx := get(t, s, "/ptx/max").Body.String()
	if strings.Contains(ptx, "<p>Sample text") || strings.Contains(ptx, "single precision <with>") {
		t.Error("PTX text reached the page unescaped")
	}
}

func TestPermalinks(t *testing.T) {
	s := newTestServer(t)
	cases := []struct{ path, location string }{
		{"/amdgpu/cdna4/V_MAX_F32", "/amdgpu/cdna4/v_max_f32"},
		{"/amdgpu/cdna4/v_max_f32_e64", "/amdgpu/cdna4/v_max_f32"},
		{"/amdgpu/cdna4/v_max_f32_e32", "/amdgpu/cdna4/v_max_f32"},
		{"/amdgpu/CDNA4/v_max_f32", "/amdgpu/cdna4/v_max_f32"},
		{"/amdgpu/gfx950/v_max_f32", "/amdgpu/cdna4/v_max_f32"},
		{"/amdgpu/rdna4/v_max_f32", "/amdgpu/rdna4/v_max_num_f32"},
		{"/amdgpu/ptx/max", "/ptx/max"},
		{"/ptx/MAX", "/ptx/max"},
		{"/amdgpu/CDNA4", "/amdgpu/cdna4"},
		{"/amdgpu/ptx", "/ptx"},
		{"/amdgpu", "/"},
	}
	for _, c := range cases {
		rec := get(t, s, c.path)
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != c.location {
			t.Errorf("GET %s: %d Location %q, want 301 %q", c.path, rec.Code, rec.Header().Get("Location"), c.location)
		}
	}
	if rec := get(t, s, "/amdgpu/cdna4/v_max_f32"); rec.Code != http.StatusOK {
		t.Errorf("canonical page: %d", rec.Code)
	}
}

func TestNotFoundSuggests(t *testing.T) {
	s := newTestServer(t)
	cases := []struct{ path, link string }{
		{"/amdgpu/cdna4/v_max_f23", "/amdgpu/cdna4/v_max_f32"},
		{"/amdgpu/cdna9", "/amdgpu/cdna4"},
		{"/amdgpu/cdna9/v_max_f32", "/amdgpu/cdna4"},
		{"/ptx/maxx", "/ptx/max"},
		{"/nowhere/v_fma_f3", "/amdgpu/rdna3/v_fma_f32"}, // the first family that has it
		{"/compare/v_max_f23", "/compare/v_max_f32"},
	}
	for _, c := range cases {
		rec := get(t, s, c.path)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", c.path, rec.Code)
			continue
		}
		doc := parseHTML(t, rec.Body.String())
		if !slices.Contains(hrefs(doc), c.link) {
			t.Errorf("GET %s: 404 page does not suggest %s; links %q", c.path, c.link, hrefs(doc))
		}
		if got := texts(findAll(doc, tag("h2"))); !slices.Contains(got, "Did you mean") {
			t.Errorf("GET %s: no suggestions heading", c.path)
		}
	}
}

func TestFamilyIndex(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/amdgpu/cdna4")
	h2 := texts(findAll(doc, tag("h2")))
	for _, w := range []string{"Scalar Move 1 · Scalar · SOP1", "Vector Arithmetic 4 · Vector · VOP2, VOP3A", "Microcode formats"} {
		if !slices.Contains(h2, w) {
			t.Errorf("family page lacks heading %q (has %q)", w, h2)
		}
	}
	for _, w := range []string{"/amdgpu/cdna4/category/vector-arithmetic", "/amdgpu/cdna4/category/scalar-move"} {
		if !slices.Contains(hrefs(doc), w) {
			t.Errorf("family page does not link its category page %s", w)
		}
	}
	// A category's page groups its instructions by encoding.
	cat := mustPage(t, s, "/amdgpu/cdna4/category/vector-arithmetic")
	if captions := texts(findAll(cat, tag("caption"))); !slices.Equal(captions, []string{"VOP2", "VOP3A"}) {
		t.Errorf("category page not grouped by encoding: captions %q", captions)
	}
	if rows := findAll(cat, func(n *html.Node) bool { return n.Data == "tr" && hasAttr(n, "data-name") }); len(rows) != 4 {
		t.Errorf("category page has %d rows, want 4", len(rows))
	}
	if rec := get(t, s, "/amdgpu/cdna4/category/Vector-Arithmetic"); rec.Code != http.StatusMovedPermanently ||
		rec.Header().Get("Location") != "/amdgpu/cdna4/category/vector-arithmetic" {
		t.Errorf("category permalink: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := get(t, s, "/amdgpu/cdna4/category/vector-arithmetik"); rec.Code != http.StatusNotFound ||
		!strings.Contains(rec.Body.String(), "/amdgpu/cdna4/category/vector-arithmetic") {
		t.Errorf("unknown category: %d, no suggestion", rec.Code)
	}
	rows := findAll(doc, func(n *html.Node) bool { return n.Data == "tr" && hasAttr(n, "data-name") })
	if len(rows) != 5 {
		t.Errorf("got %d instruction rows, want 5", len(rows))
	}
	filter := findAll(doc, func(n *html.Node) bool { return attr(n, "id") == "filter-box" })
	if len(filter) != 1 || !hasAttr(filter[0], "hidden") {
		t.Error("the JavaScript filter must be present and hidden until the script shows it")
	}
	ptx := mustPage(t, s, "/ptx")
	if !slices.Contains(hrefs(ptx), "/ptx/max") {
		t.Error("PTX index does not link /ptx/max")
	}
}

func TestHomePage(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/")
	links := hrefs(doc)
	for _, w := range []string{"/amdgpu/cdna4", "/amdgpu/rdna3", "/ptx"} {
		if !slices.Contains(links, w) {
			t.Errorf("home lacks link %s", w)
		}
	}
	// Search first, then the tasks, then the families; where the data
	// comes from is on the about page.
	forms := findAll(doc, func(n *html.Node) bool { return n.Data == "form" && hasClass(n, "bigsearch") })
	if len(forms) != 1 {
		t.Fatal("home has no search box")
	}
	h2 := texts(findAll(doc, tag("h2")))
	if len(h2) < 2 || h2[0] != "What do you want to do?" || h2[1] != "AMD GPU families" {
		t.Errorf("home headings %q", h2)
	}
	for _, w := range []string{"/decode", "/concepts", "/about", "/ptx/max"} {
		if !slices.Contains(links, w) {
			t.Errorf("home lacks the entry point %s", w)
		}
	}
	if strings.Contains(text(doc), "Sample cdna4 notes") {
		t.Error("home still lists the sources; they belong on /about")
	}
	about := mustPage(t, s, "/about")
	if !strings.Contains(text(about), "Sample cdna4 notes") {
		t.Error("/about does not describe the sources")
	}
}

func TestSearchPageWorksWithoutScript(t *testing.T) {
	s := newTestServer(t)
	cases := []struct{ q, link string }{
		{"v_max_f23", "/amdgpu/rdna3/v_max_f32"}, // typo; the first family that has it
		{"v_max", "/amdgpu/rdna3/v_max_f32"},     // prefix
		{"fused multiply add", "/ptx/fma"},       // description words
		{"fused multiply add", "/amdgpu/rdna3/v_fma_f32"},
		{"V_MAX_NUM_F32", "/amdgpu/rdna4/v_max_num_f32"},
	}
	for _, c := range cases {
		doc := mustPage(t, s, "/search?q="+strings.ReplaceAll(c.q, " ", "+"))
		if !slices.Contains(hrefs(doc), c.link) {
			t.Errorf("search %q: no result linking %s", c.q, c.link)
		}
	}
	doc := mustPage(t, s, "/search")
	if len(findAll(doc, func(n *html.Node) bool { return n.Data == "form" && attr(n, "action") == "/search" })) < 2 {
		t.Error("search page lacks its form")
	}
	if rec := get(t, s, "/search?q="+strings.Repeat("x", 300)); rec.Code != http.StatusBadRequest {
		t.Errorf("overlong query: %d, want 400", rec.Code)
	}
	if rec := get(t, s, "/search?q=max&arch=nope"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown arch filter: %d, want 404", rec.Code)
	}
}

func TestComparePage(t *testing.T) {
	s := newTestServer(t)
	columns := func(doc *html.Node) []string {
		return texts(findAll(doc, func(n *html.Node) bool { return n.Data == "th" && attr(n, "scope") == "col" }))
	}
	// Every family is offered; the newest and its predecessor are compared
	// unless the reader picks, oldest column first.
	for path, want := range map[string][]string{
		"/compare/v_max_f32?all=1":           {"Fact", "CDNA 3", "CDNA 4", "RDNA 3", "RDNA 4"},
		"/compare/v_max_f32?f=rdna3&f=cdna4": {"Fact", "CDNA 4", "RDNA 3"},
	} {
		if cols := columns(mustPage(t, s, path)); !slices.Equal(cols, want) {
			t.Errorf("%s: columns %q, want %q", path, cols, want)
		}
	}
	doc := mustPage(t, s, "/compare/v_max_f32")
	if cols, want := columns(doc), []string{"Fact", "RDNA 3", "RDNA 4"}; !slices.Equal(cols, want) {
		t.Errorf("compare columns %q, want %q", cols, want)
	}
	if boxes := findAll(doc, func(n *html.Node) bool { return n.Data == "input" && attr(n, "name") == "f" }); len(boxes) != 4 {
		t.Errorf("%d families to pick, want 4", len(boxes))
	}
	if len(findAll(doc, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "/diff/rdna3/rdna4" })) != 1 {
		t.Error("no link to the RDNA 3 -> RDNA 4 diff")
	}
	diffs := findAll(doc, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "diff") })
	if len(diffs) == 0 {
		t.Error("no difference highlighted although opcodes differ")
	}
	rows := findAll(doc, func(n *html.Node) bool { return n.Data == "tr" && hasClass(n, "row-differs") })
	var labels []string
	for _, r := range rows {
		labels = append(labels, text(findAll(r, tag("th"))[0]))
	}
	if !slices.Contains(labels, "Encodings and opcodes (differs)") || slices.Contains(labels, "Category (differs)") {
		t.Errorf("rows marked as differing: %q", labels)
	}
}

func TestNoInlineScriptOrStyle(t *testing.T) {
	s := newTestServer(t)
	for _, path := range []string{"/", "/amdgpu/cdna4", "/amdgpu/cdna4/v_max_f32", "/ptx/max", "/compare/v_max_f32",
		"/search?q=max", "/amdgpu/cdna4/nope"} {
		rec := get(t, s, path)
		if csp := rec.Header().Get("Content-Security-Policy"); csp != ContentSecurityPolicy {
			t.Errorf("%s: CSP %q", path, csp)
		}
		doc := parseHTML(t, rec.Body.String())
		for _, sc := range findAll(doc, tag("script")) {
			if attr(sc, "src") == "" || strings.TrimSpace(rawText(sc)) != "" {
				t.Errorf("%s: inline script", path)
			}
		}
		if len(findAll(doc, tag("style"))) > 0 {
			t.Errorf("%s: inline style element", path)
		}
		for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
			for _, a := range n.Attr {
				if a.Key == "style" || strings.HasPrefix(a.Key, "on") {
					t.Errorf("%s: <%s %s=...> is blocked by the CSP", path, n.Data, a.Key)
				}
			}
		}
	}
}

// TestBorrowedTextRenamesAndOtherSpellings: a description taken from
// another family says whose it is, the other spellings of the instruction
// are listed with their evidence, and a target that takes only the other
// spelling says so and links it.
func TestBorrowedTextRenamesAndOtherSpellings(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/amdgpu/cdna3/v_max_f32")
	notes := findAll(doc, func(n *html.Node) bool { return hasClass(n, "borrowed") })
	if len(notes) != 1 || !strings.Contains(text(notes[0]), "AMD's for v_max_f32 in CDNA 4") ||
		!strings.Contains(text(notes[0]), "the CDNA 3 guide gives this instruction pseudocode only") {
		t.Errorf("borrowed-description note: %q", texts(notes))
	}
	renames := findAll(doc, func(n *html.Node) bool { return hasClass(n, "renames") })
	if len(renames) != 1 || !strings.Contains(text(renames[0]), "Spelled v_max_num_f32 in RDNA 4") ||
		!strings.Contains(text(renames[0]), "sample evidence") {
		t.Errorf("renames: %q", texts(renames))
	}
	cells := findAll(doc, func(n *html.Node) bool { return hasClass(n, "t-renamed") })
	if len(cells) != 1 || !strings.Contains(text(cells[0]), "gfx1200") || !strings.Contains(text(cells[0]), "as v_max_num_f32") {
		t.Fatalf("other-spelling cells: %q", texts(cells))
	}
	if links := hrefs(cells[0]); !slices.Contains(links, "/amdgpu/rdna4/v_max_num_f32") {
		t.Errorf("the other spelling is not linked: %q", links)
	}
}

func TestCostSection(t *testing.T) {
	s := newTestServer(t)
	body := get(t, s, "/amdgpu/cdna3/v_max_f32").Body.String()
	for _, w := range []string{"Cost (LLVM's scheduling model)", "not a measurement", "HWVALU", "V_MAX_F32_e32_vi", "gfx942</code>, <code>gfx950"} {
		if !strings.Contains(body, w) {
			t.Errorf("the cost section lacks %q", w)
		}
	}
	if strings.Contains(get(t, s, "/amdgpu/cdna4/v_max_f32").Body.String(), "scheduling model") {
		t.Errorf("an instruction without a modelled cost shows a cost section")
	}
}

// TestCostTable: a family ranked by LLVM's scheduling model on the web and
// in the API — the target's units to filter by, the query's order, a bad
// query a 400, PTX a 404 — and linked from the family index.
func TestCostTable(t *testing.T) {
	s := newTestServer(t)
	if body := get(t, s, "/amdgpu/cdna3").Body.String(); !strings.Contains(body, `href="/amdgpu/cdna3/cost"`) {
		t.Error("the CDNA 3 index does not link its cost table")
	}
	rec := get(t, s, "/amdgpu/cdna3/cost")
	body := rec.Body.String()
	if rec.Code != http.StatusOK {
		t.Fatalf("/amdgpu/cdna3/cost: %d %s", rec.Code, body)
	}
	for _, w := range []string{"not a measurement", "v_max_f32", "HWVALU", `<option value="gfx942"`} {
		if !strings.Contains(body, w) {
			t.Errorf("the cost table lacks %q", w)
		}
	}
	rec = get(t, s, "/api/v1/archs/cdna3/cost?target=gfx942&unit=valu&sort=latency")
	var res costTableResult
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("API: %d %v %s", rec.Code, err, rec.Body)
	}
	if res.Target != "gfx942" || res.Total == 0 || len(res.Rows) != res.Total {
		t.Errorf("API on gfx942, unit VALU: %+v", res)
	}
	for i, row := range res.Rows {
		if !strings.EqualFold(row.Cost.Unit, "HWVALU") && !slices.ContainsFunc(row.Cost.Resources, func(r isa.CostResource) bool { return r.Name == "HWVALU" }) {
			t.Errorf("row %s does not use HWVALU: %+v", row.Name, row.Cost)
		}
		if i > 0 && row.Cost.Latency > res.Rows[i-1].Cost.Latency {
			t.Errorf("rows not slowest first: %s (%d) after %s (%d)", row.Name, row.Cost.Latency, res.Rows[i-1].Name, res.Rows[i-1].Cost.Latency)
		}
	}
	for path, want := range map[string]int{
		"/amdgpu/cdna3/cost?sort=colour":         http.StatusBadRequest,
		"/amdgpu/cdna3/cost?target=gfx1100":      http.StatusBadRequest,
		"/api/v1/archs/cdna3/cost?limit=-1":      http.StatusBadRequest,
		"/api/v1/archs/ptx/cost":                 http.StatusNotFound,
		"/amdgpu/cdna3/cost?target=gfx942&asc=1": http.StatusOK,
	} {
		if rec := get(t, s, path); rec.Code != want {
			t.Errorf("%s: %d, want %d", path, rec.Code, want)
		}
	}
}

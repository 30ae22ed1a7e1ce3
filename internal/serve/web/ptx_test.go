package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/quality"
	"golang.org/x/net/html"
)

// section returns the page's <section aria-labelledby=id>.
func section(t *testing.T, doc *html.Node, id string) *html.Node {
	t.Helper()
	secs := findAll(doc, func(n *html.Node) bool { return n.Data == "section" && attr(n, "aria-labelledby") == id })
	if len(secs) != 1 {
		t.Fatalf("%d sections %q", len(secs), id)
	}
	return secs[0]
}

// formRowOf returns the text of the forms table row whose syntax is syntax.
func formRowOf(t *testing.T, doc *html.Node, syntax string) string {
	t.Helper()
	for _, tr := range findAll(section(t, doc, "forms"), tag("tr")) {
		if th := findAll(tr, tag("th")); len(th) > 0 && strings.HasPrefix(text(th[0]), syntax) {
			return text(tr)
		}
	}
	t.Fatalf("no forms row %q", syntax)
	return ""
}

// gridItems are the target grid's entries.
func gridItems(t *testing.T, doc *html.Node) []*html.Node {
	var out []*html.Node
	for _, ul := range findAll(section(t, doc, "targets"), func(n *html.Node) bool { return hasClass(n, "targets") }) {
		out = append(out, findAll(ul, tag("li"))...)
	}
	return out
}

func wantText(t *testing.T, where, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", where, w, got)
		}
	}
}

// TestPTXPageShowsPTXAS: the sample's max carries every kind of ptxas
// verdict; the page shows the grid, the labelled requirements, what each
// modifier needs, the example verdicts and the SASS tabs.
func TestPTXPageShowsPTXAS(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/ptx/max")

	grid := gridItems(t, doc)
	if len(grid) != len(webfake.SampleTargets) {
		t.Fatalf("grid has %d targets, want %d", len(grid), len(webfake.SampleTargets))
	}
	for i, li := range grid {
		if got := text(findAll(li, tag("code"))[0]); got != webfake.SampleTargets[i] {
			t.Errorf("grid[%d] = %s, want %s (ptxas's order)", i, got, webfake.SampleTargets[i])
		}
		if !hasClass(li, "t-supported") || !strings.Contains(attr(li, "title"), "ptxas accepts max.u16 d, a, b;") {
			t.Errorf("grid %s: class %q title %q", webfake.SampleTargets[i], attr(li, "class"), attr(li, "title"))
		}
	}

	facts := text(findAll(section(t, doc, "syntax"), func(n *html.Node) bool { return hasClass(n, "facts") })[0])
	wantText(t, "facts", facts, "PTX ISA version1.0 documentation ptxas: from 4.0, the lowest version ptxas can test",
		"Minimum targetsm_20 documentation ptxas: from sm_50, the oldest target ptxas knows")

	f32 := formRowOf(t, doc, "max{.ftz}{.NaN}.f32")
	wantText(t, "f32 form", f32, "sm_20 doc ptxas: sm_50", "PTX 1.0 doc ptxas: 4.0", "every target",
		"✓ verified as max.f32 d, a, b;", ".NaN requires PTX 7.0, sm_80")
	if strings.Contains(f32, ".ftz requires") {
		t.Errorf(".ftz needs nothing more than the form: %s", f32)
	}
	half := formRowOf(t, doc, "max{.ftz}{.NaN}.f16x2")
	wantText(t, "f16x2 form", half, "sm_75 ptxas doc: sm_80", "PTX 6.5 ptxas doc: 7.0", "sm_75 and newer",
		".ftz rejected with this form: Sample: modifier '.ftz' <not markup> is not allowed here")
	wantText(t, "forms", text(section(t, doc, "forms")), "3 forms: 3 verified by ptxas.")

	ex := section(t, doc, "examples")
	wantText(t, "examples", text(ex), "✓ accepted from sm_50 · PTX 4.0", "✓ accepted from sm_80 · PTX 7.0",
		"◐ assembles only without the example's own declarations (sm_50 · PTX 4.0)",
		"✗ rejected by ptxas max.bogus.f32 f0, f1, f1Sample: unknown modifier '.bogus' <b>not bold</b>")
	if len(findAll(ex, tag("b"))) != 0 {
		t.Error("a ptxas message was not escaped")
	}
	var titles []string
	for _, li := range findAll(ex, tag("li")) {
		titles = append(titles, attr(li, "title"))
	}
	wantText(t, "example tooltips", strings.Join(titles, "|"), "sm_50 is the oldest target ptxas knows; PTX 4.0 is the lowest version sm_50 allows; ptxas 0.0-sample")

	// The SASS page has two example statements, then the forms'
	// statements that have SASS; the instruction page keeps the first and
	// those that lower to an opcode not shown yet (the second form's
	// IMNMX.U32 is the first form's).
	all := section(t, mustPage(t, s, "/ptx/max/sass"), "sass")
	if n := len(findAll(all, func(n *html.Node) bool { return hasClass(n, "sass") })); n != 4 {
		t.Errorf("%d SASS blocks on the SASS page, want 4: %s", n, text(all))
	}
	sass := section(t, doc, "sass")
	blocks := findAll(sass, func(n *html.Node) bool { return hasClass(n, "sass") })
	if len(blocks) != 3 {
		t.Fatalf("%d SASS blocks, want 3: %s", len(blocks), text(sass))
	}
	if !slices.Contains(hrefs(sass), "/ptx/max/sass") {
		t.Error("the page does not link the SASS page for the statement it leaves out")
	}
	first := blocks[0]
	var tabs []string
	checked := ""
	for _, in := range findAll(first, tag("input")) {
		if attr(in, "type") != "radio" || attr(in, "name") != "sass-1" {
			t.Errorf("tab input %v", in.Attr)
		}
		tabs = append(tabs, attr(in, "id"))
		if hasAttr(in, "checked") {
			checked = attr(in, "id")
		}
	}
	if strings.Join(tabs, " ") != "sass-1-sm_75 sass-1-sm_80 sass-1-sm_90" || checked != "sass-1-sm_75" {
		t.Errorf("tabs %q, checked %q", tabs, checked)
	}
	wantText(t, "SASS", text(first), "max.f32 f1, f2, f3 — example 1", "FMNMX R1, R2, R3, !PT", "S01 y0", "0x000fc00000000000",
		"No instruction of its own on sm_90")
	wantText(t, "SASS", text(sass), "FMNMX.NAN R1, R2, R3, !PT", "IMNMX.U32", "form max.atype d, a, b;", "forms[].check.sass",
		"gpuisa show ptx max --json")
}

// TestPTXPageWithoutVerdicts: an instruction the build has no verdict on
// says so, and its facts are the documentation's.
func TestPTXPageWithoutVerdicts(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/ptx/min")
	wantText(t, "/ptx/min targets", text(section(t, doc, "targets")), "Not verified by ptxas: the build recorded no verdict on this instruction's forms.")
	if n := len(gridItems(t, doc)); n != 0 {
		t.Errorf("an unverified instruction has a grid of %d", n)
	}
	wantText(t, "/ptx/min", text(doc), "PTX ISA version1.0 documentation not verified by ptxas", "3 forms, none verified by ptxas.",
		"not checked by ptxas", "No SASS: not verified by ptxas.")

	// A store without the PTX report: ptxas did not run.
	q := webfake.SampleQuality()
	q.PTX = nil
	s2 := qualityServer(t, q)
	wantText(t, "/ptx/min without ptxas", text(mustPage(t, s2, "/ptx/min")), "Not verified by ptxas: this database was built without NVIDIA's assembler.")
}

// TestPTXTargetSpecificInstruction: fma is supported on sm_90a alone; the
// other targets carry ptxas's message, grouped.
func TestPTXTargetSpecificInstruction(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/ptx/fma")
	targets := section(t, doc, "targets")
	var supported []string
	for _, li := range gridItems(t, doc) {
		switch target := text(findAll(li, tag("code"))[0]); {
		case hasClass(li, "t-supported"):
			supported = append(supported, target)
		case !hasClass(li, "t-unsupported") || !strings.Contains(attr(li, "title"), "Sample: not on .target '"+target+"'"):
			t.Errorf("grid %s: class %q title %q", target, attr(li, "class"), attr(li, "title"))
		}
	}
	if strings.Join(supported, " ") != "sm_90a" {
		t.Errorf("supported %q", supported)
	}
	wantText(t, "fma grid", text(targets), "(1 of 6)", "sm_50 to sm_90, sm_100: Sample: not on .target ‹target› <sample reason>")
	wantText(t, "fma form", formRowOf(t, doc, "fma{.ftz}{.NaN}.f32"), "sm_90a only", "sm_90a ptxas doc: sm_20", "PTX 8.0 ptxas doc: 1.0")
	wantText(t, "fma facts", text(section(t, doc, "syntax")), "PTX ISA version8.0 ptxas documentation: 1.0", "Minimum targetsm_90a ptxas documentation: sm_20")
}

// TestPTXJSONCarriesTheOracle: the API document has the per-form targets,
// checks, modifier checks and the example checks with SASS.
func TestPTXJSONCarriesTheOracle(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/api/v1/archs/ptx/instructions/max")
	if rec.Code != http.StatusOK {
		t.Fatal(rec.Code)
	}
	var in isa.Instruction
	if err := json.Unmarshal(rec.Body.Bytes(), &in); err != nil {
		t.Fatal(err)
	}
	f := in.Forms[1]
	if in.Targets["sm_90a"] != "supported" || f.Targets["sm_80"] != "supported" || f.Check == nil || f.Check.Status != isa.PTXVerified ||
		len(f.ModifierChecks) != 2 || !f.ModifierChecks[1].Raises || f.ModifierChecks[1].Check.MinTarget != "sm_80" {
		t.Errorf("max form: targets %v, check %+v, modifier checks %+v", f.Targets, f.Check, f.ModifierChecks)
	}
	if len(in.Examples[1].Checks) != 1 || len(in.Examples[1].Checks[0].SASS) != 1 || in.Examples[1].Checks[0].SASS[0].Lines[0].Text != "FMNMX.NAN R1, R2, R3, !PT" {
		t.Errorf("example checks %+v", in.Examples[1].Checks)
	}
	if in.Forms[2].DocMinTarget != "sm_80" || in.Forms[2].MinTarget != "sm_75" {
		t.Errorf("f16x2 form: %s (doc %s)", in.Forms[2].MinTarget, in.Forms[2].DocMinTarget)
	}
}

// TestPTXQualityPages: /quality has the PTX section with every kind of
// finding apart; /quality/ptx lists them all, linked and escaped.
func TestPTXQualityPages(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/quality")
	ptx := section(t, doc, "ptx")
	var heads []string
	for _, h := range findAll(ptx, tag("h3")) {
		heads = append(heads, strings.Join(strings.Fields(text(h)), " "))
	}
	want := "Documentation too strict 1|Documentation too loose 1|Example statements ptxas rejects (documentation errata) 2|Forms ptxas rejects 0|ptxas's facts beyond the documents 1|Not verified 1"
	if strings.Join(heads, "|") != want {
		t.Errorf("PTX finding kinds:\n got %q\nwant %q", strings.Join(heads, "|"), want)
	}
	wantText(t, "/quality PTX", text(ptx), "ptxas 0.0-sample (sample CUDA), nvdisasm 0.0-sample", "6 (sm_50 to sm_100)", "PTX ISA 9.1",
		"7 · 4 · 0 · 3", "4 · 2", "minimum target: documentation sm_80, ptxas sm_75", "Sample: unknown modifier '.bogus' <b>not bold</b>",
		"Sample: <two operands> (assembles without the example's own declarations)", "max.md:3",
		"syntax: documentation .type list has no .bf16.bf16, ptxas assembles max.bf16.bf16 (ptxas 0.0-sample, from PTX ISA 7.8 on sm_90)")
	if len(findAll(ptx, tag("b"))) != 0 {
		t.Error("a finding's message was not escaped")
	}
	if !slices.Contains(hrefs(ptx), "/ptx/max") || !slices.Contains(hrefs(ptx), "/ptx/fma") || !slices.Contains(hrefs(ptx), "/quality/ptx") {
		t.Errorf("/quality PTX links %q", hrefs(ptx))
	}

	full := mustPage(t, s, "/quality/ptx")
	wantText(t, "/quality/ptx", text(full), "Data quality: PTX", "fma.f32 d, a, b;", "minimum target: documentation sm_20, ptxas sm_90a", "Sample: not run")
	if rec := get(t, s, "/quality/PTX"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/quality/ptx" {
		t.Errorf("/quality/PTX: %d %q", rec.Code, rec.Header().Get("Location"))
	}
}

// TestQualityPTXMoreLink: /quality shows the first findings of a kind and
// links the rest.
func TestQualityPTXMoreLink(t *testing.T) {
	q := webfake.SampleQuality()
	for i := 0; i < ptxSummaryRows+2; i++ {
		q.PTX.TooLoose = append(q.PTX.TooLoose, q.PTX.TooLoose[0])
	}
	s := qualityServer(t, q)
	doc := mustPage(t, s, "/quality")
	sec := section(t, doc, "ptx-too-loose")
	if rows := len(findAll(sec, tag("tr"))); rows != ptxSummaryRows+1 {
		t.Errorf("%d rows, want %d and the header", rows-1, ptxSummaryRows)
	}
	wantText(t, "too loose", text(sec), "All 8 (3 more) on the PTX quality page.")
	if !slices.Contains(hrefs(sec), "/quality/ptx#ptx-too-loose") {
		t.Errorf("no link to the rest: %q", hrefs(sec))
	}
}

// ptxasOrder is the order ptxas 13's and 12.9's targets sort in
// (ptxorder.SortTargets).
var ptxasOrder = strings.Fields("sm_50 sm_52 sm_53 sm_60 sm_61 sm_62 sm_70 sm_72 sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_90a " +
	"sm_100 sm_100f sm_100a sm_101 sm_101f sm_101a sm_103 sm_103f sm_103a sm_107 sm_107f sm_107a sm_110 sm_110f sm_110a " +
	"sm_120 sm_120f sm_120a sm_121 sm_121f sm_121a")

func TestSummarizeTargets(t *testing.T) {
	on := func(pred func(t string) bool) map[string]string {
		m := map[string]string{}
		for _, t := range ptxasOrder {
			m[t] = "unsupported"
			if pred(t) {
				m[t] = "supported"
			}
		}
		return m
	}
	from := func(first string) func(string) bool {
		seen := false
		return func(t string) bool { seen = seen || t == first; return seen }
	}
	suffix := func(t string) string { return strings.TrimLeft(t[3:], "0123456789") }
	num := func(t string) string { return strings.TrimRight(t[3:], "af") }
	cases := []struct {
		name  string
		grid  map[string]string
		want  string
		extra string // in the detail
	}{
		{"all", on(func(string) bool { return true }), "every target", "Not supported: none."},
		{"none", on(func(string) bool { return false }), "no target", "Supported: none."},
		{"one", on(func(t string) bool { return t == "sm_90a" }), "sm_90a only", "Not supported: sm_50 to sm_90, sm_100 to sm_121a."},
		{"from", on(from("sm_80")), "sm_80 and newer", "Supported: sm_80 to sm_121a."},
		{"from a", on(from("sm_90a")), "sm_90a and newer", ""},
		{"until", on(func(t string) bool { n := num(t); return n < "7" && len(n) == 2 }), "sm_50 to sm_62", "Not supported: sm_70 to sm_121a."},
		{"a and f", on(func(t string) bool {
			n := num(t)
			return suffix(t) != "" && len(n) == 3 && n >= "100" && n <= "110"
		}), "sm_100 to sm_110, f and a targets only", ""},
		{"a only", on(func(t string) bool { return suffix(t) == "a" && num(t) >= "100" && len(num(t)) == 3 }), "sm_100 and newer, a targets only", ""},
		{"except", on(func(pred func(string) bool) func(string) bool {
			return func(t string) bool { return pred(t) && t != "sm_87" && t != "sm_88" }
		}(from("sm_80"))), "sm_80 and newer, except sm_87, sm_88", ""},
		{"scattered", on(func(t string) bool {
			return t == "sm_53" || t == "sm_62" || t == "sm_72" || t == "sm_87" || t == "sm_101"
		}),
			"sm_53, sm_62, sm_72, sm_87, sm_101", ""},
	}
	for _, c := range cases {
		got, detail := summarizeTargets(c.grid)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if !strings.Contains(detail, c.extra) {
			t.Errorf("%s: detail %q lacks %q", c.name, detail, c.extra)
		}
	}
	if got, _ := summarizeTargets(nil); got != "" {
		t.Errorf("no grid: %q", got)
	}
}

func TestIsStatementOf(t *testing.T) {
	for _, c := range []struct {
		stmt, name string
		want       bool
	}{
		{"max.f32 d, a, b", "max", true}, {"@p max.f32 d, a, b", "max", true}, {"@!p bra loop", "bra", true},
		{"mbarrier.try_wait.parity.b64 p, [m], 0", "tcgen05.mma", false}, {"maxnum.f32 d, a", "max", false}, {"", "max", false},
	} {
		if got := isStatementOf(c.stmt, c.name); got != c.want {
			t.Errorf("isStatementOf(%q, %q) = %v", c.stmt, c.name, got)
		}
	}
}

func TestNormalizeStatement(t *testing.T) {
	for _, s := range []string{"max.u32  d,a,b", "max.u32 d, a, b;", " max.u32 d ,a, b ; "} {
		if got := ptx.NormalizeStatement(s); got != "max.u32 d,a,b" {
			t.Errorf("%q -> %q", s, got)
		}
	}
}

// qualityServer serves the sample reference with q as its quality report.
func qualityServer(t *testing.T, q quality.Report) *server {
	t.Helper()
	b := webfake.Build()
	raw, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	b.Extras[store.KeyQuality] = raw
	return testServer(t, webfake.Open(t, b), Options{})
}

// TestPTXCounterpartsSayWhatTheyServe: each AMD counterpart on a PTX page
// says which of the instruction's variants it serves and shows the
// catalogue's line (issue 29: shfl.sync listed 7 counterparts without the
// shuffle mode each serves).
func TestPTXCounterpartsSayWhatTheyServe(t *testing.T) {
	body := get(t, newTestServer(t), "/ptx/max").Body.String()
	i := strings.Index(body, `id="counterparts"`)
	if i < 0 {
		t.Fatal("no counterparts section")
	}
	sec := body[i:]
	for _, want := range []string{`<span class="variants">for <code>.f32</code></span>`} {
		if !strings.Contains(sec, want) {
			t.Errorf("counterparts lack %q", want)
		}
	}
}

// TestShuffleCounterpartsNameTheirModesRealDB: on the real catalogue every
// AMD counterpart of shfl.sync says which shuffle modes it serves, and the
// DPP moves show their lines.
func TestShuffleCounterpartsNameTheirModesRealDB(t *testing.T) {
	s := realServer(t)
	doc := mustPage(t, s, "/ptx/shfl.sync")
	rows := findAll(section(t, doc, "counterparts"), func(n *html.Node) bool { return hasClass(n, "cp") })
	if len(rows) < 5 {
		t.Fatalf("%d counterpart rows, want the catalogue's shuffle relations", len(rows))
	}
	for _, r := range rows {
		txt := text(r)
		if len(findAll(r, func(n *html.Node) bool { return hasClass(n, "variants") })) == 0 {
			t.Errorf("a counterpart says no shuffle mode: %s", txt)
		}
	}
}

package web

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
	"golang.org/x/net/html"
)

func TestConceptIndex(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/concepts")
	h2 := texts(findAll(doc, tag("h2")))
	if len(h2) != 2 || !strings.HasPrefix(h2[0], "Sample minimum and maximum") || !strings.HasPrefix(h2[1], "No AMD counterpart") {
		t.Errorf("h2 = %q, want the theme (from the file's comment) then No AMD counterpart", h2)
	}
	if !strings.Contains(h2[0], "2 concepts") || !strings.Contains(h2[1], "2 PTX instructions") {
		t.Errorf("headings lack counts: %q", h2)
	}
	links := hrefs(doc)
	for _, w := range []string{"/concepts/max", "/concepts/min-sample", "/ptx/max", "/ptx/min", "/ptx/fma"} {
		if !slices.Contains(links, w) {
			t.Errorf("index has no link to %s", w)
		}
	}
	body := text(doc)
	for _, w := range []string{"Sample reason: profiling events", "concepts/no_counterpart.yaml:3", "authored by the gpuisa project",
		"equivalent with restrictions", "equivalent, sequence"} {
		if !strings.Contains(body, w) {
			t.Errorf("index lacks %q", w)
		}
	}
	if slices.Contains(links, "/ptx/pmevent") {
		t.Error("pmevent has no page in the sample store but is linked")
	}
}

func TestConceptPage(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/concepts/max")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	raw := rec.Body.String()
	if strings.Contains(raw, "<sample>") || !strings.Contains(raw, "&lt;sample&gt; &amp; escaped") {
		t.Error("the concept description is not escaped")
	}
	doc := parseHTML(t, raw)
	if h1 := texts(findAll(doc, tag("h1"))); !slices.Equal(h1, []string{"Maximum"}) {
		t.Errorf("h1 = %q", h1)
	}
	want := []string{"Description", "PTX members", "AMD members by family", "Relations", "Provenance"}
	if got := texts(findAll(doc, tag("h2"))); !slices.Equal(got, want) {
		t.Errorf("h2 = %q, want %q", got, want)
	}
	// the family table: one column per AMD family, one row per AMD member
	tables := findAll(doc, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "families") })
	if len(tables) != 1 {
		t.Fatalf("%d family tables", len(tables))
	}
	cols := texts(findAll(findAll(tables[0], tag("thead"))[0], tag("th")))
	if !slices.Equal(cols, []string{"Instruction", "RDNA 4", "RDNA 3", "CDNA 4", "CDNA 3", "Declared for"}) {
		t.Errorf("columns %q", cols)
	}
	rows := findAll(findAll(tables[0], tag("tbody"))[0], tag("tr"))
	if len(rows) != 2 {
		t.Fatalf("%d member rows, want 2", len(rows))
	}
	cells := findAll(rows[0], tag("td"))
	var classes []string
	for _, c := range cells[:4] {
		classes = append(classes, attr(c, "class"))
	}
	// v_max_f32: not on RDNA 4 (renamed there), a member on RDNA 3, CDNA 4, CDNA 3
	if !slices.Equal(classes, []string{"cell-absent", "cell-member", "cell-member", "cell-member"}) {
		t.Errorf("v_max_f32 cells %q", classes)
	}
	if a := findAll(cells[2], tag("a")); len(a) != 1 || attr(a[0], "href") != "/amdgpu/cdna4/v_max_f32" {
		t.Error("the CDNA 4 cell does not link /amdgpu/cdna4/v_max_f32")
	}
	if a := findAll(rows[1], tag("a")); len(a) != 1 || attr(a[0], "href") != "/amdgpu/rdna4/v_max_num_f32" {
		t.Errorf("v_max_num_f32 row links %q", hrefs(rows[1]))
	}
	body := text(doc)
	for _, w := range []string{"NaN handling: a sample restriction", "equivalent with restrictions", ".f32",
		"concepts/minmax.yaml:3", "authored by the gpuisa project", "the RDNA 4 name"} {
		if !strings.Contains(body, w) {
			t.Errorf("concept page lacks %q", w)
		}
	}
	// one relation row naming both AMD members, as the author wrote it
	rel := findAll(doc, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "relations") })
	if len(rel) != 1 || len(findAll(findAll(rel[0], tag("tbody"))[0], tag("tr"))) != 1 {
		t.Fatal("want one relation row for max -> v_max_f32, v_max_num_f32")
	}

	seq := mustPage(t, s, "/concepts/min-sample")
	pres := texts(findAll(seq, tag("pre")))
	if len(pres) != 1 || !strings.Contains(pres[0], "v_max_f32 v0, -v1, -v2") {
		t.Errorf("sequence = %q", pres)
	}
	if !strings.Contains(text(seq), "every family that has it") {
		t.Error("a member without families does not say it applies on every family")
	}
}

func TestConceptPermalinksAnd404(t *testing.T) {
	s := newTestServer(t)
	if rec := get(t, s, "/concepts/MAX"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/concepts/max" {
		t.Errorf("/concepts/MAX: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	rec := get(t, s, "/concepts/max-sample")
	if rec.Code != http.StatusNotFound {
		t.Fatalf("unknown concept: status %d", rec.Code)
	}
	if !slices.Contains(hrefs(parseHTML(t, rec.Body.String())), "/concepts/max") {
		t.Error("404 does not suggest /concepts/max")
	}
}

func TestInstructionPagesLinkConcepts(t *testing.T) {
	s := newTestServer(t)
	amd := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	if !slices.Contains(hrefs(amd), "/concepts/max") {
		t.Error("AMD page does not link its concept")
	}
	ptx := mustPage(t, s, "/ptx/max")
	if !slices.Contains(hrefs(ptx), "/concepts/max") {
		t.Error("PTX page does not link its concept")
	}
	fma := mustPage(t, s, "/ptx/fma")
	notes := findAll(fma, func(n *html.Node) bool { return hasClass(n, "nocounterpart") })
	if len(notes) != 1 || !strings.Contains(text(notes[0]), "Sample reason written for the tests only.") ||
		!strings.Contains(text(notes[0]), "concepts/no_counterpart.yaml:4") {
		t.Errorf("PTX fma: no-counterpart note %q", texts(notes))
	}
	if strings.Contains(text(fma), "No cross-vendor concept links this instruction yet") {
		t.Error("a PTX page with a no-counterpart reason also says nothing links it")
	}
}

func TestPagesWithoutCatalogue(t *testing.T) {
	b := webfake.Build()
	delete(b.Extras, store.KeyConcepts)
	s := testServer(t, webfake.Open(t, b), Options{})
	rec := get(t, s, "/concepts")
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "built without the concept catalogue") {
		t.Errorf("/concepts without a catalogue: %d", rec.Code)
	}
	doc := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	if slices.Contains(hrefs(doc), "/concepts/max") {
		t.Error("links a concept page that cannot exist")
	}
	if !strings.Contains(text(doc), "Maximum · equivalent with restrictions") {
		t.Error("the related concept is not shown without the catalogue")
	}
}

func TestThemeTitle(t *testing.T) {
	for _, c := range []struct{ text, base, want string }{
		{"# Minimum and maximum. Authored by us.\nconcepts:", "minmax", "Minimum and maximum"},
		{"# Special registers.\n", "special_registers", "Special registers"},
		{"concepts:\n", "special_registers", "Special registers"},
		{"", "", "Concepts"},
	} {
		if got := themeTitle(c.text, c.base); got != c.want {
			t.Errorf("themeTitle(%q, %q) = %q, want %q", c.text, c.base, got, c.want)
		}
	}
}

func TestQualityPages(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/quality")
	if rec.Code != http.StatusOK {
		t.Fatalf("/quality: %d", rec.Code)
	}
	if strings.Contains(rec.Body.String(), "<not markup>") {
		t.Error("a report note is not escaped")
	}
	doc := parseHTML(t, rec.Body.String())
	tables := findAll(doc, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "quality") })
	if len(tables) != 1 {
		t.Fatalf("%d summary tables", len(tables))
	}
	rows := findAll(findAll(tables[0], tag("tbody"))[0], tag("tr"))
	if len(rows) != 2 {
		t.Fatalf("%d family rows, want 2", len(rows))
	}
	first := texts(findAll(rows[0], tag("td")))
	if !slices.Equal(first[:4], []string{"5", "4", "4 (1 synth.)", "80.0% below target✗"}) {
		t.Errorf("CDNA 4 row %q", first)
	}
	body := text(doc)
	for _, w := range []string{"Sample LLVM version 0.0", "sample explanation of a low share", "What the readers could not recover", "V_SAMPLE: heading lost in conversion <kept as text>"} {
		if !strings.Contains(body, w) {
			t.Errorf("/quality lacks %q", w)
		}
	}
	if !slices.Contains(hrefs(doc), "/quality/cdna4") {
		t.Error("no link to the family report")
	}

	fam := mustPage(t, s, "/quality/cdna4")
	links := hrefs(fam)
	for _, w := range []string{"/amdgpu/cdna4/v_min_f32", "/amdgpu/cdna4/v_add_f32", "/amdgpu/cdna4/s_mov_b32", "/amdgpu/cdna4/v_fma_f32"} {
		if !slices.Contains(links, w) {
			t.Errorf("/quality/cdna4 has no link to %s", w)
		}
	}
	ftext := text(fam)
	for _, w := range []string{"0x14000000", "0x15000000", "sample/cdna4:77", "sample rejection", "v_sample_only", "0x01000000"} {
		if !strings.Contains(ftext, w) {
			t.Errorf("/quality/cdna4 lacks %q", w)
		}
	}
	if rec := get(t, s, "/quality/gfx950"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/quality/cdna4" {
		t.Errorf("/quality/gfx950: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := get(t, s, "/quality/nosuch"); rec.Code != http.StatusNotFound {
		t.Errorf("/quality/nosuch: %d", rec.Code)
	}

	b := webfake.Build()
	delete(b.Extras, "quality")
	s2 := testServer(t, webfake.Open(t, b), Options{})
	if rec := get(t, s2, "/quality"); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "without the data-quality report") {
		t.Errorf("/quality without a report: %d", rec.Code)
	}
}

func TestRepairsAndConflicts(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/amdgpu/cdna4/v_min_f32")
	if strings.Contains(rec.Body.String(), "<not markup>") {
		t.Error("repair text is not escaped")
	}
	doc := parseHTML(t, rec.Body.String())
	rep := findAll(doc, func(n *html.Node) bool { return hasClass(n, "repairs") })
	if len(rep) != 1 || !strings.Contains(text(rep[0]), "lost in the conversion") || !strings.Contains(text(rep[0]), "Sample repair") {
		t.Errorf("repair note %q", texts(rep))
	}
	doc = mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	h3 := texts(findAll(doc, tag("h3")))
	if !slices.Contains(h3, "Sources disagree") {
		t.Errorf("no Sources disagree heading in %q", h3)
	}
	conf := findAll(doc, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "conflicts") })
	if len(conf) != 1 {
		t.Fatal("no conflicts table")
	}
	ct := text(conf[0])
	for _, w := range []string{"Vector", "amd-xml sample.xml:42", "VALU", "amd-manual sample/cdna4:120"} {
		if !strings.Contains(ct, w) {
			t.Errorf("conflicts table %q lacks %q", ct, w)
		}
	}
	if !slices.Contains(hrefs(doc), "#conflicts") {
		t.Error("the summary does not point to the disagreement")
	}
}

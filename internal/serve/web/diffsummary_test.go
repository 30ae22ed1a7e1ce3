package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// TestDiffLeadsWithSummary: a diff page opens with its summary table (one
// row per kind of difference, each count linked to its section), and each
// rename's evidence is folded in a <details>.
func TestDiffLeadsWithSummary(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/diff/rdna3/rdna4")
	secs := findAll(doc, tag("section"))
	if len(secs) == 0 || attr(secs[0], "aria-labelledby") != "summary" {
		t.Fatalf("the first section is not the summary")
	}
	tables := findAll(secs[0], func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "summary") })
	if len(tables) != 1 {
		t.Fatalf("%d summary tables", len(tables))
	}
	rows := map[string]string{} // kind -> link
	for _, tr := range findAll(tables[0], tag("tr")) {
		th := findAll(tr, func(n *html.Node) bool { return n.Data == "th" && attr(n, "scope") == "row" })
		if len(th) == 0 {
			continue
		}
		href := ""
		if as := findAll(th[0], tag("a")); len(as) > 0 {
			href = attr(as[0], "href")
		}
		rows[text(th[0])] = href
	}
	ids := map[string]bool{}
	for _, n := range findAll(doc, func(n *html.Node) bool { return attr(n, "id") != "" }) {
		ids[attr(n, "id")] = true
	}
	for _, kind := range []string{"Renamed", "Removed", "Changed opcode"} { // the sample's non-zero kinds
		href, ok := rows[kind]
		if !ok || !strings.HasPrefix(href, "#") || !ids[href[1:]] {
			t.Errorf("summary row %q links %q, not a section of the page (rows %v)", kind, href, rows)
		}
	}
	for _, kind := range []string{"Added", "Changed encoding", "Changed operands", "Changed semantics", "Changed target support", "Formats", "Unchanged"} {
		if _, ok := rows[kind]; !ok {
			t.Errorf("no summary row %q", kind)
		}
	}
	var renamed *html.Node
	for _, sec := range secs {
		if attr(sec, "aria-labelledby") == "renamed" {
			renamed = sec
		}
	}
	if renamed == nil {
		t.Fatal("no Renamed section")
	}
	for _, ul := range findAll(renamed, func(n *html.Node) bool { return n.Data == "ul" && hasClass(n, "evidence") }) {
		if ul.Parent == nil || ul.Parent.Data != "details" {
			t.Errorf("rename evidence outside a <details>: %s", text(ul))
		}
	}
}

// withPartLimits lowers every list's inline bytes and page bytes for a
// test, so the sample's short lists get pages of their own (1: a row a
// page).
func withPartLimits(t *testing.T, inline, pageBytes int) {
	saved := append([]diffPartKind(nil), diffPartKinds...)
	for i := range diffPartKinds {
		diffPartKinds[i].Inline, diffPartKinds[i].PageBytes = inline, pageBytes
	}
	t.Cleanup(func() { copy(diffPartKinds, saved) })
}

// TestDiffListPages: a list over its inline limit leaves the summary page
// for pages of its own; the summary links them, every category link lands
// on the page holding the category, and the pages together hold every row
// of the JSON answer once.
func TestDiffListPages(t *testing.T) {
	withPartLimits(t, 0, 1)
	s := newTestServer(t)
	var res famdiff.Result
	if err := json.Unmarshal(get(t, s, "/api/v1/diff/rdna3/rdna4").Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	doc := mustPage(t, s, "/diff/rdna3/rdna4")
	l := links(doc)
	want := map[string][]string{"removed": {}, "changed": {}, "renamed": {}}
	for _, rn := range res.Renamed {
		want["renamed"] = append(want["renamed"], instrURL("rdna3", rn.From))
	}
	for _, it := range res.Removed {
		want["removed"] = append(want["removed"], instrURL("rdna3", it.Name))
	}
	for _, c := range res.Changed {
		want["changed"] = append(want["changed"], instrURL("rdna3", c.From))
	}
	for kind, rows := range want {
		if len(rows) == 0 {
			t.Fatalf("the sample has no %s rows", kind)
		}
		first := "/diff/rdna3/rdna4/" + kind
		if !l[first] {
			t.Errorf("the summary page does not link %s", first)
		}
		seen := map[string]int{}
		for n := 1; n <= len(rows); n++ {
			p := first
			if n > 1 {
				p += "/" + strconv.Itoa(n)
			}
			page := mustPage(t, s, p)
			var sec *html.Node
			for _, x := range findAll(page, tag("section")) {
				if attr(x, "aria-labelledby") == kind {
					sec = x
				}
			}
			if sec == nil {
				t.Fatalf("%s: no %s section", p, kind)
			}
			for href := range links(sec) {
				if strings.HasPrefix(href, "/amdgpu/rdna3/") {
					seen[href]++
				}
			}
			for _, h := range findAll(sec, func(n *html.Node) bool { return (n.Data == "h3" || n.Data == "li") && attr(n, "id") != "" }) {
				if !strings.HasPrefix(attr(h, "id"), kind+"-") {
					t.Errorf("%s: category anchor %q", p, attr(h, "id"))
				}
			}
		}
		for _, r := range rows {
			if seen[r] != 1 {
				t.Errorf("%s: %s is on %d pages, want 1 (%v)", kind, r, seen[r], seen)
			}
		}
		// Each category link of the summary lands where its anchor is.
		for href := range l {
			u, err := url.Parse(href)
			if err != nil || u.Path != first || u.Fragment == "" {
				continue
			}
			page := mustPage(t, s, u.RequestURI())
			if len(findAll(page, func(n *html.Node) bool { return attr(n, "id") == u.Fragment })) != 1 {
				t.Errorf("%s: no #%s on the page", href, u.Fragment)
			}
		}
	}
	for p, code := range map[string]int{"/diff/rdna3/rdna4/bogus": 404, "/diff/rdna3/rdna4/changed/99": 404, "/diff/rdna3/rdna4/changed/x": 400, "/diff/rdna3/rdna9/changed": 404} {
		if rec := get(t, s, p); rec.Code != code {
			t.Errorf("GET %s: %d, want %d", p, rec.Code, code)
		}
	}
	if rec := get(t, s, "/diff/gfx1100/gfx1200/changed/1"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/diff/rdna3/rdna4/changed" {
		t.Errorf("a gfx target's list: %d %s", rec.Code, rec.Header().Get("Location"))
	}
}

// diffPagesOf lists every page of every diff s serves: each pair of AMD
// families with the pages of their lists, each PTX version and target.
func diffPagesOf(t *testing.T, s *server) []string {
	var amd []string
	for _, a := range s.archs {
		if a.Vendor == isa.VendorAMD {
			amd = append(amd, a.ID)
		}
	}
	pages := []string{"/diff", "/ptx/versions"}
	for _, a := range amd {
		for _, b := range amd {
			if a == b {
				continue
			}
			pages = append(pages, diffURL(a, b))
			for _, href := range sortedKeys(links(mustPage(t, s, diffURL(a, b)))) {
				if u, err := url.Parse(href); err == nil && u.Fragment == "" && strings.HasPrefix(u.Path, diffURL(a, b)+"/") {
					pages = append(pages, href)
				}
			}
		}
	}
	for href := range links(mustPage(t, s, "/ptx/versions")) {
		if strings.HasPrefix(href, "/ptx/versions/") || strings.HasPrefix(href, "/ptx/targets/") {
			pages = append(pages, href)
		}
	}
	return pages
}

// checkDiffPageSizes holds every diff page to maxDiffPage bytes.
func checkDiffPageSizes(t *testing.T, s *server) {
	pages := diffPagesOf(t, s)
	largest, largestPath := 0, ""
	for _, p := range pages {
		rec := get(t, s, p)
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", p, rec.Code)
			continue
		}
		if n := rec.Body.Len(); n > largest {
			largest, largestPath = n, p
		}
		if n := rec.Body.Len(); n > maxDiffPage {
			t.Errorf("%s: %d bytes, over %d", p, n, maxDiffPage)
		}
	}
	t.Logf("%d diff pages; the largest %s, %d bytes", len(pages), largestPath, largest)
}

// TestDiffPageSizes: every diff page of the sample is under maxDiffPage,
// with the lists at their limits and with every list on pages of its own.
func TestDiffPageSizes(t *testing.T) {
	checkDiffPageSizes(t, newTestServer(t))
	withPartLimits(t, 0, 1)
	checkDiffPageSizes(t, newTestServer(t))
}

// TestDiffPageSizesRealDatabase: every diff page of the real database,
// the pages of its long lists included, is under maxDiffPage.
func TestDiffPageSizesRealDatabase(t *testing.T) {
	checkDiffPageSizes(t, realServer(t))
}

// withListPages is the diff page at path and the pages of its lists, one
// after the other.
func withListPages(t *testing.T, s *server, path string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(get(t, s, path).Body.String())
	for _, href := range sortedKeys(links(mustPage(t, s, path))) {
		u, err := url.Parse(href)
		if err != nil || u.Fragment != "" || !strings.HasPrefix(u.Path, "/diff/") || strings.Count(u.Path, "/") != 4 {
			continue
		}
		b.WriteString(get(t, s, href).Body.String())
	}
	return b.String()
}

// TestDiffsFindable: the family diffs (/diff) and the PTX history
// (/ptx/versions) are one click from the home page, from the site
// navigation of any page and from the PTX index; the home page's "Compare
// generations" card leads to the diffs.
func TestDiffsFindable(t *testing.T) {
	s := newTestServer(t)
	for _, p := range []string{"/", "/ptx", "/amdgpu/cdna4/v_max_f32", "/decode"} {
		doc := mustPage(t, s, p)
		for _, want := range []string{"/diff", "/ptx/versions"} {
			if !links(doc)[want] {
				t.Errorf("%s does not link %s", p, want)
			}
		}
		var nav *html.Node
		for _, n := range findAll(doc, tag("nav")) {
			if hasClass(n, "sections") {
				nav = n
			}
		}
		if nav == nil || !links(nav)["/diff"] || !links(nav)["/ptx/versions"] {
			t.Errorf("%s: the site navigation lacks /diff or /ptx/versions", p)
		}
	}
	home := mustPage(t, s, "/")
	card := ""
	for _, a := range findAll(home, func(n *html.Node) bool { return n.Data == "a" && hasClass(n, "task") }) {
		if strings.HasPrefix(text(a), "Compare generations") {
			card = attr(a, "href")
		}
	}
	if card != "/diff" {
		t.Errorf("the Compare generations card leads to %q, want /diff", card)
	}
	ptx := mustPage(t, s, "/ptx")
	var main *html.Node
	for _, n := range findAll(ptx, tag("main")) {
		main = n
	}
	if main == nil || !links(main)["/ptx/versions"] {
		t.Error("/ptx's own content does not link /ptx/versions")
	}
	for _, p := range []string{"/diff", "/ptx/versions"} {
		mustPage(t, s, p)
	}
}

// TestDiffListPagesExported: a static export holds the pages of every
// exported diff's lists (paths, not queries), so the summary's links
// resolve there.
func TestDiffListPagesExported(t *testing.T) {
	withPartLimits(t, 0, 1)
	s := newTestServer(t)
	pages, _ := s.generationURLs(context.Background())
	have := map[string]bool{}
	for _, p := range pages {
		have[p] = true
	}
	for _, p := range pages {
		if !strings.HasPrefix(p, "/diff/") || strings.Count(p, "/") != 3 {
			continue
		}
		for href := range links(mustPage(t, s, p)) {
			u, err := url.Parse(href)
			if err != nil || !strings.HasPrefix(u.Path, p+"/") {
				continue
			}
			if u.RawQuery != "" || !have[u.Path] {
				t.Errorf("%s links %s, which the export does not hold", p, href)
			}
		}
	}
}

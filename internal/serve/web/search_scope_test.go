package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// headerScope returns the family the header's search form carries, "" when
// it searches every family.
func headerScope(t *testing.T, doc *html.Node) string {
	t.Helper()
	for _, f := range findAll(doc, func(n *html.Node) bool { return n.Data == "form" && hasClass(n, "search") }) {
		for _, in := range findAll(f, tag("input")) {
			if attr(in, "name") == "arch" && attr(in, "type") == "checkbox" && hasAttr(in, "checked") {
				return attr(in, "value")
			}
		}
	}
	return ""
}

// A search started from a family's pages is scoped to that family, says so,
// links to the search over every family, and widens when the family has
// nothing.
func TestSearchScopedToTheFamilyBrowsed(t *testing.T) {
	s := newTestServer(t)
	for path, want := range map[string]string{
		"/amdgpu/cdna4": "cdna4", "/amdgpu/cdna4/v_max_f32": "cdna4", "/ptx/max": "ptx", "/ptx": "ptx",
		"/": "", "/concepts": "", "/search?q=max": "",
	} {
		if got := headerScope(t, mustPage(t, s, path)); got != want {
			t.Errorf("%s: header search scope %q, want %q", path, got, want)
		}
	}
	doc := mustPage(t, s, "/search?q=v_max&arch=cdna4")
	if body := text(doc); !strings.Contains(body, "In CDNA 4 only") || !slices.Contains(hrefs(doc), "/search?q=v_max") {
		t.Errorf("scoped results do not say their scope or link to every family: %.300s", body)
	}
	for _, h := range findAll(doc, func(n *html.Node) bool { return n.Data == "span" && hasClass(n, "arch") }) {
		if text(h) != "CDNA 4" {
			t.Errorf("a hit from %s in a CDNA 4 search", text(h))
		}
	}
	body := text(mustPage(t, s, "/search?q=v_max_num_f32&arch=cdna4"))
	if !strings.Contains(body, "Nothing in CDNA 4: these are from every family.") || !strings.Contains(body, "RDNA 4") {
		t.Errorf("a scoped search with no hit does not widen: %.400s", body)
	}
}

// TestQueryLimitCountsCharacters: the 200-character limit counts
// characters, not bytes: 101 "é" (202 bytes) is a query, 201 is refused,
// on the page and in the API alike.
func TestQueryLimitCountsCharacters(t *testing.T) {
	s := newTestServer(t)
	for _, c := range []struct {
		n      int
		status int
	}{{101, http.StatusOK}, {maxQueryLen, http.StatusOK}, {maxQueryLen + 1, http.StatusBadRequest}} {
		q := url.QueryEscape(strings.Repeat("é", c.n))
		for _, path := range []string{"/search?q=", "/api/v1/search?q="} {
			rec := get(t, s, path+q)
			if rec.Code != c.status || (c.status == http.StatusOK && strings.Contains(rec.Body.String(), "longer than")) {
				t.Errorf("%s%d × é: %d (want %d)", path, c.n, rec.Code, c.status)
			}
		}
	}
}

package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
)

func newTestServer(t testing.TB) *server {
	t.Helper()
	return testServer(t, webfake.New(t), Options{})
}

// testServer serves r with opts; the test fails if the server cannot start.
func testServer(tb testing.TB, r store.Reader, opts Options) *server {
	tb.Helper()
	s, err := newServer(r, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// sampleID is the build id of the sample database (a hash of its content,
// as every build's).
func sampleID(t testing.TB) string {
	t.Helper()
	info, err := webfake.New(t).Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.ID
}

func get(t testing.TB, h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// mustPage fetches path, expects 200 and parses the HTML.
func mustPage(t testing.TB, h http.Handler, path string) *html.Node {
	t.Helper()
	rec := get(t, h, path)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: status %d, body:\n%s", path, rec.Code, rec.Body.String())
	}
	doc, err := html.Parse(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("GET %s: parsing HTML: %v", path, err)
	}
	return doc
}

func parseHTML(t testing.TB, body string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// findAll returns the elements matching pred, in document order.
func findAll(n *html.Node, pred func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && pred(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func hasClass(n *html.Node, class string) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if f == class {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// text returns the text content of n with whitespace runs collapsed.
func text(n *html.Node) string {
	return strings.Join(strings.Fields(rawText(n)), " ")
}

func rawText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func texts(ns []*html.Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, text(n))
	}
	return out
}

// hrefs returns every link target in the document.
func hrefs(doc *html.Node) []string {
	var out []string
	for _, a := range findAll(doc, tag("a")) {
		out = append(out, attr(a, "href"))
	}
	return out
}

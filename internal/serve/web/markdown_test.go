package web

import (
	"strings"
	"testing"
)

func TestMarkdownHTMLIsSafe(t *testing.T) {
	for _, tc := range []struct{ in, want, reject string }{
		{"Store `a` in `d`.", "<code>a</code>", ""},
		{"<script>alert(1)</script> text", "&lt;script&gt;alert(1)&lt;/script&gt; text", "<script"},
		{"inline <sub>2</sub> markup", "&lt;sub&gt;2", "<sub>"},
		{"a <b onclick=x>bold</b>", "&lt;b onclick=x&gt;bold", "<b "},
		{"see [cvt](../cvt.md) here", "see cvt here", "href"},
		{"![img](x.png) and <https://example.com>", "https://example.com", "<img"},
		{"x &amp; y < z", "x &amp; y &lt; z", ""},
		{"| a | b |\n|---|---|\n| 1 | 2 |", "<table>", ""},
	} {
		got := string(markdownHTML(tc.in))
		if !strings.Contains(got, tc.want) {
			t.Errorf("markdownHTML(%q) = %q, want it to contain %q", tc.in, got, tc.want)
		}
		if tc.reject != "" && strings.Contains(got, tc.reject) {
			t.Errorf("markdownHTML(%q) = %q contains %q", tc.in, got, tc.reject)
		}
	}
}

func FuzzMarkdownHTML(f *testing.F) {
	f.Add("Store `a` <i>x</i> [l](u)")
	f.Fuzz(func(t *testing.T, s string) {
		got := string(markdownHTML(s))
		if strings.Contains(strings.ToLower(got), "<script") {
			t.Fatalf("script tag in %q", got)
		}
	})
}

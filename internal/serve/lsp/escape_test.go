package lsp

import "testing"

// TestEscapeMD: upstream text in a hover is text: no HTML, links, emphasis
// or headings; register names keep their underscores readable.
func TestEscapeMD(t *testing.T) {
	for in, want := range map[string]string{
		"<script>x</script> & y":         "&lt;script&gt;x&lt;/script&gt; &amp; y",
		"*D* = S0 * S1 [link](http://x)": `\*D\* = S0 \* S1 \[link\](http://x)`,
		"VCC_LO and _emph_":              `VCC_LO and \_emph\_`,
		"# not a heading, |a| # b":       `\# not a heading, |a| # b`,
		"code `x`":                       "code \\`x\\`",
	} {
		if got := escapeMD(in); got != want {
			t.Errorf("escapeMD(%q) = %q, want %q", in, got, want)
		}
	}
	if got := escapeProse("use `max.NaN` <b>[x](y)</b>"); got != "use `max.NaN` &lt;b&gt;\\[x\\](y)&lt;/b&gt;" {
		t.Errorf("escapeProse: %q", got)
	}
}

package web

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestPagesAnswerFirstRealDB holds the real pages to issue 15: the PTX
// index shows Markdown as text, one heading per category whatever its
// case and no empty column; /ptx/max shows the operand paragraph NVIDIA
// repeats once; a CDNA page keeps the gfx12 name note and the data checks
// out of the reader's way (under Other generations and in the badge).
func TestPagesAnswerFirstRealDB(t *testing.T) {
	s := realServer(t)

	idx := mustPage(t, s, "/ptx")
	list := findAll(idx, func(n *html.Node) bool { return attr(n, "id") == "family-list" })[0]
	if strings.Contains(text(list), "`") {
		t.Error("the PTX index shows Markdown backticks")
	}
	seen := map[string]bool{}
	for _, h := range findAll(list, tag("h2")) {
		name := strings.ToLower(text(findAll(h, tag("a"))[0]))
		if seen[name] {
			t.Errorf("category %q twice on the PTX index", name)
		}
		seen[name] = true
	}
	for _, th := range findAll(list, tag("th")) {
		if text(th) == "Encodings" {
			t.Error("the PTX index has an Encodings column")
			break
		}
	}

	ops := text(section(t, mustPage(t, s, "/ptx/max"), "operands"))
	if n := strings.Count(ops, "have the same type as the instruction type"); n != 1 {
		t.Errorf("/ptx/max operands say %d times that the operands have the instruction's type, want once", n)
	}

	doc := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	head := findAll(doc, func(n *html.Node) bool { return n.Data == "header" && hasClass(n, "instr-head") })[0]
	var visible strings.Builder
	for _, n := range findAll(head, func(n *html.Node) bool { return n.Type == html.TextNode }) {
		if !inside(n, func(p *html.Node) bool { return p.Data == "details" }) {
			visible.WriteString(n.Data)
		}
	}
	if strings.Contains(visible.String(), "gfx1200") || strings.Contains(visible.String(), "rebuilds") {
		t.Errorf("the CDNA 4 header shows other families' notes or data checks: %.300s", visible.String())
	}
	if strings.Contains(text(doc), "prints it as v_max_num_f32 on gfx1200") &&
		!strings.Contains(text(section(t, doc, "generations")), "prints it as v_max_num_f32 on gfx1200") {
		t.Error("the gfx12 name note is not under Other generations")
	}
}

// inside says whether an ancestor of n satisfies f.
func inside(n *html.Node, f func(*html.Node) bool) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if f(p) {
			return true
		}
	}
	return false
}

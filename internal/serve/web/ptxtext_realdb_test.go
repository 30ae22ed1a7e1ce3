package web

import (
	"context"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestPTXPagesSayWhatNVIDIASaysRealDB: on the real database every PTX
// example keeps its line breaks on the page, /ptx/max gives each operand its
// own sentences, and multimem.st shows its own text, not multimem.ld_reduce's.
func TestPTXPagesSayWhatNVIDIASaysRealDB(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	list, err := s.store.List(ctx, "ptx")
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, sum := range list {
		in, err := s.store.Instruction(ctx, "ptx", sum.Name)
		if err != nil {
			t.Fatal(err)
		}
		var doc *html.Node
		for _, ex := range in.Examples {
			if !strings.Contains(ex.Asm, "\n") {
				continue
			}
			if doc == nil {
				doc = mustPage(t, s, instrURL("ptx", sum.Name))
			}
			multi++
			if !slices.Contains(exampleTexts(doc), ex.Asm) {
				t.Errorf("%s: example %.60q is not on the page with its line breaks", sum.Name, ex.Asm)
			}
		}
	}
	if multi < 100 {
		t.Errorf("only %d multi-line PTX examples", multi)
	}

	doc := mustPage(t, s, "/ptx/max")
	cells := map[string]string{}
	for _, tbl := range findAll(doc, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "operands-ptx") }) {
		for _, tr := range findAll(tbl, tag("tr")) {
			th, td := findAll(tr, tag("th")), findAll(tr, tag("td"))
			if len(th) == 1 && len(td) == 3 {
				cells[text(th[0])] = text(td[2])
			}
		}
	}
	if len(cells) != 4 || cells["d"] == cells["b"] || strings.Contains(cells["a"], "Store the maximum") {
		t.Errorf("/ptx/max operand descriptions: %q", cells)
	}

	st := text(mustPage(t, s, "/ptx/multimem.st"))
	for _, w := range []string{"Instruction multimem.st performs a store operation", "NVIDIA documents multimem.st in one section with multimem.ld_reduce and multimem.red"} {
		if !strings.Contains(st, w) {
			t.Errorf("/ptx/multimem.st lacks %q", w)
		}
	}
	if strings.Contains(st, "Instruction multimem.ld_reduce performs the following operations") {
		t.Error("/ptx/multimem.st shows multimem.ld_reduce's text")
	}
}

package amdmanual

import (
	"strings"
	"testing"
)

// TestGaps: the fixture's opcode table lists V_TOY_ONLY_IN_TABLE, which no
// section documents; removing a section, or cutting the guide inside a
// pseudocode block, adds a gap naming it.
func TestGaps(t *testing.T) {
	parse := func(text string) []Problem {
		t.Helper()
		g, err := Parse(strings.NewReader(text), "toy.md", "toyna9")
		if err != nil {
			t.Fatal(err)
		}
		return g.Gaps
	}
	text := newStyleGuide()
	gaps := parse(text)
	if len(gaps) != 1 || gaps[0].Name != "V_TOY_ONLY_IN_TABLE" || gaps[0].Line != lineOf(t, text, "V_TOY_ONLY_IN_TABLE") ||
		!strings.Contains(gaps[0].Why, "the VOP3P opcode table lists V_TOY_ONLY_IN_TABLE (opcode 34), which has no VOP3P section") {
		t.Errorf("fixture gaps %v, want one for V_TOY_ONLY_IN_TABLE", gaps)
	}

	head := `#### **S\_TOY\_SEL 3**`
	start := strings.Index(text, head)
	end := strings.Index(text, `# **2.2. VOP3P`)
	without := text[:start] + text[end-1:]
	gaps = parse(without)
	if len(gaps) != 2 || gaps[0].Name != "S_TOY_SEL" || !strings.Contains(gaps[0].Why, "lists S_TOY_SEL (opcode 3)") {
		t.Errorf("S_TOY_SEL removed: gaps %v", gaps)
	}

	cut := text[:strings.Index(text, "SCC = carry")]
	gaps = parse(cut)
	var open bool
	for _, g := range gaps {
		if g.Name == "S_TOY_ADD" && g.Line == lineOf(t, text, "```text") && strings.Contains(g.Why, "never closed") {
			open = true
		}
	}
	if !open {
		t.Errorf("cut inside S_TOY_ADD's pseudocode: gaps %v", gaps)
	}
}

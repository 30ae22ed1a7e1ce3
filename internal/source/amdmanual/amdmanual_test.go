package amdmanual

import (
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
	"os"
	"strings"
	"testing"
)

func TestUnescape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`V\_MAX\_F32`, "V_MAX_F32"},
		{`D = S0 &#124; S1`, "D = S0 | S1"},
		{`a &lt; b &amp;&amp; c &gt; d`, "a < b && c > d"},
		{`<span id="page-8-0"></span>Preface`, "Preface"},
		{`line one<br>line two`, "line one\nline two"},
		{`2\*\*31`, "2**31"},
		{`path\sname`, `path\sname`}, // backslash before a letter is literal
		{`\\`, `\`},
		{`trailing\`, `trailing\`},
		{`  spaced  `, "spaced"},
	}
	for _, tc := range tests {
		if got := Unescape(tc.in); got != tc.want {
			t.Errorf("Unescape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{`**S\_ADD\_U32 0**`, "S_ADD_U32 0"},
		{`<span id="page-107-1"></span>**12.1. SOP2 Instructions**`, "12.1. SOP2 Instructions"},
		{`*Table 58. SOP2 Fields*`, "Table 58. SOP2 Fields"},
		{`true if the value is *any* of the types`, "true if the value is any of the types"},
		{`S0.f * S1.f`, "S0.f * S1.f"}, // multiplication survives
	}
	for _, tc := range tests {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitProseCode(t *testing.T) {
	tests := []struct{ in, prose, code string }{
		{"Add two unsigned integers. D.u = S0.u + S1.u; SCC = carry.", "Add two unsigned integers.", "D.u = S0.u + S1.u; SCC = carry."},
		{"D.f = S0.f + S1.f. 0.5ULP precision, denormals are supported.", "0.5ULP precision, denormals are supported.", "D.f = S0.f + S1.f."},
		{"Do nothing.", "Do nothing.", ""},
		{"D.u = SCC ? S0.u : S1.u. Conditional select.", "Conditional select.", "D.u = SCC ? S0.u : S1.u."},
	}
	for _, tc := range tests {
		p, c := splitProseCode(tc.in)
		if p != tc.prose || c != tc.code {
			t.Errorf("splitProseCode(%q) = (%q, %q), want (%q, %q)", tc.in, p, c, tc.prose, tc.code)
		}
	}
}

func TestSplitRow(t *testing.T) {
	got := splitRow(`| 14 | S_OR_B32 | D = S0 \| S1 |`)
	want := []string{"14", "S_OR_B32", `D = S0 \| S1`}
	if strings.Join(got, "§") != strings.Join(want, "§") {
		t.Errorf("splitRow = %q, want %q", got, want)
	}
}

func findEntry(t *testing.T, g *Guide, name, enc string, fromTable bool) Entry {
	t.Helper()
	for _, e := range g.Instructions {
		if e.Name == name && e.Encoding == enc && e.FromOpcodeTable == fromTable {
			return e
		}
	}
	t.Fatalf("%s: no entry %s %s (fromTable=%v)", g.Family, name, enc, fromTable)
	return Entry{}
}

func TestParseNewStyleFixture(t *testing.T) {
	text := newStyleGuide()
	g, err := ParseFile(writeFixture(t, "newstyle.md", text), "toy")
	if err != nil {
		t.Fatal(err)
	}
	if g.Title != "TOYNA 9 Instruction Set Architecture" {
		t.Errorf("Title = %q", g.Title)
	}
	add := findEntry(t, g, "S_TOY_ADD", "SOP2", false)
	if add.Opcode != 0 || add.Section != "SOP2 Instructions" || add.Chapter != "Instructions" || add.Line != lineOf(t, text, `S\_TOY\_ADD 0`) {
		t.Errorf("S_TOY_ADD = %+v", add)
	}
	if add.Description != "Adds two toy values & keeps the carry." {
		t.Errorf("description %q", add.Description)
	}
	if add.Pseudocode != "D0.u32 = S0.u32 + S1.u32;\nSCC = carry" {
		t.Errorf("pseudocode %q", add.Pseudocode)
	}
	if add.Notes != "Toy note with a pipe | inside." {
		t.Errorf("notes %q", add.Notes)
	}
	sel := findEntry(t, g, "S_TOY_SEL", "SOP2", false)
	if sel.Pseudocode != "D0.u32 = SCC ? S0.u32 : S1.u32" || sel.Notes != "" {
		t.Errorf("S_TOY_SEL = %+v", sel)
	}
	lost := findEntry(t, g, "V_TOY_LOST", "VOP3P", false)
	if lost.Opcode != 33 || lost.Description != "A heading that became a code block." {
		t.Errorf("V_TOY_LOST = %+v", lost)
	}
	mix := findEntry(t, g, "V_TOY_MIX", "VOP3P", false)
	if strings.Contains(mix.Description, "Prose about") {
		t.Errorf("subsection prose leaked into V_TOY_MIX: %q", mix.Description)
	}
	tab := findEntry(t, g, "V_TOY_ONLY_IN_TABLE", "VOP3P", true)
	if tab.Opcode != 34 || tab.Section != "" || tab.Chapter != "Microcode Formats" {
		t.Errorf("table entry = %+v", tab)
	}

	sop2 := g.FormatByName("SOP2")
	if sop2 == nil || sop2.Width != 32 || sop2.Description != "Toy scalar format." {
		t.Fatalf("SOP2 = %+v", sop2)
	}
	if id, mask, err := sop2.Identifier(3); err != nil || id != 0x81800000 || mask != 0xFF800000 {
		t.Errorf("SOP2 identifier(3) = %#x/%#x, %v", id, mask, err)
	}
	vop3p := g.FormatByName("VOP3P")
	if vop3p == nil || vop3p.Width != 64 || len(vop3p.Fields) != 7 {
		t.Fatalf("VOP3P = %+v", vop3p)
	}
	enc := vop3p.FieldByName("ENCODING")
	if enc.Ranges[0] != (BitRange{31, 23}) || enc.Fixed != "110100111" {
		t.Errorf("ENCODING repaired to %+v", enc)
	}
	if len(vop3p.Notes) == 0 || !strings.Contains(vop3p.Notes[0], "widened to [31:23]") {
		t.Errorf("repair not noted: %q", vop3p.Notes)
	}
	if id, _, err := vop3p.Identifier(32); err != nil || id != 0xD3A00000 {
		t.Errorf("VOP3P identifier(32) = %#x, %v", id, err)
	}
	if _, _, err := vop3p.Identifier(128); err == nil {
		t.Error("opcode 128 fits a 7-bit OP field?")
	}
}

func TestParseOldStyleFixture(t *testing.T) {
	g, err := ParseFile("testdata/oldstyle.md", "toyold")
	if err != nil {
		t.Fatal(err)
	}
	if g.Title != "Toy Instruction Set Architecture" {
		t.Errorf("Title = %q", g.Title)
	}
	mov := findEntry(t, g, "V_TOY_MOV", "VOP2", false)
	if mov.Description != "Moves a toy. Only for toys." || mov.Pseudocode != "D.u = S0.u." || mov.Line != 9 {
		t.Errorf("V_TOY_MOV = %+v", mov)
	}
	max := findEntry(t, g, "V_TOY_MAX", "VOP2", false)
	if max.Opcode != 11 || max.Pseudocode != "D.f = (S0.f >= S1.f ? S0.f : S1.f) | 0." {
		t.Errorf("V_TOY_MAX = %+v", max)
	}
	or := findEntry(t, g, "V_TOY_OR", "VOP2", false)
	if or.Opcode != 12 || or.Description != "Bitwise toy OR." {
		t.Errorf("V_TOY_OR = %+v", or)
	}
	for _, e := range g.Instructions {
		if strings.EqualFold(e.Name, "Reserved") {
			t.Errorf("reserved opcode kept: %+v", e)
		}
	}
	vop2 := g.FormatByName("VOP2")
	if id, _, err := vop2.Identifier(11); err != nil || id != 0x16000000 {
		t.Errorf("VOP2 identifier(11) = %#x, %v", id, err)
	}
	if len(g.Problems) != 0 {
		t.Errorf("problems: %v", g.Problems)
	}
}

func TestMalformedInput(t *testing.T) {
	data := newStyleGuide()
	// Every truncation must parse without panicking; empty results are errors naming the file.
	for cut := 0; cut < len(data); cut += 7 {
		g, err := Parse(strings.NewReader(data[:cut]), "cut.md", "toy")
		if err != nil && !strings.Contains(err.Error(), "cut.md:") {
			t.Fatalf("error without file:line: %v", err)
		}
		if g == nil {
			t.Fatal("nil guide")
		}
	}
	_, err := Parse(strings.NewReader("just some text\n"), "junk.md", "toy")
	if err == nil || !strings.Contains(err.Error(), "junk.md:1") {
		t.Errorf("junk input: err = %v", err)
	}
	bad := "# **Chapter 1. Instructions**\n\n#### **S_ORPHAN 1**\n\n# **Chapter 2. Microcode Formats**\n\n| Field Name | Bits | Format |\n|---|---|---|\n| OP | [x:y] | nope |\n"
	g, _ := Parse(strings.NewReader(bad), "bad.md", "toy")
	if len(g.Problems) < 2 {
		t.Errorf("want problems for the orphan heading and the table, got %v", g.Problems)
	}
	for _, p := range g.Problems {
		if p.Line == 0 {
			t.Errorf("problem without line: %v", p)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(newStyleGuide())
	for _, name := range []string{"testdata/oldstyle.md", "testdata/lostheadings.md", "testdata/lostheadings_plain.md"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("# **Chapter 1. Microcode Formats**\n| Field Name | Bits |\n|--|--|\n| ENCODING | [31:24] | Must be: 110100111111111111111111111111111111111111111111111111111111111111111 |\n| OP | [99:0] | x |\n")
	f.Fuzz(func(t *testing.T, s string) {
		g, _ := Parse(strings.NewReader(s), "fuzz.md", "fuzz")
		for _, fm := range g.Formats {
			for op := 0; op < 3; op++ {
				fm.Identifier(op) // must not panic
			}
		}
	})
}

// sourcesDir returns the real sources or skips the test.
func sourcesDir(t testing.TB) string { return testenv.Upstream(t) }

var families = []string{"cdna1", "cdna2", "cdna3", "cdna4", "cdna5", "rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "vega", "vega7"}

package amdmanual

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The new-style fixture is assembled here from small builders rather than
// kept as a Markdown file, so that no document in the repository has the
// shape of a vendor guide. Its content is invented: a toy family with two
// scalar and three packed instructions, one heading lost to a code block,
// and microcode tables including a mis-sized ENCODING field and a
// headerless opcode-table continuation.

// mdRow is one Markdown table row.
type mdRow []string

// heading is an ATX heading of the given level.
func heading(level int, text string) string {
	return strings.Repeat("#", level) + " " + text
}

// bold wraps text in strong emphasis, as PDF-to-Markdown converters do.
func bold(text string) string { return "**" + text + "**" }

// anchor is the page anchor a converter puts in front of a heading.
func anchor(id string) string { return `<span id="` + id + `"></span>` }

// esc escapes underscores the way converted text does.
func esc(name string) string { return strings.ReplaceAll(name, "_", `\_`) }

// fence is a fenced code block with an optional info string.
func fence(info string, lines ...string) string {
	return "```" + info + "\n" + strings.Join(lines, "\n") + "\n```"
}

// instr is an instruction heading ("NAME OPCODE") at the given level,
// followed by its description and code blocks.
func instr(level int, name string, opcode int, desc string, code ...string) string {
	return blocks(append([]string{heading(level, bold(fmt.Sprintf("%s %d", esc(name), opcode))), desc}, code...)...)
}

// table is a Markdown table with aligned columns; header is its first row.
func table(header mdRow, rows ...mdRow) string {
	all := append([]mdRow{header}, rows...)
	width := make([]int, len(header))
	for _, r := range all {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	row := func(r mdRow) string {
		var b strings.Builder
		for i, c := range r {
			fmt.Fprintf(&b, "| %-*s ", width[i], c)
		}
		return b.String() + "|"
	}
	lines := []string{row(header)}
	var sep strings.Builder
	for _, w := range width {
		sep.WriteString("|" + strings.Repeat("-", w+2))
	}
	lines = append(lines, sep.String()+"|")
	for _, r := range rows {
		lines = append(lines, row(r))
	}
	return strings.Join(lines, "\n")
}

// opcodeTable is a two-pairs-per-row opcode table.
func opcodeTable(rows ...mdRow) string {
	return table(mdRow{"Opcode #", "Name", "Opcode #", "Name"}, rows...)
}

// fieldsTable is a microcode field table.
func fieldsTable(rows ...mdRow) string {
	return table(mdRow{"Field Name", "Bits", "Format or Description"}, rows...)
}

// blocks joins Markdown blocks with blank lines.
func blocks(b ...string) string { return strings.Join(b, "\n\n") }

// newStyleGuide returns the invented new-style guide.
func newStyleGuide() string {
	return blocks(
		"> "+bold("Repository notice.")+" A made-up guide for tests.",
		heading(1, `"TOYNA 9" Instruction Set Architecture`),
		bold("Reference Guide"),
		heading(1, anchor("page-3-0")+bold("Chapter 2. Instructions")),
		heading(1, anchor("page-3-1")+bold("2.1. SOP2 Instructions")),
		instr(4, "S_TOY_ADD", 0, "Adds two toy values &amp; keeps the *carry*.",
			fence("text", "D0.u32 = S0.u32 + S1.u32;", "SCC = carry")),
		heading(4, bold("Notes")),
		"Toy note with a pipe &#124; inside.",
		instr(4, "S_TOY_SEL", 3, "Selects one of two toy values.",
			"`D0.u32 = SCC ? S0.u32 : S1.u32`"),
		heading(1, bold("2.2. VOP3P Instructions")),
		instr(3, "V_TOY_MIX", 32, "Mixes toy values.",
			fence("", "D0.f32 = mix(S0, S1)")),
		fence("", "V_TOY_LOST 33"),
		"A heading that became a code block.",
		heading(2, bold("2.2.1. VOP3P using nothing")),
		"Prose about the section.",
		heading(1, bold("Chapter 3. Microcode Formats")),
		"Table 1. Summary of Microcode Formats",
		table(mdRow{"Microcode Formats", "Reference", "Width (bits)"},
			mdRow{"SOP2", "SOP2", "32"},
			mdRow{"VOP3P", "VOP3P", "64"}),
		heading(3, bold("3.1.1. SOP2")),
		bold("Format")+" SOP2",
		bold("Description")+" Toy scalar format.",
		"Table 2. SOP2 Fields",
		fieldsTable(
			mdRow{"SSRC0", "[7:0] 0 - 9 10", "Source zero."},
			mdRow{"SSRC1", "[15:8]", "Source one."},
			mdRow{"SDST", "[22:16]", "Destination."},
			mdRow{"OP", "[29:23]", "See table."},
			mdRow{"ENCODING", "[31:30]", "Must be: 10"}),
		"Table 3. SOP2 Opcodes",
		opcodeTable(mdRow{"0", "S_TOY_ADD", "3", "S_TOY_SEL"}),
		heading(3, bold("3.1.2. VOP3P")),
		"Table 4. VOP3P Fields",
		// ENCODING is one bit short of its fixed value; the parser widens it.
		fieldsTable(
			mdRow{"VDST", "[7:0]", "Destination."},
			mdRow{"CLMP", "[15]", "Clamp."},
			mdRow{"OP", "[22:16]", "Opcode."},
			mdRow{"ENCODING", "[31:24]", "Must be: 110100111"}),
		// The second dword's fields continue without a caption.
		fieldsTable(
			mdRow{"SRC0", "[40:32]", "Source zero."},
			mdRow{"SRC1", "[49:41]", "Source one."},
			mdRow{"NEG", "[63:50]", "Negation."}),
		// An opcode table continued onto a new page loses its header row.
		table(mdRow{"32", "V_TOY_MIX", "33", "V_TOY_LOST"},
			mdRow{"34", "V_TOY_ONLY_IN_TABLE", "", ""}),
	) + "\n"
}

// writeFixture writes text to name in a fresh temporary directory and
// returns its path.
func writeFixture(t testing.TB, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// lineOf returns the 1-based number of the first line of text containing
// substr, failing the test when there is none.
func lineOf(t testing.TB, text, substr string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, substr) {
			return i + 1
		}
	}
	t.Fatalf("no line contains %q", substr)
	return 0
}

package ptxdoc

import (
	"fmt"
	"strings"
)

// The fixture section is assembled here from small builders rather than kept
// as a Markdown file, so that no document in the repository has the shape of
// a vendor documentation page. Its content is invented: a "frob" instruction
// with one syntax block, semantics, notes with an aside, and an example.

// fixtureBase is the base URL of the invented documentation site.
const fixtureBase = "https://example.invalid/doc"

// blocks joins Markdown blocks with blank lines.
func blocks(b ...string) string { return strings.Join(b, "\n\n") }

// section is a section page: a numbered title naming the mnemonics, the
// linked heading with its permalink, the first mnemonic on its own line, and
// the given body blocks.
func section(number, group, id string, mnemonics []string, body ...string) string {
	ticked := make([]string, len(mnemonics))
	for i, m := range mnemonics {
		ticked[i] = "`" + m + "`"
	}
	link := fixtureBase + "#" + id
	head := []string{
		fmt.Sprintf("# %s. %s: %s", number, group, strings.Join(mnemonics, ", ")),
		fmt.Sprintf("#### %s. [%s: %s](%s)[](%s %q)", number, group, strings.Join(ticked, ", "), link, link, "Permalink"),
		"`" + mnemonics[0] + "`",
	}
	return blocks(append(head, body...)...) + "\n"
}

// sub is a subsection: its plain-text header followed by body blocks.
func sub(name string, body ...string) string {
	return blocks(append([]string{name}, body...)...)
}

// codeBlock is a fenced code block.
func codeBlock(lines ...string) string {
	return "```\n" + strings.Join(lines, "\n") + "\n```"
}

// copyable is a code block followed by the page's copy-button label.
func copyable(lines ...string) string {
	return blocks(codeBlock(lines...), "Copy to clipboard")
}

// frobSection returns the invented frob section.
func frobSection() string {
	return section("9.9.1", "Made-up Instructions", "made-up-frob", []string{"frob", "frobnicate"},
		"Twiddle two values in an invented way.",
		sub("Syntax", copyable(
			"frob{.wide}.itype  d, a, b;",
			".itype = { .u32, .s32 };")),
		sub("Description", "Invented text describing `frob`."),
		sub("Semantics", copyable("d = a ^ b;")),
		sub("PTX ISA Notes", "Introduced in PTX ISA version 2.0."),
		sub("Target ISA Notes",
			sub("Note", "This aside stays with the target notes."),
			"Requires `sm_50` or higher."),
		sub("Examples", codeBlock("frob.u32 r1, r2, r3;")),
	)
}

// lineOf returns the 1-based number of the first line of text containing
// substr, or 0 when there is none.
func lineOf(text, substr string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, substr) {
			return i + 1
		}
	}
	return 0
}

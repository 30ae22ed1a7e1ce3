package ptx

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// An invented two-mnemonic section: frob and frobx share a syntax block.
func frobSection() ptxdoc.Section {
	return ptxdoc.Section{
		Kind:      ptxdoc.KindInstruction,
		Mnemonics: []string{"frob", "frobx"},
		Intro:     "Frobbing is invented.",
		Syntax:    []ptxdoc.CodeBlock{{Text: "frob.op.type d, [a];\nfrobx{.wide}.type [a], b;\n.op = { .up, .down };\n.type = { .u32 };", Line: 1}},
		Description: strings.Join([]string{
			"Instruction `frob` does the following:",
			"* reads the address `a`,\n* applies `.op`.",
			"The result is written to register `d`.",
			"Instruction `frobx` writes `b` to `a`. In contrast, `frob` reads.",
			"Address operand `a` must be aligned (e.g. to 4 bytes). See [Addresses](https://example.invalid/doc#a.b). Then it works.",
			"Optional `.wide` makes it wider.",
		}, "\n\n"),
	}
}

func TestDescriptionOfSplitsBySubject(t *testing.T) {
	sec := frobSection()
	frob, frobx := descriptionOf(sec, "frob"), descriptionOf(sec, "frobx")
	for _, w := range []string{"Frobbing is invented.", "does the following:\n\n* reads", "register `d`", "In contrast", "Address operand"} {
		if !strings.Contains(frob, w) {
			t.Errorf("frob lacks %q:\n%s", w, frob)
		}
	}
	// frob's part, and the d only frob has, are not frobx's; the .wide
	// only frobx has is not frob's.
	for _, w := range []string{"does the following", "register `d`"} {
		if strings.Contains(frobx, w) {
			t.Errorf("frobx has %q", w)
		}
	}
	if strings.Contains(frob, "`.wide`") || !strings.Contains(frobx, "`.wide`") {
		t.Errorf("`.wide` paragraph: frob %q, frobx %q", frob, frobx)
	}
	if !strings.Contains(frobx, "Instruction `frobx` writes") || !strings.Contains(frobx, "Address operand") {
		t.Errorf("frobx: %s", frobx)
	}
}

func TestProseSentences(t *testing.T) {
	got := proseSentences("Address operand `a` must be aligned (e.g. to 4 bytes). See [Addresses](https://example.invalid/doc#a.b. X). `a.b` is. Then\nit works.")
	want := []string{"Address operand `a` must be aligned (e.g. to 4 bytes).", "See [Addresses](https://example.invalid/doc#a.b. X).", "`a.b` is.", "Then it works."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}

func TestAboutOperand(t *testing.T) {
	for _, c := range []struct {
		s, name string
		want    bool
	}{
		{"Operands `d`, `a` and `b` have the same type.", "a", true},
		{"Store the maximum of `a` and `b` in `d`.", "d", false},
		{"The result is returned in register `d`.", "d", true},
		{"Operands `a` and `b` are inputs, while `c` and `d` represent the accumulator.", "c", true},
		{"`a` is an address.", "a", true},
		{"The `c` predicate is negated.", "c", true},
		{"Use `.d` as the qualifier.", "d", false},
		{"The tuple `{x-a, y-a}` selects.", "y-a", true},
	} {
		if got := aboutOperand(c.s, c.name); got != c.want {
			t.Errorf("aboutOperand(%q, %q) = %v", c.s, c.name, got)
		}
	}
	if !plainMention("offset").MatchString("Operand offset has `.s32` type.") {
		t.Error("plain mention")
	}
}

func FuzzProse(f *testing.F) {
	f.Add(frobSection().Description)
	f.Add("`unterminated [link](http://x (y")
	f.Fuzz(func(t *testing.T, s string) {
		for _, u := range proseUnits(s) {
			for _, x := range proseSentences(u) {
				if x == "" {
					t.Fatal("empty sentence")
				}
				aboutOperand(x, "a")
			}
		}
	})
}

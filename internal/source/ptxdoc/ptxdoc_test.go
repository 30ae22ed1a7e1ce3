package ptxdoc

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseFixture(t *testing.T) {
	text := frobSection()
	sec, ok, err := Parse("frob.md", []byte(text))
	if err != nil || !ok {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	checks := []struct{ name, got, want string }{
		{"number", sec.Number, "9.9.1"},
		{"title", sec.Title, "Made-up Instructions: frob, frobnicate"},
		{"group", sec.Group, "Made-up Instructions"},
		{"id", sec.ID, "made-up-frob"},
		{"summary", sec.Summary, "Twiddle two values in an invented way."},
		{"description", sec.Description, "Invented text describing `frob`."},
		{"ptx notes", sec.PTXISANotes, "Introduced in PTX ISA version 2.0."},
		{"example", sec.Examples[0].Text, "frob.u32 r1, r2, r3;"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
	if !reflect.DeepEqual(sec.Mnemonics, []string{"frob", "frobnicate"}) {
		t.Errorf("mnemonics %q", sec.Mnemonics)
	}
	if len(sec.Syntax) != 1 || sec.Syntax[0].Line != lineOf(text, "frob{.wide}.itype") || !strings.HasPrefix(sec.Syntax[0].Text, "frob{.wide}") {
		t.Errorf("syntax %+v", sec.Syntax)
	}
	if !strings.Contains(sec.TargetISANotes, "aside") || !strings.Contains(sec.TargetISANotes, "sm_50") {
		t.Errorf("target notes %q", sec.TargetISANotes)
	}
	if sec.Line != 1 || sec.PTXISANotesLine == 0 {
		t.Errorf("lines: title %d notes %d", sec.Line, sec.PTXISANotesLine)
	}
}

func TestParseWrappedTitleAndNoMnemonic(t *testing.T) {
	wrapped := "# 1.2.3. Things:\n\nfoo.bar / foo.baz\n\nSyntax\n\n```\nfoo.bar;\n```\n"
	sec, ok, err := Parse("w.md", []byte(wrapped))
	if err != nil || !ok || !reflect.DeepEqual(sec.Mnemonics, []string{"foo.bar", "foo.baz"}) {
		t.Errorf("wrapped: ok=%v err=%v mnemonics=%q", ok, err, sec.Mnemonics)
	}
	_, ok, err = Parse("o.md", []byte("# 1. Overview\n\nProse only.\n"))
	if err != nil || ok {
		t.Errorf("overview: ok=%v err=%v", ok, err)
	}
}

func TestLessNumber(t *testing.T) {
	if !lessNumber("9.7.2", "9.7.10") || lessNumber("9.7.10", "9.7.2") || !lessNumber("9.7", "9.7.1") {
		t.Error("numeric section order")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(frobSection()))
	f.Add([]byte("# 1. A: `x`\n```\nunterminated"))
	f.Add([]byte("#### 1. [A: `b`](http://x#y)\nSyntax\n```\n```\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = Parse("fuzz.md", data)
	})
}

func TestPreambleSummariesPerName(t *testing.T) {
	text := section("9.9.2", "Made-up Instructions", "made-up-twiddle", []string{"twiddle", "twaddle", "twoddle"},
		"Prose about all twiddling that comes before the names,\nwrapped onto a second line.",
		"`twiddle`, `twaddle`",
		"Twiddle or twaddle two values, a summary\nwrapped at the page width.",
		"`twoddle` (deprecated)",
		":   Twoddle them instead.",
		sub("Syntax", codeBlock("twiddle.u32 d, a;", "twaddle.u32 d, a;", "twoddle.u32 d, a;")),
	)
	sec, ok, err := Parse("twiddle.md", []byte(strings.Replace(text, "`twiddle`\n\n", "", 1)))
	if err != nil || !ok {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	want := map[string]string{
		"twiddle": "Twiddle or twaddle two values, a summary wrapped at the page width.",
		"twaddle": "Twiddle or twaddle two values, a summary wrapped at the page width.",
		"twoddle": "Twoddle them instead.",
	}
	for m, w := range want {
		if got := sec.SummaryOf(m); got != w {
			t.Errorf("summary of %s = %q, want %q", m, got, w)
		}
	}
	if sec.Summary != want["twiddle"] {
		t.Errorf("section summary %q", sec.Summary)
	}
	if sec.Intro != "Prose about all twiddling that comes before the names, wrapped onto a second line." {
		t.Errorf("intro %q", sec.Intro)
	}
}

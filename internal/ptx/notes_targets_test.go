package ptx

import (
	"fmt"
	"testing"
)

func TestTargetAlternatives(t *testing.T) {
	tests := []struct {
		note string
		want string
	}{
		// Made-up notes in the documentation's shapes.
		{"Requires `sm_70` or higher.", "[]"},
		{"Needs `sm_80` or `sm_90`.", "[]"}, // no a/f target: the lowest is the story
		{"Works on: * `sm_200a` * `sm_201a` (Renamed to `sm_210a` from PTX ISA version 9.9) * And on these family targets from PTX ISA version 9.5: + `sm_200f` or higher in the same family + `sm_210f` or higher in the same family",
			"[{ sm_200a} {9.5 sm_200f}]"},
		{"Argument `x` requires `sm_300a` and is supported on `sm_300f` or higher in the same family from PTX ISA version 9.7.",
			"[{ sm_300a} {9.7 sm_300f}]"},
		{"`.q` requires `sm_300f` or `sm_310f`.", "[{ sm_300f}]"},
	}
	for _, tc := range tests {
		if got := fmt.Sprint(targetAlternatives(tc.note)); got != tc.want {
			t.Errorf("targetAlternatives(%q) = %s, want %s", tc.note, got, tc.want)
		}
	}
}

func TestNoteMnemonicLists(t *testing.T) {
	mnemonics := []string{"vfoo2", "vbar2", "vbaz2"}
	// "vbzz2"-style typo: one swap of adjacent letters ("vabz2" for "vbaz2").
	n := parseNotes("Introduced in PTX ISA version 3.0.", 0, "`vfoo2`, `vbar2`, `vabz2` require `sm_30` or higher.", 10, mnemonics)
	if len(n.unparsed) != 0 {
		t.Errorf("kept as text: %q", n.unparsed)
	}
	got := map[string]string{}
	for _, f := range n.features {
		if len(f.also) == 1 && len(f.also[0]) == 1 {
			got[f.also[0][0][0]] = f.text + " " + f.target
		}
	}
	want := map[string]string{"vfoo2": "vfoo2 sm_30", "vbar2": "vbar2 sm_30", "vbaz2": "vabz2 sm_30"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("features %v, want %v", got, want)
	}
	// Two mnemonics joined by "and" are a list, not narrowing prose.
	n = parseNotes("", 0, "`vfoo2` and `vbar2` require `sm_20` or higher.", 10, mnemonics)
	if len(n.unparsed) != 0 || len(n.features) != 2 {
		t.Errorf("\"and\" list: features %+v, text %q", n.features, n.unparsed)
	}
	// A span two swaps away is not a typo of a mnemonic: kept apart.
	n = parseNotes("", 0, "`vfoo2`, `vzab2` require `sm_20` or higher.", 10, mnemonics)
	for _, f := range n.features {
		if f.text == "vzab2" && len(f.also) == 1 && f.also[0][0][0] == "vbaz2" {
			t.Errorf("vzab2 read as vbaz2")
		}
	}
}

// TestNotesKeptAsText: a feature note no form has is kept as text with its
// own code spans (not quoted again), and a "Note" label above a paragraph
// is not a note of its own.
func TestNotesKeptAsText(t *testing.T) {
	n := parseNotes("Introduced in PTX ISA version 3.0.\n\nSupport for shape `.m99` with `.zz` type vfoo2 operation introduced in PTX ISA version 9.9.",
		0, "Requires `sm_30` or higher.\n\nNote\n\n`vfoo2.m99` is slow on other targets.", 10, []string{"vfoo2"})
	for _, u := range n.unparsed {
		if u == "Note" {
			t.Errorf("the label %q is kept as a note", u)
		}
	}
	var texts []string
	for _, f := range n.features {
		texts = append(texts, noteText(f))
	}
	want := "Support for shape `.m99` with `.zz` type vfoo2 operation introduced in PTX ISA version 9.9"
	found := false
	for _, s := range texts {
		found = found || s == want
	}
	if !found {
		t.Errorf("feature notes %q, want one %q", texts, want)
	}
	if got := noteText(feature{text: ".ftz", target: "sm_90"}); got != "`.ftz` requires sm_90" {
		t.Errorf("a bare subject: %q", got)
	}
}

package ptxdoc

import (
	"strings"
	"testing"
)

// TestMissing: a complete section lacks nothing; one cut short lacks the
// subsections after the cut, and one cut inside a code block says so.
func TestMissing(t *testing.T) {
	full := frobSection()
	parse := func(text string) Section {
		t.Helper()
		sec, _, err := Parse("9_instruction_set/97_instructions/frob.md", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		sec.Kind = KindForPath(sec.File)
		return sec
	}
	if m := parse(full).Missing(); len(m) != 0 {
		t.Errorf("the complete section lacks %v", m)
	}
	cut := full[:strings.Index(full, "PTX ISA Notes")]
	got := strings.Join(parse(cut).Missing(), "; ")
	if got != "the PTX ISA Notes subsection; the Target ISA Notes subsection; the Examples subsection" {
		t.Errorf("cut before the notes: lacks %q", got)
	}
	inCode := full[:strings.Index(full, "d = a ^ b;")]
	got = strings.Join(parse(inCode).Missing(), "; ")
	if !strings.HasPrefix(got, "the end of the code block opened at line ") || !strings.Contains(got, "the Examples subsection") {
		t.Errorf("cut inside the semantics code: lacks %q", got)
	}
	if KindForPath("11_directives/x.md") != KindDirective || KindForPath("5_state_spaces/x.md") != "" {
		t.Error("KindForPath")
	}
}

package ptx

import (
	"regexp"
	"strings"
	"testing"
)

// A directive's forms start with the directive (after an optional label);
// prose and the formats of its operands in the same code block are no
// forms.
func TestDirectiveLine(t *testing.T) {
	for text, want := range map[string]bool{
		".section section_name { dwarf-lines }":                          true,
		"Label: .branchtargets list-of-labels ;":                         true,
		"@@DWARF dwarf-string":                                           true,
		"dwarf-lines have the following formats: .b8 byte-list .b16 ...": false,
		".b8 byte-list":  false,
		".sectionx name": false,
	} {
		if got := directiveLine(text, []string{".section", ".branchtargets", "@@dwarf"}); got != want {
			t.Errorf("directiveLine(%q) = %v, want %v", text, got, want)
		}
	}
}

// The real documentation: no directive's form is a sentence (issue 27:
// the .section page listed "dwarf-lines have the following formats: ...").
func TestNoProseFormsReal(t *testing.T) {
	_, instrs, _ := realDocs(t)
	prose := regexp.MustCompile(`(?i)\b(the|have|following|may|formats?)\b`)
	for _, in := range instrs {
		for _, f := range in.Forms {
			if prose.MatchString(f.Syntax) {
				t.Errorf("%s: form %q reads as prose", in.Name, f.Syntax)
			}
		}
	}
	sec := findInstr(instrs, ".section")
	if sec == nil || len(sec.Forms) != 1 || !strings.HasPrefix(sec.Forms[0].Syntax, ".section ") {
		t.Errorf(".section forms: %+v", sec)
	}
}

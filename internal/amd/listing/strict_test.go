package listing

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
)

// TestPastedWordsAreStrict: a bare or listed word of 7 digits and a byte
// list holding a wider value are errors saying what to write, not guesses
// (issue 13); an llvm-objdump line keeps reading.
func TestPastedWordsAreStrict(t *testing.T) {
	for in, want := range map[string]string{
		"0x160a04c":                  "0x0160a04c",
		"160a04c1 7e02028":           "7 hex digits",
		"000010: 160a04c v_max_f32 ": "7 hex digits",
	} {
		if _, err := Parse([]byte(in), codeobj.Machines{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error saying %q", in, err, want)
		}
	}
	in, err := Parse([]byte("  v_max_f32_e32 v5, -1, v2   // 000000000000: 160A04C1\n"), codeobj.Machines{})
	if err != nil || len(in.Units) != 1 {
		t.Fatalf("an llvm-objdump line: %v", err)
	}
}

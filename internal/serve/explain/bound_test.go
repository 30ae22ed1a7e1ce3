package explain

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
)

// TestBoundCountsInstructionsNotLines: hex words (which merge into one
// line of bytes), byte lists, raw code and written instructions each
// count one instruction per word or line, so every form of a paste over
// MaxInstructions is refused, in words that name the count and not the
// input; one at the cap passes.
func TestBoundCountsInstructionsNotLines(t *testing.T) {
	over := MaxInstructions + 1
	for name, c := range map[string]struct {
		raw  string
		want int
	}{
		"hex words":    {strings.Repeat("0x7e020280\n", over), over},
		"byte lists":   {strings.Repeat("80 02 02 7e\n", over), over},
		"instructions": {strings.Repeat("v_mov_b32 v1, 0\n", over), over},
		"raw code":     {strings.Repeat("\x80\x02\x02\x7e", over), over},
		"at the cap":   {strings.Repeat("0x7e020280\n", MaxInstructions), MaxInstructions},
	} {
		in, err := listing.Parse([]byte(c.raw), codeobj.Machines{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := Instructions(in); got != c.want {
			t.Errorf("%s: Instructions = %d, want %d", name, got, c.want)
		}
		err = Bound(in)
		var tooMany *TooMany
		switch {
		case c.want <= MaxInstructions && err != nil:
			t.Errorf("%s: %v; want no error at the cap", name, err)
		case c.want > MaxInstructions && (!errors.As(err, &tooMany) || tooMany.Count != c.want || strings.Contains(err.Error(), "7e")):
			t.Errorf("%s: %v; want TooMany naming %d and not the input", name, err, c.want)
		}
	}
}

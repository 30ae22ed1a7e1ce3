package explain

import (
	"fmt"

	"github.com/gpuisa/gpuisa/internal/amd/listing"
)

// MaxInstructions bounds the instructions one explanation holds, on the
// web page and in gpuisa explain alike, counted before the listing is
// built: an explained instruction keeps its fields, notes and texts
// (about 2 KB each while it is written: 145,000 took 350 MB, 1 MB of raw
// code 400 MB), so a bound on instructions bounds memory near 150 MB,
// and one on lines or bytes bounded nothing. gpuisa decode lists machine
// code of any size.
const MaxInstructions = 65536

// Instructions bounds the instructions in: a line written as an
// instruction is one, and machine code (a section, or a line of bare
// bytes — consecutive hex-word lines merge into one) is at most one per
// 4 bytes, the shortest AMD encoding. Counting lines let a paste of hex
// words through any cap.
func Instructions(in *listing.Input) int {
	n := 0
	for _, u := range in.Units {
		n += (len(u.Code) + 3) / 4
		for _, l := range u.Lines {
			if l.Text != "" {
				n++
			} else {
				n += (len(l.Bytes) + 3) / 4
			}
		}
	}
	return n
}

// TooMany is an input holding more instructions than an explanation may:
// its words name the counts, never the input.
type TooMany struct {
	Count int
}

func (e *TooMany) Error() string {
	return fmt.Sprintf("the input holds about %d instructions; explain takes at most %d at a time (gpuisa decode lists any number)", e.Count, MaxInstructions)
}

// Bound returns a *TooMany when in holds more than MaxInstructions.
func Bound(in *listing.Input) error {
	if n := Instructions(in); n > MaxInstructions {
		return &TooMany{Count: n}
	}
	return nil
}

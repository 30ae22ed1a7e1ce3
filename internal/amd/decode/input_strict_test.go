package decode

import (
	"bytes"
	"strings"
	"testing"
)

// TestParseInputIsStrict: issue 13's inputs — a 7-digit word, a byte list
// holding more than a byte, a word that is not hex — are errors that say
// what to write; 2, 8 and 16 digits read as a byte, a word and two words.
func TestParseInputIsStrict(t *testing.T) {
	for in, want := range map[string]string{
		"0x160a04c": "0x0160a04c", "[0x1ff]": "not a byte", "abc": "has 3 hex digits", "xyz": "not hex",
		"0x160a04c1 7e02028": "7 hex digits", "[0xc1,0x04": "without its ']'",
	} {
		if _, err := ParseInput([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseInput(%q) = %v, want an error saying %q", in, err, want)
		}
	}
	for in, want := range map[string][]byte{
		"0x160a04c1":                  {0xc1, 0x04, 0x0a, 0x16},
		"[0xc1,0x04,0x0a,0x16]":       {0xc1, 0x04, 0x0a, 0x16},
		"[0x1,0x4]":                   {0x01, 0x04},
		"c1 04 0a 16 // a comment":    {0xc1, 0x04, 0x0a, 0x16},
		"d30400007e020280":            {0x00, 0x00, 0x04, 0xd3, 0x80, 0x02, 0x02, 0x7e},
		"d3040000 7e020280 ; written": {0x00, 0x00, 0x04, 0xd3, 0x80, 0x02, 0x02, 0x7e},
	} {
		got, err := ParseInput([]byte(in))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("ParseInput(%q) = % x, %v; want % x", in, got, err, want)
		}
	}
}

package listing

import (
	"math/rand"
	"strings"
	"testing"
	"unicode"
)

// isNormText's fast path is taken only where the full normalisation gives
// the text back unchanged.
func TestIsNormTextAgreesWithNormalisation(t *testing.T) {
	alpha := []byte("aZ ,\t_\xc3\x97")
	rnd := rand.New(rand.NewSource(1))
	slow := func(s string) string {
		return strings.ReplaceAll(strings.ToLower(strings.Join(strings.Fields(s), " ")), " ,", ",")
	}
	fast := 0
	for i := 0; i < 100000; i++ {
		b := make([]byte, rnd.Intn(8))
		for j := range b {
			b[j] = alpha[rnd.Intn(len(alpha))]
		}
		s := string(b)
		if isNormText(s) {
			fast++
			if got := slow(s); got != s {
				t.Fatalf("isNormText(%q), but it normalises to %q", s, got)
			}
		}
		if normText(s) != slow(s) {
			t.Fatalf("normText(%q) = %q, want %q", s, normText(s), slow(s))
		}
	}
	if fast == 0 {
		t.Fatal("no text took the fast path")
	}
}

// isText's word-at-a-time scan answers as a rune-by-rune one.
func TestIsTextAgreesWithRuneScan(t *testing.T) {
	slow := func(b []byte) bool {
		for _, r := range string(b) {
			if r == unicode.ReplacementChar || (r < 32 && r != '\n' && r != '\r' && r != '\t') {
				return false
			}
		}
		return true
	}
	alpha := []byte("0x,\n\t\r\x00\x1f\x7f\xc3\x97\xff ")
	rnd := rand.New(rand.NewSource(2))
	for i := 0; i < 100000; i++ {
		b := make([]byte, rnd.Intn(40))
		for j := range b {
			b[j] = alpha[rnd.Intn(len(alpha))]
			if rnd.Intn(3) > 0 {
				b[j] = 'a' // mostly plain text, so whole words are read at once
			}
		}
		if got, want := isText(b), slow(b); got != want {
			t.Fatalf("isText(%q) = %v, want %v", b, got, want)
		}
	}
}

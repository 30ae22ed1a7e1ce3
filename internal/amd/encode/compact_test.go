package encode

import (
	"math/rand"
	"testing"
)

// compactBrackets' fast path gives what the rune-by-rune copy gives.
func TestCompactBracketsFastPath(t *testing.T) {
	alpha := []byte("v[]1 ,:\xff\xc3\x97")
	rnd := rand.New(rand.NewSource(5))
	for i := 0; i < 100000; i++ {
		b := make([]byte, rnd.Intn(10))
		for j := range b {
			b[j] = alpha[rnd.Intn(len(alpha))]
		}
		if got, want := compactBrackets(string(b)), compactBracketsSlow(string(b)); got != want {
			t.Fatalf("compactBrackets(%q) = %q, want %q", b, got, want)
		}
	}
}

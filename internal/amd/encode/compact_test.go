package encode

import (
	"math/rand"
	"strings"
	"testing"
)

// compactBrackets' fast path gives what the rune-by-rune copy gives.
func TestCompactBracketsFastPath(t *testing.T) {
	slow := func(s string) string {
		var b strings.Builder
		depth := 0
		for _, c := range s {
			switch c {
			case '[':
				depth++
			case ']':
				depth--
			case ' ':
				if depth > 0 {
					continue
				}
			}
			b.WriteRune(c)
		}
		return b.String()
	}
	alpha := []byte("v[]1 ,:\xff\xc3\x97")
	rnd := rand.New(rand.NewSource(5))
	for i := 0; i < 100000; i++ {
		b := make([]byte, rnd.Intn(10))
		for j := range b {
			b[j] = alpha[rnd.Intn(len(alpha))]
		}
		if got, want := compactBrackets(string(b)), slow(string(b)); got != want {
			t.Fatalf("compactBrackets(%q) = %q, want %q", b, got, want)
		}
	}
}

package decode

import (
	"math/rand"
	"testing"
)

// The star-only fast path (pattern.globMatch) answers as the backtracking
// globMatch does, on random globs and names over a small alphabet.
func TestGlobPatternMatchesGlobMatch(t *testing.T) {
	alpha := []byte("ab_*")
	rnd := rand.New(rand.NewSource(1))
	gen := func(n int, a []byte) string {
		b := make([]byte, rnd.Intn(n))
		for i := range b {
			b[i] = a[rnd.Intn(len(a))]
		}
		return string(b)
	}
	for i := 0; i < 200000; i++ {
		g := gen(7, alpha)
		s := gen(8, alpha[:3])
		p := globPattern(g, false)
		if got, want := p.globMatch(s), globMatch(g, s); got != want {
			t.Fatalf("%q %q: %v want %v", g, s, got, want)
		}
	}
}

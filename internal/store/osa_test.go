package store

import (
	"math/rand"
	"testing"

	"github.com/gpuisa/gpuisa/internal/base/fuzzy"
)

// TestOSAPatternIsFuzzyDistance: the bit-parallel distance equals
// fuzzy.Distance on random strings over small alphabets (where
// transpositions and repeats are common) and on names.
func TestOSAPatternIsFuzzyDistance(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	word := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		return string(b)
	}
	pairs := [][2]string{{"v_max_f23", "v_max_f32"}, {"v_mx_f32", "v_max_f32"}, {"ab", "ba"}, {"abc", "ca"}, {"a", ""},
		{"s_load_dword", "s_load_dwordx2"}, {"x", "é"}}
	for i := 0; i < 20000; i++ {
		alphabet := []string{"ab", "abc", "abcd_", "v_maxf32in"}[i%4]
		pairs = append(pairs, [2]string{word(alphabet, 1+rng.Intn(12)), word(alphabet, rng.Intn(14))})
	}
	pairs = append(pairs, [2]string{word("ab", 64), word("ab", 70)})
	for _, p := range pairs {
		var pat osaPattern
		if !pat.compile(p[0]) {
			if len(p[0]) <= 64 {
				t.Fatalf("compile(%q) failed", p[0])
			}
			continue
		}
		if got, want := pat.distance(p[1]), fuzzy.Distance(p[0], p[1]); got != want {
			t.Fatalf("distance(%q, %q) = %d, fuzzy.Distance says %d", p[0], p[1], got, want)
		}
	}
}

func BenchmarkOSAPattern(b *testing.B) {
	var pat osaPattern
	pat.compile("v_max_f32")
	for b.Loop() {
		pat.distance("v_mac_legacy_f32")
	}
}

// TestOSAPatternPartDistance: the distance to the nearest beginning of a
// name that ends a part is the least fuzzy.Distance to those beginnings.
func TestOSAPatternPartDistance(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab_.c"[rng.Intn(5)]
		}
		return string(b)
	}
	pairs := [][2]string{{"v_readfristlane", "v_readfirstlane_b32"}, {"ds_bpremute", "ds_bpermute_b32"}, {"x", ""}}
	for i := 0; i < 20000; i++ {
		pairs = append(pairs, [2]string{word(1 + rng.Intn(10)), word(rng.Intn(14))})
	}
	for _, p := range pairs {
		var pat osaPattern
		if !pat.compile(p[0]) {
			t.Fatalf("compile(%q) failed", p[0])
		}
		want := -1
		for i := 1; i <= len(p[1]); i++ {
			if i == len(p[1]) || p[1][i] == '_' || p[1][i] == '.' {
				if d := fuzzy.Distance(p[0], p[1][:i]); want < 0 || d < want {
					want = d
				}
			}
		}
		if want < 0 {
			want = fuzzy.Distance(p[0], p[1])
		}
		full, part := pat.distances(p[1])
		if full != fuzzy.Distance(p[0], p[1]) || part != want {
			t.Fatalf("distances(%q, %q) = %d, %d; want %d, %d", p[0], p[1], full, part, fuzzy.Distance(p[0], p[1]), want)
		}
	}
	if d := func() int {
		var pat osaPattern
		pat.compile("v_readfristlane")
		_, d := pat.distances("v_readfirstlane_b32")
		return d
	}(); d != 1 {
		t.Errorf("v_readfristlane: %d edits from v_readfirstlane, want 1", d)
	}
}

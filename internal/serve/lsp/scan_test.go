package lsp

import (
	"math/rand"
	"regexp"
	"testing"
)

// TestScannersMatchTheirExpressions: labelDefLen and words find what the
// expressions they replace found, on the fuzz seeds' kind of text and on
// random strings of the bytes that matter.
func TestScannersMatchTheirExpressions(t *testing.T) {
	labelDef := regexp.MustCompile(`^[A-Za-z_.$@][\w.$@]*:`)
	word := regexp.MustCompile(`%?[A-Za-z_.$@][\w.$@]*(?::[\w.]+)?|-?\d[\w.]*`)
	inputs := []string{
		"loop:", "$L__BB0_2:", ".Ltmp0: v_max", "a:b", "%f<4>", "s[0:3]", "v[2:3], -1.5e3, 0x7e020280",
		"%r1:x", "-v1", "--1", "@%p1", "é:", "a::b", "ttmp[4:7] offset:16 sc0", "%", "-", ":", "",
	}
	r := rand.New(rand.NewSource(1))
	const alphabet = "aZ_.$@%:-09 ,[]é\t"
	for range 5000 {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, s := range inputs {
		want := 0
		if m := labelDef.FindStringIndex(s); m != nil {
			want = m[1]
		}
		if got := labelDefLen(s); got != want {
			t.Errorf("labelDefLen(%q) = %d, the expression %d", s, got, want)
		}
		var got [][]int
		words(s, 0, len(s), func(a, b int) { got = append(got, []int{a, b}) })
		wantWords := word.FindAllStringIndex(s, -1)
		if len(got) != len(wantWords) {
			t.Errorf("words(%q) = %v, the expression %v", s, got, wantWords)
			continue
		}
		for i := range got {
			if got[i][0] != wantWords[i][0] || got[i][1] != wantWords[i][1] {
				t.Errorf("words(%q) = %v, the expression %v", s, got, wantWords)
				break
			}
		}
	}
}

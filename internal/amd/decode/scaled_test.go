package decode

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

// TestScaledWMMAWordsMatchLLVM holds the decoder to llvm-mc 22 on CDNA 5's
// scaled WMMAs word by word (decodetest.ScaledWMMAWords: every bit of the
// Load-Scale pair and of the WMMA pair flipped, scale operand codes): the
// same first instruction and length, or both reject the word. Random
// words almost never form such a pair, so the differential test does not
// reach them.
func TestScaledWMMAWordsMatchLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to compare with llvm-mc")
	}
	d, err := loadFamily(t, "cdna5").ForTarget("gfx1250")
	if err != nil {
		t.Fatal(err)
	}
	tols := loadTolerances(t)
	words := decodetest.ScaledWMMAWords()
	ref, err := decodetest.Disassemble("gfx1250", words, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	agree, both, skipped, tolerable := 0, 0, 0, 0
	var bad []string
	for i, w := range words {
		r := ref[i]
		if r.Crashed || r.Unsynced {
			skipped++
			continue
		}
		in, n, derr := d.Decode(append(w[:len(w):len(w)], sentinels...), 0)
		want := strings.Join(strings.Fields(commentRe.ReplaceAllString(r.Text, "")), " ")
		switch {
		case !r.OK || strings.Contains(r.Text, "/*Invalid"):
			if derr != nil {
				both++
				continue
			}
			bad = append(bad, asmtext.FormatBytes(w)+": llvm-mc rejects ("+r.Text+"), ours "+in.Text())
		case derr == nil && in.Text() == want && n == r.Len:
			agree++
		case tolerated(tols, "cdna5", want) != "":
			tolerable++
		default:
			got := in.Text()
			if derr != nil {
				got = derr.Error()
			}
			bad = append(bad, asmtext.FormatBytes(w)+": llvm-mc "+want+", ours "+got)
		}
	}
	t.Logf("%d words: same text and length %d, both reject %d, tolerated %d, differ %d, llvm-mc crashed %d", len(words), agree, both, tolerable, len(bad), skipped)
	for i, b := range bad {
		if i == 20 {
			t.Errorf("... and %d more", len(bad)-20)
			break
		}
		t.Error(b)
	}
}

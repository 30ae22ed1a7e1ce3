package encode

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestScaledWMMAAgreesWithLLVM holds Encode to llvm-mc 22 on CDNA 5's
// scaled WMMAs and their Load-Scale words, which random words almost
// never form: the valid lines are llvm-mc's disassembly of
// decodetest.ScaledWMMAWords, the invalid ones those lines broken by the
// agreement test's mutants and by the modifier rules llvm-mc keeps (its
// order, each modifier once, the names it takes). llvm-mc judges every
// line, as in TestEncoderAgreesWithLLVM; every judged line must agree.
func TestScaledWMMAAgreesWithLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() || testenv.FindUpstream() == "" {
		t.Skip("llvm-mc-22 not on PATH or no upstream sources: nothing to hold the encoder to")
	}
	const mcpu = "gfx1250"
	enc := familyEncoder(t, "cdna5")
	words := decodetest.ScaledWMMAWords()
	dis := cachedDisassemble(t, mcpu, words)
	var valid []agreeCase
	seen := map[string]bool{}
	for i, r := range dis {
		if !r.OK || strings.Contains(r.Text, "/*") || seen[r.Text] {
			continue
		}
		seen[r.Text] = true
		in, _, err := enc.d.Decode(words[i], 0)
		if err != nil {
			continue
		}
		valid = append(valid, agreeCase{text: r.Text, format: in.Encoding})
	}
	rng := rand.New(rand.NewSource(42))
	bad := append(mutants(enc, valid, 100, rng), scaleMutants(valid)...)
	cases := append(append([]agreeCase(nil), valid...), bad...)
	lines := make([]string, len(cases))
	for i, c := range cases {
		lines[i] = c.text
	}
	ref, msgs := cachedAssemble(t, mcpu, lines)
	st := agreeStats{classes: map[string]int{}}
	for i, c := range cases {
		got, err := enc.Encode(c.text)
		st.judge(c, c.text, got, err, ref[i], msgs[i])
	}
	t.Logf("cdna5 scaled WMMA: valid %d/%d, invalid %d/%d; %d disassembled lines llvm-mc does not assemble again",
		st.validOK, st.valid, st.invalidOK, st.invalid, st.unassembled)
	if st.valid < 100 || st.invalid < 50 {
		t.Fatalf("only %d valid and %d invalid lines judged: too few", st.valid, st.invalid)
	}
	for _, s := range st.samples {
		t.Error(s)
	}
}

// scaleMutants breaks each valid line with two or more modifiers by the
// rules llvm-mc 22 keeps for them: the last two modifiers swapped, the
// first written twice, and the E8M0 scale format by the name it prints
// for no value (MATRIX_SCALE_FMT_E8M0, which it rejects).
func scaleMutants(valid []agreeCase) []agreeCase {
	var out []agreeCase
	for _, c := range valid {
		mn, rest, _ := strings.Cut(c.text, " ")
		ops, mods := splitOperands(normalize(rest))
		if len(mods) < 2 {
			continue
		}
		line := func(ms []string) string { return mn + " " + strings.Join(ops, ", ") + " " + strings.Join(ms, " ") }
		swapped := append([]string(nil), mods...)
		n := len(swapped)
		swapped[n-2], swapped[n-1] = swapped[n-1], swapped[n-2]
		out = append(out, agreeCase{text: line(swapped), format: c.format, rule: "order"},
			agreeCase{text: line(append([]string{mods[0]}, mods...)), format: c.format, rule: "twice"},
			agreeCase{text: line(append(mods, "matrix_a_scale_fmt:MATRIX_SCALE_FMT_E8M0")), format: c.format, rule: "name"})
	}
	return out
}

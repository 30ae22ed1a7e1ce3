package decode

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strings"
)

// The shapes of instruction words in a search query: hex dwords with or
// without 0x, or an llvm-mc byte list.
var (
	hexWordRE  = lazyre.New(`^(?i)(0x)?[0-9a-f]{8}$`)
	hexByteRE  = lazyre.New(`^(?i)0x[0-9a-f]{1,2}$`)
	listSplitR = lazyre.New(`[\s,]+`)
)

// LooksLikeMachineCode says whether a search query is instruction words
// rather than a name: "0x160a04c1", "160a04c1 7e020280" or
// "[0xc1,0x04,0x0a,0x16]" (a multiple of 4 bytes).
func LooksLikeMachineCode(q string) bool {
	q = strings.TrimSpace(q)
	q = strings.TrimSuffix(strings.TrimPrefix(q, "["), "]")
	toks := listSplitR.Split(strings.TrimSpace(q), -1)
	if len(toks) == 0 || toks[0] == "" || len(toks) > 64 {
		return false
	}
	words, bytes := 0, 0
	for _, t := range toks {
		switch {
		case hexWordRE.MatchString(t):
			words++
		case hexByteRE.MatchString(t):
			bytes++
		default:
			return false
		}
	}
	if words > 0 && bytes > 0 {
		return false
	}
	return words > 0 || bytes%4 == 0
}

// ScopedMachineCode reads machine code typed with a family, target or
// product beside it ("0xbf810000 gfx942", "bf8c0f70 MI250"): when no
// family is given apart from the query (arch "") and scope finds one among
// its words whose rest is machine code, it returns that rest and the
// family, so that the words are decoded where the query says; otherwise q
// and arch unchanged.
func ScopedMachineCode(q, arch string, scope func(q string) (arch, rest string)) (string, string) {
	if arch != "" || LooksLikeMachineCode(q) {
		return q, arch
	}
	if a, rest := scope(q); a != "" && LooksLikeMachineCode(rest) {
		return rest, a
	}
	return q, arch
}

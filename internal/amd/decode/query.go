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

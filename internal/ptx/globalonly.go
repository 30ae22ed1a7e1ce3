package ptx

import (
	"strconv"
	"strings"
)

// Two features of ld and st that ptxas allows only on the .global state
// space (or a generic address, which may be global), as the documents'
// prose says and the syntax lines do not: an L2 prefetch size
// (".L2::128B": "State space incorrect for feature 'cache prefetching'")
// and a 256-bit access (.v8 of a 32-bit type, .v4 of a 64-bit one:
// "global state space expected for feature '256 bit wide load/store'").

// globalOnlyInstrs are the instructions the rule applies to.
var globalOnlyInstrs = map[string]bool{"ld": true, "st": true}

// prefetchSizes are the L2 prefetch-size qualifiers.
var prefetchSizes = map[string]bool{"L2::64B": true, "L2::128B": true, "L2::256B": true}

// wideAccessBits is the access size only .global takes.
const wideAccessBits = 256

// checkGlobalOnly makes a valid ld or st naming a state space other than
// .global invalid where it uses a feature only .global has.
func checkGlobalOnly(r *Result, tokens []string) {
	if !r.Valid || len(tokens) == 0 || !globalOnlyInstrs[tokens[0]] {
		return
	}
	space, prefetch, vec, bits := "", "", 1, 0
	for _, t := range tokens[1:] {
		switch {
		case isStateSpace(t):
			space, _, _ = strings.Cut(t, "::")
		case prefetchSizes[t]:
			prefetch = t
		case len(t) > 1 && t[0] == 'v' && t[1] >= '0' && t[1] <= '9':
			if n, err := strconv.Atoi(t[1:]); err == nil {
				vec = n
			}
		case isType(t):
			bits = TypeBits("." + t)
		}
	}
	if space == "" || space == "global" {
		return
	}
	switch {
	case prefetch != "":
		r.Valid, r.Rule = false, "state space"
		r.Reason = "." + prefetch + " (an L2 prefetch size) needs .global or a generic address, not ." + space
	case vec*bits == wideAccessBits:
		r.Valid, r.Rule = false, "state space"
		r.Reason = "a 256-bit access (.v" + strconv.Itoa(vec) + " of " + strconv.Itoa(bits) + "-bit values) needs .global or a generic address, not ." + space
	}
}

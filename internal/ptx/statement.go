package ptx

import "strings"

// NormalizeStatement spells a statement one way whatever its spacing:
// "max.u32  d,a,b" and "max.u32 d, a, b;" are one statement (the PTX
// pages match documented statements to ptxas's listings by it, and the
// SASS index groups statements by it).
func NormalizeStatement(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ";")
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(strings.ReplaceAll(s, ", ", ","), " ,", ",")
}

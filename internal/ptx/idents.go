package ptx

import "github.com/gpuisa/gpuisa/internal/base/lazyre"

// Reading identifiers and brackets in statement text: the probes and the
// probe harness (internal/oracle/ptxharness) share these.

// RenameIdent replaces whole-identifier occurrences of old in s.
func RenameIdent(s, old, new string) string {
	return IdentRe.ReplaceAllStringFunc(s, func(id string) string {
		if id == old {
			return new
		}
		return id
	})
}

// IdentRe matches a PTX identifier as statements and the documentation
// write them (placeholders may be hyphenated: "cache-policy").
var IdentRe = lazyre.New(`[A-Za-z_$%][A-Za-z0-9_$]*(?:-[A-Za-z][A-Za-z0-9_]*)*`)

// MatchingClose returns the index of the bracket closing s[open], or
// len(s) when it is not closed (s[open+1:end] is then the rest of s).
func MatchingClose(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// AfterIndex returns what follows s[i], "" at the end.
func AfterIndex(s string, i int) string {
	if i+1 >= len(s) {
		return ""
	}
	return s[i+1:]
}

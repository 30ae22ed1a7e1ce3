package isa

import (
	"slices"
	"strings"
	"unicode"
)

// QueryScope is the family a search's own words name: "v_max_f32 cdna3",
// "gfx1100 v_max", "MI300X mfma", "H100 wgmma".
type QueryScope struct {
	Arch   string // the family
	Words  string // the words that named it, as typed: "cdna3", "RTX 4090"
	Target string // the target they named ("gfx1100", "sm_90"); "" for a family
	Rest   string // the query without those words
}

// maxScopeWords is the longest run of words tried as a family, target or
// product name ("AMD Instinct MI300X", "GeForce RTX 4090").
const maxScopeWords = 4

// ScopeOf finds the words of q that name a family ("cdna3", "CDNA 3",
// "rdna3.5", "ptx"), a target ("gfx1100", "sm_90") or a product whose
// targets are all in one family ("MI300X", "RTX 4090"), the longest run
// first, and returns them with the rest of the query. It returns the zero
// scope when no words name one, or when nothing else is left: a query
// that is only a product is answered by its targets (Match), not scoped.
// A product name counts inside a longer query only with a letter and a
// digit in it, or as two words or more, so that a number ("64", "4090")
// or a word stays a search word.
func (ix *ProcessorIndex) ScopeOf(q string) QueryScope {
	words := strings.Fields(q)
	for n := min(maxScopeWords, len(words)-1); n >= 1; n-- {
		for i := 0; i+n <= len(words); i++ {
			phrase := strings.Join(words[i:i+n], " ")
			sc, ok := ix.scopeOfPhrase(phrase)
			if !ok {
				continue
			}
			sc.Words = phrase
			sc.Rest = strings.Join(append(append([]string(nil), words[:i]...), words[i+n:]...), " ")
			return sc
		}
	}
	return QueryScope{}
}

func (ix *ProcessorIndex) scopeOfPhrase(phrase string) (QueryScope, bool) {
	if a, ok := LookupArch(phrase); ok {
		sc := QueryScope{Arch: a.ID}
		for _, t := range a.Targets {
			if strings.EqualFold(t, phrase) {
				sc.Target = t
			}
		}
		return sc, true
	}
	key := productKey(phrase)
	// Two words or more that spell a product's whole name ("Radeon VII",
	// whose number is a Roman one) are no search words either.
	letter, digit := strings.IndexFunc(key, unicode.IsLetter) >= 0, strings.IndexFunc(key, unicode.IsDigit) >= 0
	if !letter || !digit && !strings.Contains(phrase, " ") {
		return QueryScope{}, false
	}
	ms := ix.byKey[key]
	if len(ms) == 0 {
		ms = ix.series(key)
	}
	arch, ok := ArchOfProcessors(ms)
	if !ok {
		return QueryScope{}, false
	}
	sc := QueryScope{Arch: arch, Target: ms[0].Target}
	for _, m := range ms[1:] {
		if m.Target != sc.Target {
			sc.Target = ""
		}
	}
	return sc, true
}

// minSeriesKey is the shortest key read as a product series: "mi300" (five
// characters), not "mi3" or "rx7", which lead many generations' names.
const minSeriesKey = 5

// series are the products a key leads when it names none itself but is
// their name without a model suffix of letters: "MI300" is the MI300A and
// the MI300X, as AMD names the series. A suffix with a digit is another
// product ("mi30" does not lead "mi300x"), and a key shorter than
// minSeriesKey is too short to say which series.
func (ix *ProcessorIndex) series(key string) []ProcessorMatch {
	if len(key) < minSeriesKey {
		return nil
	}
	var out []ProcessorMatch
	i, _ := slices.BinarySearch(ix.keys, key)
	for ; i < len(ix.keys) && strings.HasPrefix(ix.keys[i], key); i++ {
		if strings.IndexFunc(ix.keys[i][len(key):], unicode.IsDigit) < 0 {
			out = append(out, ix.byKey[ix.keys[i]]...)
		}
	}
	return out
}

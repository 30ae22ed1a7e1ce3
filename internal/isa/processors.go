package isa

import (
	"slices"
	"strings"
	"unicode"

	"github.com/gpuisa/gpuisa/internal/base/fuzzy"
)

// ProcessorMatch is a target a product name (or another name of the
// target) leads to.
type ProcessorMatch struct {
	Arch    string `json:"arch"`    // the family
	Target  string `json:"target"`  // "gfx942"
	Matched string `json:"matched"` // what matched: "AMD Instinct MI300X", "gfx11-generic"
}

// MatchProcessors finds the targets a user's words name through the
// families' processor tables: a product ("MI300X", "AMD Instinct MI300X",
// "Radeon RX 7900 XTX", "RX 7900 XTX"), an alternative name LLVM accepts,
// or a generic target ("gfx12-generic", every member). Case, spaces and
// punctuation do not matter; a product's trailing words must contain a
// digit to count on their own ("MI300X", not "Instinct"). A caller that
// matches many queries over the same families keeps a ProcessorIndex.
func MatchProcessors(archs []Architecture, q string) []ProcessorMatch {
	return NewProcessorIndex(archs).Match(q)
}

// MatchProcessorsNear is Near over the families' processor tables.
func MatchProcessorsNear(archs []Architecture, q string, n int) []ProcessorMatch {
	return NewProcessorIndex(archs).Near(q, n)
}

// ProcessorIndex is MatchProcessors' table made once: every name that
// leads to a target, by its key (productKey), with its matches in family
// and table order.
type ProcessorIndex struct {
	byKey map[string][]ProcessorMatch
	keys  []string // byKey's keys, sorted
}

// NewProcessorIndex indexes the families' processor tables.
func NewProcessorIndex(archs []Architecture) *ProcessorIndex {
	ix := &ProcessorIndex{byKey: map[string][]ProcessorMatch{}}
	seen := map[string]bool{}
	add := func(key, arch, target, matched string) {
		id := key + "\x00" + arch + " " + target
		if keyLongEnough(key) && !seen[id] {
			seen[id] = true
			ix.byKey[key] = append(ix.byKey[key], ProcessorMatch{Arch: arch, Target: target, Matched: matched})
		}
	}
	for _, a := range archs {
		for _, p := range a.Processors {
			// The target's own name leads to it too ("gfx942", "sm_90").
			add(productKey(p.Target), a.ID, p.Target, p.Target)
			for _, prod := range ProductsOf(a, p) {
				for _, k := range productKeys(prod) {
					add(k, a.ID, p.Target, prod)
				}
			}
			for _, alt := range p.Alternatives {
				add(productKey(alt), a.ID, p.Target, alt)
			}
		}
		for _, g := range a.Generic {
			for _, m := range g.Members {
				if slices.Contains(a.Targets, m) {
					add(productKey(g.Target), a.ID, m, g.Target)
				}
			}
		}
	}
	for k := range ix.byKey {
		ix.keys = append(ix.keys, k)
	}
	slices.Sort(ix.keys)
	return ix
}

// Near returns the targets a name close to q leads to, for "did you
// mean" when q itself names none: names that q begins ("mi300": MI300X
// and MI300A), else names a typo away (fuzzy.Closest), the closest first,
// each target once, at most n.
func (ix *ProcessorIndex) Near(q string, n int) []ProcessorMatch {
	key := productKey(q)
	if len(key) < 3 || len(ix.byKey[key]) > 0 {
		return nil
	}
	var names []string
	i, _ := slices.BinarySearch(ix.keys, key)
	for ; i < len(ix.keys) && strings.HasPrefix(ix.keys[i], key); i++ {
		names = append(names, ix.keys[i])
	}
	// The shortest completions first: "mi300x" before "mi300xplatform".
	slices.SortStableFunc(names, func(a, b string) int { return len(a) - len(b) })
	if len(names) == 0 {
		names = fuzzy.Closest(key, ix.keys, n)
	}
	var out []ProcessorMatch
	seen := map[string]bool{}
	for _, k := range names {
		for _, m := range ix.byKey[k] {
			if id := m.Arch + " " + m.Target; !seen[id] && len(out) < n {
				seen[id] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// Match returns the targets q names (see MatchProcessors).
func (ix *ProcessorIndex) Match(q string) []ProcessorMatch {
	return slices.Clone(ix.byKey[productKey(q)])
}

// keyLongEnough: a key of three characters or more, or of two with a
// letter and a digit ("T4", "A2": NVIDIA names products so); shorter keys
// would match stray words.
func keyLongEnough(key string) bool {
	return len(key) >= 3 || len(key) == 2 && strings.IndexFunc(key, unicode.IsDigit) >= 0 && strings.IndexFunc(key, unicode.IsLetter) >= 0
}

// vendorWords are the makers' names that lead a product's name ("NVIDIA
// Jetson AGX Orin", "AMD Instinct MI300X") and that people leave out.
var vendorWords = []string{"amd", "nvidia"}

// productKeys are the keys a product answers to: its name, its name
// without the maker's ("Jetson AGX Orin"), or its last words with a digit
// among them, with or without a trailing "Accelerator".
func productKeys(product string) []string {
	var keys []string
	words := strings.Fields(product)
	vendor := len(words) > 1 && slices.Contains(vendorWords, strings.ToLower(words[0]))
	for _, ws := range [][]string{words, trimWord(words, "accelerator")} {
		for i := range ws {
			s := productKey(strings.Join(ws[i:], " "))
			if i == 0 || i == 1 && vendor || strings.IndexFunc(s, unicode.IsDigit) >= 0 {
				keys = append(keys, s)
			}
		}
	}
	return keys
}

func trimWord(ws []string, last string) []string {
	if n := len(ws); n > 1 && strings.EqualFold(ws[n-1], last) {
		return ws[:n-1]
	}
	return nil
}

// productKey lower-cases s and keeps its letters and digits.
func productKey(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// ArchOfProcessors returns the one family all matches belong to.
func ArchOfProcessors(ms []ProcessorMatch) (string, bool) {
	if len(ms) == 0 {
		return "", false
	}
	for _, m := range ms[1:] {
		if m.Arch != ms[0].Arch {
			return "", false
		}
	}
	return ms[0].Arch, true
}

package isa

import (
	"strings"
	"unicode"
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
// digit to count on their own ("MI300X", not "Instinct").
func MatchProcessors(archs []Architecture, q string) []ProcessorMatch {
	k := productKey(q)
	if len(k) < 3 {
		return nil
	}
	var out []ProcessorMatch
	seen := map[string]bool{}
	add := func(arch, target, matched string) {
		if !seen[arch+" "+target] {
			seen[arch+" "+target] = true
			out = append(out, ProcessorMatch{Arch: arch, Target: target, Matched: matched})
		}
	}
	for _, a := range archs {
		for _, p := range a.Processors {
			for _, prod := range p.Products {
				if productMatches(prod, k) {
					add(a.ID, p.Target, prod)
				}
			}
			for _, alt := range p.Alternatives {
				if productKey(alt) == k {
					add(a.ID, p.Target, alt)
				}
			}
		}
		for _, g := range a.Generic {
			if productKey(g.Target) != k {
				continue
			}
			for _, m := range g.Members {
				for _, t := range a.Targets {
					if t == m {
						add(a.ID, m, g.Target)
					}
				}
			}
		}
	}
	return out
}

// productMatches says whether key is the product's name or its last
// words with a digit among them, with or without a trailing
// "Accelerator".
func productMatches(product, key string) bool {
	words := strings.Fields(product)
	for _, ws := range [][]string{words, trimWord(words, "accelerator")} {
		for i := range ws {
			s := productKey(strings.Join(ws[i:], " "))
			if s == key && (i == 0 || strings.IndexFunc(s, unicode.IsDigit) >= 0) {
				return true
			}
		}
	}
	return false
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

// Package fuzzy finds close matches for what users type: edit distances for
// "did you mean" suggestions and typo-tolerant search.
package fuzzy

import "sort"

// Distance is the optimal-string-alignment edit distance between a and b
// (insertions, deletions, substitutions and adjacent transpositions each cost
// one), so "v_max_f23" is one edit from "v_max_f32".
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// MaxEdits is how many edits a word of length n may be away from a candidate
// and still count as a typo of it.
func MaxEdits(n int) int {
	switch {
	case n <= 3:
		return 1
	case n <= 8:
		return 2
	default:
		return 3
	}
}

// Closest returns up to n candidates within MaxEdits(len(word)) of word,
// nearest first (ties: shorter, then alphabetical).
func Closest(word string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	limit := MaxEdits(len(word))
	var hits []scored
	for _, c := range candidates {
		// Cheap length filter before the quadratic distance.
		if d := len(c) - len(word); d > limit || -d > limit {
			continue
		}
		if d := Distance(word, c); d <= limit {
			hits = append(hits, scored{c, d})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		if len(hits[i].s) != len(hits[j].s) {
			return len(hits[i].s) < len(hits[j].s)
		}
		return hits[i].s < hits[j].s
	})
	var out []string
	for _, h := range hits {
		if len(out) == n {
			break
		}
		out = append(out, h.s)
	}
	return out
}

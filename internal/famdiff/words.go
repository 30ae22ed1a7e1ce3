package famdiff

import (
	"strings"
	"unicode"
)

// maxDiffTokens bounds a word diff: pseudocode longer than this on either
// side is shown as removed and added whole rather than aligned.
const maxDiffTokens = 4000

// tokens splits text into words (identifiers and numbers, with dots and
// apostrophes inside them: S0.f32, 32'F) and single punctuation marks;
// whitespace separates and is dropped.
func tokens(s string) []string {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case isWord(c), c == '.' && i+1 < len(rs) && isWord(rs[i+1]):
			j := i + 1
			for j < len(rs) && (isWord(rs[j]) || (rs[j] == '.' || rs[j] == '\'') && j+1 < len(rs) && isWord(rs[j+1])) {
				j++
			}
			out = append(out, string(rs[i:j]))
			i = j
		default:
			out = append(out, string(c))
			i++
		}
	}
	return out
}

// wordKey is what a word diff compares: the older guides write a 32-bit
// operand's type without its width (S0.u, D0.f), the newer ones with it
// (S0.u32, D0.f32); both are the same word.
func wordKey(t string) string {
	if !strings.Contains(t, ".") {
		return t
	}
	parts := strings.Split(t, ".")
	for i, p := range parts[1:] {
		switch p {
		case "u32", "i32", "f32", "b32":
			parts[i+1] = p[:1]
		}
	}
	return strings.Join(parts, ".")
}

func keys(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = wordKey(t)
	}
	return out
}

func isWord(c rune) bool { return c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c) }

func equalTokens(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wordDiff aligns two token lists with Myers' algorithm (shortest edit
// script) and returns the tokens with "=", "-" and "+" marks, runs of one
// mark joined by spaces.
func wordDiff(ta, tb []string) []Word {
	var ops []Word
	a, b := keys(ta), keys(tb)
	if len(a) > maxDiffTokens || len(b) > maxDiffTokens {
		for _, t := range ta {
			ops = append(ops, Word{Op: "-", Text: t})
		}
		for _, t := range tb {
			ops = append(ops, Word{Op: "+", Text: t})
		}
		return join(ops)
	}
	n, m := len(a), len(b)
	max := n + m
	v := make([]int, 2*max+3)
	var trace [][]int
	off := max + 1
	found := false
	for d := 0; d <= max && !found; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	// Walk back through the saved frontiers.
	x, y := n, m
	var rev []Word
	for d := len(trace) - 1; d >= 0 && (x > 0 || y > 0); d-- {
		vd := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && vd[off+k-1] < vd[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vd[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, Word{Op: "=", Text: tb[y]})
		}
		if d == 0 {
			break
		}
		if x == px {
			y--
			rev = append(rev, Word{Op: "+", Text: tb[y]})
		} else {
			x--
			rev = append(rev, Word{Op: "-", Text: ta[x]})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 { // the common prefix (d = 0)
		x--
		y--
		rev = append(rev, Word{Op: "=", Text: tb[y]})
	}
	for i := len(rev) - 1; i >= 0; i-- {
		ops = append(ops, rev[i])
	}
	return join(ops)
}

// join merges runs of one mark into one Word, tokens separated by spaces.
func join(ops []Word) []Word {
	var out []Word
	for _, o := range ops {
		if n := len(out); n > 0 && out[n-1].Op == o.Op {
			out[n-1].Text += " " + o.Text
			continue
		}
		out = append(out, o)
	}
	return out
}

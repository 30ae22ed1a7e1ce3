package famdiff

import (
	"strings"
	"unicode"
)

// maxDiffTokens bounds a word diff: pseudocode longer than this on either
// side is shown as removed and added whole rather than aligned; so are two
// texts more than maxEdits words apart (the alignment of two different
// texts says nothing, and costs the edit distance squared).
const (
	maxDiffTokens = 4000
	maxEdits      = 300
)

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

// wordDiff aligns two token lists with Myers' algorithm (shortest edit
// script) and returns the tokens with "=", "-" and "+" marks, runs of one
// mark joined by spaces. Tokens compare by wordKey; "=" runs show To's.
func wordDiff(ta, tb []string) []Word {
	a, b := keys(ta), keys(tb)
	var r runs
	if len(a) > maxDiffTokens || len(b) > maxDiffTokens {
		r.add('-', ta...)
		r.add('+', tb...)
		return r.words()
	}
	// The common prefix and suffix need no search.
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	r.add('=', tb[:p]...)
	myers(&r, a[p:len(a)-q], b[p:len(b)-q], ta[p:len(ta)-q], tb[p:len(tb)-q])
	r.add('=', tb[len(tb)-q:]...)
	return r.words()
}

// myers appends the shortest edit script from a to b (compared as keys,
// shown as ta and tb) to r.
func myers(r *runs, a, b, ta, tb []string) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		r.add('-', ta...)
		r.add('+', tb...)
		return
	}
	max := min(n+m, maxEdits)
	v := make([]int, 2*(n+m)+3)
	off := n + m + 1
	// trace[d] keeps the frontier before step d, only its diagonals
	// -d..d (index k+d), so memory grows with the edit distance squared,
	// not with it times the text length.
	var trace [][]int
	found := false
	for d := 0; d <= max && !found; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
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
	if !found {
		r.add('-', ta...)
		r.add('+', tb...)
		return
	}
	// Walk back through the saved frontiers, collecting the script in
	// reverse.
	type step struct {
		op byte
		i  int // index into ta ('-') or tb ('=', '+')
	}
	rev := make([]step, 0, n+m)
	x, y := n, m
	for d := len(trace) - 1; d >= 0 && (x > 0 || y > 0); d-- {
		vd := trace[d] // diagonal k is at vd[k+d]
		at := func(k int) int {
			if k+d < 0 || k+d >= len(vd) {
				return 0
			}
			return vd[k+d]
		}
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, step{'=', y})
		}
		if d == 0 {
			break
		}
		if x == px {
			y--
			rev = append(rev, step{'+', y})
		} else {
			x--
			rev = append(rev, step{'-', x})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, step{'=', y})
	}
	for i := len(rev) - 1; i >= 0; i-- {
		if st := rev[i]; st.op == '-' {
			r.add('-', ta[st.i])
		} else {
			r.add(st.op, tb[st.i])
		}
	}
}

// runs collects marked tokens, one run per mark.
type runs struct {
	ops   []byte
	parts [][]string
}

func (r *runs) add(op byte, ts ...string) {
	if len(ts) == 0 {
		return
	}
	if n := len(r.ops); n > 0 && r.ops[n-1] == op {
		r.parts[n-1] = append(r.parts[n-1], ts...)
		return
	}
	r.ops = append(r.ops, op)
	r.parts = append(r.parts, append([]string(nil), ts...))
}

func (r *runs) words() []Word {
	out := make([]Word, len(r.ops))
	for i, op := range r.ops {
		out[i] = Word{Op: string(op), Text: strings.Join(r.parts[i], " ")}
	}
	return out
}

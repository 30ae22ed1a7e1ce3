package store

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// textIndex is the full-text index of search, in memory: every
// instruction's name (whole and split at '_' and '.'), summary and body
// (description, semantics, notes, category, section), tokenized as SQLite's
// unicode61 tokenizer with '_' and '.' as token characters does (but with a
// token's edge dots dropped: a sentence's full stop), and ranked
// with BM25 as FTS5's bm25() ranks, with the same column weights, so search
// answers without a database query.
type textIndex struct {
	// postings maps a token to the documents holding it, in document order,
	// with the token's weighted count there.
	postings map[string][]posting
	// docLen is each document's length in tokens (all columns), docEntry
	// its index into DB.entries and docArch its family.
	docLen   []int32
	docEntry []int32
	docArch  []string
	avgLen   float64
}

type posting struct {
	doc  int32
	freq float32 // weighted: name 10, summary 4, body 1
}

// Column weights of the ranking (FTS5 bm25(fts, 0, 10.0, 4.0, 1.0)) and
// BM25's constants (FTS5's).
const (
	weightName    = 10
	weightSummary = 4
	weightBody    = 1
	bm25K1        = 1.2
	bm25B         = 0.75
)

// isTokenChar says whether r belongs to a token: letters, digits and
// private-use characters (unicode61's token classes) and '_' and '.'.
func isTokenChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// tokens calls f with each lower-cased token of text. A token's leading
// and trailing dots are punctuation, not part of it: the last word of a
// sentence ("instruction cache.") is "cache", as a query spells it, while
// a dot inside a token stays ("ld.global", "1.5").
func tokens(text string, f func(string)) {
	start := -1
	emit := func(t string) {
		if t = strings.Trim(t, "."); t != "" {
			f(foldToken(t))
		}
	}
	for i, r := range text {
		if isTokenChar(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		emit(text[start:])
	}
}

func foldToken(t string) string {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c >= utf8.RuneSelf || (c >= 'A' && c <= 'Z') {
			return strings.ToLower(t)
		}
	}
	return t
}

// indexDoc is one instruction's text for newTextIndex.
type indexDoc struct {
	entry               int32
	arch                string
	name, summary, body string
}

func newTextIndex(docs []indexDoc) *textIndex {
	ix := &textIndex{postings: map[string][]posting{}}
	total := 0
	counts := map[string]float32{}
	for d, doc := range docs {
		clear(counts)
		n := 0
		for _, col := range []struct {
			text   string
			weight float32
		}{{doc.name, weightName}, {doc.summary, weightSummary}, {doc.body, weightBody}} {
			tokens(col.text, func(t string) {
				counts[t] += col.weight
				n++
			})
		}
		for t, f := range counts {
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(d), freq: f})
		}
		ix.docLen = append(ix.docLen, int32(n))
		ix.docEntry = append(ix.docEntry, doc.entry)
		ix.docArch = append(ix.docArch, doc.arch)
		total += n
	}
	if len(docs) > 0 {
		ix.avgLen = float64(total) / float64(len(docs))
	}
	return ix
}

// textMatch is one ranked document: rank is FTS5's bm25() value (negative,
// better matches more negative).
type textMatch struct {
	entry int32
	rank  float64
}

// search ranks the documents holding every term (all true) or any term, in
// arch ("" for all), best first, at most limit of them.
func (ix *textIndex) search(terms []string, all bool, arch string, limit int) []textMatch {
	if len(terms) == 0 {
		return nil
	}
	n := float64(len(ix.docLen))
	lists := make([][]posting, len(terms))
	idf := make([]float64, len(terms))
	for i, t := range terms {
		lists[i] = ix.postings[t]
		hits := float64(len(lists[i]))
		idf[i] = math.Log((n - hits + 0.5) / (hits + 0.5))
		if idf[i] <= 0 {
			idf[i] = 1e-6
		}
	}
	// The documents met, in posting order, and each one's term frequencies
	// (freqs[k*len(terms)+i]); slot maps a document to k+1. A slice over
	// the dense document numbers, not a map: the map's growth was a tenth of
	// a query's time.
	slot := make([]int32, len(ix.docLen))
	var order []int32
	var freqs []float32
	for i, l := range lists {
		for _, p := range l {
			k := slot[p.doc]
			if k == 0 {
				if all && i > 0 {
					continue // not in the first list: cannot hold every term
				}
				order = append(order, p.doc)
				freqs = append(freqs, make([]float32, len(terms))...)
				k = int32(len(order))
				slot[p.doc] = k
			}
			freqs[int(k-1)*len(terms)+i] += p.freq
		}
	}
	var out []textMatch
	for k, d := range order {
		f := freqs[k*len(terms) : (k+1)*len(terms)]
		if arch != "" && ix.docArch[d] != arch {
			continue
		}
		score := 0.0
		complete := true
		for i := range terms {
			if f[i] == 0 {
				complete = false
				continue
			}
			fi := float64(f[i])
			score += idf[i] * (fi * (bm25K1 + 1)) / (fi + bm25K1*(1-bm25B+bm25B*float64(ix.docLen[d])/ix.avgLen))
		}
		if all && !complete {
			continue
		}
		out = append(out, textMatch{entry: ix.docEntry[d], rank: -score})
	}
	// Best first, ties in posting order (a stable sort, without sort's
	// reflection: this sort was a fifth of a query's time).
	slices.SortStableFunc(out, func(a, b textMatch) int { return cmp.Compare(a.rank, b.rank) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

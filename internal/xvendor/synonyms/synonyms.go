// Package synonyms is gpuisa's table of what people call an operation
// ("count leading zeros", "popcount", "wmma") and the instructions of either
// vendor that perform it, for search. The table (synonyms.txt) is the
// project's own; see its header for the format.
package synonyms

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
)

//go:embed synonyms.txt
var defaultTable string

// Group is one line of the table.
type Group struct {
	Phrases []string // as written: "count leading zeros"
	// Members are instruction names, the likeliest first; one ending in "*"
	// stands for every name starting with what precedes it.
	Members []string
	Line    int

	phrases []string // normalized
	// words are each phrase's words, for Spread matches and Words.
	words [][]string
	// joined are the two-word phrases written as one word ("bitcount" of
	// "bit count", "bitselect"), with the phrase each spells (joinedOf);
	// a query's word matches them as the phrase. None that is a phrase of
	// its own in any group.
	joined, joinedOf []string
}

// How a query matched a phrase, best first.
const (
	Exact    = iota // the query is the phrase
	Contains        // the query contains the (several-word) phrase
	Spread          // the query has the phrase's words in order, a word between some: "most significant set bit"
	Word            // one of the query's words is the (one-word) phrase: "wave barrier"
	Prefix          // the query is the start of the phrase (typing)
)

// Match is one group a query matched.
type Match struct {
	Group  *Group
	Phrase string // the phrase that matched, as written
	Kind   int    // Exact, Contains or Prefix
}

// Table is a parsed synonym table.
type Table struct {
	Groups []Group

	wordsOnce sync.Once
	words     []string
}

// Parse reads a table: one group per line, "phrase | phrase => name name",
// "#" comments and blank lines ignored.
func Parse(text string) (*Table, error) {
	t := &Table{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		left, right, ok := strings.Cut(line, "=>")
		if !ok {
			return nil, fmt.Errorf("synonyms:%d: no \"=>\" between phrases and instructions", i+1)
		}
		g := Group{Line: i + 1, Members: strings.Fields(right)}
		for _, p := range strings.Split(left, "|") {
			p = strings.TrimSpace(p)
			if n := normalize(p); n != "" {
				g.Phrases = append(g.Phrases, p)
				g.phrases = append(g.phrases, n)
				g.words = append(g.words, strings.Fields(n))
			}
		}
		if len(g.Phrases) == 0 || len(g.Members) == 0 {
			return nil, fmt.Errorf("synonyms:%d: a group needs phrases and instructions", i+1)
		}
		for _, m := range g.Members {
			if strings.Count(m, "*") > 1 || strings.Contains(strings.TrimSuffix(m, "*"), "*") || m == "*" {
				return nil, fmt.Errorf("synonyms:%d: %q: only a trailing * is allowed", i+1, m)
			}
		}
		t.Groups = append(t.Groups, g)
	}
	t.joinPhrases()
	return t, nil
}

// joinPhrases gives each group the one-word spellings of its two-word
// phrases of letters ("bit count" is "bitcount", as people also type it).
func (t *Table) joinPhrases() {
	own := map[string]bool{}
	for _, g := range t.Groups {
		for _, p := range g.phrases {
			own[p] = true
		}
	}
	for gi := range t.Groups {
		g := &t.Groups[gi]
		for pi, p := range g.phrases {
			a, b, ok := strings.Cut(p, " ")
			if !ok || strings.Contains(b, " ") || !isLetters(a) || !isLetters(b) || own[a+b] {
				continue
			}
			g.joined = append(g.joined, a+b)
			g.joinedOf = append(g.joinedOf, g.Phrases[pi])
		}
	}
}

func isLetters(s string) bool {
	return len(s) >= 2 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") == ""
}

var (
	defaultOnce sync.Once
	defaultT    *Table
)

// Default returns the built-in table. It panics if the embedded file does
// not parse, which its test rules out.
func Default() *Table {
	defaultOnce.Do(func() {
		t, err := Parse(defaultTable)
		if err != nil {
			panic(err)
		}
		defaultT = t
	})
	return defaultT
}

// minPrefix is how much of a phrase must be typed before it is suggested.
const minPrefix = 4

// Match returns the groups whose phrases the query matches, best match
// first, each group once.
func (t *Table) Match(query string) []Match {
	q := normalize(query)
	if q == "" {
		return nil
	}
	qWords := strings.Fields(q)
	spans := t.phraseSpans(qWords)
	var out [Prefix + 1][]Match
	for gi := range t.Groups {
		g := &t.Groups[gi]
		best, phrase := -1, ""
		for pi, p := range g.phrases {
			kind := -1
			switch {
			case q == p:
				kind = Exact
			case strings.Contains(p, " ") && strings.Contains(" "+q+" ", " "+p+" "):
				kind = Contains
			case len(g.words[pi]) > 1 && spreadIn(qWords, g.words[pi], spans):
				kind = Spread
			case strings.Contains(q, " ") && strings.Contains(" "+q+" ", " "+p+" "):
				kind = Word
			case len(q) >= minPrefix && strings.HasPrefix(p, q):
				kind = Prefix
			}
			if kind >= 0 && (best < 0 || kind < best) {
				best, phrase = kind, g.Phrases[pi]
			}
		}
		for ji, j := range g.joined {
			kind := -1
			switch {
			case q == j:
				kind = Exact
			case strings.Contains(" "+q+" ", " "+j+" "):
				kind = Word
			}
			if kind >= 0 && (best < 0 || kind < best) {
				best, phrase = kind, g.joinedOf[ji]
			}
		}
		if best >= 0 {
			out[best] = append(out[best], Match{Group: g, Phrase: phrase, Kind: best})
		}
	}
	var all []Match
	for _, ms := range out {
		all = append(all, ms...)
	}
	return all
}

// span is where a several-word phrase of the table stands in a query's
// words: from, and the number of words.
type span struct{ from, n int }

// phraseSpans are the places in a query's words where a phrase of two or
// more words stands whole ("compare and swap" in "atomic compare and
// swap"), which a Spread match may not take a word from.
func (t *Table) phraseSpans(qw []string) []span {
	var out []span
	for gi := range t.Groups {
		for _, pw := range t.Groups[gi].words {
			if len(pw) < 2 {
				continue
			}
			for i := 0; i+len(pw) <= len(qw); i++ {
				if slices.Equal(qw[i:i+len(pw)], pw) {
					out = append(out, span{i, len(pw)})
				}
			}
		}
	}
	return out
}

// spreadIn says whether a query's words qw have a phrase's words pw in
// order with at most one other word between two of them: a qualifier or a
// word of emphasis typed inside the phrase ("most significant set bit",
// "count the leading zeros") leaves it the phrase. A word passed over that
// begins or continues another phrase of as many words or more standing
// whole in the query, and overlapping this one's words, is no emphasis:
// "atomic compare and swap" is a compare and swap, not an "atomic and"
// (where "most significant set bit" stays the longer "most significant
// bit", not a "set bit").
func spreadIn(qw, pw []string, spans []span) bool {
	for start := range qw {
		if qw[start] != pw[0] {
			continue
		}
		used := []int{start}
		i, j := start+1, 1
		for j < len(pw) && i < len(qw) {
			switch {
			case qw[i] == pw[j]:
				used = append(used, i)
				i, j = i+1, j+1
			case i+1 < len(qw) && qw[i+1] == pw[j] && !passesPhrase(i, used, i+1, len(pw), spans):
				used = append(used, i+1)
				i, j = i+2, j+1
			default:
				i = len(qw)
			}
		}
		if j == len(pw) {
			return true
		}
	}
	return false
}

// passesPhrase says whether skipping word k, between the words used so far
// and next, breaks a phrase standing whole in the query of n words or more
// that holds k and one of those words.
func passesPhrase(k int, used []int, next, n int, spans []span) bool {
	in := func(sp span, i int) bool { return i >= sp.from && i < sp.from+sp.n }
	for _, sp := range spans {
		if sp.n < n || !in(sp, k) {
			continue
		}
		if in(sp, next) || slices.ContainsFunc(used, func(u int) bool { return in(sp, u) }) {
			return true
		}
	}
	return false
}

// normalize lower-cases, keeps the characters instruction names and C
// intrinsics use, collapses spaces, drops a plural "s" ("zeros", "bits")
// and reads sameWords as one.
func normalize(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_.%-", r))
	})
	for i, w := range words {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			words[i] = w[:len(w)-1]
		}
		if same, ok := sameWords[words[i]]; ok {
			words[i] = same
		}
	}
	return strings.Join(words, " ")
}

// sameWords are words that say the same in a phrase, read as one: a count
// "per" its container is the count "in" it ("threads per block", "number
// of threads in a block").
var sameWords = map[string]string{"per": "in"}

// Expand returns the names a member stands for among names (sorted
// shortest first for a pattern, the plain instruction before its variants).
func Expand(member string, names []string) []string {
	prefix, isPattern := strings.CutSuffix(member, "*")
	if !isPattern {
		for _, n := range names {
			if n == member {
				return []string{n}
			}
		}
		return nil
	}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) < len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

// Words are the distinct words of the table's phrases, normalized and
// sorted: the vocabulary a query's misspelt word is read against
// ("shufle" is "shuffle").
func (t *Table) Words() []string {
	t.wordsOnce.Do(func() {
		seen := map[string]bool{}
		for gi := range t.Groups {
			for _, ws := range t.Groups[gi].words {
				for _, w := range ws {
					if !seen[w] {
						seen[w] = true
						t.words = append(t.words, w)
					}
				}
			}
		}
		sort.Strings(t.words)
	})
	return t.words
}

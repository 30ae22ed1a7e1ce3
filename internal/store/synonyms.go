package store

import (
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/fuzzy"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/synonyms"
)

// Scores of synonym hits by how the query matched the phrase: an exact
// phrase ranks just below an exact name, a phrase inside a longer query with
// name prefixes, its words spread by a word between (Spread) just below
// that, a phrase being typed below them, and one word of several
// ("barrier" of "wave barrier") just above description matches. The second
// row scores the matches of the query's core (its words less qualifiers:
// "fma" of "fma bf16"), a little below the whole query's.
// The third row scores the matches of the query in CUDA's words ("warp
// reduce" of "wave reduce"): below a one-word match of its own words, so
// that "wave barrier" stays AMD's s_barrier (a "barrier"), not the
// warp's.
var synonymScore = [3][synonyms.Prefix + 1]float64{
	{synonyms.Exact: 95, synonyms.Contains: 78, synonyms.Spread: 77.5, synonyms.Word: 42, synonyms.Prefix: 65},
	{synonyms.Exact: 90, synonyms.Contains: 76, synonyms.Spread: 75.5, synonyms.Word: 42, synonyms.Prefix: 63},
	{synonyms.Exact: 41, synonyms.Contains: 40, synonyms.Spread: 39.5, synonyms.Word: 30, synonyms.Prefix: 35},
}

// cudaWords are AMD's words for what the synonym table's phrases call by
// CUDA's (a wave is a warp, a workgroup a thread block).
var cudaWords = map[string]string{
	"wave": "warp", "wavefront": "warp", "wave64": "warp", "wave32": "warp",
	"workgroup": "block", "work-group": "block", "work-item": "thread", "workitem": "thread",
}

// levelSuffixes are the endings that make a compound of the level an
// operation works at ("wave-level reduction", "device-wide fence",
// "grid-wide sync"): the word before them is what the table's phrases and
// the names say (warp reduction, grid sync).
var levelSuffixes = []string{"-level", "-wide", "-scope", "-scoped"}

// levelWords writes q's level compounds as their word: "wave-level
// reduction" is a wave reduction.
func levelWords(q string) string {
	words := strings.Fields(q)
	changed := false
	for i, w := range words {
		for _, suf := range levelSuffixes {
			if len(w) > len(suf) && strings.HasSuffix(strings.ToLower(w), suf) {
				words[i], changed = w[:len(w)-len(suf)], true
				break
			}
		}
	}
	if !changed {
		return q
	}
	return strings.Join(words, " ")
}

// inCUDAWords is q with AMD's words in CUDA's, "" when it has none.
func inCUDAWords(q string) string {
	words := strings.Fields(strings.ToLower(q))
	changed := false
	for i, w := range words {
		if c, ok := cudaWords[w]; ok {
			words[i], changed = c, true
		}
	}
	if !changed {
		return ""
	}
	return strings.Join(words, " ")
}

// synonymMatch is one group a query matched, scored.
type synonymMatch struct {
	synonyms.Match
	score float64
}

// synonymMatches are the table's groups for the whole query, for its core,
// in CUDA's words and, for a CUDA intrinsic, for its other spellings
// (cudaVariants), each group once at its best score, best first. A group matched
// only through qualifier words ("shared memory" of "shared memory store
// 128-bit", "lds" of "wait for lds") counts only when no other group
// matched: the qualifier then ranks the other group's instructions.
// spelled are q and its core with their misspelt words read as the
// table's (spelledAsTable), "" when they have none; they match as the
// core does.
func synonymMatches(q string, spelled [2]string, qw *queryWords) []synonymMatch {
	var out, qualOnly []synonymMatch
	seen := map[*synonyms.Group]int{}
	type reading struct {
		text  string
		row   int
		quals []string
	}
	readings := []reading{{q, 0, nil}, {qw.core, 1, nil}, {inCUDAWords(q), 2, nil}, {spelled[0], 1, nil}, {spelled[1], 1, nil}}
	for _, r := range cudaReadings(strings.ToLower(q)) {
		readings = append(readings, reading{r.text, 1, r.quals}) // __umul24 as __mul24
	}
	for _, rd := range readings {
		text, row := rd.text, rd.row
		if text == "" || row == 1 && text == q {
			continue
		}
		ms := synonyms.Default().Match(text)
		if len(ms) > 0 && len(rd.quals) > 0 {
			// The intrinsic's spelling says the type (__hneg: half).
			qw.addQualifiers(rd.quals)
		}
		for _, m := range ms {
			sm := synonymMatch{Match: m, score: synonymScore[row][m.Kind]}
			if m.Kind == synonyms.Contains || m.Kind == synonyms.Spread {
				// A longer phrase says more ("shift right arithmetic" over
				// "shift right").
				sm.score += 0.5 * float64(strings.Count(strings.TrimSpace(m.Phrase), " ")-1)
			}
			if i, ok := seen[m.Group]; ok {
				if out[i].score < sm.score {
					out[i] = sm
				}
				continue
			}
			if onlyQualifiers(m.Phrase) {
				qualOnly = append(qualOnly, sm)
				continue
			}
			seen[m.Group] = len(out)
			out = append(out, sm)
		}
	}
	if len(out) == 0 {
		return qualOnly
	}
	return out
}

// synonymHits returns the instructions the synonym table gives for q, in
// the table's order (its likeliest instruction first), each followed by
// the siblings the query's qualifiers ask for, in arch or in every family.
func (s *DB) synonymHits(arch, q string, qw *queryWords) []isa.SearchHit {
	var hits []isa.SearchHit
	spelled := [2]string{s.spelledAsTable(q), s.spelledAsTable(qw.core)}
	for _, m := range synonymMatches(q, spelled, qw) {
		why := "synonym: " + m.Phrase
		// after are the members' dotted siblings, which rank below every
		// member the group lists (mma.sp above wgmma.mma_async.sp, a
		// sibling of wgmma.mma_async), by the words they spell.
		var after []string
		for i, member := range m.Group.Members {
			// A pattern's names in order, counting only those arch has:
			// a family's first v_mfma_ is its likeliest, wherever it
			// stands among every family's.
			j := -1
			for _, name := range synonyms.Expand(member, s.names) {
				var names []string
				if s.hasName(arch, name) {
					names = append([]string{name}, s.siblings(name, qw)...)
					after = append(after, s.dottedSiblings(name, qw)...)
				} else if qw.satisfied(name) > 0 {
					// A stand-in answers a variant the query's qualifiers
					// ask for ("int4": v_dot8_i32_i4, RDNA 3's
					// v_dot8_i32_iu4); without one, the family's own
					// members answer the group (CDNA 3 lacks v_mad_f32:
					// its v_fma_f32 answers "fused multiply add", not
					// every v_mad_*).
					names = s.standIns(arch, name, qw)
				} else if arch != "" {
					// The family lacks the member, but has the variant
					// the qualifiers ask for (CDNA 3 has no
					// global_atomic_max_i32; "lds ... double" is its
					// ds_max_f64).
					for _, n := range s.siblings(name, qw) {
						if s.hasName(arch, n) {
							names = append(names, n)
						}
					}
				}
				if len(names) == 0 {
					continue
				}
				j++
				score := m.score - 0.1*float64(i) - 0.01*float64(j)
				for k, n := range names {
					for _, e := range s.byName[n] {
						if e := s.entries[e]; arch == "" || e.Arch == arch {
							hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: score - 0.001*float64(k), Why: why})
						}
					}
				}
			}
		}
		score := m.score - 0.1*float64(len(m.Group.Members))
		for k, n := range after {
			for _, e := range s.byName[n] {
				if e := s.entries[e]; arch == "" || e.Arch == arch {
					hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: score - 0.001*float64(k), Why: why})
				}
			}
		}
	}
	return hits
}

// standIns are the names a family that lacks name spells its operation
// with: those of arch sharing name's stem and first part that carry as
// many of the query's qualifiers as name; those sharing most of name's
// parts first (the same result type), then the shortest. A table lists
// one generation's spelling (v_dot8_i32_i4); RDNA 3's is v_dot8_i32_iu4.
func (s *DB) standIns(arch, name string, qw *queryWords) []string {
	if arch == "" {
		return nil
	}
	own := qw.satisfied(name)
	parts := nameParts(name)
	head := parts[0]
	var out []string
	for _, n := range s.stemNames(nameStem(name)) {
		if nameParts(n)[0] == head && s.hasName(arch, n) && qw.satisfied(n) >= own {
			out = append(out, n)
		}
	}
	shared := func(n string) int {
		c := 0
		for _, p := range nameParts(n) {
			if slices.Contains(parts, p) {
				c++
			}
		}
		return c
	}
	slices.SortFunc(out, func(a, b string) int {
		if sa, sb := shared(a), shared(b); sa != sb {
			return sb - sa
		}
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return out
}

// hasName says whether arch ("" for any family) has an instruction name.
func (s *DB) hasName(arch, name string) bool {
	for _, k := range s.byName[name] {
		if arch == "" || s.entries[k].Arch == arch {
			return true
		}
	}
	return false
}

// dottedSiblings are the PTX names of a dotted member's own instruction
// family (tcgen05.commit and tcgen05.fence beside tcgen05.mma, wgmma.wait_group
// beside wgmma.mma_async) that spell more of the query's words than it
// does: "commit tensor core operations" asks for tcgen05's commit, not
// another mma.
func (s *DB) dottedSiblings(name string, qw *queryWords) []string {
	head, _, ok := strings.Cut(name, ".")
	if !ok || len(qw.words) == 0 {
		return nil
	}
	own := spelledWords(nameParts(name), qw.words, false)
	var out []string
	for _, n := range s.namesWithPrefix(head + ".") {
		if n != name && spelledWords(nameParts(n), qw.words, false) > own {
			out = append(out, n)
		}
	}
	return out
}

// minSpelledWord is the shortest word read as a misspelling of the table's:
// shorter ones are too many edits from too many words.
const minSpelledWord = 4

// spelledAsTable reads each word of q that nothing knows — no name, no
// word of any instruction's text, no word of the synonym table — as the
// table's word nearest it in spelling ("recipricol" is "reciprocal",
// "shufle" "shuffle", "mfam" "mfma"), so that a misspelt phrase finds its
// group as name typos find names. It returns "" when no word changed.
func (s *DB) spelledAsTable(q string) string {
	words := strings.Fields(strings.ToLower(q))
	vocab := synonyms.Default().Words()
	ix := s.textIndex()
	changed := false
	for i, w := range words {
		if len(w) < minSpelledWord || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			continue // a name, type or number, not a misspelt word
		}
		if _, known := slices.BinarySearch(vocab, w); known || len(ix.postings[w]) > 0 || len(s.byName[w]) > 0 || fillerWords[w] {
			continue
		}
		if _, ok := qualifierByWord[w]; ok {
			continue
		}
		if near := fuzzy.Closest(w, vocab, 1); len(near) == 1 {
			words[i], changed = near[0], true
		}
	}
	if !changed {
		return ""
	}
	return strings.Join(words, " ")
}

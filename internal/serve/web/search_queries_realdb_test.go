package web

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// searchQuerySets are the query sets, each held to searchTopThreeShare on
// its own: gpuisa's kept list, and sets written blind (before their
// queries were run) and kept as written, which say how the rules do on
// queries nobody tuned them to.
var searchQuerySets = []string{"search_queries.tsv", "search_queries_blind29b.tsv", "search_queries_blind29d.tsv", "search_queries_blind29e.tsv", "search_queries_blind29f.tsv"}

// searchQuery is one line of a query set (testdata/search_queries.tsv).
type searchQuery struct {
	line            int
	query, expected string
	why             string
}

func readSearchQueries(t *testing.T, file string) []searchQuery {
	t.Helper()
	data, err := os.ReadFile(path.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []searchQuery
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "query\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("%s:%d: %d columns, want 3", file, i+1, len(f))
		}
		out = append(out, searchQuery{line: i + 1, query: f[0], expected: f[1], why: f[2]})
	}
	return out
}

// topThreeHolds says whether the API's answer to q holds what want names
// among its first three hits (or, for "target:T", among its targets). A
// hex word's answer is its decoding, which the search page shows before
// the hits: each distinct decoded instruction (the page's groups, every
// family that reads it so) counts as one answer ahead of them.
func topThreeHolds(res SearchResult, want string) bool {
	if target, ok := strings.CutPrefix(want, "target:"); ok {
		for _, m := range res.Targets {
			if m.Target == target {
				return true
			}
		}
		return false
	}
	type answer struct{ archs, name string }
	var answers []answer
	group := map[string]int{}
	for _, d := range res.Decoded {
		for _, in := range d.Instructions[:min(1, len(d.Instructions))] {
			if i, ok := group[in.Name]; ok {
				answers[i].archs += " " + d.Arch
				continue
			}
			group[in.Name] = len(answers)
			answers = append(answers, answer{d.Arch, in.Name})
		}
	}
	for _, h := range res.Hits {
		answers = append(answers, answer{h.Arch, h.Name})
	}
	if len(answers) > 3 {
		answers = answers[:3]
	}
	for _, alt := range strings.Split(want, "|") {
		arch, name, scoped := strings.Cut(alt, "/")
		if !scoped {
			name = arch
		}
		for _, a := range answers {
			if ok, _ := path.Match(name, strings.ToLower(a.name)); ok && (!scoped || slices.Contains(strings.Fields(a.archs), arch)) {
				return true
			}
		}
	}
	return false
}

// searchTopThreeShare is the share of the query set that must have its
// answer in the first three (issue 29's acceptance).
const searchTopThreeShare = 0.96

// readKnownMisses reads testdata/search_queries_misses.tsv: the queries of
// the set whose answer is known not to be in the first three, each with
// the reason (query, reason).
func readKnownMisses(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("testdata/search_queries_misses.tsv")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "query\t") {
			continue
		}
		q, why, ok := strings.Cut(line, "\t")
		if !ok || why == "" {
			t.Fatalf("search_queries_misses.tsv:%d: want query<TAB>reason", i+1)
		}
		out[q] = why
	}
	return out
}

// TestSearchQuerySetRealDB holds search to kernel authors' queries
// (testdata/search_queries.tsv): the instruction (or target) each expects
// is among the first three the API answers, for at least 96% of them and
// for every query not listed, with its reason, in
// testdata/search_queries_misses.tsv (a listed query that passes is an
// error too: the list stays true). The set states the rules search
// follows — a family, target or product in the query scopes it, qualifier
// words (f16, 64-bit, shared) rank, CUDA's names find both vendors'
// instructions — so that queries outside it are answered by the same
// rules; nothing in the code names these queries.
//
//	GPUISA_DB=/tmp/real.db go test ./internal/serve/web -run TestSearchQuerySetRealDB -v
func TestSearchQuerySetRealDB(t *testing.T) {
	s := searchServer(t)
	known := readKnownMisses(t)
	_, sassErr := s.sassIndex()
	if sassErr != nil && errs.KindOf(sassErr) != errs.KindNotFound {
		t.Fatal(sassErr) // a damaged index is a failure, not a database without one
	}
	if p, ok := s.store.(interface{ PrepareSearch(context.Context) error }); ok {
		if err := p.PrepareSearch(context.Background()); err != nil {
			t.Fatal(err) // the index, built before the clock starts
		}
	}
	for _, file := range searchQuerySets {
		t.Run(strings.TrimSuffix(file, ".tsv"), func(t *testing.T) {
			queries := readSearchQueries(t, file)
			if len(queries) < 50 {
				t.Fatalf("%d queries in %s; a set holds search to at least 50", len(queries), file)
			}
			checkSearchQueries(t, s, queries, known, sassErr)
		})
	}
}

// searchServer serves the database the query sets are asked of: GPUISA_DB
// when set, else the database built as a user's is, with ptxas and
// nvdisasm where they are installed (a SASS opcode is answered from the
// SASS index only such a build derives), else the quick real database.
func searchServer(t *testing.T) *server {
	t.Helper()
	if os.Getenv(realDB.Env) != "" {
		return realServer(t)
	}
	if _, err := testenv.FindPTXAS(); os.Getenv(ptxasDB.Env) != "" || err == nil && testenv.FindUpstream() != "" {
		return ptxasServer(t)
	}
	return realServer(t)
}

// sassQuery says whether a query of a set is answered from the SASS index:
// its reason column says so by starting with "SASS".
func (q searchQuery) sassQuery() bool { return strings.HasPrefix(q.why, "SASS") }

// checkSearchQueries asks the API each query of a set and holds the set to
// searchTopThreeShare and to its known misses. On a database without a
// SASS index (sassErr says why) the queries answered from one are left out
// of the count, loudly.
func checkSearchQueries(t *testing.T, s *server, queries []searchQuery, known map[string]string, sassErr error) {
	hits, asked := 0, 0
	var total, slowest time.Duration
	slowestQuery := ""
	for _, q := range queries {
		if sassErr != nil && q.sassQuery() {
			continue
		}
		asked++
		start := time.Now()
		rec := get(t, s, "/api/v1/search?limit=10&q="+url.QueryEscape(q.query))
		if d := time.Since(start); d > slowest {
			slowest, slowestQuery = d, q.query
		}
		total += time.Since(start)
		var res SearchResult
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
			t.Errorf("line %d %q: %d %v %.200s", q.line, q.query, rec.Code, err, rec.Body.String())
			continue
		}
		why, listed := known[q.query]
		if topThreeHolds(res, q.expected) {
			hits++
			if listed {
				t.Errorf("line %d %q: listed in search_queries_misses.tsv (%s) but now in the first 3: remove it", q.line, q.query, why)
			}
			continue
		}
		var got []string
		for i, h := range res.Hits {
			if i == 5 {
				break
			}
			got = append(got, h.Arch+"/"+h.Name)
		}
		for _, m := range res.Targets {
			got = append(got, "target:"+m.Target)
		}
		if listed {
			t.Logf("line %d %q: a known miss (%s): want %s, got %v", q.line, q.query, why, q.expected, got)
			continue
		}
		t.Errorf("line %d %q (%s): want %s in the first 3, got %v", q.line, q.query, q.why, q.expected, got)
	}
	if left := len(queries) - asked; left > 0 {
		t.Logf("LEFT OUT: %d queries of the set answered from the SASS index: %v", left, sassErr)
	}
	if asked == 0 {
		t.Skip("every query of the set needs the SASS index")
	}
	rate := float64(hits) / float64(asked)
	t.Logf("search query set: %d of %d in the first three (%.1f%%); %v a query on average, the slowest %v (%q)",
		hits, asked, 100*rate, total/time.Duration(asked), slowest, slowestQuery)
	if rate < searchTopThreeShare {
		t.Errorf("%.1f%% of the set in the first three, want at least %.0f%%", 100*rate, 100*searchTopThreeShare)
	}
}

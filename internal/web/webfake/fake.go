// Package webfake is an in-memory store.Reader holding a handful of
// hand-written sample instructions. The web handler tests, the browser tests
// and the load test run against it so they need neither a built database nor
// upstream documents. Every text in it is written for this project; none of it
// is vendor documentation.
package webfake

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// Store is a fake store.Reader over a fixed set of instructions.
type Store struct {
	info   isa.BuildInfo
	archs  []isa.Architecture
	instrs map[string]map[string]*isa.Instruction // arch -> name -> instruction
	extras map[string][]byte                      // named documents (SetExtra)
}

var _ store.Reader = (*Store)(nil)

// New returns a fake store holding the sample instructions and the sample
// concept catalogue and quality report (see AddSampleExtras).
func New() *Store {
	s := &Store{instrs: map[string]map[string]*isa.Instruction{}}
	for _, in := range sampleInstructions() {
		if s.instrs[in.Arch] == nil {
			s.instrs[in.Arch] = map[string]*isa.Instruction{}
		}
		s.instrs[in.Arch][in.Name] = in
	}
	counts := map[string]int{}
	for _, a := range isa.Archs() {
		n := len(s.instrs[a.ID])
		if n == 0 {
			continue
		}
		counts[a.ID] = n
		arch := isa.Architecture{
			ID: a.ID, Name: a.Name, Vendor: a.Vendor, Kind: a.Kind, Order: a.Order,
			Targets: a.Targets, Count: n,
			Title:     "Sample reference for " + a.Name,
			Documents: []isa.Document{sampleDocument(a.ID)},
		}
		if a.Kind == isa.KindNative {
			arch.Formats = sampleFormats(a.ID)
		}
		s.archs = append(s.archs, arch)
	}
	s.info = isa.BuildInfo{
		ID:      "fake-build-1",
		Built:   "2026-01-02T03:04:05Z",
		Version: "test",
		Counts:  counts,
	}
	for _, a := range s.archs {
		s.info.Documents = append(s.info.Documents, a.Documents...)
	}
	s.AddSampleExtras()
	return s
}

// SetBuildID changes the build id (to test that ETags follow the build).
func (s *Store) SetBuildID(id string) { s.info.ID = id }

// Info implements store.Reader.
func (s *Store) Info(ctx context.Context) (isa.BuildInfo, error) { return s.info, nil }

// Archs implements store.Reader.
func (s *Store) Archs(ctx context.Context) ([]isa.Architecture, error) {
	return append([]isa.Architecture(nil), s.archs...), nil
}

// Arch implements store.Reader.
func (s *Store) Arch(ctx context.Context, id string) (isa.Architecture, error) {
	info, ok := isa.LookupArch(id)
	if ok {
		for _, a := range s.archs {
			if a.ID == info.ID {
				return a, nil
			}
		}
	}
	var ids []string
	for _, a := range s.archs {
		ids = append(ids, a.ID)
	}
	return isa.Architecture{}, errs.NotFound(closest(strings.ToLower(id), ids, 3), "unknown architecture %q", id)
}

// List implements store.Reader.
func (s *Store) List(ctx context.Context, arch string) ([]isa.Summary, error) {
	a, err := s.Arch(ctx, arch)
	if err != nil {
		return nil, err
	}
	var out []isa.Summary
	for _, in := range s.instrs[a.ID] {
		out = append(out, summarize(in))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Instruction implements store.Reader.
func (s *Store) Instruction(ctx context.Context, arch, name string) (*isa.Instruction, error) {
	a, n, err := s.Resolve(ctx, arch, name)
	if err != nil {
		return nil, err
	}
	return s.instrs[a][n], nil
}

// assemblerSuffixes are the encoding suffixes users append to mnemonics.
var assemblerSuffixes = []string{"_e32", "_e64", "_sdwa", "_dpp"}

// Resolve implements store.Reader: case-insensitive, through aliases, with
// assembler suffixes stripped.
func (s *Store) Resolve(ctx context.Context, arch, name string) (string, string, error) {
	a, err := s.Arch(ctx, arch)
	if err != nil {
		return "", "", err
	}
	byName := s.instrs[a.ID]
	want := strings.ToLower(strings.TrimSpace(name))
	candidates := []string{want}
	for _, suf := range assemblerSuffixes {
		if strings.HasSuffix(want, suf) {
			candidates = append(candidates, strings.TrimSuffix(want, suf))
		}
	}
	for _, c := range candidates {
		if _, ok := byName[c]; ok {
			return a.ID, c, nil
		}
	}
	for _, c := range candidates {
		for n, in := range byName {
			for _, al := range in.Aliases {
				if al.Name == c {
					return a.ID, n, nil
				}
			}
		}
	}
	var names []string
	for n := range byName {
		names = append(names, n)
	}
	return "", "", errs.NotFound(closest(want, names, 5), "no instruction %q in %s", name, a.Name)
}

// Search implements store.Reader: exact name, name prefix, typo (edit
// distance up to 2), then words of the summary, description and semantics.
func (s *Store) Search(ctx context.Context, q string, opts store.SearchOptions) ([]isa.SearchHit, error) {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil, errs.Invalid("empty search query")
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = 50
	}
	archFilter := ""
	if opts.Arch != "" {
		a, err := s.Arch(ctx, opts.Arch)
		if err != nil {
			return nil, err
		}
		archFilter = a.ID
	}
	words := strings.Fields(q)
	var hits []isa.SearchHit
	for _, a := range s.archs {
		if archFilter != "" && a.ID != archFilter {
			continue
		}
		for _, in := range s.instrs[a.ID] {
			score, why := rank(in, q, words)
			if score > 0 {
				hits = append(hits, isa.SearchHit{Summary: summarize(in), Score: score, Why: why})
			}
		}
	}
	order := map[string]int{}
	for _, a := range s.archs {
		order[a.ID] = a.Order
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if hits[i].Name != hits[j].Name {
			return hits[i].Name < hits[j].Name
		}
		return order[hits[i].Arch] < order[hits[j].Arch]
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

func rank(in *isa.Instruction, q string, words []string) (float64, string) {
	switch {
	case in.Name == q:
		return 100, "name"
	case strings.HasPrefix(in.Name, q):
		return 80, "name prefix"
	}
	for _, al := range in.Aliases {
		if al.Name == q {
			return 90, "alias"
		}
	}
	if len(q) >= 4 && levenshtein(in.Name, q) <= 2 {
		return 60, "typo"
	}
	text := strings.ToLower(in.Summary + " " + in.Description + " " + in.Category)
	matched := 0
	for _, w := range words {
		if strings.Contains(text, w) {
			matched++
		}
	}
	if matched == len(words) {
		return 10 + float64(matched), "description"
	}
	return 0, ""
}

// Close implements store.Reader.
func (s *Store) Close() error { return nil }

func summarize(in *isa.Instruction) isa.Summary {
	sum := isa.Summary{Arch: in.Arch, Name: in.Name, Category: in.Category, Section: in.Section, Summary: in.Summary}
	for _, e := range in.Encodings {
		sum.Formats = append(sum.Formats, e.Name)
	}
	return sum
}

// closest returns up to n of names within a small edit distance of want,
// nearest first.
func closest(want string, names []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, name := range names {
		d := levenshtein(want, name)
		if d <= 3 || strings.HasPrefix(name, want) || strings.HasPrefix(want, name) {
			cs = append(cs, cand{name, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Instructions implements store.Reader: every sample instruction of a family,
// sorted by name.
func (s *Store) Instructions(ctx context.Context, arch string) ([]*isa.Instruction, error) {
	a, err := s.Arch(ctx, arch)
	if err != nil {
		return nil, err
	}
	var out []*isa.Instruction
	for _, in := range s.instrs[a.ID] {
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// InstructionDoc implements store.Reader: the instruction's JSON, encoded
// as the build stores it.
func (s *Store) InstructionDoc(ctx context.Context, arch, name string) (store.Doc, error) {
	in, err := s.Instruction(ctx, arch, name)
	if err != nil {
		return store.Doc{}, err
	}
	isa.FillLists(in)
	doc, err := json.Marshal(in)
	if err != nil {
		return store.Doc{}, err
	}
	return store.NewDoc(in.Arch, in.Name, append(doc, '\n'))
}

// Build returns the sample reference as a store.Build, so tests can write
// it as a real database (store.Write) with the fake's build id.
func (s *Store) Build() *store.Build {
	b := &store.Build{Info: s.info, Archs: append([]isa.Architecture(nil), s.archs...), Extras: map[string][]byte{}}
	for _, a := range s.archs {
		ins, _ := s.Instructions(context.Background(), a.ID)
		b.Instructions = append(b.Instructions, ins...)
	}
	for k, v := range s.extras {
		b.Extras[k] = v
	}
	return b
}

// Extra implements store.Reader. The fake holds the documents set with
// SetExtra.
func (s *Store) Extra(ctx context.Context, key string) ([]byte, error) {
	if v, ok := s.extras[key]; ok {
		return v, nil
	}
	return nil, errs.NotFound(nil, "this database has no %s", key)
}

// SetExtra stores a named document for Extra; a nil value removes it, so
// tests can show a database built without it.
func (s *Store) SetExtra(key string, value []byte) {
	if s.extras == nil {
		s.extras = map[string][]byte{}
	}
	if value == nil {
		delete(s.extras, key)
		return
	}
	s.extras[key] = value
}

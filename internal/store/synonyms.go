package store

import (
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/synonyms"
)

// Scores of synonym hits by how the query matched the phrase: an exact
// phrase ranks just below an exact name, a phrase inside a longer query with
// name prefixes, a phrase being typed below them.
var synonymScore = [...]float64{synonyms.Exact: 95, synonyms.Contains: 78, synonyms.Prefix: 65}

// synonymHits returns the instructions the synonym table gives for q, in
// the table's order (its likeliest instruction first), in arch or in every
// family.
func (s *DB) synonymHits(arch, q string) []isa.SearchHit {
	var hits []isa.SearchHit
	for _, m := range synonyms.Default().Match(q) {
		why := "synonym: " + m.Phrase
		for i, member := range m.Group.Members {
			for j, name := range synonyms.Expand(member, s.names) {
				score := synonymScore[m.Kind] - 0.1*float64(i) - 0.01*float64(j)
				for _, k := range s.byName[name] {
					if e := s.entries[k]; arch == "" || e.Arch == arch {
						hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: score, Why: why})
					}
				}
			}
		}
	}
	return hits
}

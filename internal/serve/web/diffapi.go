package web

import (
	"net/http"

	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// diffFacts returns the families' diff facts, loaded once per server (the
// database is read-only while it is served).
func (s *server) diffFacts() *famdiff.Facts {
	s.diffOnce.Do(func() { s.diffs = famdiff.NewFacts(s.store) })
	return s.diffs
}

// apiDiff answers what changed between two generations: two AMD families,
// two PTX ISA versions (ptx:7.8) or two sm_ targets.
func (s *server) apiDiff(w http.ResponseWriter, r *http.Request) {
	res, err := s.diffFacts().Compare(r.Context(), r.PathValue("a"), r.PathValue("b"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendJSON(w, r, res)
}

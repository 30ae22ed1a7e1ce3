package store

import (
	"context"
	"strings"
	"testing"
)

// The synonym table's words find instructions whose names and summaries
// share none of them: "fma" in the sample is "Fused multiply add", but
// "multiply-add" or "fmac" only the table knows.
func TestSearchSynonyms(t *testing.T) {
	s := openSample(t)
	ctx := context.Background()
	for _, q := range []string{"fmac", "multiply-add", "muladd"} {
		hits, err := s.Search(ctx, q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].Name != "v_fma_f32" || !strings.HasPrefix(hits[0].Why, "synonym: ") {
			t.Errorf("Search(%q) = %+v, want v_fma_f32 by synonym first", q, hits)
		}
	}
	// A family filter holds for synonym hits too.
	hits, err := s.Search(ctx, "larger", SearchOptions{Arch: "rdna4"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Arch != "rdna4" {
			t.Errorf("rdna4 search returned %s/%s", h.Arch, h.Name)
		}
	}
	if len(hits) == 0 || hits[0].Name != "v_max_num_f32" {
		t.Errorf("larger in rdna4: %+v", hits)
	}
}

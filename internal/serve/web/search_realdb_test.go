package web

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/synonyms"
)

// TestSearchFindsWhatPeopleCallThingsRealDB: the synonym table's words find
// the instructions of both vendors ("count leading zeros" found only PTX
// clz, "popcount" nothing, "wmma" listed PTX first), every instruction the
// table names exists, and a family's search stays in that family.
func TestSearchFindsWhatPeopleCallThingsRealDB(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	var all []string
	for _, a := range s.archs {
		list, err := s.store.List(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, sum := range list {
			all = append(all, strings.ToLower(sum.Name))
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	for _, g := range synonyms.Default().Groups {
		for _, m := range g.Members {
			if len(synonyms.Expand(m, all)) == 0 {
				t.Errorf("synonyms line %d: %s names no instruction", g.Line, m)
			}
		}
	}

	top := func(q, arch string, n int) []string {
		t.Helper()
		hits, err := s.store.Search(ctx, q, store.SearchOptions{Arch: arch, Limit: n})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			if arch != "" && h.Arch != arch {
				t.Errorf("%q in %s: hit %s/%s", q, arch, h.Arch, h.Name)
			}
			out = append(out, h.Name)
		}
		return out
	}
	for q, want := range map[string][]string{
		"count leading zeros": {"v_ffbh_u32", "v_clz_i32_u32", "s_flbit_i32_b32", "clz"},
		"popcount":            {"v_bcnt_u32_b32", "s_bcnt1_i32_b32", "popc"},
		"population count":    {"v_bcnt_u32_b32", "s_bcnt1_i32_b32", "popc"},
	} {
		got := top(q, "", 10)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %s not in the first 10 %q", q, w, got)
			}
		}
	}
	wmma := 0
	for _, n := range top("wmma", "", 8) { // what the header's suggestions show
		if strings.HasPrefix(n, "v_wmma_") {
			wmma++
		}
	}
	if wmma < 4 {
		t.Errorf("wmma: %d AMD WMMA instructions among the first 8 %q", wmma, top("wmma", "", 8))
	}
	if got := top("count leading zeros", "cdna4", 5); len(got) == 0 || got[0] != "v_ffbh_u32" {
		t.Errorf("count leading zeros in CDNA 4: %q", got)
	}

	// The API answers the same, scoped or not.
	rec := get(t, s, "/api/v1/search?arch=rdna4&q="+url.QueryEscape("count leading zeros"))
	var res SearchResult
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || len(res.Hits) == 0 || res.Hits[0].Name != "v_clz_i32_u32" || res.Hits[0].Arch != "rdna4" {
		t.Errorf("API count leading zeros in RDNA 4: %v %+v", err, res.Hits)
	}
}

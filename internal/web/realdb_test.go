package web

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/store"
)

// realServer serves the database named by GPUISA_DB, answer cache off; the
// test is skipped without it.
func realServer(tb testing.TB) *server {
	tb.Helper()
	path := os.Getenv("GPUISA_DB")
	if path == "" {
		tb.Skip("set GPUISA_DB to a database built by `gpuisa build` to test against it")
	}
	db, err := store.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	s, err := newServer(db, Options{CacheBytes: -1})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestEveryPageOfARealDatabase renders every family index and instruction
// page, and the API document of each, from a database built by `gpuisa build`
// named by GPUISA_DB. No page may fail. It is skipped without GPUISA_DB.
func TestEveryPageOfARealDatabase(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	pages, slowest := 0, time.Duration(0)
	slowestPath := ""
	for _, a := range s.archs {
		if rec := get(t, s, archURL(a.ID)); rec.Code != http.StatusOK {
			t.Errorf("%s: %d", archURL(a.ID), rec.Code)
		}
		list, err := s.store.List(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, sum := range list {
			for _, p := range []string{instrURL(sum.Arch, sum.Name), "/api/v1/archs/" + url.PathEscape(sum.Arch) + "/instructions/" + url.PathEscape(sum.Name)} {
				start := time.Now()
				rec := get(t, s, p)
				if d := time.Since(start); d > slowest {
					slowest, slowestPath = d, p
				}
				pages++
				if rec.Code != http.StatusOK {
					t.Errorf("GET %s: %d %.200s", p, rec.Code, rec.Body.String())
				}
			}
		}
	}
	extra := []string{"/", "/search?q=v_max_f23", "/search?q=fused+multiply+add", "/compare/v_max_f32", "/ptx/max",
		"/concepts", "/quality", "/search?q=0x160a04c1", "/decode?arch=cdna4&hex=0x160a04c1"}
	if cd, err := s.conceptCatalogue(); err == nil {
		for _, c := range cd.cat.Concepts {
			extra = append(extra, conceptURL(c.ID))
		}
	}
	if rep, err := s.qualityReport(); err == nil {
		for _, f := range rep.Families {
			extra = append(extra, "/quality/"+f.Arch)
		}
	}
	for _, p := range extra {
		if rec := get(t, s, p); rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", p, rec.Code)
		}
	}
	t.Logf("%d pages and API answers rendered; slowest %v (%s)", pages, slowest, slowestPath)
}

// BenchmarkRealNewPages renders the concept, quality and decode pages from
// the database named by GPUISA_DB, cache off, after a first render that
// parses the catalogue and builds the decoders.
func BenchmarkRealNewPages(b *testing.B) {
	s := realServer(b)
	for _, p := range []string{"/concepts", "/concepts/maximum", "/quality", "/quality/cdna4",
		"/decode?arch=cdna4&hex=0x160a04c1+0x7e0a02ff+0x3f800000", "/search?q=0x160a04c1", "/amdgpu/cdna4/v_max_f32"} {
		b.Run(strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "_", "+", "_").Replace(p), func(b *testing.B) {
			get(b, s, p) // warm: catalogue parsed, decoders built
			for b.Loop() {
				if rec := get(b, s, p); rec.Code != http.StatusOK {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

// BenchmarkRealInstructionPage renders /amdgpu/cdna4/v_max_f32 from the
// database named by GPUISA_DB, cache off (store reads included).
func BenchmarkRealInstructionPage(b *testing.B) {
	s := realServer(b)
	// The first page of a family builds its decoder (for the examples'
	// field diagrams); a running server has done that at start.
	get(b, s, "/amdgpu/cdna4/v_max_f32")
	b.ReportAllocs()
	for b.Loop() {
		if rec := get(b, s, "/amdgpu/cdna4/v_max_f32"); rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}

package web

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/store"
)

// TestEveryPageOfARealDatabase renders every family index and instruction
// page, and the API document of each, from a database built by `gpuisa build`
// named by GPUISA_DB. No page may fail. It is skipped without GPUISA_DB.
func TestEveryPageOfARealDatabase(t *testing.T) {
	path := os.Getenv("GPUISA_DB")
	if path == "" {
		t.Skip("set GPUISA_DB to a database built by `gpuisa build` to render all its pages")
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := newServer(db, Options{CacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pages, slowest := 0, time.Duration(0)
	slowestPath := ""
	for _, a := range s.archs {
		if rec := get(t, s, archURL(a.ID)); rec.Code != http.StatusOK {
			t.Errorf("%s: %d", archURL(a.ID), rec.Code)
		}
		list, err := db.List(ctx, a.ID)
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
	for _, p := range []string{"/", "/search?q=v_max_f23", "/search?q=fused+multiply+add", "/compare/v_max_f32", "/ptx/max"} {
		if rec := get(t, s, p); rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", p, rec.Code)
		}
	}
	t.Logf("%d pages and API answers rendered; slowest %v (%s)", pages, slowest, slowestPath)
}

// BenchmarkRealInstructionPage renders /amdgpu/cdna4/v_max_f32 from the
// database named by GPUISA_DB, cache off (store reads included).
func BenchmarkRealInstructionPage(b *testing.B) {
	path := os.Getenv("GPUISA_DB")
	if path == "" {
		b.Skip("set GPUISA_DB to a built database")
	}
	db, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s, err := newServer(db, Options{CacheBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if rec := get(b, s, "/amdgpu/cdna4/v_max_f32"); rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}

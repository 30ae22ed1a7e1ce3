package web

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/build"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testenv"
)

// realDB is the real database the tests read: GPUISA_DB, else one built
// once from the upstream sources (without llvm-mc, whose verification has
// its own tests) into realDBDir, which TestMain removes.
var (
	realDBOnce sync.Once
	realDBPath string
	realDBDir  string
	realDBErr  error
)

func realDB() (string, error) {
	realDBOnce.Do(func() {
		if p := os.Getenv("GPUISA_DB"); p != "" {
			realDBPath = p
			return
		}
		src := testenv.FindUpstream()
		if src == "" {
			return
		}
		if realDBDir, realDBErr = os.MkdirTemp("", "gpuisa-web-test"); realDBErr != nil {
			return
		}
		p := filepath.Join(realDBDir, "gpuisa.db")
		if _, realDBErr = build.Run(context.Background(), build.Options{Sources: src, Out: p, NoVerify: true}); realDBErr == nil {
			realDBPath = p
		}
	})
	return realDBPath, realDBErr
}

func TestMain(m *testing.M) {
	code := m.Run()
	if realDBDir != "" {
		os.RemoveAll(realDBDir)
	}
	os.Exit(code)
}

// realServer serves the real database (realDB), answer cache off; the test
// is skipped when there is none.
func realServer(tb testing.TB) *server {
	tb.Helper()
	path, err := realDB()
	if err != nil {
		tb.Fatalf("building the real database: %v", err)
	}
	if path == "" {
		tb.Skip("no GPUISA_DB and no upstream sources (../shared/upstream or $GPUISA_SOURCES): skipping tests on the real database")
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
// page, and the API document of each, from the real database (realDB). No
// page may fail.
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

// TestDualIssueDecodeOfARealDatabase decodes an RDNA 3 VOPD word on the
// decode page and the API: both operations, their pages and opcodes.
func TestDualIssueDecodeOfARealDatabase(t *testing.T) {
	s := realServer(t)
	rec := get(t, s, "/decode?arch=rdna3&hex=0xc8500501+0x00020104+0x3f800000")
	body := rec.Body.String()
	for _, want := range []string{
		"v_dual_fmaak_f32 v0, v1, v2, 0x3f800000 :: v_dual_mov_b32 v3, v4",
		`href="/amdgpu/rdna3/v_dual_mov_b32"`, "Operands of Y: <code>v3</code>, <code>v4</code>", "opcode 1, 8",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("decode page lacks %q", want)
		}
	}
	rec = get(t, s, "/api/v1/decode?arch=rdna3&hex=0xc8500501+0x00020104+0x3f800000")
	if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, `"dual":{"name":"v_dual_mov_b32","mnemonic":"v_dual_mov_b32","opcode":8,"operands":["v3","v4"]}`) {
		t.Errorf("API: %d %.600s", rec.Code, body)
	}
}

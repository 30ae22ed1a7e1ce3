// Package webfake is the sample reference the web handler tests, the browser
// tests and the load test run on: a handful of hand-written instructions, a
// concept catalogue and a quality report (Build), written into a temporary
// SQLite database with store.Write and opened as the real store (New, Open).
// The tests so run over the store's own name resolution, search, suggestions
// and stored answers, not over a second implementation of them, and need
// neither a built reference nor upstream documents. Every text in it is
// written for this project; none of it is vendor documentation.
package webfake

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// sampleBuilt is the build time the sample claims.
const sampleBuilt = "2026-01-02T03:04:05Z"

// Build returns the sample reference as a store.Build: the sample
// instructions, their families (with sample formats and documents) and the
// sample concept catalogue and quality report (SampleExtras). Each call
// returns a fresh copy, so a test may edit it before writing it.
func Build() *store.Build {
	byArch := map[string]int{}
	ins := sampleInstructions()
	for _, in := range ins {
		byArch[in.Arch]++
	}
	b := &store.Build{Info: isa.BuildInfo{Built: sampleBuilt, Version: "test", Counts: map[string]int{}}, Instructions: ins}
	for _, a := range isa.Archs() {
		n := byArch[a.ID]
		if n == 0 {
			continue
		}
		b.Info.Counts[a.ID] = n
		arch := isa.Architecture{
			ID: a.ID, Name: a.Name, Vendor: a.Vendor, Kind: a.Kind, Order: a.Order,
			Targets: a.Targets, Count: n,
			Title:     "Sample reference for " + a.Name,
			Documents: []isa.Document{sampleDocument(a.ID)},
		}
		if a.Kind == isa.KindNative {
			arch.Formats = sampleFormats(a.ID)
		}
		b.Archs = append(b.Archs, arch)
		b.Info.Documents = append(b.Info.Documents, arch.Documents...)
	}
	b.Extras = SampleExtras(b.Archs, b.Instructions)
	return b
}

// New writes the sample reference (Build) into a database under t's
// temporary directory and opens it; it is closed when t ends.
func New(t testing.TB) *store.DB {
	t.Helper()
	return Open(t, Build())
}

// Open writes b into a database under t's temporary directory, the way
// `gpuisa build` writes one, and opens it; it is closed when t ends.
func Open(t testing.TB, b *store.Build) *store.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sample.db")
	if err := store.Write(context.Background(), path, b); err != nil {
		t.Fatalf("writing the sample database: %v", err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatalf("opening the sample database: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

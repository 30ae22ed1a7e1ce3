package build

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuisa/gpuisa/internal/store"
)

// upstreamDir finds ../shared/upstream from the package directory, or
// $GPUISA_SOURCES.
func upstreamDir(t testing.TB) string {
	t.Helper()
	if env := os.Getenv("GPUISA_SOURCES"); env != "" {
		return env
	}
	dir, _ := os.Getwd()
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		p := filepath.Join(d, "..", "shared", "upstream")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
	}
	t.Skip("upstream sources not found (../shared/upstream or $GPUISA_SOURCES): skipping the real-data build test")
	return ""
}

// buildOnce builds the real database once per test binary.
var builtDB string

func realDB(t testing.TB) string {
	t.Helper()
	if builtDB != "" {
		return builtDB
	}
	src := upstreamDir(t)
	out := filepath.Join(os.TempDir(), "gpuisa-build-test.db")
	rep, err := Run(context.Background(), Options{Sources: src, Out: out})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	t.Logf("built %s in %s: %v", out, rep.Elapsed, rep.Counts)
	builtDB = out
	return out
}

func TestBuildRealSources(t *testing.T) {
	path := realDB(t)
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	in, err := db.Instruction(ctx, "cdna4", "v_max_f32")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", in.Encodings)
	t.Logf("%+v", in.Opcodes)
}

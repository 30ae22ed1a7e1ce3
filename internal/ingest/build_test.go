package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// upstreamDir returns the real sources or skips the test.
func upstreamDir(t testing.TB) string { return testenv.Upstream(t) }

func TestBuildCountsPerFamily(t *testing.T) {
	src := upstreamDir(t)
	out := filepath.Join(t.TempDir(), "gpuisa.db")
	rep, err := Run(context.Background(), Options{Sources: src, Out: out, NoVerify: true})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	t.Logf("built in %s: %v", rep.Elapsed, rep.Counts)
	for _, p := range rep.Problems {
		t.Logf("problem: %s", p)
	}
	// Lower bounds measured on the 2026 copies (about 95% of what the reader
	// finds), so a regression fails.
	for arch, min := range map[string]int{
		"cdna1": 1150, "cdna2": 1070, "cdna3": 1080, "cdna4": 1170, "cdna5": 1250,
		"rdna1": 1050, "rdna2": 1060, "rdna3": 1080, "rdna3.5": 1130, "rdna4": 1190,
		"vega": 1110, "vega7": 1120, "ptx": 250,
	} {
		if rep.Counts[arch] < min {
			t.Errorf("%s: %d instructions, want at least %d", arch, rep.Counts[arch], min)
		}
	}
	db, err := store.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	info, _ := db.Info(context.Background())
	if len(info.Documents) < 14 {
		t.Errorf("build records %d documents, want the 12 guides, the XML and PTX", len(info.Documents))
	}
}

// linkTree makes dst a copy of src's layout whose files are symlinks, so a
// test can replace one file without copying the sources.
func linkTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		abs, _ := filepath.Abs(p)
		return os.Symlink(abs, target)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTruncatedSourceKeepsPreviousDatabase(t *testing.T) {
	src := upstreamDir(t)
	out, before := previousDatabase(t)
	broken := filepath.Join(t.TempDir(), "sources")
	linkTree(t, src, broken)
	xmlPath := filepath.Join(broken, "amd-mrisa-xml", "amdgpu_isa_cdna4.excerpt.xml")
	full, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(xmlPath)
	if err := os.WriteFile(xmlPath, full[:len(full)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Options{Sources: broken, Out: out, NoVerify: true})
	if err == nil {
		t.Fatal("a truncated XML file did not fail the build")
	}
	if errs.KindOf(err) != errs.KindUpstream || errs.ExitCode(err) != 3 {
		t.Errorf("error kind %v (exit %d), want upstream (3): %v", errs.KindOf(err), errs.ExitCode(err), err)
	}
	if !strings.Contains(err.Error(), "amdgpu_isa_cdna4.excerpt.xml:") {
		t.Errorf("error does not name the file and line: %v", err)
	}
	after, _ := os.ReadFile(out)
	if !bytes.Equal(before, after) {
		t.Error("the failed build changed the previous database")
	}
}

// previousDatabase writes an empty database, the previous build a failed
// build must leave byte-identical, and returns its path and bytes.
func previousDatabase(t *testing.T) (string, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "gpuisa.db")
	if err := store.Write(context.Background(), out, &store.Build{}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, before
}

func TestEmptyGuideIsAnUpstreamError(t *testing.T) {
	src := upstreamDir(t)
	broken := filepath.Join(t.TempDir(), "sources")
	linkTree(t, src, broken)
	guide := filepath.Join(broken, "amd-isa-manuals", "rdna2", "README.md")
	os.Remove(guide)
	os.WriteFile(guide, []byte("# RDNA2 Instruction Set Architecture\n\nnothing here\n"), 0o644)
	_, err := Run(context.Background(), Options{Sources: broken, Out: filepath.Join(t.TempDir(), "x.db"), NoVerify: true})
	if err == nil || !strings.Contains(err.Error(), "rdna2/README.md") || errs.ExitCode(err) != 3 {
		t.Errorf("err = %v, want one naming rdna2/README.md", err)
	}
}

func TestSourcesDir(t *testing.T) {
	if _, err := SourcesDir(filepath.Join(t.TempDir(), "absent")); errs.KindOf(err) != errs.KindInvalid {
		t.Errorf("absent dir: %v", err)
	}
	t.Setenv("GPUISA_SOURCES", t.TempDir())
	if d, err := SourcesDir(""); err != nil || d != os.Getenv("GPUISA_SOURCES") {
		t.Errorf("env: %s %v", d, err)
	}
}

// BenchmarkBuild measures a full build of the real sources (no llvm-mc).
func BenchmarkBuild(b *testing.B) {
	src := upstreamDir(b)
	out := filepath.Join(b.TempDir(), "gpuisa.db")
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), Options{Sources: src, Out: out, NoVerify: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreQueries measures the database reads behind pages and the
// CLI on a real build: one instruction document, and searches by prefix,
// typo and description words.
func BenchmarkStoreQueries(b *testing.B) {
	src := upstreamDir(b)
	out := filepath.Join(b.TempDir(), "gpuisa.db")
	if _, err := Run(context.Background(), Options{Sources: src, Out: out, NoVerify: true}); err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(out)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	b.Run("instruction", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := db.Instruction(ctx, "cdna4", "v_max_f32"); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, q := range []string{"v_max", "v_max_f23", "fused multiply add"} {
		b.Run("search "+q, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := db.Search(ctx, q, store.SearchOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

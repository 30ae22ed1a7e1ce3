package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

func answersBuild(answers ...Answer) *Build {
	return &Build{
		Info:  isa.BuildInfo{Version: "test"},
		Archs: []isa.Architecture{{ID: "cdna4", Name: "CDNA 4", Vendor: isa.VendorAMD}},
		Answers: func(ctx context.Context, r Reader, put func(Answer) error) error {
			if _, err := r.Info(ctx); err != nil { // the rows are readable
				return err
			}
			for _, a := range answers {
				if err := put(a); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// TestAnswersAreStoredAndRead: what Build.Answers hands over is read back by
// key, with its renderer; a database without answers says NotFound.
func TestAnswersAreStoredAndRead(t *testing.T) {
	ctx := context.Background()
	b := answersBuild(Answer{Key: "/b", ContentType: "text/html", Gzip: []byte("bb"), Renderer: "r1"},
		Answer{Key: "/a", ContentType: "text/html", Gzip: []byte("aa"), Renderer: "r1"})
	db := writeOpen(t, b)
	if n, err := db.AnswerCount(ctx); n != 2 || err != nil {
		t.Errorf("AnswerCount = %d, %v", n, err)
	}
	a, err := db.Answer(ctx, "/a")
	if err != nil || string(a.Gzip) != "aa" || a.Renderer != "r1" || a.ContentType != "text/html" {
		t.Errorf("Answer(/a) = %+v, %v", a, err)
	}
	if _, err := db.Answer(ctx, "/c"); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("Answer(/c): %v, want NotFound", err)
	}
	b.Answers = nil
	if _, err := writeOpen(t, b).Answer(ctx, "/a"); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("a database built without answers: %v, want NotFound", err)
	}
}

// TestAnswersRefuseMixedOrDuplicate: one renderer per database, one answer
// per key, keys that are request targets; a refused build writes nothing.
func TestAnswersRefuseMixedOrDuplicate(t *testing.T) {
	for name, tc := range map[string][]Answer{
		"two renderers": {{Key: "/a", Gzip: []byte("a"), Renderer: "r1"}, {Key: "/b", Gzip: []byte("b"), Renderer: "r2"}},
		"twice":         {{Key: "/a", Gzip: []byte("a"), Renderer: "r1"}, {Key: "/a", Gzip: []byte("b"), Renderer: "r1"}},
		"not a target":  {{Key: "a", Gzip: []byte("a"), Renderer: "r1"}},
		"no renderer":   {{Key: "/a", Gzip: []byte("a")}},
	} {
		path := filepath.Join(t.TempDir(), "a.db")
		err := Write(context.Background(), path, answersBuild(tc...))
		if err == nil || !strings.Contains(err.Error(), "answer") {
			t.Errorf("%s: %v, want an error about the answers", name, err)
		}
		if _, serr := Open(path); serr == nil {
			t.Errorf("%s: a refused build left a database", name)
		}
	}
}

// TestAnswersReusedFromTheSameRows: a build onto the file a build of the
// same rows by the same renderer wrote copies its answers instead of
// rendering, and the file is byte for byte the rendered one; other rows, or
// another renderer, or no renderer named, render.
func TestAnswersReusedFromTheSameRows(t *testing.T) {
	ctx := context.Background()
	renders := 0
	build := func(version, by string) *Build {
		b := answersBuild(Answer{Key: "/b", ContentType: "text/html", Gzip: []byte("b " + version), Renderer: by},
			Answer{Key: "/a", ContentType: "text/html", Gzip: []byte("a " + version), Renderer: by})
		render := b.Answers
		b.Answers = func(ctx context.Context, r Reader, put func(Answer) error) error {
			renders++
			return render(ctx, r, put)
		}
		b.Info.Version = version
		b.AnswersBy = by
		return b
	}
	dir := t.TempDir()
	out, fresh := filepath.Join(dir, "out.db"), filepath.Join(dir, "fresh.db")
	for _, step := range []struct {
		version, by string
		render      bool
	}{
		{"v1", "r1", true},  // nothing to reuse
		{"v1", "r1", false}, // the same rows, the same renderer
		{"v2", "r1", true},  // other rows
		{"v2", "r2", true},  // another renderer
		{"v2", "r2", false},
	} {
		renders = 0
		if err := Write(ctx, out, build(step.version, step.by)); err != nil {
			t.Fatal(err)
		}
		if got := renders == 1; got != step.render {
			t.Errorf("%s by %s: rendered %v, want %v", step.version, step.by, got, step.render)
		}
		os.Remove(fresh)
		if err := Write(ctx, fresh, build(step.version, step.by)); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(out)
		b, _ := os.ReadFile(fresh)
		if !bytes.Equal(a, b) {
			t.Errorf("%s by %s: the database (%d bytes) is not the freshly rendered one (%d bytes)", step.version, step.by, len(a), len(b))
		}
		got, err := openAt(t, out).Answer(ctx, "/a")
		if err != nil || string(got.Gzip) != "a "+step.version || got.Renderer != step.by {
			t.Errorf("%s by %s: /a = %+v, %v", step.version, step.by, got, err)
		}
	}
}

// TestAnswersNotReusedFromADamagedFile: answers that no longer add up to
// the previous file's manifest (changed in place since it was built) are
// rendered again, not copied into the new database.
func TestAnswersNotReusedFromADamagedFile(t *testing.T) {
	ctx := context.Background()
	renders := 0
	build := func() *Build {
		b := answersBuild(Answer{Key: "/a", ContentType: "text/html", Gzip: []byte("a"), Renderer: "r1"})
		render := b.Answers
		b.Answers = func(ctx context.Context, r Reader, put func(Answer) error) error {
			renders++
			return render(ctx, r, put)
		}
		b.AnswersBy = "r1"
		return b
	}
	out := filepath.Join(t.TempDir(), "out.db")
	writeAt(t, out, build())
	db, err := sql.Open("sqlite", "file:"+out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE answers SET gz = 'damaged' WHERE key = '/a'"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	renders = 0
	writeAt(t, out, build())
	if renders != 1 {
		t.Errorf("rendered %d times, want once: the damaged answers were reused", renders)
	}
	s := openAt(t, out)
	if got, err := s.Answer(ctx, "/a"); err != nil || string(got.Gzip) != "a" {
		t.Errorf("/a = %q, %v", got.Gzip, err)
	}
	if err := s.Verify(ctx); err != nil {
		t.Error(err)
	}
}

// TestAnswersReusedFromThePageCache: a build of the same rows by the same
// renderer to another path copies the answers the page cache kept (the
// file byte for byte a rendered one); other rows, another renderer, or a
// cache file damaged since it was kept render again; files past the
// cache's bounds are removed, the newest kept.
func TestAnswersReusedFromThePageCache(t *testing.T) {
	ctx := context.Background()
	renders := 0
	cache := filepath.Join(t.TempDir(), "pages")
	build := func(version, by string, cacheDir string) *Build {
		b := answersBuild(Answer{Key: "/a", ContentType: "text/html", Gzip: []byte("a " + version), Renderer: by})
		render := b.Answers
		b.Answers = func(ctx context.Context, r Reader, put func(Answer) error) error {
			renders++
			return render(ctx, r, put)
		}
		b.Info.Version, b.AnswersBy, b.AnswersCache = version, by, cacheDir
		return b
	}
	dir := t.TempDir()
	n := 0
	write := func(version, by, cacheDir string) string {
		n++
		path := filepath.Join(dir, fmt.Sprintf("%d.db", n))
		renders = 0
		writeAt(t, path, build(version, by, cacheDir))
		return path
	}
	first := write("v1", "r1", cache)
	if renders != 1 {
		t.Fatalf("first build rendered %d times, want once", renders)
	}
	for _, step := range []struct {
		version, by string
		render      bool
	}{
		{"v1", "r1", false}, // kept by the first build
		{"v2", "r1", true},  // other rows
		{"v1", "r2", true},  // another renderer
		{"v1", "r1", false}, // still kept beside the others
	} {
		path := write(step.version, step.by, cache)
		if got := renders == 1; got != step.render {
			t.Errorf("%s by %s: rendered %v, want %v", step.version, step.by, got, step.render)
		}
		fresh := write(step.version, step.by, "")
		a, _ := os.ReadFile(path)
		b, _ := os.ReadFile(fresh)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s by %s: the database (%d bytes) is not the freshly rendered one (%d bytes)", step.version, step.by, len(a), len(b))
		}
		if err := openAt(t, path).Verify(ctx); err != nil {
			t.Errorf("%s by %s: %v", step.version, step.by, err)
		}
	}
	a, _ := os.ReadFile(first)
	if b, _ := os.ReadFile(write("v1", "r1", cache)); !bytes.Equal(a, b) || renders != 0 {
		t.Errorf("rendered %d times, want a copy of the first build", renders)
	}

	// Damage every kept file's answers: the next build renders.
	files, _ := filepath.Glob(filepath.Join(cache, "answers-*.db"))
	if len(files) != 3 {
		t.Fatalf("page cache holds %d files, want 3 (%v)", len(files), files)
	}
	for _, f := range files {
		db, err := sql.Open("sqlite", "file:"+f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("UPDATE answers SET gz = 'damaged'"); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	path := write("v1", "r1", cache)
	if renders != 1 {
		t.Errorf("rendered %d times, want once: damaged cached answers were reused", renders)
	}
	if got, err := openAt(t, path).Answer(ctx, "/a"); err != nil || string(got.Gzip) != "a v1" {
		t.Errorf("/a = %q, %v", got.Gzip, err)
	}

	// Past keptAnswerFiles the oldest go; the one just written stays.
	for i := range keptAnswerFiles + 2 {
		write(fmt.Sprintf("w%d", i), "r1", cache)
	}
	files, _ = filepath.Glob(filepath.Join(cache, "answers-*.db"))
	if len(files) != keptAnswerFiles {
		t.Errorf("page cache holds %d files, want %d", len(files), keptAnswerFiles)
	}
	write(fmt.Sprintf("w%d", keptAnswerFiles+1), "r1", cache)
	if renders != 0 {
		t.Errorf("the newest kept answers were rendered again")
	}
}

package web

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
)

// prerendered writes the sample reference with the build's stored answers,
// each passed through edit (nil keeps them), and opens it.
func prerendered(t *testing.T, edit func(*store.Answer)) *store.DB {
	t.Helper()
	b := webfake.Build()
	b.Answers = func(ctx context.Context, r store.Reader, put func(store.Answer) error) error {
		return Prerender(ctx, r, func(a store.Answer) error {
			if edit != nil {
				edit(&a)
			}
			return put(a)
		}, PrerenderOptions{})
	}
	return webfake.Open(t, b)
}

// gunzip inflates a kept answer's gzip body.
func gunzip(t *testing.T, gz []byte) []byte {
	t.Helper()
	p, err := (&answer{gz: gz}).plainBody()
	if err != nil {
		t.Fatal(err)
	}
	return p.body
}

// TestStoredAnswersAreTheRenderedPages: every page the build stores is, byte
// for byte, what a server renders on demand from the same database, with the
// same headers; and the server sends the stored one.
func TestStoredAnswersAreTheRenderedPages(t *testing.T) {
	db := prerendered(t, nil)
	n, err := db.AnswerCount(context.Background())
	if err != nil || n < 20 {
		t.Fatalf("stored %d answers (%v), want every page of the sample", n, err)
	}
	kept, err := newServer(db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rendering, err := newServer(db, Options{CacheBytes: -1}) // the cache off renders every request
	if err != nil {
		t.Fatal(err)
	}
	pages, _, err := rendering.exportURLs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range pages {
		st, err := db.Answer(context.Background(), p)
		if strings.HasPrefix(p, "/compare/") {
			if err == nil {
				t.Errorf("%s is stored; compare pages are rendered on demand", p)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: no stored answer: %v", p, err)
			continue
		}
		want := get(t, rendering, p)
		if got := gunzip(t, st.Gzip); !bytes.Equal(got, want.Body.Bytes()) {
			t.Errorf("%s: the stored page (%d bytes) is not the rendered one (%d bytes)", p, len(got), want.Body.Len())
		}
		if st.ContentType != want.Header().Get("Content-Type") {
			t.Errorf("%s: stored Content-Type %q, rendered %q", p, st.ContentType, want.Header().Get("Content-Type"))
		}
		got := get(t, kept, p, "Accept-Encoding", "gzip")
		if got.Code != 200 || !bytes.Equal(got.Body.Bytes(), st.Gzip) {
			t.Errorf("%s: the server did not send the stored answer (%d, %d bytes)", p, got.Code, got.Body.Len())
		}
		for _, h := range []string{"Content-Type", "Cache-Control", "Etag", "Vary"} {
			if got.Header().Get(h) != want.Header().Get(h) {
				t.Errorf("%s: %s %q, rendered %q", p, h, got.Header().Get(h), want.Header().Get(h))
			}
		}
		if plain := get(t, kept, p); !bytes.Equal(plain.Body.Bytes(), want.Body.Bytes()) {
			t.Errorf("%s: without gzip, the stored answer inflated is not the page", p)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("checked %d pages", checked)
	}
}

// TestStoredAnswersOfAnotherRenderer: a database whose answers another
// gpuisa rendered (other templates, other hashed static assets) is served
// with pages rendered here.
func TestStoredAnswersOfAnotherRenderer(t *testing.T) {
	const marker = "<!doctype html><p>rendered elsewhere</p>"
	for _, tc := range []struct {
		renderer string
		stored   bool
	}{{rendererID(), true}, {"go:another-build", false}} {
		db := prerendered(t, func(a *store.Answer) {
			a.Renderer = tc.renderer
			if a.Key == "/amdgpu/cdna4/v_max_f32" {
				a.Gzip = gzipKept([]byte(marker))
			}
		})
		s, err := newServer(db, Options{})
		if err != nil {
			t.Fatal(err)
		}
		body := get(t, s, "/amdgpu/cdna4/v_max_f32").Body.String()
		if got := body == marker; got != tc.stored {
			t.Errorf("renderer %q: served the stored answer %v, want %v (%.80q)", tc.renderer, got, tc.stored, body)
		}
	}
}

// TestStoredAnswersReusedByTheNextBuild: a build of the same rows onto the
// database the previous build wrote keeps its pages without rendering, and
// the file is byte for byte a fresh build's.
func TestStoredAnswersReusedByTheNextBuild(t *testing.T) {
	ctx := context.Background()
	renders := 0
	build := func() *store.Build {
		b := webfake.Build()
		b.AnswersBy = RendererID()
		b.Answers = func(ctx context.Context, r store.Reader, put func(store.Answer) error) error {
			renders++
			return Prerender(ctx, r, put, PrerenderOptions{})
		}
		return b
	}
	dir := t.TempDir()
	out, fresh := filepath.Join(dir, "out.db"), filepath.Join(dir, "fresh.db")
	for _, p := range []string{out, out, fresh} {
		if err := store.Write(ctx, p, build()); err != nil {
			t.Fatal(err)
		}
	}
	if renders != 2 {
		t.Errorf("rendered %d times, want 2 (the second build onto %s reuses)", renders, out)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(fresh)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the database with reused pages (%d bytes) is not a fresh build's (%d bytes)", len(a), len(b))
	}
}

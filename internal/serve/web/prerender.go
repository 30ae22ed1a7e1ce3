package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/base/selfid"
	"github.com/gpuisa/gpuisa/internal/store"
)

// The build renders the site's pages once and stores them, gzip-compressed,
// in the database (store.Build.Answers): a page's first request on a fresh
// server is then a row read (tens of microseconds) instead of a render
// (3-5 ms of CPU, which a burst of first requests queues behind). A stored
// answer is used only by a program with the renderer that rendered it —
// the page's HTML names the hashed static assets and comes from the
// templates and code — so each carries the renderer's identity
// (rendererID: the code of this package and what it imports, not the
// whole binary's); another renderer renders on demand, as without stored
// answers.

// PrerenderOptions configure Prerender.
type PrerenderOptions struct {
	// Progress, when not nil, is called as pages are rendered.
	Progress func(done, total int)
}

// Prerender renders the site's pages from r as the server answers them and
// hands each to put: every page Export writes except the /compare pages
// (one per AMD instruction name, each reading every family's document:
// rendered on demand). The API's instruction documents are not among them:
// the store keeps them compressed (an AMD one is re-made from its stored
// form on its first request, store/layout.go).
func Prerender(ctx context.Context, r store.Reader, put func(store.Answer) error, opts PrerenderOptions) error {
	s, err := newServer(r, Options{CacheBytes: -1})
	if err != nil {
		return err
	}
	all, _, err := s.exportURLs(ctx)
	if err != nil {
		return err
	}
	var urls []string
	for _, u := range all {
		if !strings.HasPrefix(u, "/compare/") {
			urls = append(urls, u)
		}
	}
	id := rendererID()
	var mu sync.Mutex // put is called from one goroutine at a time
	return renderEach(ctx, s, urls, opts.Progress, func(i int, rec *httptest.ResponseRecorder) error {
		if rec.Code != http.StatusOK {
			return fmt.Errorf("%s answered %d", urls[i], rec.Code)
		}
		a := store.Answer{Key: urls[i], ContentType: rec.Header().Get("Content-Type"), Gzip: gzipKept(rec.Body.Bytes()), Renderer: id}
		mu.Lock()
		defer mu.Unlock()
		return put(a)
	})
}

// renderEach answers a GET of every URL with s, on as many goroutines as
// there are cores, and calls each (concurrently) with the URL's index and
// its response. It stops at the first error.
func renderEach(ctx context.Context, s *server, urls []string, progress func(done, total int), each func(int, *httptest.ResponseRecorder) error) error {
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	done := 0
	var firstErr error
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				req := httptest.NewRequest(http.MethodGet, urls[i], nil).WithContext(ctx)
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				err := each(i, rec)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				done++
				if progress != nil {
					progress(done, len(urls))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range urls {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// storedAnswer is the build's answer for key, kept in the cache; nil when
// the build stored none or another program rendered it.
func (s *server) storedAnswer(ctx context.Context, key string) *answer {
	if s.cache == nil || strings.IndexByte(key, '?') >= 0 || s.noStoredAnswers.Load() {
		return nil
	}
	st, err := s.store.Answer(ctx, key)
	switch {
	case errs.KindOf(err) == errs.KindNotFound:
		return nil
	case err != nil:
		s.log.Error("reading a stored answer", "key", key, "err", err)
		return nil
	case st.Renderer != rendererID():
		// A database rendered by another build of gpuisa: its pages may
		// name other static assets. Render them here instead.
		if s.noStoredAnswers.CompareAndSwap(false, true) {
			s.log.Info("stored pages were rendered by another gpuisa binary; rendering pages on demand", "renderer", st.Renderer)
		}
		return nil
	}
	return s.cache.put(key, newGzipAnswer(st.ContentType, s.etag, s.maxAge, st.Gzip))
}

// RendererID is the identity the build's pages carry (rendererID): the
// build keeps the previous database's pages when this renderer made them
// from the same rows (store.Build.AnswersBy).
func RendererID() string { return rendererID() }

// rendererID identifies this program's renderer: the code of this package
// and every package of the module it imports, templates and static assets
// included (selfid.Code), so a build whose other code changed keeps the
// pages it rendered from the same rows.
func rendererID() string {
	if id := selfid.Code("internal/serve/web"); id != "" {
		return id
	}
	return "unknown"
}

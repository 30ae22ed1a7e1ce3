package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/serve/web"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// A first serve builds a provisional database from the documents, answers
// from it, and swaps to each database the background passes write, without
// an answer other than 200 on the way; the next serve of the same path starts
// from the verified database and verifies nothing again. The passes run
// without their oracles here (--no-verify: the oracles have their own tests),
// so what is under test is the sequence: provisional, each pass landing, the
// swap, the progress, and the last database no longer provisional.
func TestServeAnswersFirstAndVerifiesInBackground(t *testing.T) {
	needDB(t)
	src := testenv.FindUpstream()
	log := &syncWriter{w: &bytes.Buffer{}}
	e := &env{stdout: &bytes.Buffer{}, stderr: log, dbPath: filepath.Join(t.TempDir(), "gpuisa.db")}
	ctx := context.Background()

	// The provisional database, as serve writes it when the path is empty.
	first := buildFlags{sources: src}
	quick := first
	quick.noVerify, quick.noPrerender, quick.provisional = true, true, documentsOnly
	if _, err := runBuild(ctx, e, &quick, e.dbPath, true); err != nil {
		t.Fatal(err)
	}
	if p, err := provisionalOf(ctx, e.dbPath); err != nil || p != documentsOnly {
		t.Fatalf("provisional = %q, %v", p, err)
	}
	// Found at the path again (a serve stopped before its passes landed),
	// it is verified again.
	if verify, err := e.prepareServe(ctx, &buildFlags{sources: src}, false); err != nil || !verify {
		t.Fatalf("prepareServe on a provisional database: verify=%v, %v", verify, err)
	}

	status := newVerifyStatus(nil)
	site, err := web.Open(e.dbPath, web.Options{WatchInterval: -1, Verification: status.snapshot})
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	provisionalBuild := site.BuildID()

	// Clients ask throughout; every answer must be a 200.
	var bad atomic.Int64
	var asked atomic.Int64
	stop := make(chan struct{})
	var clients sync.WaitGroup
	for _, path := range []string{"/healthz", "/amdgpu/cdna3/v_max_f32", "/api/v1/status"} {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
				rec := httptest.NewRecorder()
				site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				asked.Add(1)
				if rec.Code != http.StatusOK {
					bad.Add(1)
					t.Errorf("%s answered %d during verification: %s", path, rec.Code, rec.Body)
				}
			}
		}()
	}

	// Rendering every page has its own tests, and a minute.
	passes := buildFlags{sources: src, noVerify: true, noPrerender: true}
	e.verifyInBackground(ctx, &passes, site, status)
	close(stop)
	clients.Wait()

	v := status.snapshot()
	if v.Running || v.Failed != "" || len(v.Landed) != 2 {
		t.Errorf("after the passes: %+v", v)
	}
	if site.BuildID() == provisionalBuild {
		t.Errorf("the site still serves the provisional build %s", provisionalBuild)
	}
	if p, err := provisionalOf(ctx, e.dbPath); err != nil || p != "" {
		t.Errorf("the last pass's database: provisional %q, %v", p, err)
	}
	if asked.Load() == 0 {
		t.Error("no request was made during verification")
	}
	logged := log.String()
	for _, want := range []string{"verification pass 1 of 2: llvm-mc, llvm-mca, opt landed", "verification pass 2 of 2: ptxas, nvdisasm, pages landed"} {
		if !strings.Contains(logged, want) {
			t.Errorf("log lacks %q:\n%s", want, logged)
		}
	}
	// The next serve starts from it.
	if verify, err := e.prepareServe(ctx, &buildFlags{sources: src}, false); err != nil || verify {
		t.Errorf("prepareServe on the verified database: verify=%v, %v", verify, err)
	}
}

// syncWriter serialises writes from the passes and the test.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}

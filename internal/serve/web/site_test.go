package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
)

// sampleBuilds are three different databases from the sample data: the
// whole sample, the sample with other summaries, and one without PTX (a
// different source set).
func sampleBuilds() (full, edited, noPTX *store.Build) {
	full = webfake.Build()
	edited = webfake.Build()
	for _, in := range edited.Instructions {
		in.Summary += " (edited)"
	}
	noPTX = webfake.Build()
	var archs []isa.Architecture
	for _, a := range noPTX.Archs {
		if a.ID != "ptx" {
			archs = append(archs, a)
		}
	}
	var ins []*isa.Instruction
	for _, in := range noPTX.Instructions {
		if in.Arch != "ptx" {
			ins = append(ins, in)
		}
	}
	noPTX.Archs, noPTX.Instructions = archs, ins
	return full, edited, noPTX
}

// openSite serves the database at path with opts; it is closed when t
// ends.
func openSite(t testing.TB, path string, opts Options) *Site {
	t.Helper()
	site, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { site.Close() })
	return site
}

// writeDB writes b at path the way `gpuisa build --out` does and returns its
// build id.
func writeDB(t testing.TB, path string, b *store.Build) string {
	t.Helper()
	if err := store.Write(context.Background(), path, b); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	info, _ := db.Info(context.Background())
	return info.ID
}

// swapPaths are the requests of the swap test: pages, API documents, a
// search, a compare page and the PTX pages the third database lacks.
var swapPaths = []string{"/", "/amdgpu/cdna4", "/amdgpu/cdna4/v_max_f32", "/ptx/max", "/ptx", "/compare/v_max_f32",
	"/search?q=max", "/api/v1/info", "/api/v1/archs", "/api/v1/archs/cdna4/instructions/v_max_f32",
	"/api/v1/archs/ptx/instructions/max", "/api/v1/search?q=max", "/decode?arch=cdna4&hex=0x160a04c1"}

// TestSiteSwapsWholeGenerations is the swap test: 64 clients on loopback
// while the database is replaced three times (once by one without PTX),
// deleted, and written again. No answer may be a 5xx, and every answer must
// come from one generation: the build id header, the ETag and (for
// /api/v1/info) the body name the same build. /healthz answers 503 while
// the file is gone and 200 once it is back.
func TestSiteSwapsWholeGenerations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "site.db")
	full, edited, noPTX := sampleBuilds()
	ids := []string{writeDB(t, path, full)}
	site := openSite(t, path, Options{WatchInterval: 5 * time.Millisecond})
	srv := httptest.NewServer(site)
	defer srv.Close()

	var stop atomic.Bool
	var served, bad atomic.Int64
	seen := sync.Map{} // build ids answered
	var failures sync.Map
	fail := func(format string, args ...any) {
		bad.Add(1)
		failures.LoadOrStore(fmt.Sprintf(format, args...), true)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var wg sync.WaitGroup
	for c := 0; c < 64; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; !stop.Load(); i++ {
				p := swapPaths[i%len(swapPaths)]
				resp, err := client.Get(srv.URL + p)
				if err != nil {
					fail("GET %s: %v", p, err)
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				served.Add(1)
				build := resp.Header.Get(BuildHeader)
				seen.Store(build, true)
				switch {
				case resp.StatusCode >= 500:
					fail("GET %s: %d %.100s", p, resp.StatusCode, body)
				case build == "":
					fail("GET %s: no %s header", p, BuildHeader)
				case resp.Header.Get("ETag") != "" && !strings.Contains(resp.Header.Get("ETag"), build):
					fail("GET %s: ETag %s, build %s", p, resp.Header.Get("ETag"), build)
				case p == "/api/v1/info" && resp.StatusCode == 200:
					var info isa.BuildInfo
					if err := json.Unmarshal(body, &info); err != nil || info.ID != build {
						fail("GET %s: body names build %q, header %q", p, info.ID, build)
					}
				case p == "/ptx/max" && resp.StatusCode == 200 && !strings.Contains(string(body), "Maximum of two values"):
					fail("GET %s: 200 without the page", p)
				}
			}
		}(c)
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	health := func() int {
		resp, err := client.Get(srv.URL + "/healthz")
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	settle := func() { time.Sleep(100 * time.Millisecond) } // load on each generation

	settle()
	for _, b := range []*store.Build{edited, noPTX, full} {
		id := writeDB(t, path, b)
		ids = append(ids, id)
		waitFor("build "+id, func() bool { return site.BuildID() == id })
		settle()
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	waitFor("/healthz 503 after the file was deleted", func() bool { return health() == http.StatusServiceUnavailable })
	if !strings.Contains(site.Problem(), "no such file") {
		t.Errorf("problem %q does not say the file is missing", site.Problem())
	}
	settle()
	id := writeDB(t, path, edited)
	waitFor("/healthz 200 after the file came back", func() bool { return health() == http.StatusOK })
	if site.BuildID() != id {
		t.Errorf("serving %s after the file came back, want %s", site.BuildID(), id)
	}
	settle()
	stop.Store(true)
	wg.Wait()

	failures.Range(func(k, _ any) bool {
		t.Error(k)
		return true
	})
	var builds []string
	seen.Range(func(k, _ any) bool {
		builds = append(builds, k.(string))
		return true
	})
	t.Logf("%d answers, %d bad, builds answered: %v (written: %v)", served.Load(), bad.Load(), builds, ids)
	if len(builds) < 3 {
		t.Errorf("answers came from %d builds; the swaps were not exercised", len(builds))
	}
}

// TestSiteKeepsServingAnInvalidReplacement: a file at the path that is not
// a valid database is reported on /healthz and not served.
func TestSiteKeepsServingAnInvalidReplacement(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "site.db")
	full, edited, _ := sampleBuilds()
	first := writeDB(t, path, full)
	site := openSite(t, path, Options{WatchInterval: -1})
	good, _ := os.ReadFile(path)
	for name, data := range map[string][]byte{
		"truncated": good[:len(good)/3],
		"garbage":   []byte(strings.Repeat("\x00\xff garbage", 1000)),
	} {
		tmp := filepath.Join(dir, name)
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		site.Reload()
		rec := get(t, site, "/healthz")
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "not served") {
			t.Errorf("%s: /healthz %d %q", name, rec.Code, rec.Body)
		}
		if got := get(t, site, "/amdgpu/cdna4/v_max_f32"); got.Code != 200 || got.Header().Get(BuildHeader) != first {
			t.Errorf("%s: page %d from build %q, want 200 from %s", name, got.Code, got.Header().Get(BuildHeader), first)
		}
	}
	second := writeDB(t, path, edited)
	site.Reload()
	if rec := get(t, site, "/healthz"); rec.Code != 200 || !strings.Contains(rec.Body.String(), second) {
		t.Errorf("after a valid file: /healthz %d %q", rec.Code, rec.Body)
	}
}

// TestSiteClosesRetiredGenerations: an old generation's database closes
// once the requests using it are done, and a request never sees a closed
// one.
func TestSiteClosesRetiredGenerations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "site.db")
	full, edited, _ := sampleBuilds()
	writeDB(t, path, full)
	site := openSite(t, path, Options{WatchInterval: -1})
	old := site.cur.Load()
	if !old.acquire() { // a request in flight on the old generation
		t.Fatal("acquire failed")
	}
	writeDB(t, path, edited)
	site.Reload()
	if site.cur.Load() == old {
		t.Fatal("no swap")
	}
	if _, err := old.db.Info(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.Instruction(context.Background(), "cdna4", "v_max_f32"); err != nil {
		t.Errorf("the old generation closed while a request used it: %v", err)
	}
	old.release()
	// The search index build holds the generation while it runs.
	for deadline := time.Now().Add(5 * time.Second); old.refs.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if old.acquire() {
		t.Error("a retired generation with no requests was acquired")
	}
	if _, err := old.db.Instruction(context.Background(), "cdna4", "v_max_f32"); err == nil {
		t.Error("the retired generation's database is still open")
	}
}

// sqliteCoded is an error with SQLite's result code, as modernc's.
type sqliteCoded int

func (c sqliteCoded) Error() string { return fmt.Sprintf("sqlite error %d", int(c)) }
func (c sqliteCoded) Code() int     { return int(c) }

// TestDamagedDatabaseAnswers503: a read the database file fails
// (corrupt, not a database, I/O: a file rewritten in place) is the
// server's state, answered 503 with a short message, not 500; other
// errors stay 500.
func TestDamagedDatabaseAnswers503(t *testing.T) {
	s := newTestServer(t)
	for _, c := range []struct {
		err    error
		status int
	}{
		{fmt.Errorf("store: reading: %w", sqliteCoded(11)), http.StatusServiceUnavailable},
		{sqliteCoded(26), http.StatusServiceUnavailable},
		{sqliteCoded(10 | 2<<8), http.StatusServiceUnavailable}, // SQLITE_IOERR_READ
		{sqliteCoded(1), http.StatusInternalServerError},
		{errors.New("other"), http.StatusInternalServerError},
	} {
		for name, fail := range map[string]func(http.ResponseWriter, *http.Request, error){"page": s.fail, "api": s.apiFail} {
			rec := httptest.NewRecorder()
			fail(rec, httptest.NewRequest(http.MethodGet, "/x", nil), c.err)
			if rec.Code != c.status || (c.status == http.StatusServiceUnavailable && !strings.Contains(rec.Body.String(), "could not be read")) {
				t.Errorf("%s %v: %d %q (want %d)", name, c.err, rec.Code, rec.Body, c.status)
			}
		}
	}
}

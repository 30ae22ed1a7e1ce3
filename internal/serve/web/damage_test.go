package web

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/store"
)

// damagePaths are uncached API answers and pages (the site runs with its
// cache off), each read from the database on every request, with one that
// is a 404 in every build.
var damagePaths = []string{"/api/v1/archs/cdna4/instructions/v_max_f32", "/api/v1/archs/ptx/instructions/max",
	"/api/v1/archs/cdna4/instructions", "/api/v1/search?q=max", "/amdgpu/cdna4/v_max_f32", "/ptx/max",
	"/api/v1/archs/cdna4/instructions/v_no_such_op"}

// withLargeDocuments adds to b a cdna4 instruction for each name, a copy of
// v_max_f32 with two megabytes of random letters in a note: their API
// documents, read from the file and sent as stored, are more than
// SQLite's page cache keeps, so every request for them reads the file.
func withLargeDocuments(b *store.Build, names ...string) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, in := range b.Instructions {
		if in.Arch != "cdna4" || in.Name != "v_max_f32" {
			continue
		}
		for _, name := range names {
			text := make([]byte, 2<<20)
			for i := range text {
				text[i] = 'a' + byte(r.IntN(26))
			}
			large := *in
			// In a field search does not index and AMD pages do not show:
			// the documents are large, not the work of answering them.
			large.Name, large.PTXNotes, large.Aliases = name, []string{string(text)}, nil
			b.Instructions = append(b.Instructions, &large)
			b.Info.Counts["cdna4"]++
		}
		return
	}
	panic("the sample has no cdna4 v_max_f32")
}

// damagedCopies are the bytes of a good database file damaged as the
// issue's runs damaged it: cut in half, and random bytes over its middle
// third with the header intact.
func damagedCopies(good []byte) map[string][]byte {
	r := rand.New(rand.NewPCG(7, 8))
	middle := append([]byte(nil), good...)
	for i := len(middle) / 3; i < 2*len(middle)/3; i++ {
		middle[i] = byte(r.Uint32())
	}
	return map[string][]byte{"truncated": good[:len(good)/2], "random middle": middle}
}

// healthOf returns /healthz's status and body.
func healthOf(t testing.TB, h http.Handler) (int, string) {
	t.Helper()
	rec := get(t, h, "/healthz")
	return rec.Code, rec.Body.String()
}

// TestSiteRefusesADamagedMiddle: a new build whose middle is random bytes
// (the header intact: it opens) is refused before it answers; /healthz
// names the damage and the build still serving, which answers every page
// as before. A server does not start on such a file.
func TestSiteRefusesADamagedMiddle(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "site.db")
	full, edited, _ := sampleBuilds()
	first := writeDB(t, path, full)
	site := openSite(t, path, Options{WatchInterval: -1, CacheBytes: -1})
	want := map[string]int{}
	for _, p := range damagePaths {
		want[p] = get(t, site, p).Code
	}
	// Padded, so that the damage lies past the pages opening a database
	// reads: only validating it all sees it.
	r := rand.New(rand.NewPCG(9, 10))
	padding := make([]byte, 1<<20)
	for i := range padding {
		padding[i] = 'a' + byte(r.IntN(26))
	}
	edited.Extras["padding"] = padding
	next := filepath.Join(dir, "next.db")
	writeDB(t, next, edited)
	good, err := os.ReadFile(next)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.db")
	if err := os.WriteFile(damaged, damagedCopies(good)["random middle"], 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(damaged, Options{WatchInterval: -1}); err == nil {
		s.Close()
		t.Error("a server started on a file with a damaged middle")
	} else if !strings.Contains(err.Error(), "damaged") {
		t.Errorf("starting on a damaged file: %v", err)
	}
	if err := os.Rename(damaged, path); err != nil {
		t.Fatal(err)
	}
	site.Reload()
	code, body := healthOf(t, site)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "damaged") || !strings.Contains(body, "serving build "+first) {
		t.Errorf("/healthz %d %q, want 503 naming the damage and build %s", code, body, first)
	}
	for _, p := range damagePaths {
		rec := get(t, site, p)
		if rec.Code != want[p] || rec.Header().Get(BuildHeader) != first {
			t.Errorf("%s: %d from build %q, want %d from %s", p, rec.Code, rec.Header().Get(BuildHeader), want[p], first)
		}
	}
}

// TestSiteSurvivesInPlaceOverwrites is the in-place test: 16 clients on
// loopback ask for uncached answers while the served file is written over
// in place (the same inode, as cp writes it) with a truncated copy and
// with a copy whose middle is random bytes. Every answer must be what the
// served build answered before (no 5xx, no 404 where there was a page),
// from that build; /healthz names the build answering and says the file
// changed and was refused. A valid build written in place afterwards is
// validated and served.
func TestSiteSurvivesInPlaceOverwrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "site.db")
	full, edited, _ := sampleBuilds()
	withLargeDocuments(full, "v_large_a", "v_large_b")
	paths := append([]string{"/api/v1/archs/cdna4/instructions/v_large_a", "/api/v1/archs/cdna4/instructions/v_large_b"}, damagePaths...)
	first := writeDB(t, path, full)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	site := openSite(t, path, Options{WatchInterval: 2 * time.Millisecond, CacheBytes: -1})
	// What each answers before: every later answer must be the same bytes.
	want := map[string]int{}
	wantBody := map[string]string{}
	for _, p := range paths {
		rec := get(t, site, p)
		want[p], wantBody[p] = rec.Code, rec.Body.String()
	}
	srv := httptest.NewServer(site)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var stop atomic.Bool
	var served atomic.Int64
	var failures sync.Map
	var wg sync.WaitGroup
	for c := 0; c < 16; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; !stop.Load(); i++ {
				p := paths[i%len(paths)]
				resp, err := client.Get(srv.URL + p)
				if err != nil {
					failures.LoadOrStore(fmt.Sprintf("GET %s: %v", p, err), true)
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				served.Add(1)
				switch {
				case resp.StatusCode != want[p] || resp.Header.Get(BuildHeader) != first:
					failures.LoadOrStore(fmt.Sprintf("GET %s: %d from build %q, want %d from %s: %.100s",
						p, resp.StatusCode, resp.Header.Get(BuildHeader), want[p], first, body), true)
				case string(body) != wantBody[p]:
					failures.LoadOrStore(fmt.Sprintf("GET %s: %d bytes, not the %d answered before", p, len(body), len(wantBody[p])), true)
				}
			}
		}(c)
	}
	waitHealth := func(what string, cond func(int, string) bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; {
			code, body := healthOf(t, site)
			if cond(code, body) {
				return
			}
			if time.Now().After(deadline) {
				stop.Store(true)
				t.Fatalf("%s: /healthz still %d %q", what, code, body)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	for name, data := range damagedCopies(good) {
		time.Sleep(50 * time.Millisecond) // load on the good file first
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		waitHealth(name, func(code int, body string) bool {
			return code == http.StatusServiceUnavailable && strings.Contains(body, "changed in place and was refused") &&
				strings.Contains(body, "serving build "+first)
		})
		// Load while the damaged file is at the path: some answers of each
		// kind (the machine may be busy: a count, not a time).
		before := served.Load()
		for deadline := time.Now().Add(10 * time.Second); served.Load() < before+int64(2*len(paths)); {
			if time.Now().After(deadline) {
				t.Errorf("%s: %d answers in 10 s while the file was at the path", name, served.Load()-before)
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	stop.Store(true)
	wg.Wait()
	failures.Range(func(k, _ any) bool {
		t.Error(k)
		return true
	})
	if served.Load() == 0 {
		t.Fatal("no request was answered")
	}
	t.Logf("%d answers while the file was written over", served.Load())

	// A valid build written in place is a new file like any other; while
	// it is validated (its large documents take a while), /healthz says so
	// and names the build still answering.
	withLargeDocuments(edited, "v_large_a", "v_large_b", "v_large_c", "v_large_d")
	other := filepath.Join(t.TempDir(), "next.db")
	second := writeDB(t, other, edited)
	data, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sawValidating := false
	waitHealth("a valid build written in place", func(code int, body string) bool {
		// 503 still, when the damaged file before it is what /healthz
		// reports: it is at the path until this one validates.
		if strings.Contains(body, "validating a new database file") && strings.Contains(body, "serving build "+first) {
			sawValidating = true
		}
		return code == http.StatusOK && strings.HasPrefix(body, "ok "+second+"\n")
	})
	if !sawValidating {
		t.Error("/healthz never said the new file was being validated")
	}
}

package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
)

// FuzzRequests sends arbitrary paths and queries; the handler must never
// panic and never answer 500.
func FuzzRequests(f *testing.F) {
	for _, seed := range []string{"/amdgpu/cdna4/v_max_f32", "/amdgpu/%00/x", "/ptx/..%2f", "/compare/", "/search?q=%ff%fe",
		"/api/v1/search?q=a&limit=-1", "/amdgpu/rdna3.5/v_max_f32_e64", "/static/../go.mod", "/amdgpu/cdna4/v_max_f32?x=<script>"} {
		f.Add(seed)
	}
	s := newTestServer(f)
	f.Fuzz(func(t *testing.T, target string) {
		rec := fuzzGet(s, target)
		if rec != nil && rec.Code >= 500 {
			t.Fatalf("GET %q: %d %s", target, rec.Code, rec.Body)
		}
	})
}

// fuzzGet sends a fuzzed request target to h; nil when it is not one a
// client could send (not a request URI, or no leading "/").
func fuzzGet(h http.Handler, target string) *httptest.ResponseRecorder {
	u, err := url.ParseRequestURI(target)
	if err != nil || !strings.HasPrefix(u.Path, "/") {
		return nil
	}
	req := httptest.NewRequest(http.MethodGet, "http://example.test/", nil)
	req.URL = u
	req.RequestURI = u.RequestURI()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// BenchmarkInstructionPage measures rendering: the answer cache is off.
func BenchmarkInstructionPage(b *testing.B) {
	s := testServer(b, webfake.New(b), Options{CacheBytes: -1})
	benchmarkGet(b, s, httptest.NewRequest(http.MethodGet, "/amdgpu/cdna4/v_max_f32", nil))
}

// benchmarkGet serves req over and over; every answer must be 200.
func benchmarkGet(b *testing.B, h http.Handler, req *http.Request) {
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkInstructionPageCached measures a repeated request served from the
// answer cache, compressed.
func BenchmarkInstructionPageCached(b *testing.B) {
	s := newTestServer(b)
	req := httptest.NewRequest(http.MethodGet, "/amdgpu/cdna4/v_max_f32", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	benchmarkGet(b, s, req)
}

func BenchmarkAPIInstruction(b *testing.B) {
	s := testServer(b, webfake.New(b), Options{CacheBytes: -1})
	benchmarkGet(b, s, httptest.NewRequest(http.MethodGet, "/api/v1/archs/cdna4/instructions/v_max_f32", nil))
}

// TestLoad runs 64 concurrent clients against a loopback server for
// GPUISA_LOAD_SECONDS (default 30) per scenario and reports requests per
// second and p50/p99 latency. It is opt-in: GPUISA_LOAD=1; GPUISA_LOAD_CACHE=off
// measures with the answer cache off; GPUISA_DB=FILE loads a built database
// instead of the sample reference, and then the pages are 1,000
// instructions spread over every family (not a handful the answer cache
// would serve). With
// GPUISA_LOAD_URL=http://127.0.0.1:PORT the clients load an already running
// `gpuisa serve` instead (loopback addresses only), so its own RSS can be read.
func TestLoad(t *testing.T) {
	if os.Getenv("GPUISA_LOAD") != "1" {
		t.Skip("load test is opt-in: set GPUISA_LOAD=1 (and optionally GPUISA_LOAD_SECONDS)")
	}
	seconds := 30
	if v := os.Getenv("GPUISA_LOAD_SECONDS"); v != "" {
		fmt.Sscan(v, &seconds)
	}
	opts := Options{}
	if os.Getenv("GPUISA_LOAD_CACHE") == "off" {
		opts.CacheBytes = -1 // measure rendering under load
	}
	var r store.Reader = webfake.New(t)
	if path := os.Getenv("GPUISA_DB"); path != "" {
		r = realdb.Open(t, path)
	}
	base := os.Getenv("GPUISA_LOAD_URL")
	if base != "" {
		u, err := url.Parse(base)
		if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
			t.Fatalf("GPUISA_LOAD_URL %q: only loopback servers may be loaded", base)
		}
	} else {
		srv := httptest.NewServer(testServer(t, r, opts)) // binds 127.0.0.1 only
		defer srv.Close()
		base = srv.URL
	}

	pages := []string{"/amdgpu/cdna4/v_max_f32", "/amdgpu/rdna3/v_max_f32", "/amdgpu/cdna4/s_mov_b32", "/ptx/max", "/amdgpu/rdna4/v_max_num_f32"}
	if os.Getenv("GPUISA_DB") != "" {
		pages = spreadPages(t, r, 1000)
	}
	searches := []string{"/search?q=v_max", "/search?q=v_max_f23", "/search?q=fused+multiply+add", "/api/v1/search?q=max", "/api/v1/search?q=v_fm",
		"/search?q=s_load", "/search?q=global+atomic", "/search?q=ds_rea", "/api/v1/search?q=mfma", "/search?q=cvt.rni"}
	for _, sc := range []struct {
		name  string
		paths []string
	}{{"instruction pages", pages}, {"search", searches}} {
		r := runLoad(t, base, sc.paths, 64, time.Duration(seconds)*time.Second)
		t.Logf("%-17s %d clients %ds: %d requests, %.0f req/s, p50 %v, p99 %v, errors %d",
			sc.name, 64, seconds, r.n, r.rps, r.p50, r.p99, r.errors)
		if r.errors > 0 {
			t.Errorf("%s: %d errors", sc.name, r.errors)
		}
	}
	t.Logf("peak RSS of the test process (server and clients): %s", peakRSS())
}

// spreadPages picks n instruction pages evenly over every family.
func spreadPages(t *testing.T, r store.Reader, n int) []string {
	ctx := context.Background()
	archs, err := r.Archs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, a := range archs {
		list, err := r.List(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		prefix := "/amdgpu/" + a.ID + "/"
		if a.ID == "ptx" {
			prefix = "/ptx/"
		}
		for _, s := range list {
			all = append(all, prefix+url.PathEscape(s.Name))
		}
	}
	step := max(1, len(all)/n)
	var out []string
	for i := 0; i < len(all) && len(out) < n; i += step {
		out = append(out, all[i])
	}
	return out
}

type loadResult struct {
	n, errors int64
	rps       float64
	p50, p99  time.Duration
}

func runLoad(t *testing.T, base string, paths []string, clients int, d time.Duration) loadResult {
	transport := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: false}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var errors, count atomic.Int64
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; ctx.Err() == nil; i++ {
				t0 := time.Now()
				resp, err := client.Get(base + paths[i%len(paths)])
				if err != nil {
					if ctx.Err() == nil {
						errors.Add(1)
					}
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errors.Add(1)
				}
				lat[c] = append(lat[c], time.Since(t0))
				count.Add(1)
			}
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	r := loadResult{n: count.Load(), errors: errors.Load(), rps: float64(count.Load()) / elapsed.Seconds()}
	if len(all) > 0 {
		r.p50 = all[len(all)*50/100]
		r.p99 = all[len(all)*99/100]
	}
	return r
}

func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}

// TestSlowUploadsHoldNoRenderSlot: two clients trickling POST /explain
// bodies (each over 3 s) while every render slot there is would be theirs
// if a body were read inside one; a GET for an uncached search still
// answers at once, and the uploads are explained when they arrive.
func TestSlowUploadsHoldNoRenderSlot(t *testing.T) {
	s := newTestServer(t)
	s.renderSlots = make(chan struct{}, 2) // as many as the slow clients
	ts := httptest.NewServer(s)
	defer ts.Close()
	form := "arch=cdna4&text=0x160a04c1&pad=" + strings.Repeat("a", 300)
	const chunks, every = 30, 100 * time.Millisecond // 3 s a body
	type result struct {
		status int
		took   time.Duration
		err    error
	}
	done := make(chan result, 2)
	start := time.Now()
	for range 2 {
		go func() {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				done <- result{err: err}
				return
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /explain HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n", len(form))
			step := len(form) / chunks // at least chunks writes
			for i := 0; i < len(form); i += step {
				time.Sleep(every)
				if _, err := io.WriteString(conn, form[i:min(i+step, len(form))]); err != nil {
					done <- result{err: err}
					return
				}
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				done <- result{err: err}
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			done <- result{status: resp.StatusCode, took: time.Since(start)}
		}()
	}
	time.Sleep(500 * time.Millisecond) // both uploads under way
	t0 := time.Now()
	resp, err := http.Get(ts.URL + "/search?q=" + url.QueryEscape("max f32 slow upload"))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if took := time.Since(t0); resp.StatusCode != http.StatusOK || took > time.Second {
		t.Errorf("GET /search during two slow uploads: %d after %v; it must not wait for them", resp.StatusCode, took)
	}
	for range 2 {
		r := <-done
		if r.err != nil || r.status != http.StatusOK || r.took < 3*time.Second {
			t.Errorf("slow upload: %d after %v, %v (want 200 after its 3 s body)", r.status, r.took, r.err)
		}
	}
}

// TestUploadReadErrorsNameNoSocket: a body that stops short, or does not
// arrive before the server's read timeout, is answered in plain words
// (400, 408) that carry no socket address.
func TestUploadReadErrorsNameNoSocket(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ReadTimeout = 500 * time.Millisecond
	ts.Start()
	defer ts.Close()
	for _, c := range []struct {
		name   string
		status int
		hangUp bool
	}{{"timeout", http.StatusRequestTimeout, false}, {"short", http.StatusBadRequest, true}} {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, "POST /explain HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000\r\n\r\n--b\r\n")
		if c.hangUp {
			conn.(*net.TCPConn).CloseWrite()
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		conn.Close()
		if resp.StatusCode != c.status || strings.Contains(string(body), "127.0.0.1") || strings.Contains(string(body), "tcp") {
			t.Errorf("%s: %d %q (want %d in plain words)", c.name, resp.StatusCode, body, c.status)
		}
	}
}

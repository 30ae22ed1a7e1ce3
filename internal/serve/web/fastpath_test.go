package web

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fastPair serves one Site twice on loopback: plain net/http, and net/http
// behind the fast path. Both share the generation and its kept answers.
type fastPair struct {
	site        *Site
	plain, fast string // addresses
}

func newFastPair(t testing.TB) *fastPair {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.db")
	full, _, _ := sampleBuilds()
	writeDB(t, path, full)
	site := openSite(t, path, Options{WatchInterval: -1})
	p := &fastPair{site: site}
	for i, addr := range []*string{&p.plain, &p.fast} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		*addr = ln.Addr().String()
		if i == 1 {
			ln = site.Listener(ln)
		}
		srv := NewServer("", site)
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
	}
	return p
}

// exchange writes raw to a new connection, half-closes it, and reads every
// response until the server closes.
func exchange(t testing.TB, addr string, raw string) []byte {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	c.(*net.TCPConn).CloseWrite()
	out, _ := io.ReadAll(c)
	return out
}

// normalize parses the responses in raw into comparable text: status,
// headers but Date, body. Unparsable trailing bytes are kept as they are.
func normalize(raw []byte, heads []bool) string {
	var b strings.Builder
	br := bufio.NewReader(bytes.NewReader(raw))
	for i := 0; ; i++ {
		req := &http.Request{Method: http.MethodGet}
		if i < len(heads) && heads[i] {
			req.Method = http.MethodHead
		}
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			rest, _ := io.ReadAll(br)
			b.WriteString("rest: " + string(rest))
			return b.String()
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		b.WriteString(resp.Status + "\n")
		var keys []string
		for k := range resp.Header {
			if k != "Date" {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.WriteString(k + ": " + strings.Join(resp.Header[k], ", ") + "\n")
		}
		b.WriteString("body: " + string(body) + "\n")
	}
}

func request(method, target string, headers ...string) string {
	s := method + " " + target + " HTTP/1.1\r\nHost: example.test\r\n"
	for _, h := range headers {
		s += h + "\r\n"
	}
	return s + "\r\n"
}

// fastCases are request streams: answered by the fast path, handed to
// net/http, or both on one connection.
var fastCases = []struct {
	name  string
	raw   string
	heads []bool // which responses answer HEAD
}{
	{"plain", request("GET", "/amdgpu/cdna4/v_max_f32"), nil},
	{"gzip", request("GET", "/amdgpu/cdna4/v_max_f32", "Accept-Encoding: gzip, deflate"), nil},
	{"gzip q=0", request("GET", "/amdgpu/cdna4/v_max_f32", "Accept-Encoding: gzip;q=0"), nil},
	{"two accept-encodings", request("GET", "/amdgpu/cdna4/v_max_f32", "Accept-Encoding: deflate", "accept-encoding: GZIP"), nil},
	{"head", request("HEAD", "/amdgpu/cdna4/v_max_f32", "Accept-Encoding: gzip"), []bool{true}},
	{"etag", request("GET", "/amdgpu/cdna4/v_max_f32", `If-None-Match: W/"nope"`), nil},
	{"api document", request("GET", "/api/v1/archs/cdna4/instructions/v_max_f32"), nil},
	{"api document gzip", request("GET", "/api/v1/archs/cdna4/instructions/v_max_f32", "Accept-Encoding: gzip"), nil},
	{"connection close", request("GET", "/amdgpu/cdna4/v_max_f32", "Connection: close") + request("GET", "/ptx/max"), nil},
	{"pipelined", request("GET", "/amdgpu/cdna4/v_max_f32") + request("GET", "/ptx/max", "Accept-Encoding: gzip") + request("HEAD", "/api/v1/archs"),
		[]bool{false, false, true}},
	{"then not kept", request("GET", "/amdgpu/cdna4/v_max_f32") + request("GET", "/amdgpu/cdna4/nope") + request("GET", "/ptx/max"), nil},
	{"then redirect", request("GET", "/ptx/max") + request("GET", "/amdgpu/"), nil},
	{"post", "POST /amdgpu/cdna4/v_max_f32 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc" + request("GET", "/ptx/max"), nil},
	{"get with body", "GET /ptx/max HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc" + request("GET", "/ptx/max"), nil},
	{"chunked", "GET /ptx/max HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", nil},
	{"http/1.0", "GET /ptx/max HTTP/1.0\r\n\r\n", nil},
	{"http/1.0 keep-alive", "GET /ptx/max HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", nil},
	{"no host", "GET /ptx/max HTTP/1.1\r\n\r\n", nil},
	{"two hosts", "GET /ptx/max HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", nil},
	{"bare LF", "GET /ptx/max HTTP/1.1\nHost: x\n\n", nil},
	{"folded header", "GET /ptx/max HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", nil},
	{"bad header name", "GET /ptx/max HTTP/1.1\r\nHost: x\r\nBad Name: a\r\n\r\n", nil},
	{"control in value", "GET /ptx/max HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n", nil},
	{"absolute form", "GET http://example.test/ptx/max HTTP/1.1\r\nHost: example.test\r\n\r\n", nil},
	{"upgrade", request("GET", "/ptx/max", "Connection: Upgrade", "Upgrade: websocket"), nil},
	{"range", request("GET", "/ptx/max", "Range: bytes=0-10"), nil},
	{"long head", request("GET", "/ptx/max", "X-Long: "+strings.Repeat("a", 10000)), nil},
	{"unterminated", "GET /ptx/max HTTP/1.1\r\nHost: x\r\n", nil},
	{"garbage", "\x00\x01\x02 hello\r\n\r\n", nil},
	{"query", request("GET", "/search?q=max") + request("GET", "/search?q=max&x=1"), nil},
	{"cors preflight", "OPTIONS /api/v1/info HTTP/1.1\r\nHost: x\r\nAccess-Control-Request-Headers: x-a\r\n\r\n" + request("GET", "/api/v1/info"), nil},
	{"asm documentation", request("GET", "/api/asm/amdgpu/v_max_f32", "Accept-Encoding: gzip") + request("GET", "/api/asm/ptx/max"), nil},
}

// TestFastPathMatchesNetHTTP: every request stream gets the same responses
// (Date aside) from the fast path as from net/http alone, whether net/http
// or the fast path rendered the answers first.
func TestFastPathMatchesNetHTTP(t *testing.T) {
	for _, primeWith := range []string{"net/http", "fast path"} {
		p := newFastPair(t)
		etag := p.site.cur.Load().srv.etag
		type fastCase = struct {
			name  string
			raw   string
			heads []bool
		}
		cases := append(fastCases[:len(fastCases):len(fastCases)],
			fastCase{"etag matches", request("GET", "/amdgpu/cdna4/v_max_f32", "If-None-Match: "+etag), nil},
			fastCase{"etag star", request("GET", "/api/v1/archs/cdna4/instructions/v_max_f32", "If-None-Match: *", "Accept-Encoding: gzip"), nil})
		for _, c := range cases {
			first, second := p.plain, p.fast
			if primeWith == "fast path" {
				first, second = second, first
			}
			a := normalize(exchange(t, first, c.raw), c.heads)
			b := normalize(exchange(t, second, c.raw), c.heads)
			if a != b {
				t.Errorf("%s (rendered first by %s): %s answered\n%.2000s\n%s answered\n%.2000s", c.name, primeWith,
					first, a, second, b)
			}
		}
		if p.site.cur.Load().srv.cache.len() < 5 {
			t.Fatalf("only %d answers kept", p.site.cur.Load().srv.cache.len())
		}
	}
}

// TestFastPathAnswersKeptPages: a kept page is answered by the fast path
// itself (no net/http connection is made), in one response per request.
func TestFastPathAnswersKeptPages(t *testing.T) {
	p := newFastPair(t)
	exchange(t, p.plain, request("GET", "/amdgpu/cdna4/v_max_f32", "Accept-Encoding: gzip"))
	var states []http.ConnState
	srv := NewServer("", p.site)
	srv.ConnState = func(_ net.Conn, s http.ConnState) { states = append(states, s) }
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fl := p.site.Listener(ln)
	go srv.Serve(fl)
	defer srv.Close()
	raw := strings.Repeat(request("GET", "/amdgpu/cdna4/v_max_f32", "Accept-Encoding: gzip"), 50)
	out := exchange(t, ln.Addr().String(), raw)
	if n := bytes.Count(out, []byte("HTTP/1.1 200 OK\r\n")); n != 50 {
		t.Errorf("%d responses to 50 requests", n)
	}
	if len(states) != 0 {
		t.Errorf("net/http saw the connection: %v", states)
	}
	// Closing the listener closes idle fast-path connections.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, request("GET", "/amdgpu/cdna4/v_max_f32"))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	fl.Close()
	buf := make([]byte, 1<<20)
	for {
		if _, err := c.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Error("the idle connection stayed open after Close")
			}
			break
		}
	}
}

// FuzzFastPath: any byte stream gets the same responses from the fast path
// as from net/http alone.
func FuzzFastPath(f *testing.F) {
	for _, c := range fastCases {
		f.Add(c.raw)
	}
	p := newFastPair(f)
	for _, c := range fastCases {
		exchange(f, p.plain, c.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 20000 {
			return
		}
		want := normalize(exchange(t, p.plain, raw), nil)
		got := normalize(exchange(t, p.fast, raw), nil)
		if got != want {
			t.Fatalf("fast path answered\n%.1000s\nnet/http answered\n%.1000s", got, want)
		}
	})
}

// TestFastPathClosesSilentConnections: a connection that sends nothing is
// closed after the head timeout, as net/http closes it (5 s), not held
// for the idle timeout between requests (120 s); both paths alike.
func TestFastPathClosesSilentConnections(t *testing.T) {
	p := newFastPair(t)
	var wg sync.WaitGroup
	for name, addr := range map[string]string{"net/http": p.plain, "fast path": p.fast} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			start := time.Now()
			c.SetReadDeadline(start.Add(fastHeadTimeout + 10*time.Second))
			_, err = c.Read(make([]byte, 1))
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Errorf("%s: a silent connection still open after %v", name, time.Since(start))
			} else if took := time.Since(start); took < fastHeadTimeout/2 {
				t.Errorf("%s: closed after %v (%v); want the head timeout, %v", name, took, err, fastHeadTimeout)
			}
		}()
	}
	wg.Wait()
}

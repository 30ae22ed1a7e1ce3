package web

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// slowBody is an upload that arrives a few bytes at a time, a pause
// before each: a client on a poor link, or one holding a connection on
// purpose.
type slowBody struct {
	data  []byte
	chunk int
	every time.Duration
}

func (b *slowBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	time.Sleep(b.every)
	n := copy(p[:min(len(p), b.chunk)], b.data)
	b.data = b.data[n:]
	return n, nil
}

// getTimed GETs u and returns the status and how long the answer took.
func getTimed(t *testing.T, u string) (int, time.Duration) {
	t.Helper()
	t0 := time.Now()
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, time.Since(t0)
}

// TestSlowUploadsDoNotQueueSearch: two, then twenty, clients upload to
// POST /explain at about 100 bytes/s (3 s a body), more than there are
// render slots; an uncached /search answers while every one of them is
// still in flight, and each upload is explained once it has arrived.
// The times are logged, not bounded: on a loaded machine a wall-clock
// bound says more about the machine than about admission.
func TestSlowUploadsDoNotQueueSearch(t *testing.T) {
	s := newTestServer(t)
	s.renderSlots = make(chan struct{}, 2)
	s.uploadSlots = make(chan struct{}, uploadShare(2))
	ts := httptest.NewServer(s)
	defer ts.Close()
	form := "arch=cdna4&text=0x160a04c1&pad=" + strings.Repeat("a", 270)
	for _, clients := range []int{2, 20} {
		t.Run(fmt.Sprint(clients), func(t *testing.T) {
			_, unloaded := getTimed(t, ts.URL+"/search?q="+url.QueryEscape(fmt.Sprintf("max f32 unloaded %d", clients)))
			var finished atomic.Int32
			var wg sync.WaitGroup
			errs := make(chan string, clients)
			for range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer finished.Add(1)
					body := &slowBody{data: []byte(form), chunk: 10, every: 100 * time.Millisecond}
					resp, err := http.Post(ts.URL+"/explain", "application/x-www-form-urlencoded", body)
					if err != nil {
						errs <- err.Error()
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						errs <- fmt.Sprintf("status %d", resp.StatusCode)
					}
				}()
			}
			time.Sleep(500 * time.Millisecond) // every upload under way
			status, loaded := getTimed(t, ts.URL+"/search?q="+url.QueryEscape(fmt.Sprintf("max f32 loaded %d", clients)))
			inFlight := clients - int(finished.Load())
			t.Logf("%d slow uploads: uncached /search %v unloaded, %v with %d uploads in flight", clients, unloaded, loaded, inFlight)
			if status != http.StatusOK || inFlight != clients {
				t.Errorf("GET /search: %d with %d of %d uploads still in flight; it must answer while all are", status, inFlight, clients)
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Errorf("slow upload: %s (want 200 once its body arrived)", e)
			}
		})
	}
}

// TestUploadsHoldAtMostTheirShare: uploads whose render takes long (a
// 4 MB /explain renders for seconds) take at most uploadShare of the
// render slots at once; an uncached GET answers while they hold them,
// and the uploads kept waiting render once the share frees.
func TestUploadsHoldAtMostTheirShare(t *testing.T) {
	s := newTestServer(t)
	s.renderSlots = make(chan struct{}, 4)
	s.uploadSlots = make(chan struct{}, uploadShare(4))
	release := make(chan struct{})
	var rendering, most atomic.Int32
	s.mux.HandleFunc("POST /test/slow-render", func(w http.ResponseWriter, r *http.Request) {
		n := rendering.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		rendering.Add(-1)
	})
	ts := httptest.NewServer(s)
	defer ts.Close()
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // before ts.Close, which waits for the handlers
	const uploads = 6
	var wg sync.WaitGroup
	for range uploads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(ts.URL+"/test/slow-render", "text/plain", strings.NewReader("0x7e020280"))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); rendering.Load() < int32(uploadShare(4)) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // room for any upload over the share to start rendering
	for _, q := range []string{"max f32 share", "min f32 share", "add u32 share"} {
		if status, took := getTimed(t, ts.URL+"/search?q="+url.QueryEscape(q)); status != http.StatusOK {
			t.Errorf("GET /search?q=%s while uploads render: %d after %v", q, status, took)
		}
	}
	if got := most.Load(); got != int32(uploadShare(4)) {
		t.Errorf("%d uploads rendered at once with 4 slots; want their share, %d", got, uploadShare(4))
	}
	free()
	wg.Wait()
}

// TestUploadShareLeavesSlots: whatever the core count, uploads may hold
// at least one slot and never all of them.
func TestUploadShareLeavesSlots(t *testing.T) {
	for slots := 2; slots <= 256; slots++ {
		if n := uploadShare(slots); n < 1 || n >= slots {
			t.Errorf("uploadShare(%d) = %d; want 1 ≤ n < %d", slots, n, slots)
		}
	}
}

// TestConcurrentHexPastesStayBounded: six 4 MB pastes of hex words at once
// (381,300 instructions each, which had been explained whole: +670 MB a
// paste) are each refused 413 by the instruction cap in a short page,
// and the heap sampled while they are served stays far below what
// explaining them would take.
func TestConcurrentHexPastesStayBounded(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	paste := strings.Repeat("0x7e020280\n", (maxExplainInput-1024)/11)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("arch", "cdna4")
	mw.WriteField("text", paste)
	mw.Close()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(ts.URL+"/explain", mw.FormDataContentType(), bytes.NewReader(form.Bytes()))
			if err != nil {
				t.Error(err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || len(body) > 64<<10 || !strings.Contains(string(body), fmt.Sprintf("at most %d", maxExplainInstructions)) {
				t.Errorf("paste %d: %d, %d bytes; want 413 naming the cap in a short page", i, resp.StatusCode, len(body))
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	t.Logf("six 4 MB hex pastes at once: heap in use peaked at %d MB", peak.Load()>>20)
	if p := peak.Load(); p > 500<<20 {
		t.Errorf("heap in use peaked at %d MB serving six refused pastes; want under 500 MB", p>>20)
	}
}

// TestUploadBodiesHeldAreBounded: with room for two bodies, three slow
// uploads read at most two bodies at once (the third waits before its
// first byte is read, holding no memory and no render slot); an uncached
// GET answers meanwhile, and all three are explained.
func TestUploadBodiesHeldAreBounded(t *testing.T) {
	s := newTestServer(t)
	s.bodySlots = make(chan struct{}, 2)
	ts := httptest.NewServer(s)
	defer ts.Close()
	form := "arch=cdna4&text=0x160a04c1&pad=" + strings.Repeat("a", 70)
	var wg sync.WaitGroup
	var most atomic.Int32
	done := make(chan struct{})
	go func() {
		for {
			if n := int32(len(s.bodySlots)); n > most.Load() {
				most.Store(n)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := &slowBody{data: []byte(form), chunk: 10, every: 100 * time.Millisecond}
			resp, err := http.Post(ts.URL+"/explain", "application/x-www-form-urlencoded", body)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("slow upload: %d; want 200", resp.StatusCode)
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	if status, took := getTimed(t, ts.URL+"/search?q="+url.QueryEscape("max f32 bodies")); status != http.StatusOK {
		t.Errorf("GET /search while bodies wait: %d after %v", status, took)
	}
	wg.Wait()
	close(done)
	if got := most.Load(); got != 2 {
		t.Errorf("at most %d bodies held at once with room for 2; want 2", got)
	}
}

// TestOneClientHoldsItsShareOfBodies: one client address trickling four
// uploads holds at most its share (two, here) of the bodies in memory;
// an upload from another address is read and answered at once, before
// the first client's are done; no address is remembered afterwards.
func TestOneClientHoldsItsShareOfBodies(t *testing.T) {
	s := newTestServer(t)
	s.clientBodies = clientShares{per: 2}
	ts := httptest.NewServer(s)
	defer ts.Close()
	form := "arch=cdna4&text=0x160a04c1&pad=" + strings.Repeat("a", 170)
	var wg sync.WaitGroup
	var finished atomic.Int32
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer finished.Add(1)
			body := &slowBody{data: []byte(form), chunk: 10, every: 100 * time.Millisecond} // 2 s
			resp, err := http.Post(ts.URL+"/explain", "application/x-www-form-urlencoded", body)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("slow upload: %d; want 200", resp.StatusCode)
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	if held := len(s.bodySlots); held != 2 {
		t.Errorf("one client's four uploads hold %d bodies; want its share, 2", held)
	}
	// Another address: 127.0.0.2 is loopback too.
	other := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{
		LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext}}
	resp, err := other.Post(ts.URL+"/explain", "application/x-www-form-urlencoded", strings.NewReader(form))
	if err != nil {
		t.Skipf("no second loopback address: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if done := finished.Load(); resp.StatusCode != http.StatusOK || done != 0 {
		t.Errorf("upload from another address: %d with %d of the first client's 4 done; want 200 before any", resp.StatusCode, done)
	}
	wg.Wait()
	s.clientBodies.mu.Lock()
	defer s.clientBodies.mu.Unlock()
	if n := len(s.clientBodies.m); n != 0 {
		t.Errorf("%d client addresses still recorded after every upload ended; want none", n)
	}
}

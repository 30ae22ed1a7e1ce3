package web

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
)

// fakeVerification is a background verification a test moves along.
type fakeVerification struct {
	mu sync.Mutex
	v  Verification
}

func (f *fakeVerification) get() Verification {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.v
}

func (f *fakeVerification) set(v Verification) {
	f.mu.Lock()
	f.v = v
	f.mu.Unlock()
}

// A provisional database's pages carry the banner naming what is not
// verified; /about and /api/v1/status show the progress as of each request
// (never kept), while the pages themselves are kept as always.
func TestProvisionalDatabaseShowsVerificationProgress(t *testing.T) {
	b := webfake.Build()
	b.Info.Provisional = "the documents' facts alone"
	fv := &fakeVerification{}
	fv.set(Verification{Running: true, Pass: "1 of 2: llvm-mc, llvm-mca, opt", Step: "verifying lines with llvm-mc on 47 targets", Done: 12, Total: 47, Started: time.Now()})
	s := testServer(t, webfake.Open(t, b), Options{Verification: fv.get})

	doc := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	banners := findAll(doc, func(n *html.Node) bool { return attr(n, "id") == "verify-banner" })
	if len(banners) != 1 || !strings.Contains(text(banners[0]), "the documents' facts alone") || attr(banners[0], "role") != "status" {
		t.Fatalf("instruction page: banner %v", texts(banners))
	}

	status := func() statusAnswer {
		rec := get(t, s, "/api/v1/status")
		if rec.Code != 200 || rec.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("/api/v1/status: %d, Cache-Control %q", rec.Code, rec.Header().Get("Cache-Control"))
		}
		var st statusAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := status()
	if st.Build != s.info.ID || st.Provisional == "" || st.Verification == nil ||
		st.Summary != "verifying lines with llvm-mc on 47 targets: 12 of 47 (pass 1 of 2: llvm-mc, llvm-mca, opt)" {
		t.Errorf("status while running: %+v", st)
	}
	if body := get(t, s, "/about").Body.String(); !strings.Contains(body, "12 of 47") || !strings.Contains(body, `id="verification"`) {
		t.Errorf("/about does not show the progress")
	}

	fv.set(Verification{Running: true, Pass: "2 of 2: ptxas, nvdisasm, pages", Step: "assembling PTX statements with ptxas", Done: 12, Total: 37,
		Started: time.Now(), Landed: []string{"1 of 2: llvm-mc, llvm-mca, opt (1m5s)"}})
	if st := status(); !strings.Contains(st.Summary, "ptxas: 12 of 37") {
		t.Errorf("status after the first pass: %q", st.Summary)
	}
	body := get(t, s, "/about").Body.String()
	if !strings.Contains(body, "ptxas: 12 of 37") || !strings.Contains(body, "llvm-mc, llvm-mca, opt (1m5s)") {
		t.Errorf("/about was kept from before, or lacks the landed pass")
	}
	if get(t, s, "/about").Header().Get("Cache-Control") != "no-store" {
		t.Errorf("/about kept while verification runs")
	}

	fv.set(Verification{Failed: "ptxas: exit status 1", Started: time.Now(), Elapsed: "3m0s"})
	if st := status(); st.Summary != "verification failed: ptxas: exit status 1" || st.Verification.Running {
		t.Errorf("status after a failure: %+v", st)
	}
}

// A verified database has no banner, and its status says so.
func TestVerifiedDatabaseHasNoBanner(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	if n := findAll(doc, func(n *html.Node) bool { return attr(n, "id") == "verify-banner" }); len(n) != 0 {
		t.Errorf("verified database shows the banner")
	}
	var st statusAnswer
	if err := json.Unmarshal(get(t, s, "/api/v1/status").Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if st.Provisional != "" || st.Verification != nil || st.Build == "" {
		t.Errorf("status: %+v", st)
	}
	if strings.Contains(get(t, s, "/about").Body.String(), `id="verification"`) {
		t.Errorf("/about of a verified database shows a verification section")
	}
}

package web

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// Every pair of AMD families renders, and every rename the page claims
// shows its evidence beside it.
func TestDiffPagesRealDatabase(t *testing.T) {
	s := realServer(t)
	var amd []string
	for _, a := range s.archs {
		if a.Vendor == isa.VendorAMD {
			amd = append(amd, a.ID)
		}
	}
	slowest, slowestPair := time.Duration(0), ""
	for _, a := range amd {
		for _, b := range amd {
			if a == b {
				continue
			}
			start := time.Now()
			rec := get(t, s, diffURL(a, b))
			if d := time.Since(start); d > slowest {
				slowest, slowestPair = d, a+" "+b
			}
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d", diffURL(a, b), rec.Code)
			}
			doc := parseHTML(t, rec.Body.String())
			var renamed *html.Node
			for _, sec := range findAll(doc, tag("section")) {
				if attr(sec, "aria-labelledby") == "renamed" {
					renamed = sec
				}
			}
			if renamed == nil {
				t.Fatalf("%s: no Renamed section", diffURL(a, b))
			}
			// Long lists of renames are on pages of their own.
			sections := []*html.Node{renamed}
			for href := range links(renamed) {
				if strings.HasPrefix(href, diffURL(a, b)+"/renamed") && !strings.Contains(href, "#") {
					for _, sec := range findAll(parseHTML(t, get(t, s, href).Body.String()), tag("section")) {
						if attr(sec, "aria-labelledby") == "renamed" {
							sections = append(sections, sec)
						}
					}
				}
			}
			var rows []*html.Node
			for _, sec := range sections {
				rows = append(rows, findAll(sec, func(n *html.Node) bool { return n.Data == "li" && n.Parent != nil && hasClass(n.Parent, "drows") })...)
			}
			for _, li := range rows {
				ev := findAll(li, func(n *html.Node) bool { return n.Data == "ul" && hasClass(n, "evidence") })
				if len(ev) == 0 || len(findAll(ev[0], tag("li"))) == 0 || len(findAll(li, tag("a"))) < 2 {
					t.Errorf("%s: a rename without evidence or without both links: %s", diffURL(a, b), text(li))
				}
			}
		}
	}
	t.Logf("%d pairs; slowest %s (%s) with the page cache off, facts loaded on first use", len(amd)*(len(amd)-1), slowest, slowestPair)

	body := withListPages(t, s, "/diff/rdna3/rdna4")
	for _, want := range []string{`href="/amdgpu/rdna3/v_max_f32"`, `href="/amdgpu/rdna4/v_max_num_f32"`, "DS (64 bits) became VDS (64 bits)", "MUBUF (64 bits) became VBUFFER (96 bits)", "FLAT (64 bits) became VFLAT (96 bits)"} {
		if !strings.Contains(body, want) {
			t.Errorf("/diff/rdna3/rdna4 lacks %q", want)
		}
	}
	body = withListPages(t, s, "/ptx/targets/sm_90")
	for _, want := range []string{`href="/ptx/wgmma.mma_async"`, `href="/ptx/cp.async.bulk"`, "came with"} {
		if !strings.Contains(body, want) {
			t.Errorf("/ptx/targets/sm_90 lacks %q", want)
		}
	}
	body = withListPages(t, s, "/ptx/versions/8.0")
	if !strings.Contains(body, "wgmma") || !strings.Contains(body, "release notes") {
		t.Error("/ptx/versions/8.0 lacks wgmma or the release notes")
	}
	body = get(t, s, "/amdgpu/rdna4").Body.String()
	if !strings.Contains(body, `<li class="r"><a href="/amdgpu/rdna4/v_max_num_f32">`) || !strings.Contains(body, "Radeon RX 9070 XT") {
		t.Error("RDNA 4's index lacks the rename mark or its products")
	}
	// The compact index marks names; the category page says what they were.
	if body = get(t, s, "/amdgpu/rdna4/category/vector-arithmetic").Body.String(); !strings.Contains(body, "renamed from v_max_f32") {
		t.Error("RDNA 4's vector arithmetic page lacks the rename badge")
	}
	body = get(t, s, "/amdgpu/cdna3/v_max_f32").Body.String()
	if !strings.Contains(body, "AMD Instinct MI300X") || !strings.Contains(body, "first appears in") {
		t.Error("CDNA 3's v_max_f32 lacks its products or where it first appears")
	}
	if rec := get(t, s, "/amdgpu/mi300x/v_max_f32"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/amdgpu/cdna3/v_max_f32" {
		t.Errorf("/amdgpu/mi300x/v_max_f32: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	body = get(t, s, "/search?q=MI300X").Body.String()
	if !strings.Contains(body, "<code>gfx942</code>") || !strings.Contains(body, `href="/amdgpu/cdna3"`) {
		t.Error("/search?q=MI300X does not lead to gfx942 and CDNA 3")
	}
	if body = get(t, s, "/api/v1/search?q=MI300X").Body.String(); !strings.Contains(body, `"targets":[{"arch":"cdna3","target":"gfx942"`) {
		t.Errorf("/api/v1/search?q=MI300X: %.300s", body)
	}
	if rec := get(t, s, "/compare/v_max_f32"); rec.Code != http.StatusOK || strings.Count(rec.Body.String(), `<th scope="col">`) != 3 {
		t.Errorf("/compare/v_max_f32 compares %d columns by default, want a fact column and two families", strings.Count(rec.Body.String(), `<th scope="col">`)-1)
	}
}

// cpuTime is the process's user and system time: on a shared machine the
// wall time of a benchmark counts the other processes' turns too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timed runs f b.N times, reporting the CPU milliseconds per run beside
// the wall time; setup runs untimed before each.
func timed(b *testing.B, setup func() *server, path string) {
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := setup()
		c := cpuTime()
		b.StartTimer()
		if rec := get(b, s, path); rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
		b.StopTimer()
		cpu += cpuTime() - c
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkDiffPage renders family diffs and the PTX history with the
// answer cache off, three ways: "page" on a running server that made the
// diff before (render only), "diff" with the families' facts loaded but the
// diff not yet made, "cold" on a new server (the facts read from the
// database first).
func BenchmarkDiffPage(b *testing.B) {
	s := realServer(b)
	ctx := context.Background()
	pairs := [][2]string{{"rdna3", "rdna4"}, {"cdna2", "cdna3"}, {"vega", "rdna4"}, {"cdna5", "rdna1"}, {"rdna4", "cdna5"},
		{"sm_80", "sm_90"}, {"ptx:7.8", "ptx:8.0"}}
	for _, p := range pairs {
		path := diffURL(p[0], p[1])
		name := p[0] + "-" + p[1]
		b.Run("page/"+name, func(b *testing.B) {
			get(b, s, path)
			timed(b, func() *server { return s }, path)
		})
		if famdiff.ParseKind(p[0]) != famdiff.KindFamilies {
			continue // PTX diffs are not kept: every page makes its diff
		}
		fresh := func(load bool) func() *server {
			return func() *server {
				f := testServer(b, s.store, Options{CacheBytes: -1})
				for _, fam := range p {
					if !load {
						break
					}
					if _, err := f.diffFacts().Family(ctx, fam); err != nil {
						b.Fatal(err)
					}
				}
				return f
			}
		}
		b.Run("diff/"+name, func(b *testing.B) { timed(b, fresh(true), path) })
		b.Run("cold/"+name, func(b *testing.B) { timed(b, fresh(false), path) })
	}
}

// TestStoredNoveltyIsTheDiffs: the novelty the build stores for each AMD
// family (what its index marks) is the one its diff from the previous
// generation gives.
func TestStoredNoveltyIsTheDiffs(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	for _, a := range s.archs {
		prev := famdiff.Previous(a.ID)
		if a.Vendor != isa.VendorAMD || prev == "" || !s.hasFamily(prev) {
			continue
		}
		doc, err := s.store.Extra(ctx, famdiff.NoveltyKey(a.ID))
		if err != nil {
			t.Fatalf("%s: %v", a.ID, err)
		}
		var stored famdiff.Novelty
		if err := json.Unmarshal(doc, &stored); err != nil {
			t.Fatal(err)
		}
		res, err := s.diffFacts().Compare(ctx, prev, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := famdiff.NoveltyOf(res); !reflect.DeepEqual(stored, want) {
			t.Errorf("%s: stored novelty (%d new, %d renamed) is not the diff's (%d, %d)", a.ID, len(stored.New), len(stored.Renamed), len(want.New), len(want.Renamed))
		}
	}
}

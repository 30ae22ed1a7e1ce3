package webtest

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gpuisa/gpuisa/internal/serve/web"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
)

const chromiumPath = "/usr/bin/chromium"

// browser starts the site over the sample reference (webfake) and a headless chromium tab.
// It collects the tab's console errors (CSP violations, script exceptions)
// so a test can fail on them.
type browser struct {
	ctx     context.Context
	base    string
	mu      sync.Mutex
	console []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserOver(t, webfake.New(t))
}

func newBrowserOver(t *testing.T, r store.Reader) *browser {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("browser tests need Debian's chromium at %s (apt-get install chromium): %v", chromiumPath, err)
	}
	h, err := web.New(r, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // start the browser without a timeout
		t.Fatalf("starting chromium: %v", err)
	}
	b := &browser{ctx: ctx, base: srv.URL}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.console = append(b.console, m.String())
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// do runs steps with a time limit.
func (b *browser) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

func eval[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// openWide opens path at a desktop's size (1440×900) and waits until sel
// is visible.
func (b *browser) openWide(t *testing.T, path, sel string) {
	t.Helper()
	b.do(t, chromedp.EmulateViewport(1440, 900), chromedp.Navigate(b.base+path), chromedp.WaitVisible(chromedp.CSS(sel)))
}

// waitPath waits until the tab's location has the path want.
func (b *browser) waitPath(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		loc, err := chromedp.Run(ctx, chromedp.Location())
		cancel()
		if err == nil {
			got = loc
			if strings.TrimPrefix(loc, b.base) == want {
				// wait for the new document to be usable
				b.do(t, chromedp.WaitVisible(chromedp.CSS("h1")))
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("location %q, want path %s", got, want)
}

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.console...)
}

// noConsoleErrors fails the test if a page logged an error to the console
// (a script error or a Content-Security-Policy violation).
func (b *browser) noConsoleErrors(t *testing.T) {
	t.Helper()
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors (CSP or script): %q", errs)
	}
}

// storeAt is the database at path, or the sample reference when path is "".
func storeAt(t *testing.T, path string) store.Reader {
	t.Helper()
	if path == "" {
		return webfake.New(t)
	}
	return realdb.Open(t, path)
}

// screenshotDir is where a test saves its screenshots: $GPUISA_SCREENSHOTS
// (made if missing), else a temporary directory.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GPUISA_SCREENSHOTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// visible is a JavaScript predicate: the element exists, is rendered and
// has a size.
const visibleJS = `(function(el){ if(!el) return false; const r = el.getBoundingClientRect();
  const s = getComputedStyle(el); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; })`

func TestInstructionPageSectionsVisible(t *testing.T) {
	b := newBrowser(t)
	b.openWide(t, "/amdgpu/cdna4/v_max_f32", "h1")
	for _, id := range []string{"encoding", "generations", "operands", "targets", "concepts", "more",
		"reference", "semantics", "examples", "sources"} {
		if !eval[bool](t, b, visibleJS+`(document.getElementById("`+id+`"))`) {
			t.Errorf("section heading #%s is not visible", id)
		}
	}
	if !eval[bool](t, b, visibleJS+`(document.querySelector(".bits-32 svg"))`) {
		t.Error("the 32-bit diagram is not visible at 1440 px")
	}
	if eval[bool](t, b, visibleJS+`(document.querySelector(".bits-16 svg"))`) {
		t.Error("the 16-bit diagram shows at 1440 px")
	}
	// the page must not scroll sideways at phone width
	b.do(t, chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile))
	if !eval[bool](t, b, visibleJS+`(document.querySelector(".bits-16 svg"))`) {
		t.Error("the 16-bit diagram is not visible at 360 px")
	}
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 360 {
		wide := eval[[]string](t, b, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 361)
			.slice(0, 8).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))`)
		t.Errorf("page is %d px wide at a 360 px viewport; too wide: %q", w, wide)
	}
	// a one-bit field box is at least 10 px wide on a phone (readable)
	if w := eval[float64](t, b, `document.querySelector(".bits-16 svg rect").getBoundingClientRect().width`); w < 10 {
		t.Errorf("a one-bit box is %.1f px wide at 360 px", w)
	}
	b.noConsoleErrors(t)
}

func TestInstantSearchWithKeyboard(t *testing.T) {
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1440, 900), chromedp.Navigate(b.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#q")),
		chromedp.Focus(chromedp.CSS("#q")),
		// A prefix of three sample names (v_max_f32, v_max_num_f32,
		// v_min_f32): an unscoped search lists each name once.
		chromedp.SendKeys(chromedp.CSS("#q"), "v_m"),
		chromedp.WaitVisible(chromedp.CSS("#q-results li")),
	)
	n := eval[int](t, b, `document.querySelectorAll("#q-results li").length`)
	if n < 3 {
		t.Fatalf("%d suggestions for v_m, want at least 3", n)
	}
	if got := eval[string](t, b, `document.getElementById("q").getAttribute("aria-expanded")`); got != "true" {
		t.Errorf("aria-expanded = %q while the list is open", got)
	}
	// ArrowDown twice, ArrowUp once, ArrowDown once: the second suggestion.
	b.do(t, chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowDown))
	selected := eval[string](t, b, `(function(){ const li = document.querySelector('#q-results li[aria-selected="true"]');
		return li ? li.querySelector("code").textContent + " " + li.querySelector(".arch").getAttribute("data-arch") : ""; })()`)
	active := eval[string](t, b, `document.getElementById("q").getAttribute("aria-activedescendant") || ""`)
	if active != "q-opt-1" {
		t.Errorf("aria-activedescendant = %q, want q-opt-1 (selected %q)", active, selected)
	}
	name, arch, _ := strings.Cut(selected, " ")
	if name == "" {
		t.Fatal("no suggestion selected")
	}
	b.do(t, chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/amdgpu/"+arch+"/"+name)
	if h1 := eval[string](t, b, `document.querySelector("h1").textContent.trim()`); h1 != name {
		t.Errorf("opened page h1 %q, want %q", h1, name)
	}
	// Escape closes the list
	b.do(t, chromedp.Focus(chromedp.CSS("#q")), chromedp.SendKeys(chromedp.CSS("#q"), "s_mov"),
		chromedp.WaitVisible(chromedp.CSS("#q-results li")), chromedp.KeyEvent(kb.Escape))
	if eval[bool](t, b, `!document.getElementById("q-results").hidden`) {
		t.Error("Escape did not close the suggestions")
	}
	b.noConsoleErrors(t)
}

func TestSwitchArchitectureAndOpenPTX(t *testing.T) {
	b := newBrowser(t)
	b.openWide(t, "/amdgpu/cdna4/v_max_f32", ".switcher")
	// keyboard only: focus the RDNA 3 link and press Enter
	b.do(t, chromedp.Focus(chromedp.CSS(`.switcher a[href="/amdgpu/rdna3/v_max_f32"]`)), chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/amdgpu/rdna3/v_max_f32")
	if got := eval[string](t, b, `document.querySelector(".switcher a.current").textContent.trim()`); got != "RDNA 3" {
		t.Errorf("current architecture %q after switching", got)
	}
	if !eval[bool](t, b, `document.body.textContent.includes("Not yet verified")`) {
		t.Error("rdna3 page does not say its targets are not yet verified")
	}
	// follow the concept link to PTX
	b.do(t, chromedp.Click(chromedp.CSS(`#concepts ~ ul a[href="/ptx/max"]`)))
	b.waitPath(t, "/ptx/max")
	for _, id := range []string{"syntax", "counterparts", "forms", "operands", "types", "description", "semantics", "examples", "sources"} {
		if !eval[bool](t, b, visibleJS+`(document.getElementById("`+id+`"))`) {
			t.Errorf("PTX section #%s is not visible", id)
		}
	}
	if rows := eval[int](t, b, `document.querySelectorAll("table.forms tbody tr").length`); rows != 3 {
		t.Errorf("forms table has %d rows", rows)
	}
	// the family filter narrows the list
	b.do(t, chromedp.Navigate(b.base+"/amdgpu/cdna4"), chromedp.WaitVisible(chromedp.CSS("#filter")),
		chromedp.SendKeys(chromedp.CSS("#filter"), "smaller"))
	if shown := eval[int](t, b, `[...document.querySelectorAll("#family-list tr[data-name]")].filter(r => !r.hidden).length`); shown != 1 {
		t.Errorf("filter 'smaller' leaves %d rows, want 1 (v_min_f32)", shown)
	}
	b.noConsoleErrors(t)
}

func TestDecodeBoxWithKeyboard(t *testing.T) {
	b := newBrowser(t)
	b.openWide(t, "/decode", "#decode-hex")
	// keyboard only: pick CDNA 4 in the family list (RDNA 4, RDNA 3, CDNA 4,
	// ...), type the word, Tab to the button and press Enter.
	b.do(t, chromedp.Focus(chromedp.CSS("#decode-arch")), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	if got := eval[string](t, b, `document.getElementById("decode-arch").value`); got != "cdna4" {
		t.Fatalf("family after two ArrowDowns: %q", got)
	}
	b.do(t, chromedp.Focus(chromedp.CSS("#decode-hex")), chromedp.SendKeys(chromedp.CSS("#decode-hex"), "0x160a04c1 ffffffff"),
		chromedp.KeyEvent(kb.Tab))
	if got := eval[string](t, b, `document.activeElement.tagName + " " + document.activeElement.textContent.trim()`); got != "BUTTON Decode" {
		t.Fatalf("Tab from the text box focuses %q, want the Decode button", got)
	}
	b.do(t, chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/decode?arch=cdna4&hex=0x160a04c1+ffffffff")
	if got := eval[string](t, b, `document.querySelector(".decoded .dec-text").textContent`); !strings.HasPrefix(got, "v_max_f32") {
		t.Errorf("decoded %q", got)
	}
	if !eval[bool](t, b, visibleJS+`(document.querySelector(".decoded .bits-32 svg"))`) {
		t.Error("the decoded bit diagram is not visible")
	}
	if got := eval[string](t, b, `document.querySelector(".decode-errors li").textContent`); !strings.HasPrefix(got, "Byte offset 4:") {
		t.Errorf("error line %q", got)
	}
	// the mnemonic link opens the instruction page
	b.do(t, chromedp.Focus(chromedp.CSS(`.decoded .dec-head a[href="/amdgpu/cdna4/v_max_f32"]`)), chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/amdgpu/cdna4/v_max_f32")
	if !eval[bool](t, b, visibleJS+`(document.querySelector(".example-decoded .bits-32 svg"))`) {
		t.Error("the example's decoded diagram is not visible on the instruction page")
	}
	b.do(t, chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile), chromedp.Navigate(b.base+"/decode?arch=cdna4&hex=0x160a04c1"),
		chromedp.WaitVisible(chromedp.CSS(".decoded")))
	if !eval[bool](t, b, visibleJS+`(document.querySelector(".decoded .bits-16 svg"))`) {
		t.Error("the 16-bit decoded diagram is not visible at 360 px")
	}
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("decode page is %d px wide at 360 px", w)
	}
	b.noConsoleErrors(t)
}

func TestConceptAndQualityPages(t *testing.T) {
	b := newBrowser(t)
	b.openWide(t, "/concepts", "h1")
	b.do(t, chromedp.Focus(chromedp.CSS(`a[href="/concepts/max"]`)), chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/concepts/max")
	for _, id := range []string{"ptx-members", "amd-members", "relations", "provenance"} {
		if !eval[bool](t, b, visibleJS+`(document.getElementById("`+id+`"))`) {
			t.Errorf("concept section #%s is not visible", id)
		}
	}
	if n := eval[int](t, b, `document.querySelectorAll("table.families td.cell-member a").length`); n != 4 {
		t.Errorf("%d linked member cells, want 4", n)
	}
	b.do(t, chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile))
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("concept page is %d px wide at 360 px (the family table must scroll inside its box)", w)
	}
	b.openWide(t, "/quality", "table.quality")
	if n := eval[int](t, b, `document.querySelectorAll("table.quality tbody tr").length`); n != 2 {
		t.Errorf("%d family rows", n)
	}
	b.do(t, chromedp.Focus(chromedp.CSS(`a[href="/quality/cdna4"]`)), chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/quality/cdna4")
	if !eval[bool](t, b, visibleJS+`(document.querySelector("table.disagreements"))`) {
		t.Error("the disagreements table is not visible")
	}
	b.noConsoleErrors(t)
}

// TestSASSPages: the SASS reference's index, a target's and an opcode's
// page show their sections, fit a 360 px screen (their tables scroll
// inside their boxes) and the PTX page's SASS opcode links lead there.
func TestSASSPages(t *testing.T) {
	b := newBrowser(t)
	b.openWide(t, "/ptx/max", "h1")
	b.do(t, chromedp.Focus(chromedp.CSS(`table.sass-lines a[href="/sass/FMNMX"]`)), chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/sass/FMNMX")
	for _, id := range []string{"targets", "forms", "ptx", "amd", "control", "sources"} {
		if !eval[bool](t, b, visibleJS+`(document.getElementById("`+id+`"))`) {
			t.Errorf("SASS section #%s is not visible", id)
		}
	}
	for _, path := range []string{"/sass", "/sass/sm_90", "/sass/FMNMX"} {
		b.openWide(t, path, "h1")
		b.do(t, chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile))
		if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 360 {
			t.Errorf("%s is %d px wide at 360 px", path, w)
		}
	}
	b.noConsoleErrors(t)
}

// TestScreenshots saves full-page screenshots of the main pages at 360 and
// 1440 px, light and dark. Look at them: the test only checks they were made.
// With GPUISA_DB set it shows that database instead of the sample reference.
func TestScreenshots(t *testing.T) {
	b := newBrowserOver(t, storeAt(t, os.Getenv("GPUISA_DB")))
	dir := screenshotDir(t)
	concept := "/concepts/max"
	if os.Getenv("GPUISA_DB") != "" {
		concept = "/concepts/maximum" // the real catalogue's id
	}
	pages := map[string]string{
		"instruction":    "/amdgpu/cdna4/v_max_f32",
		"ptx":            "/ptx/max",
		"home":           "/",
		"family":         "/amdgpu/cdna4",
		"compare":        "/compare/v_max_f32",
		"search":         "/search?q=max",
		"hexsearch":      "/search?q=0x160a04c1",
		"concepts":       "/concepts",
		"concept":        concept,
		"quality":        "/quality",
		"quality-family": "/quality/cdna4",
		"quality-ptx":    "/quality/ptx",
		"ptx-fma":        "/ptx/fma",
		"decode":         "/decode?arch=cdna4&hex=0x160a04c1+0x7e0a02ff+0x3f800000+0xffffffff",
		"about":          "/about",
		"category":       "/amdgpu/cdna4/category/vector-arithmetic",
		"ptx-index":      "/ptx",
		"ptx-forms":      "/ptx/max/forms",
		"ptx-sass":       "/ptx/max/sass",
		"sass-index":     "/sass",
		"sass-target":    "/sass/sm_90",
		"sass-opcode":    "/sass/FMNMX",
	}
	if os.Getenv("GPUISA_DB") != "" {
		// A dual-issue word with its shared literal (the real RDNA 3 model).
		pages["decode-vopd"] = "/decode?arch=rdna3&hex=0xc8500501+0x00020104+0x3f800000"
		pages["assemble"] = "/decode?arch=cdna3&asm=" + url.QueryEscape("global_load_dword v1, v2, s[2:3] offset:-16 sc0")
		pages["llvm-only"] = "/amdgpu/rdna3/s_waitcnt_depctr"      // documented by LLVM, not by AMD's RDNA 3 guide
		pages["verified-layout"] = "/amdgpu/rdna4/global_load_b32" // llvm-mc's layout, the guide's beside it
		pages["mai"] = "/amdgpu/cdna3/v_mfma_f32_32x32x8_f16"      // a VOP3P-MAI word
		pages["immediate-parts"] = "/amdgpu/vega/s_waitcnt"        // SIMM16 drawn as its counters
		pages["ptx-mma"] = "/ptx/mma"                              // 172 forms
		pages["ptx-cvt"] = "/ptx/cvt"                              // 325 forms
		pages["ptx-wgmma"] = "/ptx/wgmma.mma_async"                // sm_90a only
	}
	for name, path := range pages {
		for _, width := range []int64{360, 1440} {
			for _, scheme := range []string{"light", "dark"} {
				viewport := chromedp.EmulateViewport(width, 900)
				if width < 600 {
					viewport = chromedp.EmulateViewport(width, 780, chromedp.EmulateMobile)
				}
				png, err := func() ([]byte, error) {
					ctx, cancel := context.WithTimeout(b.ctx, 90*time.Second)
					defer cancel()
					if err := chromedp.Do(ctx, viewport, colorScheme(scheme),
						chromedp.Navigate(b.base+path), chromedp.WaitVisible(chromedp.CSS("footer"))); err != nil {
						return nil, err
					}
					if width < 600 { // the first screen at readable size, to look at
						top, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
						if err != nil {
							return nil, err
						}
						if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d-%s-top.png", name, width, scheme)), top, 0o644); err != nil {
							return nil, err
						}
					}
					full, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
					if err != nil { // a page taller than chromium can capture: the first screen
						return chromedp.Run(ctx, chromedp.CaptureScreenshot())
					}
					return full, nil
				}()
				if err != nil {
					t.Fatalf("%s %d %s: %v", name, width, scheme, err)
				}
				file := filepath.Join(dir, fmt.Sprintf("%s-%d-%s.png", name, width, scheme))
				if err := os.WriteFile(file, png, 0o644); err != nil {
					t.Fatal(err)
				}
				if len(png) < 1000 {
					t.Errorf("%s: screenshot of %d bytes", file, len(png))
				}
			}
		}
	}
	t.Logf("screenshots in %s", dir)
	b.noConsoleErrors(t)
}

// colorScheme emulates prefers-color-scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		if err != nil {
			return errors.Join(errors.New("emulating "+scheme), err)
		}
		return nil
	})
}

package webtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDiffPagesInBrowser opens the generation pages at a phone's and a
// desktop's width: nothing scrolls sideways, the counts and each rename's
// evidence are visible, the semantics word diff opens, and no console
// error. With GPUISA_DB it shows that database (the real renames and
// formats); GPUISA_SCREENSHOTS keeps the screenshots.
func TestDiffPagesInBrowser(t *testing.T) {
	real := os.Getenv("GPUISA_DB") != ""
	b := newBrowserOver(t, storeAt(t, os.Getenv("GPUISA_DB")))
	dir := screenshotDir(t)
	pages := map[string]string{
		"diff":        "/diff/rdna3/rdna4",
		"diff-index":  "/diff",
		"ptx-version": "/ptx/versions/8.0",
		"ptx-target":  "/ptx/targets/sm_90",
		"ptx-history": "/ptx/versions",
		"family-new":  "/amdgpu/rdna4?new=1",
		"compare":     "/compare/v_max_f32",
	}
	if real {
		pages["diff-changed"] = "/diff/rdna3/rdna4/changed"
		pages["diff-renamed"] = "/diff/rdna3/rdna4/renamed"
		pages["diff-cdna"] = "/diff/cdna2/cdna3"
		pages["instruction"] = "/amdgpu/cdna3/v_max_f32"
	}
	for name, path := range pages {
		for _, width := range []int64{390, 1440} {
			viewport := chromedp.EmulateViewport(width, 900)
			if width < 600 {
				viewport = chromedp.EmulateViewport(width, 800, chromedp.EmulateMobile)
			}
			ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
			err := chromedp.Do(ctx, viewport, chromedp.Navigate(b.base+path), chromedp.WaitVisible(chromedp.CSS("footer")))
			if err != nil {
				cancel()
				t.Fatalf("%s at %d: %v", path, width, err)
			}
			if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > int(width) {
				wide := eval[[]string](t, b, fmt.Sprintf(`[...document.querySelectorAll("body *")].filter(e => !e.closest(".scroll") && e.getBoundingClientRect().right > %d || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX == "visible")
					.slice(0, 6).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right) + " " + e.scrollWidth + "/" + e.clientWidth)`, width+1))
				t.Errorf("%s is %d px wide at %d px: %q", path, w, width, wide)
			}
			if name == "diff" || name == "diff-cdna" {
				if !eval[bool](t, b, visibleJS+`(document.querySelector("table.summary"))`) {
					t.Errorf("%s at %d: the summary table is not visible", path, width)
				}
				if top := eval[float64](t, b, `document.querySelector("table.summary").getBoundingClientRect().top`); top > 900 {
					t.Errorf("%s at %d: the summary table starts at %.0f px, below the first screen", path, width, top)
				}
			}
			// The evidence is folded; opening a rename's shows it (on the
			// page of the renames where they have one of their own).
			if hasRenames := eval[bool](t, b, `!!document.querySelector("section[aria-labelledby=renamed] ul.drows")`); name == "diff-renamed" || hasRenames && (name == "diff" || name == "diff-cdna") {
				if !eval[bool](t, b, `[...document.querySelectorAll("section[aria-labelledby=renamed] ul.evidence")].every(u => u.closest("details") && !u.closest("details").open)`) {
					t.Errorf("%s at %d: rename evidence is not folded", path, width)
				}
				if !eval[bool](t, b, `(function(){ const d = document.querySelector("section[aria-labelledby=renamed] details.evidence"); if (!d) return false; d.open = true; return true; })()`) ||
					!eval[bool](t, b, visibleJS+`(document.querySelector("section[aria-labelledby=renamed] ul.evidence li"))`) {
					t.Errorf("%s at %d: no rename evidence opens", path, width)
				}
			}
			if name == "diff" || name == "diff-cdna" || name == "diff-changed" {
				// Open the first word diff; its marks show.
				opened := eval[bool](t, b, `(function(){ const d = document.querySelector("details.dchg"); if (!d) return true; d.open = true;
					const w = d.querySelector(".words"); return w && w.getBoundingClientRect().height > 0; })()`)
				if !opened {
					t.Errorf("%s at %d: the word diff does not open", path, width)
				}
			}
			if name == "instruction" { // where it first appears, and the products
				eval[bool](t, b, `(function(){ const e = document.getElementById("generations"); if (e) e.scrollIntoView(); return !!e; })()`)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, width)), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("screenshots in %s", dir)
	b.noConsoleErrors(t)
}

package webtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAnswersOnFirstScreen: the answer of /decode (the first decoded
// instruction's heading line) and of a family's /cost ranking (its first
// row) are within the first screen at 1440x900 and at 390x844 on a
// phone, the forms that asked them beside. With GPUISA_DB it shows that
// database; the screenshots go to $GPUISA_SCREENSHOTS (answer-NAME-W.png)
// or a temporary directory. Look at them.
func TestAnswersOnFirstScreen(t *testing.T) {
	b := newBrowserOver(t, storeAt(t, os.Getenv("GPUISA_DB")))
	dir := screenshotDir(t)
	pages := []struct{ name, path, answer string }{
		{"decode", "/decode?arch=cdna4&hex=0x160a04c1+0x7e0a02ff", ".decoded .dec-head"},
		{"decode-error", "/decode?arch=cdna4&hex=0xffffffff", ".decode-errors li"},
		{"cost", "/amdgpu/cdna3/cost", "table.costrank tbody tr"},
	}
	if os.Getenv("GPUISA_DB") != "" {
		pages = append(pages, struct{ name, path, answer string }{"cost-xdl", "/amdgpu/cdna3/cost?unit=HWXDL&sort=throughput", "table.costrank tbody tr"},
			struct{ name, path, answer string }{"decode-vopd", "/decode?arch=rdna3&hex=0xc8500501+0x00020104+0x3f800000", ".decoded .dec-head"})
	}
	for _, vp := range []struct {
		w, h   int64
		mobile bool
	}{{1440, 900, false}, {390, 844, true}} {
		for _, p := range pages {
			emulate := chromedp.EmulateViewport(vp.w, vp.h)
			if vp.mobile {
				emulate = chromedp.EmulateViewport(vp.w, vp.h, chromedp.EmulateMobile)
			}
			ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
			err := chromedp.Do(ctx, emulate, chromedp.Navigate(b.base+p.path), chromedp.WaitVisible(chromedp.CSS("footer")))
			if err != nil {
				cancel()
				t.Fatalf("%s at %d: %v", p.path, vp.w, err)
			}
			pos := eval[[]float64](t, b, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return [-1, -1];
				const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })()`, p.answer))
			switch {
			case pos[0] < 0:
				t.Errorf("%s at %dx%d: no %s on the page", p.path, vp.w, vp.h, p.answer)
			case pos[1] > float64(vp.h):
				t.Errorf("%s at %dx%d: the answer (%s) is at %.0f-%.0f px, below the first screen", p.path, vp.w, vp.h, p.answer, pos[0], pos[1])
			default:
				t.Logf("%s at %dx%d: the answer at %.0f-%.0f px", p.path, vp.w, vp.h, pos[0], pos[1])
			}
			if w := eval[int64](t, b, `document.documentElement.scrollWidth`); w > vp.w {
				t.Errorf("%s at %d: the document is %d px wide", p.path, vp.w, w)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("answer-%s-%d.png", p.name, vp.w)), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("screenshots in %s", dir)
	b.noConsoleErrors(t)
}

// TestExplainPTXInBrowser: /explain explains pasted PTX at 1440 and 390
// px: each statement's line with its requirement and AMD counterpart is
// visible and the page does not scroll sideways. Screenshots:
// explain-ptx-WIDTH.png.
func TestExplainPTXInBrowser(t *testing.T) {
	b := newBrowserOver(t, storeAt(t, os.Getenv("GPUISA_DB")))
	dir := screenshotDir(t)
	path := "/explain?arch=ptx&text=" + url.QueryEscape(".version 8.0\n.target sm_90\n.entry k() {\n  max.f32 %f1, %f2, %f3;\n  max.s32 %r1, %r2, %r3;\n}\n")
	for _, width := range []int64{1440, 390} {
		emulate := chromedp.EmulateViewport(width, 900)
		if width < 600 {
			emulate = chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile)
		}
		ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
		err := chromedp.Do(ctx, emulate, chromedp.Navigate(b.base+path), chromedp.WaitVisible(chromedp.CSS("footer")))
		if err != nil {
			cancel()
			t.Fatalf("%s at %d: %v", path, width, err)
		}
		if n := eval[int](t, b, `[...document.querySelectorAll("section[aria-labelledby=explained] ol.xlist li")].filter(li => li.querySelector(".xok, .xbad") && li.getBoundingClientRect().height > 0).length`); n != 2 {
			t.Errorf("%d explained PTX lines visible at %d px, want 2", n, width)
		}
		if !eval[bool](t, b, `!!document.querySelector("section[aria-labelledby=explained] .xcp")`) {
			t.Errorf("no AMD counterpart shown at %d px", width)
		}
		if w := eval[int64](t, b, `document.documentElement.scrollWidth`); w > width {
			t.Errorf("the explain page is %d px wide at %d px", w, width)
		}
		eval[bool](t, b, `(document.getElementById("explained").scrollIntoView(), true)`)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("explain-ptx-%d.png", width)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.noConsoleErrors(t)
}

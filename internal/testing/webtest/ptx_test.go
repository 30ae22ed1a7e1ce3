package webtest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestSASSTabsWithoutScript: the "Compiles to" tabs are radio inputs and
// CSS alone; a click or the arrow keys show another target's listing, one
// at a time, and the PTX page fits a phone and a desktop without sideways
// scrolling.
func TestSASSTabsWithoutScript(t *testing.T) {
	b := newBrowser(t)
	b.openWide(t, "/ptx/max", "#sass")
	visiblePanels := `[...document.querySelectorAll(".sass")[0].querySelectorAll(".panel")].map(p => getComputedStyle(p).display !== "none")`
	if got := eval[[]bool](t, b, visiblePanels); len(got) != 3 || !got[0] || got[1] || got[2] {
		t.Fatalf("panels shown at first: %v, want only the first", got)
	}
	b.do(t, chromedp.Click(chromedp.CSS(`label[for="sass-1-sm_80"]`)))
	if got := eval[[]bool](t, b, visiblePanels); got[0] || !got[1] || got[2] {
		t.Errorf("after clicking sm_80: %v", got)
	}
	if text := eval[string](t, b, `document.querySelectorAll(".sass")[0].querySelectorAll(".panel")[1].textContent`); !strings.Contains(text, "SASS on sm_80") {
		t.Errorf("the sm_80 panel says %q", text)
	}
	// Radio inputs move with the arrow keys.
	b.do(t, chromedp.Focus(chromedp.CSS("#sass-1-sm_80")), chromedp.KeyEvent(kb.ArrowRight))
	if got := eval[[]bool](t, b, visiblePanels); got[0] || got[1] || !got[2] {
		t.Errorf("after ArrowRight: %v", got)
	}
	for _, width := range []int64{390, 1440} {
		vp := chromedp.EmulateViewport(width, 900)
		if width < 600 {
			vp = chromedp.EmulateViewport(width, 780, chromedp.EmulateMobile)
		}
		for _, path := range []string{"/ptx/max", "/ptx/fma", "/quality", "/quality/ptx"} {
			b.do(t, vp, chromedp.Navigate(b.base+path), chromedp.WaitVisible(chromedp.CSS("footer")))
			if w := eval[int64](t, b, `document.documentElement.scrollWidth`); w > width {
				t.Errorf("%s is %d px wide at %d px", path, w, width)
			}
		}
	}
	b.noConsoleErrors(t)
}

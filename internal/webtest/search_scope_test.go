package webtest

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestInstantSearchScopedToFamily: typing in the header on a family's page
// suggests that family's instructions; where it has none, every family's.
func TestInstantSearchScopedToFamily(t *testing.T) {
	b := newBrowser(t)
	archs := func(path, q string) []string {
		t.Helper()
		b.do(t, chromedp.EmulateViewport(1440, 900), chromedp.Navigate(b.base+path),
			chromedp.WaitVisible(chromedp.CSS("#q")),
			chromedp.Focus(chromedp.CSS("#q")),
			chromedp.SendKeys(chromedp.CSS("#q"), q),
			chromedp.WaitVisible(chromedp.CSS("#q-results li")),
		)
		return eval[[]string](t, b, `Array.from(document.querySelectorAll("#q-results li .arch")).map(e => e.textContent)`)
	}
	got := archs("/amdgpu/cdna4", "v_max")
	if len(got) == 0 {
		t.Fatal("no suggestions for v_max on the CDNA 4 page")
	}
	for _, a := range got {
		if a != "cdna4" {
			t.Errorf("suggestion from %s on the CDNA 4 page (%q)", a, got)
		}
	}
	got = archs("/ptx/max", "v_max_f32") // no PTX instruction: every family's
	if len(got) == 0 || got[0] == "ptx" {
		t.Errorf("suggestions for v_max_f32 on a PTX page: %q", got)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

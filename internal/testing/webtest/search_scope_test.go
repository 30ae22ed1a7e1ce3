package webtest

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestInstantSearchScopedToFamily: typing in the header on a family's page
// suggests that family's instructions first, every suggestion labelled with
// its family; Enter on an exact name opens it in that family, and a hex
// word goes to its decoding there.
func TestInstantSearchScopedToFamily(t *testing.T) {
	b := newBrowser(t)
	type hit struct{ Arch, Label string }
	suggest := func(path, q string) []hit {
		t.Helper()
		b.do(t, chromedp.EmulateViewport(1440, 900), chromedp.Navigate(b.base+path),
			chromedp.WaitVisible(chromedp.CSS("#q")),
			chromedp.Focus(chromedp.CSS("#q")),
			chromedp.SendKeys(chromedp.CSS("#q"), q),
			chromedp.WaitVisible(chromedp.CSS("#q-results li")),
		)
		return eval[[]hit](t, b, `Array.from(document.querySelectorAll("#q-results li .arch")).map(e => ({Arch: e.getAttribute("data-arch"), Label: e.textContent}))`)
	}
	got := suggest("/amdgpu/cdna4", "v_max")
	if len(got) == 0 || got[0].Arch != "cdna4" {
		t.Fatalf("suggestions for v_max on the CDNA 4 page start with %+v", got)
	}
	others := false
	for _, h := range got {
		if h.Label == "" || h.Label == h.Arch {
			t.Errorf("suggestion from %s labelled %q, want the family's name", h.Arch, h.Label)
		}
		if h.Arch != "cdna4" {
			others = true
		} else if others {
			t.Errorf("a CDNA 4 suggestion after another family's: %+v", got)
		}
	}
	if !others {
		t.Errorf("no other family's suggestions after CDNA 4's: %+v", got)
	}
	got = suggest("/ptx/max", "v_max_f32") // no PTX instruction: every family's
	if len(got) == 0 || got[0].Arch == "ptx" {
		t.Errorf("suggestions for v_max_f32 on a PTX page: %+v", got)
	}
	// An exact name is offered in every family that has it.
	archs := map[string]bool{}
	for _, h := range suggest("/", "v_max_f32") {
		archs[h.Arch] = true
	}
	if len(archs) < 3 {
		t.Errorf("suggestions for v_max_f32 on the home page offer %d families: %v", len(archs), archs)
	}
	// Enter on an exact name opens it in the family browsed, though RDNA 3
	// has a v_max_f32 too.
	b.do(t, chromedp.Navigate(b.base+"/amdgpu/cdna4/s_mov_b32"), chromedp.WaitVisible(chromedp.CSS("#q")),
		chromedp.Focus(chromedp.CSS("#q")), chromedp.SendKeys(chromedp.CSS("#q"), "v_max_f32"),
		chromedp.WaitVisible(chromedp.CSS("#q-results li")), chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/amdgpu/cdna4/v_max_f32")
	// A hex word goes straight to its decoding in the family browsed.
	b.do(t, chromedp.Navigate(b.base+"/amdgpu/cdna3/v_max_f32"), chromedp.WaitVisible(chromedp.CSS("#q")),
		chromedp.Focus(chromedp.CSS("#q")), chromedp.SendKeys(chromedp.CSS("#q"), "0x160a04c1"), chromedp.KeyEvent(kb.Enter))
	b.waitPath(t, "/decode?arch=cdna3&hex=0x160a04c1")
	b.noConsoleErrors(t)
}

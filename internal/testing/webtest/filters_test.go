package webtest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuisa/gpuisa/internal/testing/realdb"
)

// TestFiltersAndPickers: the family index filters by unit, format and
// text; a PTX page's forms filter by type and modifier; the counterparts'
// family picker shows one family's relations and links its pages.
func TestFiltersAndPickers(t *testing.T) {
	b := newBrowser(t)
	shown := func(sel string) int {
		t.Helper()
		return eval[int](t, b, `[...document.querySelectorAll(`+"`"+sel+"`"+`)].filter(e => e.getClientRects().length > 0).length`)
	}
	b.openWide(t, "/amdgpu/cdna4", "#filter")
	b.do(t, chromedp.SetValue(chromedp.CSS("#filter-unit"), "Scalar"))
	eval[bool](t, b, `(document.getElementById("filter-unit").dispatchEvent(new Event("change")), true)`)
	if n := shown("#family-list tr[data-name]"); n != 1 {
		t.Errorf("unit Scalar leaves %d rows, want 1 (s_mov_b32)", n)
	}
	b.do(t, chromedp.SetValue(chromedp.CSS("#filter-unit"), ""), chromedp.SetValue(chromedp.CSS("#filter-format"), "VOP3A"))
	eval[bool](t, b, `(document.getElementById("filter-format").dispatchEvent(new Event("change")), true)`)
	if n := shown("#family-list tr[data-name]"); n != 4 {
		t.Errorf("format VOP3A leaves %d rows, want 4", n)
	}

	b.do(t, chromedp.Navigate(b.base+"/ptx/max"), chromedp.WaitVisible(chromedp.CSS("#forms-q")))
	if n := shown("#forms-table tr[class^=form-]"); n != 3 {
		t.Fatalf("%d forms shown at first, want 3", n)
	}
	b.do(t, chromedp.Click(chromedp.CSS(`ul.chips[data-filter-chips] li:nth-child(2)`))) // .f16x2 (after .bf16x2)
	if got := eval[string](t, b, `document.getElementById("forms-q").value`); got != ".f16x2" {
		t.Errorf("the type chip put %q in the filter", got)
	}
	if n := shown("#forms-table tr[class^=form-]"); n != 1 {
		t.Errorf(".f16x2 leaves %d forms, want 1", n)
	}
	if got := eval[string](t, b, `document.getElementById("forms-count").textContent`); got != "1 of 3 forms" {
		t.Errorf("forms count %q", got)
	}
	// The picker: RDNA 3 alone, its member linked there.
	if n := shown(".cps li.cp"); n != 1 {
		t.Errorf("%d relations shown for every family, want 1", n)
	}
	b.do(t, chromedp.Click(chromedp.CSS(`label[for="cpf-rdna3"]`)))
	if href := eval[string](t, b, `document.querySelector(".cps ul.members a.m").getAttribute("href")`); href != "/amdgpu/rdna3/v_max_f32" {
		t.Errorf("with RDNA 3 picked the member links %q", href)
	}
	b.do(t, chromedp.Click(chromedp.CSS(`label[for="cpf-cdna4"]`)))
	if href := eval[string](t, b, `document.querySelector(".cps ul.members a.m").getAttribute("href")`); href != "/amdgpu/cdna4/v_max_f32" {
		t.Errorf("with CDNA 4 picked the member links %q", href)
	}

	// A large family's index lists names; the filter reads the summaries
	// from the family's JSON list.
	if p := realDatabase(t); p != "" {
		db := realdb.Open(t, p)
		b = newBrowserOver(t, db)
		b.do(t, chromedp.EmulateViewport(1440, 900), chromedp.Navigate(b.base+"/amdgpu/rdna4"), chromedp.WaitVisible(chromedp.CSS("#filter")),
			chromedp.Focus(chromedp.CSS("#filter")), chromedp.SendKeys(chromedp.CSS("#filter"), "maximum"),
			chromedp.WaitVisible(chromedp.CSS("#family-list li .sum")))
		n := shown("#family-list ul.names > li")
		if n < 5 || n > 200 {
			t.Errorf("'maximum' leaves %d of RDNA 4's names", n)
		}
		if count := eval[string](t, b, `document.getElementById("filter-count").textContent`); !strings.Contains(count, " of 1") {
			t.Errorf("filter count %q", count)
		}
		// A long PTX forms table loads in place and filters.
		b.do(t, chromedp.Navigate(b.base+"/ptx/mma"), chromedp.WaitVisible(chromedp.CSS("#forms-q")),
			chromedp.SendKeys(chromedp.CSS("#forms-q"), ".m16n8k16"))
		b.do(t, chromedp.Poll[chromedp.Void](`document.querySelectorAll("#forms-table tr[class^=form-]").length > 100`))
		if got := eval[string](t, b, `document.getElementById("forms-count").textContent`); !strings.HasSuffix(got, " of 172 forms") {
			t.Errorf("mma forms count %q, want … of 172 forms", got)
		}
	}
	b.noConsoleErrors(t)
}

package webtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpuisa/gpuisa/internal/testing/realdb"
)

// objdumpLineRe reads an instruction line of llvm-objdump -d: the text
// before the "// ADDR: WORDS" comment.
var objdumpLineRe = regexp.MustCompile(`^\s+(\S.*?)\s*// [0-9A-F]+: [0-9A-F ]+`)

// TestExplainUpload uploads a code object compiled by llc-22 (an MFMA
// kernel for gfx942) to /explain at 1440 and 390 px: the family comes from
// the object's e_flags, each line's text is llvm-objdump-22's, the MFMA
// line links to its page and says XDL and that gfx1100 lacks it, one
// field view opens, the kernel summary carries its descriptor and the
// labelled model estimate, and the page never scrolls sideways. Pasting
// llvm-objdump's own listing of the object gives the same lines.
// Screenshots go to $GPUISA_SCREENSHOTS (explain-upload-WIDTH.png) or a
// temporary directory. It needs the real database (its e_flags table,
// verdicts and costs).
func TestExplainUpload(t *testing.T) {
	for _, tool := range []string{"llc-22", "llvm-objdump-22"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH", tool)
		}
	}
	p := realDatabase(t)
	if p == "" {
		t.Skip("no real database (GPUISA_DB or ../shared/upstream): /explain needs the e_flags table and the notes")
	}
	db := realdb.Open(t, p)
	dir := t.TempDir()
	obj := filepath.Join(dir, "mfma.o")
	if out, err := exec.Command("llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-O2", "-filetype=obj", "-o", obj,
		"../../amd/decode/testdata/mfma.ll").CombinedOutput(); err != nil {
		t.Fatalf("llc-22: %v\n%s", err, out)
	}
	dump, err := exec.Command("llvm-objdump-22", "-d", obj).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string // llvm-objdump's texts without the padding
	for _, l := range strings.Split(string(dump), "\n") {
		if m := objdumpLineRe.FindStringSubmatch(l); m != nil && m[1] != "s_nop 0" && m[1] != "s_code_end" {
			want = append(want, strings.Join(strings.Fields(m[1]), " "))
		}
	}
	shots := screenshotDir(t)
	b := newBrowserOver(t, db)
	// The instruction texts of the page, padding runs left out.
	const textsJS = `[...document.querySelectorAll("li.xi .xtext")].map(e => e.textContent.replace(/\s+/g, " ").trim()).filter(s => !/ ×\d+$/.test(s))`
	for _, width := range []int64{1440, 390} {
		vp := chromedp.EmulateViewport(width, 900)
		if width < 600 {
			vp = chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile)
		}
		b.do(t, vp, chromedp.Navigate(b.base+"/explain"), chromedp.WaitVisible(chromedp.CSS("#explain-file")))
		b.do(t, chromedp.SetUploadFiles(chromedp.CSS("#explain-file"), []string{obj}),
			chromedp.SendKeys(chromedp.CSS("#explain-also"), "gfx1100"),
			chromedp.Click(chromedp.CSS(".explainbox button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS("#kernels")))
		where := fmt.Sprintf("at %d px", width)
		if head := eval[string](t, b, `document.querySelector(".xhead").textContent`); !strings.Contains(head, "gfx942") || !strings.Contains(head, "cdna3") {
			t.Errorf("%s: header %q does not name gfx942 / cdna3 from the e_flags", where, head)
		}
		got := eval[[]string](t, b, textsJS)
		if strings.Join(got, "\n") != strings.Join(replaceBranchLabels(want, got), "\n") {
			t.Errorf("%s: the page's %d lines differ from llvm-objdump-22's %d:\n%s", where, len(got), len(want), firstDiff(got, want))
		}
		// the kernel label and its descriptor
		if lab := eval[string](t, b, `document.querySelector("li.xlabel.xfunc").textContent`); !strings.HasPrefix(lab, "mfma:") || !strings.Contains(lab, "AGPRs") {
			t.Errorf("%s: kernel label %q", where, lab)
		}
		// the MFMA line: linked, XDL, not on gfx1100
		row := `[...document.querySelectorAll("li.xi")].find(li => li.querySelector(".xtext").textContent.startsWith("v_mfma_f32_32x32x8_f16"))`
		note := eval[string](t, b, `(`+row+`).querySelector(".xnote").textContent`)
		for _, w := range []string{"XDL", "on gfx942", "NOT on gfx1100"} {
			if !strings.Contains(note, w) {
				t.Errorf("%s: the MFMA line's notes %q lack %q", where, note, w)
			}
		}
		if href := eval[string](t, b, `(`+row+`).querySelector(".xtext a").getAttribute("href")`); href != "/amdgpu/cdna3/v_mfma_f32_32x32x8_f16" {
			t.Errorf("%s: the MFMA line links to %q", where, href)
		}
		// one field view, closed until clicked
		if eval[bool](t, b, `(`+row+`).querySelector("details.xfields").open`) {
			t.Errorf("%s: the field view is open before it is clicked", where)
		}
		b.do(t, chromedp.Evaluate[chromedp.Void](`(`+row+`).querySelector("details.xfields summary").scrollIntoView()`))
		b.do(t, chromedp.Click(chromedp.CSS(`li.xi:has(a[href="/amdgpu/cdna3/v_mfma_f32_32x32x8_f16"]) details.xfields summary`)))
		if !eval[bool](t, b, `(`+row+`).querySelector("details.xfields").open`) || !eval[bool](t, b, visibleJS+`((`+row+`).querySelector("details.xfields ul"))`) {
			t.Errorf("%s: the field view did not open", where)
		}
		fields := eval[string](t, b, `(`+row+`).querySelector("details.xfields").textContent`)
		for _, w := range []string{"VOP3P", "OP[", "ACC_CD", "Bit diagram", "Multiply"} {
			if !strings.Contains(fields, w) {
				t.Errorf("%s: the field view lacks %q: %q", where, w, fields)
			}
		}
		kernel := eval[string](t, b, `document.querySelector(".xkernel").textContent`)
		for _, w := range []string{"kernarg", "v_mfma_f32_32x32x8_f16 1", "gfx1100: 7 instructions", "model estimate (LLVM's scheduling model), not a measurement", "HWXDL"} {
			if !strings.Contains(kernel, w) {
				t.Errorf("%s: the kernel summary lacks %q", where, w)
			}
		}
		if w := eval[int64](t, b, `document.documentElement.scrollWidth`); w > width {
			t.Errorf("%s: the page is %d px wide; widest: %s", where, w, eval[string](t, b, widestJS))
		}
		b.do(t, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		shot := func(name string) {
			ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
			defer cancel()
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		shot(fmt.Sprintf("explain-upload-%d.png", width))
	}
	// The pasted llvm-objdump listing gives the same lines, at 390 px.
	b.do(t, chromedp.Navigate(b.base+"/explain"), chromedp.WaitVisible(chromedp.CSS("#explain-text")),
		chromedp.SetValue(chromedp.CSS("#explain-text"), string(dump)),
		chromedp.Click(chromedp.CSS(".explainbox button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS("#kernels")))
	got := eval[[]string](t, b, textsJS)
	if strings.Join(got, "\n") != strings.Join(replaceBranchLabels(want, got), "\n") {
		t.Errorf("pasted listing: the page's %d lines differ from llvm-objdump-22's %d:\n%s", len(got), len(want), firstDiff(got, want))
	}
	if head := eval[string](t, b, `document.querySelector(".xhead").textContent`); !strings.Contains(head, "cdna3") {
		t.Errorf("pasted listing: header %q", head)
	}
	b.noConsoleErrors(t)
	t.Logf("screenshots in %s", shots)
}

// widestJS names the elements that reach past the viewport.
const widestJS = `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .slice(0, 6).map(e => e.tagName.toLowerCase() + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).join("; ")`

// replaceBranchLabels lets a branch read as llvm-objdump writes it
// ("s_cbranch_scc1 65518") or with the page's label ("s_cbranch_scc1
// .LBB0_1"): where both lines are the same branch mnemonic, the page's
// form is taken.
func replaceBranchLabels(want, got []string) []string {
	out := append([]string(nil), want...)
	for i := range out {
		if i >= len(got) {
			break
		}
		wm, _, _ := strings.Cut(out[i], " ")
		gm, _, _ := strings.Cut(got[i], " ")
		if wm == gm && (strings.HasPrefix(wm, "s_cbranch") || wm == "s_branch") {
			out[i] = got[i]
		}
	}
	return out
}

func firstDiff(got, want []string) string {
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("line %d: page %q, llvm-objdump %q", i+1, g, w)
		}
	}
	return "(same lines)"
}

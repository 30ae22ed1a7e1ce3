package lsp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// compileKernels compiles the decoder's test kernels (testdata/kernels.ll)
// with llc-22 for target, or skips without llc.
func compileKernels(t testing.TB, target string) string {
	t.Helper()
	llc, err := exec.LookPath("llc-22")
	if err != nil {
		t.Skip("llc-22 not installed (Debian's llvm-22): no compiled kernels to check")
	}
	out := filepath.Join(t.TempDir(), target+".s")
	cmd := exec.Command(llc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu="+target, "-O2", "../../amd/decode/testdata/kernels.ll", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("llc-22 -mcpu=%s: %v\n%s", target, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCompiledKernelsHaveNoDiagnostics: what LLVM itself writes for every
// family's first target (kernel metadata, VOPD pairs, every directive)
// draws no diagnostic, and every instruction line has a hover: the class
// of false "unknown mnemonic" / "not supported" reports.
func TestCompiledKernelsHaveNoDiagnostics(t *testing.T) {
	db := realDB(t)
	c := start(t, db, nil)
	for _, a := range isa.Archs() {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		target := a.Targets[0]
		text := compileKernels(t, target)
		uri := "file:///work/kernels-" + target + ".s"
		if ds := c.open(uri, "", text); len(ds) > 0 {
			t.Errorf("%s: %d diagnostics, first %s", target, len(ds), messages(ds[:1]))
		}
		lines := strings.Split(text, "\n")
		hovered := 0
		for n, l := range lines {
			f := strings.Fields(l)
			if len(f) == 0 || !strings.HasPrefix(f[0], "v_") && !strings.HasPrefix(f[0], "s_") && !strings.HasPrefix(f[0], "global_") {
				continue
			}
			col := strings.Index(l, f[0])
			h := c.hover(uri, pos(n, col+1))
			if !strings.Contains(h, "**Target "+target+":**") || strings.Contains(h, "**Target "+target+":** not supported") {
				t.Errorf("%s:%d %q: hover does not say the target takes it:\n%s", target, n+1, strings.TrimSpace(l), h)
				break
			}
			hovered++
			if hovered == 40 {
				break
			}
		}
		if hovered == 0 {
			t.Errorf("%s: no instruction line hovered", target)
		}
	}
}

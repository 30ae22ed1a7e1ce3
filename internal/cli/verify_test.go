package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func TestVerifyCommand(t *testing.T) {
	src := testenv.Upstream(t)
	if _, err := verify.FindLLVMMC(); err != nil {
		t.Skipf("llvm-mc not installed (apt-get install llvm-22): %v", err)
	}
	if llvmdoc.DocDir() == "" {
		t.Skip("LLVM's AMDGPU syntax pages not installed (apt-get install llvm-22-doc): skipping")
	}
	// Shared with the build package's tests, so one of them fills it.
	cache := filepath.Join(os.TempDir(), "gpuisa-test-llvm-cache")
	out, errOut, code := run(t, "verify", "-q", "--sources", src, "--cache", cache)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Verified with", "LLVM version", "verified example", "cdna4", "rdna4", "vega"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := run(t, "verify", "--sources", filepath.Join(t.TempDir(), "missing")); code != 2 {
		t.Errorf("missing sources: exit %d, want 2", code)
	}
}

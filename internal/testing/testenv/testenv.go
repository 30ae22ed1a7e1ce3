// Package testenv finds what tests need from the machine — the upstream
// sources beside the checkout, llvm-mc, LLVM's syntax pages, ptxas — and skips a
// test with a clear message when something is absent, never silently.
package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
)

// FindUpstream returns $GPUISA_SOURCES, or the first shared/upstream found
// beside the working directory or one of its parents ("" when none is).
func FindUpstream() string {
	if env := os.Getenv("GPUISA_SOURCES"); env != "" {
		return env
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "..", "shared", "upstream")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Upstream returns the upstream sources directory or skips the test.
func Upstream(t testing.TB) string {
	t.Helper()
	dir := FindUpstream()
	if dir == "" {
		t.Skip("upstream sources not found (../shared/upstream beside the checkout, or $GPUISA_SOURCES): skipping a test on real data")
	}
	return dir
}

// PTXDocs returns the upstream PTX ISA documentation directory or skips
// the test.
func PTXDocs(t testing.TB) string {
	t.Helper()
	return filepath.Join(Upstream(t), "ptx-isa-9.1")
}

// LLVMMC returns the path of llvm-mc-22 (or $GPUISA_LLVM_MC) or skips the
// test.
func LLVMMC(t testing.TB) string {
	t.Helper()
	if env := os.Getenv("GPUISA_LLVM_MC"); env != "" {
		return env
	}
	for _, name := range []string{"llvm-mc-22", "llvm-mc"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("llvm-mc not installed (apt-get install llvm-22): skipping a test that needs the assembler")
	return ""
}

// FindPTXAS finds NVIDIA's tools as PTXAS does, for a test that chooses
// what to run by whether they are installed instead of skipping.
func FindPTXAS() (*ptxas.Tools, error) {
	return ptxas.Find(context.Background(), ptxas.FindOptions{CacheDir: ptxas.DefaultCacheDir()})
}

// PTXAS returns NVIDIA's tools (ptxas and, where installed, nvdisasm) from
// $GPUISA_PTXAS, the cache's virtual environment or PATH, or skips the test.
func PTXAS(t testing.TB) *ptxas.Tools {
	t.Helper()
	tools, err := FindPTXAS()
	if err != nil {
		t.Skipf("ptxas not installed (`go run ./cmd/gpuisa tools install` puts NVIDIA's wheels into the cache): skipping a test that needs NVIDIA's assembler: %v", err)
	}
	return tools
}

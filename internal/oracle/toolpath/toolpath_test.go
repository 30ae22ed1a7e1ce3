package toolpath

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind: the variable wins, then the names in order; what was tried is
// listed when nothing is found.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"tool-22", "tool", "mine"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	t.Setenv("GPUISA_TOOL", "")
	if p, _ := Find("GPUISA_TOOL", "tool-22", "tool"); filepath.Base(p) != "tool-22" {
		t.Errorf("Find = %q, want tool-22", p)
	}
	t.Setenv("GPUISA_TOOL", "mine")
	if p, _ := Find("GPUISA_TOOL", "tool-22", "tool"); filepath.Base(p) != "mine" {
		t.Errorf("with $GPUISA_TOOL=mine: %q", p)
	}
	t.Setenv("GPUISA_TOOL", "absent")
	p, tried := Find("GPUISA_TOOL", "none-22", "none")
	if p != "" || strings.Join(tried, " ") != "$GPUISA_TOOL=absent none-22 none" {
		t.Errorf("Find = %q, tried %q", p, tried)
	}
}

// TestLLVMVersion: the version line is the one naming LLVM's version,
// whatever the tool prints around it; a tool that prints none is an error.
func TestLLVMVersion(t *testing.T) {
	dir := t.TempDir()
	write := func(name, out string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\nprintf '"+out+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("llvm-mc", `LLVM (http://llvm.org/):\n  Debian LLVM version 22.1.8\n  Optimized build.\n`)
	if v, err := LLVMVersion(context.Background(), ok); err != nil || v != "Debian LLVM version 22.1.8" {
		t.Errorf("LLVMVersion = %q, %v", v, err)
	}
	bad := write("other", `other 1.0\n`)
	if v, err := LLVMVersion(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "printed no LLVM version") {
		t.Errorf("LLVMVersion of a non-LLVM tool = %q, %v", v, err)
	}
}

// TestFindLLVM: a missing tool is the caller's sentinel error, naming the
// places tried and the variable to set.
func TestFindLLVM(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GPUISA_TOOL", "")
	notFound := errors.New("tool not found")
	_, err := FindLLVM(notFound, "GPUISA_TOOL", "tool-22", "tool")
	if !errors.Is(err, notFound) || err.Error() != "tool not found (tried tool-22, tool); install llvm-22 or set GPUISA_TOOL" {
		t.Errorf("FindLLVM = %v", err)
	}
}

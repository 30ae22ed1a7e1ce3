package toolpath

import (
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

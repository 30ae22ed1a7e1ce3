package amdxml

import (
	"os"
	"path/filepath"
	"testing"
)

// findUpstream locates the shared upstream sources: $GPUISA_SOURCES, or
// ../shared/upstream relative to the repository root, found by walking up
// from the test's directory.
func findUpstream() (string, bool) {
	if dir := os.Getenv("GPUISA_SOURCES"); dir != "" {
		return dir, true
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			up := filepath.Join(dir, "..", "shared", "upstream")
			_, err := os.Stat(up)
			return up, err == nil
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// excerptFile is the CDNA 4 excerpt's path, if the upstream copy is here.
func excerptFile() (string, bool) {
	dir, ok := findUpstream()
	if !ok {
		return "", false
	}
	p := filepath.Join(dir, "amd-mrisa-xml", "amdgpu_isa_cdna4.excerpt.xml")
	_, err := os.Stat(p)
	return p, err == nil
}

// excerptPath is excerptFile, skipping the test when the excerpt is absent.
func excerptPath(t testing.TB) string {
	t.Helper()
	p, ok := excerptFile()
	if !ok {
		t.Skip("CDNA 4 excerpt not found: set GPUISA_SOURCES or provide ../shared/upstream next to the repository")
	}
	return p
}

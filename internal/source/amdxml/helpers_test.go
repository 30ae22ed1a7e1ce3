package amdxml

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// findUpstream locates the shared upstream sources (see testenv).
func findUpstream() (string, bool) {
	dir := testenv.FindUpstream()
	return dir, dir != ""
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

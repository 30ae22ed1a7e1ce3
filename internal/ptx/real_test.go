package ptx

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// docsDir finds the PTX documentation copy: $GPUISA_SOURCES, else
// ../shared/upstream relative to the repository root (found by walking up).
func docsDir(t testing.TB) string {
	t.Helper()
	if s := os.Getenv("GPUISA_SOURCES"); s != "" {
		return filepath.Join(s, "ptx-isa-9.1")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		cand := filepath.Join(dir, "..", "shared", "upstream", "ptx-isa-9.1")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("PTX ISA documentation not found: set GPUISA_SOURCES or place it at ../shared/upstream/ptx-isa-9.1")
		}
		dir = parent
	}
}

var (
	realOnce     sync.Once
	realInstrs   []Instruction
	realProblems []Problem
	realSections []ptxdoc.Section
	realErr      error
)

// realDocs builds the entries from the real documentation once per test binary.
func realDocs(t testing.TB) ([]ptxdoc.Section, []Instruction, []Problem) {
	t.Helper()
	dir := docsDir(t)
	realOnce.Do(func() {
		realSections, realErr = ptxdoc.ReadDir(dir)
		if realErr == nil {
			realInstrs, realProblems = Build(realSections)
		}
	})
	if realErr != nil {
		t.Fatal(realErr)
	}
	return realSections, realInstrs, realProblems
}

func findInstr(instrs []Instruction, name string) *Instruction {
	for i := range instrs {
		if instrs[i].Name == name {
			return &instrs[i]
		}
	}
	return nil
}

package ptx

import (
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

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
	dir := testenv.PTXDocs(t)
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

//go:build debug

package ptxdoc

// A debugging aid, compiled only with -tags debug:
//
//	go test -tags debug ./internal/source/ptxdoc -run TestDumpSections -v

import (
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestDumpSections lists every section the reader finds.
func TestDumpSections(t *testing.T) {
	secs, err := ReadDir(testenv.PTXDocs(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		t.Logf("%s|%s|%q|%d syntax|%d ex|%s|%s", s.Kind, s.Number, s.Mnemonics, len(s.Syntax), len(s.Examples), s.ID, s.Group)
	}
}

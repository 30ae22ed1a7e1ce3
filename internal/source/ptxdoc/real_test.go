package ptxdoc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testenv"
)

// upstreamDir returns the real PTX documentation or skips the test.
func upstreamDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(testenv.Upstream(t), "ptx-isa-9.1")
}

func TestReadDirRealCopy(t *testing.T) {
	secs, err := ReadDir(upstreamDir(t))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, s := range secs {
		kinds[s.Kind]++
		if os.Getenv("PTXDOC_DUMP") != "" { // set to list every section
			t.Logf("%s|%s|%q|%d syntax|%d ex|%s|%s", s.Kind, s.Number, s.Mnemonics, len(s.Syntax), len(s.Examples), s.ID, s.Group)
		}
	}
	t.Logf("sections by kind: %v", kinds)
}

func TestReadDirRealCopyShape(t *testing.T) {
	secs, err := ReadDir(upstreamDir(t))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	byName := map[string]Section{}
	for _, s := range secs {
		kinds[s.Kind]++
		for _, m := range s.Mnemonics {
			if _, seen := byName[m]; !seen {
				byName[m] = s
			}
		}
	}
	if kinds[KindInstruction] < 190 || kinds[KindSpecialRegister] < 30 || kinds[KindDirective] < 25 {
		t.Errorf("sections by kind: %v", kinds)
	}
	for _, m := range []string{"max", "cvt", "mma", "wgmma.mma_async", "tcgen05.mma", "cp.async.bulk.tensor", "tex", "ld", "atom", "bar", "barrier", "%tid", ".version"} {
		s, ok := byName[m]
		if !ok {
			t.Errorf("no section documents %s", m)
			continue
		}
		if len(s.Syntax) == 0 || s.PTXISANotes == "" || s.TargetISANotes == "" {
			t.Errorf("%s (%s): syntax %d, notes %q / %q", m, s.File, len(s.Syntax), s.PTXISANotes, s.TargetISANotes)
		}
	}
}

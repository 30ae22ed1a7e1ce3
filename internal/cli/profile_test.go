package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestProfilesAreWritten holds startProfiles to writing both profiles in
// pprof's format (gzip-compressed protocol buffers) and to skipping a
// profile whose file is "".
func TestProfilesAreWritten(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	stop, err := startProfiles(cpu, mem)
	if err != nil {
		t.Fatal(err)
	}
	keep := make([][]byte, 0, 64)
	for i := 0; i < 64; i++ {
		keep = append(keep, make([]byte, 1<<16))
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	_ = keep
	for _, f := range []string{cpu, mem} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: not a gzip-compressed pprof profile (%d bytes)", filepath.Base(f), len(b))
		}
	}
	stop, err = startProfiles("", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

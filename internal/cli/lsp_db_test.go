package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEditorDBBesideExecutable: an editor starts `gpuisa lsp` in the
// user's project; without --db, $GPUISA_DB or ./gpuisa.db there, the
// server reads the gpuisa.db beside its binary (a checkout's build).
func TestEditorDBBesideExecutable(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no executable path on this system:", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	missing := filepath.Join(t.TempDir(), "gpuisa.db")
	if got := editorDB(missing); got != missing {
		t.Fatalf("no database anywhere: got %s, want the default %s (named in the server's message)", got, missing)
	}
	beside := filepath.Join(filepath.Dir(exe), "gpuisa.db")
	if _, err := os.Stat(beside); err == nil {
		t.Skip(beside + " exists already: not touching it")
	}
	if err := os.WriteFile(beside, nil, 0o644); err != nil {
		t.Skip("cannot write beside the test binary:", err)
	}
	defer os.Remove(beside)
	if got := editorDB(missing); got != beside {
		t.Errorf("got %s, want %s", got, beside)
	}
	here := filepath.Join(t.TempDir(), "gpuisa.db")
	os.WriteFile(here, nil, 0o644)
	if got := editorDB(here); got != here {
		t.Errorf("./gpuisa.db exists: got %s, want it", got)
	}
}

package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLSPWithoutDatabase: gpuisa lsp starts without a database (an editor
// shows an exit only as "client quit with exit code 2") and says where it
// looked and what to run; here the input ends at once, which ends it.
func TestLSPWithoutDatabase(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	_, errOut, code := run(t, "lsp", "--db", missing)
	if code != 0 || !strings.Contains(errOut, "no database at "+missing+": run gpuisa build") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

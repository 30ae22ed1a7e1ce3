package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLSPWithoutDatabase: gpuisa lsp refuses to start on a database that
// does not exist, with status 2 and one line saying so (editors show it).
func TestLSPWithoutDatabase(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	_, errOut, code := run(t, "lsp", "--db", missing)
	if code != 2 || !strings.Contains(errOut, "does not exist") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

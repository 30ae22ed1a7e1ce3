// Package semtest reads the AMD guides' pseudocode for the tests of sem and
// of the packages built on it (semdiff, semoracle): the first pseudocode
// each lower-case instruction name is given, as the merge keeps it. It
// skips the calling test when ../shared/upstream is absent.
package semtest

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

var (
	mu    sync.Mutex
	cache = map[string]map[string]string{} // family -> name -> pseudocode
)

// Pseudocode returns fam's guide pseudocode by lower-case name, read once
// per process.
func Pseudocode(t testing.TB, fam string) map[string]string {
	t.Helper()
	up := testenv.Upstream(t)
	mu.Lock()
	defer mu.Unlock()
	if m, ok := cache[fam]; ok {
		return m
	}
	g, err := amdmanual.ParseFile(filepath.Join(up, "amd-isa-manuals", fam, "README.md"), fam)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range g.Instructions {
		if name := strings.ToLower(e.Name); e.Pseudocode != "" && m[name] == "" {
			m[name] = e.Pseudocode
		}
	}
	cache[fam] = m
	return m
}

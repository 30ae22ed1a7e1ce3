package sem

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
	"github.com/gpuisa/gpuisa/internal/testenv"
)

// NewerFamilies are the families whose guides use the newer pseudocode
// dialect this package parses.
var newerFamilies = []string{"rdna3", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5"}

var (
	guideOnce sync.Once
	guideText map[string]map[string]string // family -> lower-case name -> pseudocode
	guideErr  error
)

// guidePseudocode reads every newer family's guide (skipping the test
// without ../shared/upstream): the first pseudocode given per instruction
// name, as the merge keeps it.
func guidePseudocode(t testing.TB) map[string]map[string]string {
	up := testenv.Upstream(t)
	guideOnce.Do(func() {
		guideText = map[string]map[string]string{}
		for _, fam := range newerFamilies {
			g, err := amdmanual.ParseFile(filepath.Join(up, "amd-isa-manuals", fam, "README.md"), fam)
			if err != nil {
				guideErr = err
				return
			}
			m := map[string]string{}
			for _, e := range g.Instructions {
				name := strings.ToLower(e.Name)
				if e.Pseudocode == "" || m[name] != "" {
					continue
				}
				m[name] = e.Pseudocode
			}
			guideText[fam] = m
		}
	})
	if guideErr != nil {
		t.Fatal(guideErr)
	}
	return guideText
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// libraries returns one Library per newer family.
func libraries(t testing.TB) map[string]*Library {
	texts := guidePseudocode(t)
	out := map[string]*Library{}
	for fam, m := range texts {
		out[fam] = NewLibrary(fam, m)
	}
	return out
}

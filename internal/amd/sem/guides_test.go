package sem

import (
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/sem/semtest"
)

// NewerFamilies are the families whose guides use the newer pseudocode
// dialect this package parses.
var newerFamilies = []string{"rdna3", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5"}

// guidePseudocode reads every newer family's guide (skipping the test
// without ../shared/upstream): the first pseudocode given per instruction
// name, as the merge keeps it.
func guidePseudocode(t testing.TB) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, fam := range newerFamilies {
		out[fam] = semtest.Pseudocode(t, fam)
	}
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

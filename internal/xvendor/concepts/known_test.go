package concepts

import (
	"slices"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestKnownArchsFromTable: every AMD family of isa's table, sorted.
func TestKnownArchsFromTable(t *testing.T) {
	if !slices.IsSorted(KnownArchs) || len(KnownArchs) != len(isa.AMDArchIDs()) {
		t.Errorf("KnownArchs = %v: not isa's %d AMD families, sorted", KnownArchs, len(isa.AMDArchIDs()))
	}
	for _, id := range []string{"cdna1", "cdna5", "rdna3.5", "vega", "vega7"} {
		if !slices.Contains(KnownArchs, id) {
			t.Errorf("KnownArchs lacks %s", id)
		}
	}
}

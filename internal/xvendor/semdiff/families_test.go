package semdiff

import (
	"slices"
	"testing"
)

// TestFamiliesFromTable: the families with executable pseudocode, in the
// order the build has always evaluated them.
func TestFamiliesFromTable(t *testing.T) {
	if want := []string{"rdna3", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5"}; !slices.Equal(Families, want) {
		t.Errorf("Families = %v, want %v", Families, want)
	}
}

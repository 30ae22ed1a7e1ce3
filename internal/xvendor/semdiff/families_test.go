package semdiff

import (
	"slices"
	"testing"
)

// TestFamiliesFromTable: the families with executable pseudocode, in the
// order the build has always evaluated them (a family added later takes
// its place in its line).
func TestFamiliesFromTable(t *testing.T) {
	want := []string{"rdna3", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5"}
	got := slices.DeleteFunc(slices.Clone(Families), func(f string) bool { return !slices.Contains(want, f) })
	if !slices.Equal(got, want) {
		t.Errorf("Families = %v, want %v in this order", Families, want)
	}
}

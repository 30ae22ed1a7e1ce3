package concepts

import (
	"slices"
	"testing"
)

func TestKnownArchsFromTable(t *testing.T) {
	want := []string{"cdna1", "cdna2", "cdna3", "cdna4", "cdna5", "rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "vega", "vega7"}
	if !slices.Equal(KnownArchs, want) {
		t.Errorf("KnownArchs = %v, want %v", KnownArchs, want)
	}
}

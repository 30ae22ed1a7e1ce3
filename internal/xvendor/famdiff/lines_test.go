package famdiff

import (
	"reflect"
	"testing"
)

// TestLinesFromTable: the lines isa's table gives, as the diffs and the
// database have always had them.
func TestLinesFromTable(t *testing.T) {
	want := []Line{
		{Name: "RDNA", Families: []string{"rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4"}},
		{Name: "CDNA", Families: []string{"cdna1", "cdna2", "cdna3", "cdna4", "cdna5"}},
		{Name: "GCN", Families: []string{"vega", "vega7"}},
	}
	if !reflect.DeepEqual(Lines, want) {
		t.Errorf("Lines = %v, want %v", Lines, want)
	}
	for arch, prev := range map[string]string{"cdna1": "", "rdna1": "", "vega7": "vega", "cdna5": "cdna4", "rdna3.5": "rdna3"} {
		if got := Previous(arch); got != prev {
			t.Errorf("Previous(%s) = %q, want %q", arch, got, prev)
		}
	}
}

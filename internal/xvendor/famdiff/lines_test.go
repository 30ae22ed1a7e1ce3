package famdiff

import (
	"slices"
	"testing"
)

// TestLinesFromTable: the lines isa's table gives, in the order the diffs
// and the database have always had them (a family added later takes its
// place in its line).
func TestLinesFromTable(t *testing.T) {
	want := []Line{
		{Name: "RDNA", Families: []string{"rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4"}},
		{Name: "CDNA", Families: []string{"cdna1", "cdna2", "cdna3", "cdna4", "cdna5"}},
		{Name: "GCN", Families: []string{"vega", "vega7"}},
	}
	if len(Lines) != len(want) {
		t.Fatalf("Lines = %v", Lines)
	}
	for i, l := range Lines {
		got := slices.DeleteFunc(slices.Clone(l.Families), func(f string) bool { return !slices.Contains(want[i].Families, f) })
		if l.Name != want[i].Name || !slices.Equal(got, want[i].Families) {
			t.Errorf("line %d = %v, want %v in this order", i, l, want[i])
		}
	}
	for arch, prev := range map[string]string{"cdna1": "", "rdna1": "", "vega7": "vega", "cdna5": "cdna4", "rdna3.5": "rdna3"} {
		if got := Previous(arch); got != prev {
			t.Errorf("Previous(%s) = %q, want %q", arch, got, prev)
		}
	}
}

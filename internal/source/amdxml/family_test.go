package amdxml

import (
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestFamilyKeyedByTable holds the reader's ArchitectureName mapping to
// isa's family table: every AMD family's name, as the XML spells it
// ("AMD CDNA 4"), maps to its id, and the other spellings it knows map to
// table families.
func TestFamilyKeyedByTable(t *testing.T) {
	for _, id := range isa.AMDArchIDs() {
		name := "AMD " + isa.MustArch(id).Name
		if got, ok := Family(name); !ok || got != id {
			t.Errorf("Family(%q) = %q, %v; want %q (isa's table)", name, got, ok, id)
		}
	}
	for _, s := range []string{"AMD CDNA", "AMD RDNA", "AMD GCN5", "AMD GCN5.0", "AMD GCN5.1", "AMD Instinct CDNA 3", "AMD Radeon RDNA 2"} {
		got, ok := Family(s)
		if a, known := isa.ArchByID(got); !ok || !known || a.Vendor != isa.VendorAMD {
			t.Errorf("Family(%q) = %q, %v: not a family of isa's table", s, got, ok)
		}
	}
}

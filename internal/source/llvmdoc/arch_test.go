package llvmdoc

import (
	"slices"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// noSyntaxPage are the families LLVM 22 ships no syntax page for.
var noSyntaxPage = map[string]string{"cdna5": "LLVM 22 has no GFX1250 page"}

// TestPagesKeyedByTable holds the reader's page-name mapping to isa's
// family table: every family it names is a table family, every target it
// narrows to is one of that family's targets, and every AMD family has a
// page unless noSyntaxPage says why not.
func TestPagesKeyedByTable(t *testing.T) {
	covered := map[string]bool{}
	for page, archs := range pageArchs {
		var targets []string
		for _, id := range archs {
			a, ok := isa.ArchByID(id)
			if !ok || a.Vendor != isa.VendorAMD {
				t.Errorf("page %s: %q is not an AMD family of isa's table", page, id)
				continue
			}
			covered[id] = true
			targets = append(targets, a.Targets...)
		}
		for _, tgt := range pageTargets[page] {
			if !slices.Contains(targets, tgt) {
				t.Errorf("page %s: target %s is none of its families' (%v)", page, tgt, archs)
			}
		}
	}
	for page := range pageTargets {
		if _, ok := pageArchs[page]; !ok {
			t.Errorf("pageTargets names page %s, which pageArchs lacks", page)
		}
	}
	for _, id := range isa.AMDArchIDs() {
		if !covered[id] && noSyntaxPage[id] == "" {
			t.Errorf("family %s has no syntax page in pageArchs (add it, or say why in noSyntaxPage)", id)
		}
	}
}

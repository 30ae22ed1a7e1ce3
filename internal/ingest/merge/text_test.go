package merge

import (
	"slices"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func TestNearestFamilies(t *testing.T) {
	for arch, want := range map[string][]string{
		"cdna1": {"vega7", "cdna2", "vega", "cdna3", "rdna1"},
		"rdna1": {"rdna2", "vega7", "rdna3"},
		"vega":  {"vega7", "cdna1", "rdna1", "cdna2"},
	} {
		if got := nearestFamilies(arch); !slices.Equal(got[:len(want)], want) {
			t.Errorf("nearestFamilies(%s) = %v, want %v first", arch, got, want)
		}
	}
}

// TestNearestFamiliesUnchanged holds the walk over links derived from
// isa's table to the one over the links merge typed in before the table
// carried them: the borrowed descriptions in the database depend on it.
func TestNearestFamiliesUnchanged(t *testing.T) {
	old := map[string][]string{
		"vega":    {"vega7"},
		"vega7":   {"vega", "cdna1", "rdna1"},
		"cdna1":   {"vega7", "cdna2"},
		"cdna2":   {"cdna1", "cdna3"},
		"cdna3":   {"cdna2", "cdna4"},
		"cdna4":   {"cdna3", "cdna5"},
		"cdna5":   {"cdna4", "rdna4"},
		"rdna1":   {"rdna2", "vega7"},
		"rdna2":   {"rdna1", "rdna3"},
		"rdna3":   {"rdna2", "rdna3.5"},
		"rdna3.5": {"rdna3", "rdna4"},
		"rdna4":   {"rdna3.5", "cdna5"},
	}
	if len(old) != len(isa.AMDArchIDs()) {
		t.Skipf("the table has %d AMD families, the old links %d: this test held the derived links to the old ones when they replaced them", len(isa.AMDArchIDs()), len(old))
	}
	saved := familyLinks
	familyLinks = old
	want := map[string][]string{}
	for arch := range old {
		want[arch] = nearestFamilies(arch)
	}
	familyLinks = saved
	for arch, w := range want {
		if got := nearestFamilies(arch); !slices.Equal(got, w) {
			t.Errorf("nearestFamilies(%s) = %v, want %v", arch, got, w)
		}
	}
}

func TestBorrowDescriptions(t *testing.T) {
	guide := isa.Prov{Source: isa.SourceAMDManual, File: "g.md", Line: 3}
	mk := func(arch, name, desc string) *isa.Instruction {
		return &isa.Instruction{Arch: arch, Name: name, Vendor: isa.VendorAMD, Description: desc, Sources: []isa.Prov{guide}}
	}
	old := mk("cdna1", "s_x", "")
	old.Summary, old.Semantics = "D = S0.", "D = S0."
	cut := mk("cdna5", "s_x", "…EXEC mask.")
	far := mk("rdna3", "s_x", "From far away.")
	near := mk("cdna3", "s_x", "Copy the input. More text.")
	bare := mk("vega", "s_x", "") // listed in an opcode table only
	llvmOnly := &isa.Instruction{Arch: "rdna1", Name: "s_x", Vendor: isa.VendorAMD, Sources: []isa.Prov{{Source: isa.SourceLLVMMC}}}
	insts := []*isa.Instruction{old, cut, far, near, bare, llvmOnly}
	LinkFamilies(insts)
	if n := BorrowDescriptions(insts); n != 3 {
		t.Errorf("borrowed %d, want 3", n)
	}
	if bare.DescriptionFrom == nil || bare.DescriptionFrom.Why != WhyNoText {
		t.Errorf("vega (no text of its own): %+v from %+v; a borrowed description must say the guide gives none", bare, bare.DescriptionFrom)
	}
	if old.Description != near.Description || old.Summary != "Copy the input." || old.DescriptionFrom == nil ||
		old.DescriptionFrom.Arch != "cdna3" || old.DescriptionFrom.Why != WhyPseudocodeOnly || old.DescriptionFrom.Prov != guide {
		t.Errorf("cdna1: %+v from %+v", old, old.DescriptionFrom)
	}
	if cut.DescriptionFrom == nil || cut.DescriptionFrom.Why != WhyFragment || cut.Description != near.Description {
		t.Errorf("cdna5: %+v", cut)
	}
	if llvmOnly.DescriptionFrom != nil || llvmOnly.Description != "" {
		t.Errorf("an LLVM-only instruction got AMD's text: %+v", llvmOnly)
	}
}

// TestRenamesFromTable: the _num_ renames name the families isa's table
// gives isa.TraitNumMinMax, with the note the database has always carried
// (while those are RDNA 4 and CDNA 5).
func TestRenamesFromTable(t *testing.T) {
	if !slices.Equal(isa.ArchIDsWith(isa.TraitNumMinMax), []string{"rdna4", "cdna5"}) {
		t.Skip("more families have TraitNumMinMax than when the note was last checked")
	}
	for _, r := range renames {
		if !slices.Equal(r.Archs, []string{"rdna4", "cdna5"}) || r.Note != "renamed in RDNA 4 and CDNA 5" {
			t.Fatalf("rename %s -> %s: families %v, note %q", r.Old, r.New, r.Archs, r.Note)
		}
	}
}

// TestPointToSemantics: an instruction whose guide gives no pseudocode
// points at the nearest family where the same instruction (same lineage,
// same name) has some, and borrows nothing.
func TestPointToSemantics(t *testing.T) {
	guide := isa.Prov{Source: isa.SourceAMDManual, File: "g.md", Line: 7}
	mk := func(arch, name, sem string) *isa.Instruction {
		return &isa.Instruction{Arch: arch, Name: name, Vendor: isa.VendorAMD, Semantics: sem, Sources: []isa.Prov{guide}}
	}
	none := mk("vega", "s_y", "")
	near := mk("vega7", "s_y", "")           // the nearest family has none either
	far := mk("cdna1", "s_y", "D.u = S0.u.") // the next one has some
	own := mk("rdna2", "s_y", "D.u = S0.u.")
	llvmOnly := &isa.Instruction{Arch: "cdna2", Name: "s_y", Vendor: isa.VendorAMD, Semantics: "D0 = S0", Sources: []isa.Prov{{Source: isa.SourceLLVMMC}}}
	insts := []*isa.Instruction{none, near, far, own, llvmOnly}
	LinkFamilies(insts)
	if n := PointToSemantics(insts); n != 2 {
		t.Errorf("pointed %d, want 2 (vega and vega7)", n)
	}
	if none.Semantics != "" || none.SemanticsElsewhere == nil || none.SemanticsElsewhere.Arch != "cdna1" || none.SemanticsElsewhere.Prov != guide {
		t.Errorf("vega: semantics %q, elsewhere %+v; want a pointer to cdna1 and no text", none.Semantics, none.SemanticsElsewhere)
	}
	if own.SemanticsElsewhere != nil || far.SemanticsElsewhere != nil {
		t.Errorf("an instruction with its own pseudocode points elsewhere: %+v %+v", own.SemanticsElsewhere, far.SemanticsElsewhere)
	}
}

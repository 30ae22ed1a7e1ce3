package isa

import (
	"regexp"
	"slices"
	"testing"
)

// TestEveryFamilyHasEveryFact walks the family table and names the family
// and the fact it lacks: a new row must say everything the code reads from
// it (CONTRIBUTING.md, "Adding a family").
func TestEveryFamilyHasEveryFact(t *testing.T) {
	classRe := regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	orders, classes, targets := map[int]string{}, map[string]string{}, map[string]string{}
	var roots []string // AMD families descending from none: GCN 5 alone
	for _, a := range archTable {
		lacks := func(fact string) { t.Errorf("family %q lacks %s", a.ID, fact) }
		if a.ID == "" || a.Name == "" {
			lacks("an id and a name")
		}
		if a.Order <= 0 {
			lacks("a display order")
		} else if o, dup := orders[a.Order]; dup {
			t.Errorf("family %q has %s's display order %d", a.ID, o, a.Order)
		}
		orders[a.Order] = a.ID
		if !classRe.MatchString(a.Class) {
			lacks("a CSS class (lower case letters, digits, -)")
		} else if c, dup := classes[a.Class]; dup {
			t.Errorf("family %q has %s's CSS class %q", a.ID, c, a.Class)
		}
		classes[a.Class] = a.ID
		switch a.Vendor {
		case VendorAMD:
			checkAMDFamily(t, a, lacks)
			if len(a.Parents) == 0 {
				roots = append(roots, a.ID)
			}
			for _, tgt := range a.Targets {
				if f, dup := targets[tgt]; dup {
					t.Errorf("family %q has %s's target %s", a.ID, f, tgt)
				}
				targets[tgt] = a.ID
			}
		case VendorNVIDIA:
			if a.Kind != KindVirtual || a.Gen != 0 || len(a.Targets) != 0 || a.Line != "" || a.Waits != (WaitRules{}) || a.Traits != 0 {
				t.Errorf("family %q (PTX) carries AMD facts: %+v", a.ID, a)
			}
		default:
			lacks("a vendor")
		}
	}
	if len(roots) != 1 {
		t.Errorf("AMD families without parents: %v; every family but the oldest needs the families it descends from", roots)
	}
}

func checkAMDFamily(t *testing.T, a ArchInfo, lacks func(string)) {
	t.Helper()
	if a.Kind != KindNative {
		lacks("kind native")
	}
	if a.Gen < 9 || a.Gen > 12 {
		lacks("an encoding generation (9-12) the decoder and the immediate layouts know")
	}
	if !slices.ContainsFunc(lineTable, func(l LineInfo) bool { return l.ID == a.Line }) {
		lacks("a product line (LineRDNA, LineCDNA, LineGCN)")
	}
	if len(a.Targets) == 0 {
		lacks("gfx targets")
	}
	for _, tgt := range a.Targets {
		if !slices.Contains(AllGFXTargets, tgt) {
			t.Errorf("family %q: target %s is not in AllGFXTargets", a.ID, tgt)
		}
	}
	for _, p := range a.Parents {
		if pa, ok := ArchByID(p); !ok || pa.Vendor != VendorAMD || pa.ID == a.ID {
			t.Errorf("family %q: parent %q is not another AMD family", a.ID, p)
		}
	}
	if a.Waits.Counters == 0 {
		lacks("wait rules (Waits.Counters)")
	}
	if a.WaveSize != 32 && a.WaveSize != 64 {
		lacks("the evaluator's wave size (32 or 64)")
	}
	if a.VGPRGranule <= 0 || a.VGPRGranuleWave32 <= 0 {
		lacks("the VGPR allocation granules")
	}
}

// TestLinesFollowParents: a line's families, oldest first, are each the
// previous generation (the first parent) of the next.
func TestLinesFollowParents(t *testing.T) {
	n := 0
	for _, l := range Lines() {
		fams := LineFamilies(l.ID)
		if len(fams) == 0 {
			t.Errorf("line %s has no family", l.ID)
		}
		n += len(fams)
		for i, id := range fams {
			want := ""
			if i > 0 {
				want = fams[i-1]
			}
			if got := MustArch(id).Previous(); got != want {
				t.Errorf("family %s: previous generation %q, but its line (oldest first: %v) puts %q before it", id, got, fams, want)
			}
		}
	}
	if n != len(AMDArchIDs()) {
		t.Errorf("the lines hold %d families, the table %d AMD families", n, len(AMDArchIDs()))
	}
}

// TestTraitsHeld: every trait is some family's (an unheld trait is dead
// code in its readers).
func TestTraitsHeld(t *testing.T) {
	for tr := Trait(1); tr <= TraitFP8FNUZ; tr <<= 1 {
		if len(ArchIDsWith(tr)) == 0 {
			t.Errorf("trait %#x is no family's", uint32(tr))
		}
	}
}

func TestArchByID(t *testing.T) {
	if a, ok := ArchByID("rdna3.5"); !ok || a.Name != "RDNA 3.5" {
		t.Errorf("ArchByID(rdna3.5) = %+v, %v", a, ok)
	}
	for _, s := range []string{"RDNA3.5", "gfx942", "rdna35", ""} {
		if _, ok := ArchByID(s); ok {
			t.Errorf("ArchByID(%q) found a family: it takes ids only", s)
		}
	}
}

func TestGFXMajor(t *testing.T) {
	for in, want := range map[string]int{"gfx900": 9, "gfx90a": 9, "gfx90c": 9, "gfx1030": 10, "gfx1250": 12,
		"gfx10-3-generic": 10, "gfx9-4-generic": 9, "gfx12-generic": 12, "gfx600": 6, "sm_90": 0, "gfx": 0, "gfx1": 0} {
		if got, ok := GFXMajor(in); got != want || ok != (want != 0) {
			t.Errorf("GFXMajor(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
}

package semdiff

import (
	"strings"
	"testing"

	catalogue "github.com/gpuisa/gpuisa/concepts"
	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/amd/sem/semtest"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

func guideLibraries(t *testing.T) map[string]*sem.Library {
	libs := map[string]*sem.Library{}
	for _, fam := range Families {
		libs[fam] = sem.NewLibrary(fam, semtest.Pseudocode(t, fam))
	}
	return libs
}

func projectCatalogue(t *testing.T) *concepts.Catalogue {
	files, err := catalogue.Files()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := concepts.LoadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestMaximumDifferences is issue 21's acceptance case: the Maximum
// concept's AMD and PTX members differ, by evaluation, exactly where the
// pseudocode says: RDNA 3's v_max_f32 in IEEE mode quiets a signalling NaN
// where PTX's max returns the other operand; RDNA 4's v_max_num_f32 does not.
func TestMaximumDifferences(t *testing.T) {
	res := Derive(projectCatalogue(t), guideLibraries(t), Options{})
	find := func(arch, amd, variant string) *Pair {
		for i := range res.Pairs {
			p := &res.Pairs[i]
			if p.Concept == "maximum" && p.Arch == arch && p.AMD == amd && p.Variant == variant {
				return p
			}
		}
		return nil
	}
	old := find("rdna3", "v_max_f32", ".f32")
	if old == nil {
		t.Fatal("no rdna3 v_max_f32 / max.f32 pair evaluated")
	}
	var snan *Group
	for i, g := range old.Differences {
		if strings.Contains(g.When, "signalling NaN") {
			snan = &old.Differences[i]
			break
		}
	}
	if snan == nil {
		t.Fatalf("rdna3 v_max_f32 vs max.f32: no signalling-NaN difference in %+v", old.Differences)
	}
	if snan.When != "one input is a signalling NaN" || snan.AMD != "returns the quieted NaN of that input" || snan.PTX != "returns the other input" {
		t.Errorf("signalling NaN group: %s", snan.Sentence())
	}
	for _, g := range old.Differences {
		if !strings.Contains(g.When, "signalling NaN") {
			t.Errorf("rdna3 v_max_f32 differs from max.f32 outside signalling NaNs: %s", g.Sentence())
		}
	}
	if p := find("rdna4", "v_max_num_f32", ".f32"); p == nil || p.Differ != 0 {
		t.Errorf("rdna4 v_max_num_f32 vs max.f32: %+v", p)
	}
	t.Logf("%d pairs evaluated, %d contradictions; skipped %v", len(res.Pairs), len(res.Contradictions), res.Skipped)
	for _, c := range res.Contradictions {
		t.Logf("  %s %s%s / %s %s: %q: %s", c.Concept, c.PTX, c.Variant, c.Arch, c.AMD, c.Claim, c.Finding)
	}
}

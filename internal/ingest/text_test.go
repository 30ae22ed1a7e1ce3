package ingest

import (
	"context"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestDescriptionsFromNearestFamily: 427-740 instructions per older family
// (Vega, CDNA 1-2, RDNA 1-2) had no description, so their summary was
// pseudocode. Each now has the same instruction's description from the
// nearest family whose guide gives one, saying which, unless no family
// does.
func TestDescriptionsFromNearestFamily(t *testing.T) {
	src := upstreamDir(t)
	_, insts, _, err := LoadAMD(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]int{}
	for _, in := range insts {
		if in.Description == "" {
			before[in.Arch]++
		}
	}
	n := merge.BorrowDescriptions(insts)
	byKey := map[string]*isa.Instruction{}
	for _, in := range insts {
		byKey[in.Arch+" "+in.Name] = in
	}
	after, total := map[string]int{}, map[string]int{}
	for _, in := range insts {
		total[in.Arch]++
		if in.Description == "" {
			after[in.Arch]++
		}
		f := in.DescriptionFrom
		if f == nil {
			continue
		}
		lender := byKey[f.Arch+" "+f.Name]
		related := false
		for _, r := range in.Related {
			related = related || r.Arch == f.Arch && r.Name == f.Name
		}
		if lender == nil || !related || lender.Description != in.Description || lender.DescriptionFrom != nil ||
			in.Summary != merge.FirstSentence(in.Description) || f.Prov.Source != isa.SourceAMDManual || f.Why == "" {
			t.Errorf("%s %s: borrowed %+v inconsistently (lender %v, related %v)", in.Arch, in.Name, f, lender != nil, related)
		}
	}
	t.Logf("%d descriptions borrowed", n)
	for _, arch := range []string{"vega", "vega7", "cdna1", "cdna2", "rdna1", "rdna2"} {
		t.Logf("%-6s without description: %d before, %d after, of %d", arch, before[arch], after[arch], total[arch])
		if before[arch] < 100 {
			t.Errorf("%s: only %d without description before borrowing; the guide reader changed?", arch, before[arch])
		}
		if 20*after[arch] > total[arch] {
			t.Errorf("%s: %d of %d instructions still without description", arch, after[arch], total[arch])
		}
	}
	// The summary of CDNA 1's S_ADD_U32 was its pseudocode.
	if in := byKey["cdna1 s_add_u32"]; in == nil || in.DescriptionFrom == nil || in.Summary == merge.FirstSentence(in.Semantics) {
		t.Errorf("cdna1 s_add_u32: summary %q, from %+v", in.Summary, in.DescriptionFrom)
	}
}

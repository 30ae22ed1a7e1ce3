package ingest

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// conceptVerdicts is the build's pass over the catalogue: its lines are
// assembled on every family target llvm-mc knows, and each AMD member's
// verdict on a family comes from that family's instruction page, whose
// examples the LLVM pass already assembled on every target.
func conceptVerdicts(ctx context.Context, cat *concepts.Catalogue, insts []*isa.Instruction, llvm *LLVMResult, prog Progress) ([]byte, error) {
	prog.Start("assembling the concept catalogue's proposals", 1)
	defer prog.Done()
	var targets []string
	for _, a := range isa.Archs() {
		for _, t := range a.Targets {
			if slices.Contains(llvm.Report.Targets, t) {
				targets = append(targets, t)
			}
		}
	}
	v, err := concepts.AssembleProposals(ctx, cat, targets, nil, llvm.LLVMMC, llvm.CacheDir)
	if err != nil {
		return nil, err
	}
	members := map[string]bool{}
	for _, m := range concepts.AMDMembers(cat) {
		members[m] = true
	}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD || !members[in.Name] {
			continue
		}
		// The page's verdict per target; a target the LLVM pass could not
		// tell about (no example of the instruction assembled) stays
		// unknown, and port says "not verified" there.
		fam, _ := isa.LookupArch(in.Arch)
		for _, t := range fam.Targets {
			switch in.Targets[t] {
			case "supported":
				v.SetMember(in.Arch, in.Name, t, true)
			case "unsupported":
				v.SetMember(in.Arch, in.Name, t, false)
			}
		}
	}
	prog.Advance(1)
	return json.Marshal(v)
}

package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// AssembleProposals runs llvm-mc on every instruction line the catalogue
// proposes (forms and sequence steps) and on each probe, for the given gfx
// targets, in one batch per target through the result cache. probes maps
// family -> AMD mnemonic -> an instruction of that mnemonic (an example from
// its page) whose verdict stands for the member on the family's targets.
func AssembleProposals(ctx context.Context, cat *concepts.Catalogue, targets []string, probes map[string]map[string]string, llvmMC, cacheDir string) (*concepts.VerdictTable, error) {
	lines := concepts.ProposedLines(cat)
	var batch lineBatch
	for _, l := range lines {
		batch.add(l)
	}
	for _, byName := range probes {
		for _, asm := range byName {
			batch.add(asm)
		}
	}
	res, err := verify.Run(ctx, batch.inputs, targets, verify.Options{LLVMMC: llvmMC, CacheDir: cacheDir})
	if err != nil {
		return nil, fmt.Errorf("assembling the concept catalogue's proposals: %w", err)
	}
	v := concepts.NewVerdictTable(res.Version, res.Targets)
	for _, l := range lines {
		for t, target := range res.Targets {
			v.SetLine(l, target, message(res.Outcomes[batch.index[l]][t]))
		}
	}
	for family, byName := range probes {
		famTargets := isaTargets(family)
		for name, asm := range byName {
			for t, target := range res.Targets {
				// A rejected probe proves nothing about the member when it
				// is rejected everywhere (the example may be at fault):
				// only a probe that assembles somewhere gives verdicts.
				if slices.Contains(famTargets, target) && anySupported(res.Outcomes[batch.index[asm]]) {
					v.SetMember(family, name, target, res.Outcomes[batch.index[asm]][t].Supported)
				}
			}
		}
	}
	return v, nil
}

// message is the verdict of one outcome: "" when it assembled, else
// llvm-mc's message (never empty).
func message(o verify.Outcome) string {
	if o.Supported {
		return ""
	}
	if o.Error != "" {
		return o.Error
	}
	return "rejected by llvm-mc"
}

func anySupported(os []verify.Outcome) bool {
	for _, o := range os {
		if o.Supported {
			return true
		}
	}
	return false
}

func isaTargets(family string) []string {
	if a, ok := isa.LookupArch(family); ok {
		return a.Targets
	}
	return nil
}

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
	v, err := AssembleProposals(ctx, cat, targets, nil, llvm.LLVMMC, llvm.CacheDir)
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
		for _, t := range isaTargets(in.Arch) {
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

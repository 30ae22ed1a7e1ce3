package concepts

import (
	"context"
	"fmt"
	"slices"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
)

// AssembleProposals runs llvm-mc on every instruction line the catalogue
// proposes (forms and sequence steps) and on each probe, for the given gfx
// targets, in one batch per target through the result cache. probes maps
// family -> AMD mnemonic -> an instruction of that mnemonic (an example from
// its page) whose verdict stands for the member on the family's targets.
func AssembleProposals(ctx context.Context, cat *Catalogue, targets []string, probes map[string]map[string]string, llvmMC, cacheDir string) (*VerdictTable, error) {
	lines := ProposedLines(cat)
	var batch verify.Batch
	for _, l := range lines {
		batch.Add(l)
	}
	for _, byName := range probes {
		for _, asm := range byName {
			batch.Add(asm)
		}
	}
	res, err := verify.Run(ctx, batch.Inputs, targets, verify.Options{LLVMMC: llvmMC, CacheDir: cacheDir})
	if err != nil {
		return nil, fmt.Errorf("assembling the concept catalogue's proposals: %w", err)
	}
	v := NewVerdictTable(res.Version, res.Targets)
	for _, l := range lines {
		for t, target := range res.Targets {
			v.SetLine(l, target, message(res.Outcomes[batch.Index[l]][t]))
		}
	}
	for family, byName := range probes {
		fam, _ := isa.LookupArch(family)
		famTargets := fam.Targets
		for name, asm := range byName {
			for t, target := range res.Targets {
				// A rejected probe proves nothing about the member when it
				// is rejected everywhere (the example may be at fault):
				// only a probe that assembles somewhere gives verdicts.
				if slices.Contains(famTargets, target) && anySupported(res.Outcomes[batch.Index[asm]]) {
					v.SetMember(family, name, target, res.Outcomes[batch.Index[asm]][t].Supported)
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

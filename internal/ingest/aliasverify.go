package ingest

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
)

// verifyAliases fills every AMD alias's Targets: the family targets on
// which llvm-mc assembles one of the instruction's examples, written with
// the alias for its mnemonic (encoding suffix kept), into the bytes it
// gives the example itself. An alias's evidence is otherwise about other
// targets (a name llvm-mc prints on gfx11 for the gfx11 opcode) or none (a
// name AMD's XML lists, a rename read from the guides), and llvm-mc takes
// many of them nowhere in the family; the encoder accepts an alias only
// where this check saw llvm-mc take it. One llvm-mc run per family over
// its targets, cached like the rest of the pass. It returns how many
// (alias, target) pairs were verified.
func (p *llvmPass) verifyAliases() (int, error) {
	type probe struct {
		al       *isa.Alias
		ref, alt string // the example and its line under the alias
	}
	byArch := map[string][]probe{}
	batches := map[string]*verify.Batch{}
	for _, in := range p.insts {
		if in.Vendor != isa.VendorAMD || len(in.Aliases) == 0 || len(p.famTargets[in.Arch]) == 0 {
			continue
		}
		b := batches[in.Arch]
		if b == nil {
			b = &verify.Batch{}
			batches[in.Arch] = b
		}
		for i := range in.Aliases {
			al := &in.Aliases[i]
			al.Targets = nil
			for _, ex := range in.Examples {
				alt, ok := merge.Respell(ex.Asm, al.Name)
				if !ok {
					continue
				}
				b.Add(ex.Asm)
				b.Add(alt)
				byArch[in.Arch] = append(byArch[in.Arch], probe{al, ex.Asm, alt})
			}
		}
	}
	verified := 0
	for _, a := range p.archs {
		b, targets := batches[a.ID], p.famTargets[a.ID]
		if b == nil || len(b.Inputs) == 0 {
			continue
		}
		res, err := verify.Run(p.ctx, b.Inputs, targets, verify.Options{LLVMMC: p.llvmMC, CacheDir: p.cacheDir})
		if err != nil {
			return verified, fmt.Errorf("checking the aliases of %s: %w", a.ID, err)
		}
		for _, pr := range byArch[a.ID] {
			ref, alt := res.Outcomes[b.Index[pr.ref]], res.Outcomes[b.Index[pr.alt]]
			for ti, t := range targets {
				want, o := familyBytes(ref, ti), alt[ti]
				if want == nil || !o.Supported || !bytes.Equal(want, o.Encoding) || slices.Contains(pr.al.Targets, t) {
					continue
				}
				pr.al.Targets = append(pr.al.Targets, t)
				verified++
			}
		}
	}
	// Targets in the family's order, whatever example proved each.
	for _, in := range p.insts {
		for i := range in.Aliases {
			if ts := in.Aliases[i].Targets; len(ts) > 1 {
				in.Aliases[i].Targets = inOrder(ts, p.famTargets[in.Arch])
			}
		}
	}
	return verified, nil
}

// familyBytes is the example's encoding on the ti-th family target, or,
// where llvm-mc refuses the example's name there (gfx904 takes only
// v_fma_mix_f32 for Vega's V_MAD_MIX_F32 opcode), its encoding on the
// first family target that takes it: the model gives an instruction one
// encoding per family. nil when no target takes the example.
func familyBytes(ref []verify.Outcome, ti int) []byte {
	if ref[ti].Supported {
		return ref[ti].Encoding
	}
	for _, r := range ref {
		if r.Supported {
			return r.Encoding
		}
	}
	return nil
}

// inOrder is ts sorted by their place in order.
func inOrder(ts, order []string) []string {
	out := make([]string, 0, len(ts))
	for _, t := range order {
		if slices.Contains(ts, t) {
			out = append(out, t)
		}
	}
	return out
}

package cli

import (
	"context"
	"strconv"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// decodedHits decodes a search query that is machine code ("0x160a04c1")
// on every AMD family, or on arch, as /api/v1/search does, keeping the
// families on which every byte decodes. Each distinct decoded instruction
// becomes a hit naming the families that read the words the same way; its
// Why is the decoded text.
func decodedHits(ctx context.Context, db *store.DB, q, arch string) ([]isa.SearchHit, error) {
	if !decode.LooksLikeMachineCode(q) {
		return nil, nil
	}
	code, err := decode.ParseInput([]byte(q))
	if err != nil || len(code) == 0 {
		return nil, nil
	}
	archs, err := db.Archs(ctx)
	if err != nil {
		return nil, err
	}
	if arch != "" {
		a, err := db.Arch(ctx, arch)
		if err != nil {
			return nil, err
		}
		archs = []isa.Architecture{a}
	}
	type result struct {
		insts []decode.Inst
		ok    bool
	}
	results := make([]result, len(archs))
	var wg sync.WaitGroup
	for i, a := range archs {
		if a.Kind != isa.KindNative {
			continue
		}
		wg.Go(func() {
			ptrs, err := db.Instructions(ctx, a.ID)
			if err != nil {
				return
			}
			instrs := make([]isa.Instruction, len(ptrs))
			for k, p := range ptrs {
				instrs[k] = *p
			}
			d, err := decode.New(a, instrs)
			if err != nil {
				return
			}
			var insts []decode.Inst
			for off := 0; off < len(code); {
				in, n, err := d.Decode(code, off)
				if err != nil || n <= 0 {
					return // some bytes do not decode on this family
				}
				insts = append(insts, in)
				off += n
			}
			results[i] = result{insts, true}
		})
	}
	wg.Wait()
	var hits []isa.SearchHit
	index := map[string]int{} // offset and text -> hit
	for i, r := range results {
		if !r.ok {
			continue
		}
		for _, in := range r.insts {
			key := strconv.Itoa(in.Offset) + " " + in.Text()
			if k, seen := index[key]; seen {
				hits[k].Archs = append(hits[k].Archs, archs[i].ID)
				continue
			}
			index[key] = len(hits)
			h := isa.SearchHit{Summary: isa.Summary{Arch: archs[i].ID, Name: in.Name}, Score: 1000 - float64(in.Offset),
				Why: "decodes as " + in.Text(), Archs: []string{archs[i].ID}}
			if full, err := db.Instruction(ctx, archs[i].ID, in.Name); err == nil {
				h.Summary = isa.Summary{Arch: full.Arch, Name: full.Name, Category: full.Category, Section: full.Section, Summary: full.Summary}
			}
			hits = append(hits, h)
		}
	}
	return hits, nil
}

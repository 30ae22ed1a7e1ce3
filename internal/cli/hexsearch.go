package cli

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/serve/web"
	"github.com/gpuisa/gpuisa/internal/store"
)

// decodedHits decodes a search query that is machine code ("0x160a04c1")
// on every AMD family, or on arch, as /api/v1/search does, keeping the
// families on which every byte decodes. Each distinct decoded instruction
// becomes a hit naming the families that read the words the same way; its
// Why is the decoded text. Where the words decode up to a last
// instruction that needs more bytes than were given (half of a 64-bit
// VOP3), the incomplete notes say so, per decoder message, with the
// families that read them so (/api/v1/search's incomplete).
func decodedHits(ctx context.Context, db *store.DB, q, arch string) ([]isa.SearchHit, []web.IncompleteWord, error) {
	// "0xbf810000 gfx942": the words beside a family, target or product
	// are decoded there.
	q, arch = decode.ScopedMachineCode(q, arch, func(q string) (string, string) {
		sc := db.ScopeOf(q)
		return sc.Arch, sc.Rest
	})
	if !decode.LooksLikeMachineCode(q) {
		return nil, nil, nil
	}
	code, err := decode.ParseInput([]byte(q))
	if err != nil || len(code) == 0 {
		return nil, nil, nil
	}
	archs, err := db.Archs(ctx)
	if err != nil {
		return nil, nil, err
	}
	if arch != "" {
		a, err := db.Arch(ctx, arch)
		if err != nil {
			return nil, nil, err
		}
		archs = []isa.Architecture{a}
	}
	type result struct {
		insts     []decode.Inst
		ok        bool
		truncated string // the decoder's message for a last instruction cut short
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
					if err != nil && strings.HasPrefix(decodeMessage(err), "truncated") {
						results[i].truncated = decodeMessage(err)
					}
					return // some bytes do not decode on this family
				}
				insts = append(insts, in)
				off += n
			}
			results[i] = result{insts: insts, ok: true}
		})
	}
	wg.Wait()
	var hits []isa.SearchHit
	var incomplete []web.IncompleteWord
	index := map[string]int{} // offset and text -> hit
	for i, r := range results {
		if r.truncated != "" {
			k := slices.IndexFunc(incomplete, func(w web.IncompleteWord) bool { return w.Message == r.truncated })
			if k < 0 {
				k = len(incomplete)
				incomplete = append(incomplete, web.IncompleteWord{Message: r.truncated})
			}
			incomplete[k].Archs = append(incomplete[k].Archs, archs[i].ID)
		}
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
	return hits, incomplete, nil
}

// decodeMessage is a decoding error's message without its offset.
func decodeMessage(err error) string {
	var de *decode.Error
	if errors.As(err, &de) {
		return de.Msg
	}
	return err.Error()
}

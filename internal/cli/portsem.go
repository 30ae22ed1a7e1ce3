package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
	"github.com/gpuisa/gpuisa/internal/xvendor/semdiff"
)

// maxEvaluated bounds the difference lines port prints per counterpart.
const maxEvaluated = 3

// annotateEvaluated adds to each counterpart of a port report what
// evaluating both sides found (the build's store.KeySemDifferences extra): where they
// differ, or that they agree on every input of the corpus. The PTX type is
// the statement's (max.f32 -> .f32); nothing is added when the database
// has no differences or no pair matches.
func annotateEvaluated(ctx context.Context, db store.Reader, rep *concepts.PortReport) {
	raw, err := db.Extra(ctx, store.KeySemDifferences)
	if err != nil {
		return
	}
	var res semdiff.Result
	if json.Unmarshal(raw, &res) != nil {
		return
	}
	note := func(stmt string, o *concepts.Outcome) {
		words := stmtWords(stmt)
		for i := range o.Counterparts {
			c := &o.Counterparts[i]
			var best *semdiff.Pair
			for j := range res.Pairs {
				p := &res.Pairs[j]
				if p.Concept != c.ConceptID || p.AMD != c.AMD || p.Arch != rep.Arch || !hasVariant(words, p.Variant) {
					continue
				}
				if best == nil || len(p.Variant) > len(best.Variant) {
					best = p
				}
			}
			if best == nil {
				continue
			}
			if best.Differ == 0 {
				c.Evaluated = append(c.Evaluated, fmt.Sprintf("the same result as %s%s on all %d inputs tried (special values and random)", best.PTX, best.Variant, best.Cases))
				continue
			}
			for k, g := range best.Differences {
				if k == maxEvaluated {
					c.Evaluated = append(c.Evaluated, fmt.Sprintf("and %d more kinds of input (gpuisa concepts %s, or its page)", len(best.Differences)-k, best.Concept))
					break
				}
				c.Evaluated = append(c.Evaluated, g.Sentence())
			}
		}
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		note(r.Text, &r.Outcome)
		for j := range r.Registers {
			note(r.Text, &r.Registers[j].Outcome)
		}
	}
}

// stmtWords are the dot-separated words of a statement's opcode.
func stmtWords(stmt string) []string {
	op := strings.Fields(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(stmt), "@")))
	if len(op) == 0 {
		return nil
	}
	w := op[0]
	if strings.HasPrefix(stmt, "@") && len(op) > 1 {
		w = op[1]
	}
	return strings.Split(w, ".")
}

// hasVariant reports whether the opcode words carry every word of a
// variant (".lo.u32": lo and u32).
func hasVariant(words []string, variant string) bool {
	for _, v := range strings.Split(strings.TrimPrefix(variant, "."), ".") {
		if !slices.Contains(words[1:], v) {
			return false
		}
	}
	return len(words) > 1
}

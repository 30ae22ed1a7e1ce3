package ptxoracle

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
)

// SASSTargets are the targets whose SASS the reference shows for every
// example and form: one per GPU generation from Turing on.
var SASSTargets = []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}

// SASS compiles the verdicts in want on each of targets that accepts them
// and returns, per verdict index, what the statement itself became: the
// kernel's SASS less its harness's (the same kernel without the
// statement), matched by opcode. A statement only an architecture- or
// family-specific target accepts (wgmma needs sm_90a) is listed there
// instead of on the plain target. advance, when set, is called after each
// target.
func (e *Engine) SASS(ctx context.Context, vs []Verdict, want map[int]bool, targets []string, advance func()) (map[int][]isa.SASS, error) {
	out := map[int][]isa.SASS{}
	if e.Session.Tools.NVDisasm == "" {
		return out, ptxas.ErrNoDisassembler
	}
	idx := slices.Sorted(maps.Keys(want))
	infos := map[string]ptxas.TargetInfo{}
	for _, t := range e.targets {
		infos[t.Target] = t
	}
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		firstErr error
		sem      = make(chan struct{}, 2)
		lists    = map[string]map[int][]isa.SASSLine{}
	)
	var all []string
	for _, tg := range targets {
		all = append(all, tg, tg+"a", tg+"f")
	}
	for _, tg := range all {
		info, ok := infos[tg]
		if !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			got, err := e.sassOn(ctx, vs, idx, info)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			lists[tg] = got
			if advance != nil && !strings.HasSuffix(tg, "a") && !strings.HasSuffix(tg, "f") {
				advance()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return out, firstErr
	}
	for _, tg := range targets {
		for _, i := range idx {
			// The plain target, else its "a" or "f" variant.
			for _, v := range []string{tg, tg + "a", tg + "f"} {
				if lines, ok := lists[v][i]; ok {
					out[i] = append(out[i], isa.SASS{Target: v, Lines: lines})
					break
				}
			}
		}
	}
	return out, nil
}

// sassOn lists the statements that target accepts.
func (e *Engine) sassOn(ctx context.Context, vs []Verdict, idx []int, info ptxas.TargetInfo) (map[int][]isa.SASSLine, error) {
	var units, bases []ptxas.Unit
	var which []int
	plain := strings.TrimRight(info.Target, "af")
	for _, i := range idx {
		ok, plainOK := false, false
		for _, t := range vs[i].Targets {
			ok = ok || t.Target == info.Target && t.OK
			plainOK = plainOK || t.Target == plain && t.OK
		}
		if !ok || plain != info.Target && plainOK {
			continue
		}
		u, _, err := e.Harness.Unit(vs[i].Stmt)
		if err != nil {
			continue
		}
		units = append(units, u)
		bases = append(bases, ptxharness.Baseline(u))
		which = append(which, i)
	}
	version := e.GridVersion(info)
	full, err := e.Session.Disassemble(ctx, version, info.Target, units)
	if err != nil {
		return nil, err
	}
	base, err := e.Session.Disassemble(ctx, version, info.Target, bases)
	if err != nil {
		return nil, err
	}
	out := map[int][]isa.SASSLine{}
	for k, i := range which {
		if full[k].OK {
			out[i] = StatementSASS(full[k].Lines, base[k].Lines)
		}
	}
	return out, nil
}

// StatementSASS removes from full the instructions the baseline (the
// harness alone) has too, matched by opcode, the reads of the parameter
// bank however the compiler spells them, and the kernel's tail.
func StatementSASS(full, base []ptxas.SASSLine) []isa.SASSLine {
	left := map[string]int{}
	for _, l := range base {
		left[l.Opcode()]++
	}
	out := []isa.SASSLine{}
	for _, l := range full {
		op := l.Opcode()
		switch {
		case op == "EXIT" || op == "NOP" || op == "BRA" && strings.Contains(l.Text, "`(.L_x_"):
			continue
		case strings.Contains(l.Text, "c[0x0]["):
			// Reads of the parameter bank and the stack pointer's set-up:
			// the harness's (LDC, or IMAD.MOV.U32 ..., c[0x0][0x28]).
			continue
		case left[op] > 0:
			left[op]--
			continue
		}
		out = append(out, isa.SASSLine{Text: l.Text, Encoding: l.Encoding, Control: l.Control})
	}
	return out
}

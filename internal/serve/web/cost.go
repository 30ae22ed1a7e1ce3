package web

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/costview"
)

// costGroup is one row of an instruction's cost table: the targets on
// which LLVM's scheduling model gives the same numbers.
type costGroup struct {
	Targets   []string
	Cost      isa.Cost
	Resources string // "HWXDL[8]"
	Flags     string // "may load, side effects"
	// Work is a matrix instruction's passes, cycles and work per cycle.
	Work *costview.Work
	// Formats are the other operand formats the build modelled (an
	// F8F6F4 instruction's FP6 and FP4), each with its work.
	Formats []formatCost
}

// formatCost is the cost of one operand format of a matrix instruction,
// with its resources as the page prints them.
type formatCost struct {
	costview.FormatWork
	Resources string
}

// costGroups folds an instruction's per-target costs into rows of equal
// numbers, in target order.
func costGroups(in *isa.Instruction) []costGroup {
	targets := make([]string, 0, len(in.Cost))
	for t := range in.Cost {
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool { return gfxLess(targets[i], targets[j]) })
	var out []costGroup
	index := map[string]int{}
	for _, t := range targets {
		c := in.Cost[t]
		key := fmt.Sprintf("%d/%g/%d/%v/%v/%v/%s/%v", c.Latency, c.RThroughput, c.UOps, c.MayLoad, c.MayStore, c.SideEffects, c.Unit, c.Resources)
		for _, fc := range c.Formats {
			key += fmt.Sprintf("|%s/%v", fc.Opcode, fc.Resources)
		}
		if i, ok := index[key]; ok {
			out[i].Targets = append(out[i].Targets, t)
			continue
		}
		index[key] = len(out)
		g := costGroup{Targets: []string{t}, Cost: c, Resources: resourceText(c), Flags: flagText(c)}
		g.Work, _ = costview.WorkOf(isa.ArchInfoFor(in.Arch), in.Name, c)
		for _, f := range costview.FormatsOf(isa.ArchInfoFor(in.Arch), in.Name, c) {
			g.Formats = append(g.Formats, formatCost{f, resourceText(f.Cost)})
		}
		out = append(out, g)
	}
	return out
}

// resourceText and flagText print a cost's resources and flags as the
// pages show them.
func resourceText(c isa.Cost) string { return costview.Resources(c) }

func flagText(c isa.Cost) string { return strings.Join(costview.Flags(c), ", ") }

// numText prints a count or a rate as the cost pages show them: grouped by
// thousands, one decimal where it has one ("16,384", "1,307.4", "0.5").
func numText(v any) string {
	var f float64
	switch n := v.(type) {
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		return fmt.Sprint(v)
	}
	s := strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// gfxLess orders gfx targets by number ("gfx90a" after "gfx908", "gfx1100"
// after "gfx950").
func gfxLess(a, b string) bool {
	na, nb := strings.TrimPrefix(a, "gfx"), strings.TrimPrefix(b, "gfx")
	if len(na) != len(nb) {
		return len(na) < len(nb)
	}
	return na < nb
}

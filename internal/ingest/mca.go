package ingest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmcap"
	"github.com/gpuisa/gpuisa/internal/oracle/mca"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// maxCostExamples bounds the examples tried per instruction and target:
// the first one llvm-mca models is kept.
const maxCostExamples = 3

// applyMCA runs LLVM's scheduling model (llvm-mca) over the verified
// examples of every AMD instruction on every target where the instruction
// assembles, and records the model's numbers per target. Without llvm-mca
// the instructions keep no cost and the report says why.
func applyMCA(ctx context.Context, opts Options, insts []*isa.Instruction, prog Progress) (*isa.Document, *quality.CostReport, error) {
	rep := &quality.CostReport{}
	path, err := mca.Find()
	if err != nil {
		if errors.Is(err, mca.ErrNotFound) {
			rep.Notes = append(rep.Notes, "no cost from LLVM's scheduling model: "+err.Error())
			return nil, rep, nil
		}
		return nil, nil, err
	}
	// An llvm-mca that does not take the run's flags would fail the same
	// way on every target: skipped, once, with the reason.
	if ferr := mca.CheckFlags(ctx, path); ferr != nil {
		version, _ := mca.Version(ctx, path)
		tool := llvmcap.Short("llvm-mca", version)
		rep.Notes = append(rep.Notes, "no cost from LLVM's scheduling model: "+tool+" "+ferr.Error())
		rep.Gap = &quality.OracleGap{Tool: "llvm-mca", Version: version, Step: "cost model",
			Text: "no cost from LLVM's scheduling model on any family: " + tool + " " + ferr.Error(), Fix: llvmcap.InstallCommand}
		return nil, rep, nil
	}
	cacheDir := opts.CacheDir
	if cacheDir == "" {
		cacheDir = ptxas.DefaultCacheDir()
	}
	// Per target, the lines to model: each instruction's examples.
	type ref struct {
		in      *isa.Instruction
		asm     []string
		formats []string // the first example in the other operand formats
	}
	lines := map[string][]string{}
	refs := map[string][]ref{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD || len(in.Examples) == 0 {
			continue
		}
		var asm []string
		for _, ex := range in.Examples {
			if ex.Encoding != "" && len(asm) < maxCostExamples {
				asm = append(asm, ex.Asm)
			}
		}
		if len(asm) == 0 {
			continue
		}
		formats := formatLines(in.Name, asm[0])
		for t, status := range in.Targets {
			if status != "supported" {
				continue
			}
			refs[t] = append(refs[t], ref{in, asm, formats})
			lines[t] = append(lines[t], asm...)
			lines[t] = append(lines[t], formats...)
		}
	}
	prog.Start(fmt.Sprintf("modelling costs with llvm-mca on %d targets", len(lines)), len(lines))
	res, err := mca.Run(ctx, lines, mca.Options{LLVMMCA: path, CacheDir: cacheDir, Progress: func(int, int) { prog.Advance(1) }})
	prog.Done()
	if err != nil {
		return nil, nil, err
	}
	rep.LLVMMCA, rep.Processes, rep.Analysed, rep.CacheHits = res.Version, res.Processes, res.Analysed, res.CacheHits
	for t, rs := range refs {
		costs := res.Costs[t]
		k := 0
		for _, r := range rs {
			var pick *mca.Cost
			for j := range r.asm {
				if c := costs[k+j]; c.OK && pick == nil {
					pick = &c
					pick.Printed = r.asm[j]
				}
			}
			k += len(r.asm)
			variants := costs[k : k+len(r.formats)]
			k += len(r.formats)
			if pick == nil {
				continue
			}
			if r.in.Cost == nil {
				r.in.Cost = map[string]isa.Cost{}
			}
			c := toCost(*pick)
			for j, v := range variants {
				if v.OK {
					v.Printed = r.formats[j]
					c.Formats = append(c.Formats, toCost(v))
				}
			}
			r.in.Cost[t] = c
		}
	}
	// Coverage per family, and the guides' pass counts against the model.
	with := map[string]int{}
	total := map[string]int{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		total[in.Arch]++
		if len(in.Cost) > 0 {
			with[in.Arch]++
		}
		rep.Disagreements = append(rep.Disagreements, passDisagreements(in)...)
	}
	for _, a := range isa.AMDArchIDs() {
		if total[a] > 0 {
			rep.Families = append(rep.Families, quality.CostFamily{Arch: a, Instructions: total[a], WithCost: with[a],
				Share: 100 * float64(with[a]) / float64(total[a])})
		}
	}
	doc := &isa.Document{Source: isa.SourceLLVMMCA, File: path, Title: "LLVM's AMDGPU scheduling model (llvm-mca)",
		Version: res.Version, Attribution: "LLVM, run by gpuisa build: the compiler's model, not a measurement", License: "Apache-2.0 WITH LLVM-exception"}
	return doc, rep, nil
}

// formatLines are an example line of a matrix instruction whose modifiers
// choose its operand formats (F8F6F4) rewritten to each other format, so
// the model's cost of every format is known, not only the example's.
func formatLines(name, asm string) []string {
	s, err := isa.ParseMatrix(name, asm, "")
	if err != nil || s.DType != isa.DTypeF8F6F4 {
		return nil
	}
	var out []string
	for _, f := range isa.F8F6F4Formats {
		if l, ok := isa.F8F6F4Line(asm, s, f); ok && l != asm {
			out = append(out, l)
		}
	}
	return out
}

func toCost(c mca.Cost) isa.Cost {
	out := isa.Cost{Asm: c.Printed, UOps: c.UOps, Latency: c.Latency, RThroughput: c.RThroughput, MayLoad: c.MayLoad,
		MayStore: c.MayStore, SideEffects: c.SideEffects, Unit: c.Unit(), Opcode: c.Opcode}
	for _, r := range c.Resources {
		out.Resources = append(out.Resources, isa.CostResource{Name: r.Name, Cycles: r.Cycles})
	}
	return out
}

// passesRe finds the CDNA guides' "This instruction performs 8 passes."
var passesRe = regexp.MustCompile(`performs (\d+) passes`)

// passDisagreements compares the pass count the guide states for an
// instruction with the cycles the model gives its XDL (or DGEMM) unit, per
// target.
func passDisagreements(in *isa.Instruction) []quality.CostDisagreement {
	m := passesRe.FindStringSubmatch(in.Description + " " + in.Notes)
	if m == nil || len(in.Cost) == 0 {
		return nil
	}
	passes, _ := strconv.Atoi(m[1])
	var out []quality.CostDisagreement
	for _, t := range slices.Sorted(maps.Keys(in.Cost)) {
		c := in.Cost[t]
		cycles := 0
		for _, r := range c.Resources {
			if r.Name == c.Unit {
				cycles = max(r.Cycles, 1)
			}
		}
		// The model's XDL cycles are the guide's passes (32x32x8 f16:
		// HWXDL[8], "performs 8 passes").
		if cycles == passes {
			continue
		}
		out = append(out, quality.CostDisagreement{Arch: in.Arch, Name: in.Name, Target: t,
			Fact: "passes", Doc: strconv.Itoa(passes), Model: fmt.Sprintf("%s[%d]", c.Unit, cycles)})
	}
	return out
}

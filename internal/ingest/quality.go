package ingest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// The data-quality report is computed here, where the merge's results are
// (internal/store/quality holds its types and text, which serving reads).

// qualityInput is what computeQuality needs.
type qualityInput struct {
	Report  quality.Report // the run-wide fields, filled by the caller
	Archs   []isa.Architecture
	Insts   []*isa.Instruction
	Syntax  map[string]*merge.SyntaxMatch // by arch id
	Results map[*isa.Instruction]merge.Result
	// FamilyTargets are each family's targets llvm-mc knows.
	FamilyTargets map[string][]string
	// LLVMAccepted says, per family, which LLVM-only names llvm-mc
	// accepted on a family target.
	LLVMAccepted map[string]map[string]bool
}

// computeQuality builds the data-quality report: one family per AMD family,
// in display order.
func computeQuality(in qualityInput) quality.Report {
	r := in.Report
	r.Families = nil
	byArch := map[string][]*isa.Instruction{}
	for _, ins := range in.Insts {
		if ins.Vendor == isa.VendorAMD {
			byArch[ins.Arch] = append(byArch[ins.Arch], ins)
		}
	}
	archs := append([]isa.Architecture(nil), in.Archs...)
	sort.SliceStable(archs, func(i, j int) bool { return archs[i].Order < archs[j].Order })
	for _, a := range archs {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		insts := byArch[a.ID]
		sort.Slice(insts, func(i, j int) bool { return insts[i].Name < insts[j].Name })
		f := quality.Family{Arch: a.ID, Name: a.Name, Targets: in.FamilyTargets[a.ID], Instructions: len(insts),
			UnmatchedAMD: []string{}, UnmatchedLLVM: []quality.LLVMOnly{}, Rejected: []quality.Item{}, Unverified: []quality.Item{}, GeneratedExamples: []quality.Item{},
			Amendments: []quality.Amendment{}, Disagreements: []quality.Disagreement{}, Corrected: []quality.Correction{}}
		if m := in.Syntax[a.ID]; m != nil {
			f.Pages = m.Pages
			f.UnmatchedAMD = append(f.UnmatchedAMD, m.UnmatchedAMD...)
			for _, n := range m.UnmatchedLLVM {
				f.UnmatchedLLVM = append(f.UnmatchedLLVM, quality.LLVMOnly{Name: n, Accepted: in.LLVMAccepted[a.ID][n]})
			}
		}
		for _, ins := range insts {
			if len(ins.Syntax) > 0 {
				f.WithSyntax++
			}
			f.Amendments = append(f.Amendments, amendments(ins)...)
			res := in.Results[ins]
			f.Compared += res.Compared
			switch {
			case res.Verified:
				f.WithExample++
				switch {
				case len(ins.Examples) == 0:
				case merge.IsGenerated(ins.Examples[0]):
					f.Generated++
					f.GeneratedExamples = append(f.GeneratedExamples, quality.Item{Name: ins.Name, Reason: ins.Examples[0].Asm})
				case ins.Examples[0].Prov.Source == isa.SourceGPUISA:
					f.Synthesized++
				}
			case res.Rejected:
				reason := res.Reason
				if res.Spelled && len(ins.Examples) > 0 {
					f.Spelled++
					reason += "; shown in LLVM's spelling: " + ins.Examples[0].Asm
				}
				f.Rejected = append(f.Rejected, quality.Item{Name: ins.Name, Reason: reason})
			default:
				f.Unverified = append(f.Unverified, quality.Item{Name: ins.Name, Reason: res.Reason})
			}
		}
		f.Disagreements = append(f.Disagreements, merge.Disagreements(insts)...)
		f.Corrected = append(f.Corrected, merge.Corrections(insts)...)
		f.Summarize(r)
		r.Families = append(r.Families, f)
	}
	return r
}

// amendments lists what gpuisa linked, filled in or moved back for one
// instruction.
func amendments(in *isa.Instruction) []quality.Amendment {
	var out []quality.Amendment
	// The spellings and their families; the evidence is on the page.
	var names []string
	archs := map[string][]string{}
	for _, r := range in.Related {
		if r.Renamed && r.Evidence != "" {
			if archs[r.Name] == nil {
				names = append(names, r.Name)
			}
			archs[r.Name] = append(archs[r.Name], r.Arch)
		}
	}
	if len(names) > 0 {
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = n + " in " + strings.Join(archs[n], ", ")
		}
		out = append(out, quality.Amendment{Name: in.Name, Kind: quality.AmendRename, Note: "the same instruction as " + strings.Join(parts, "; ")})
	}
	if f := in.DescriptionFrom; f != nil {
		out = append(out, quality.Amendment{Name: in.Name, Kind: quality.AmendDescription,
			Note: fmt.Sprintf("the guide gives %s; the description is %s's in %s", f.Why, f.Name, f.Arch)})
	}
	for _, r := range in.Repairs {
		out = append(out, quality.Amendment{Name: in.Name, Kind: quality.AmendMovedText, Note: r})
	}
	return out
}

package ingest

import (
	"encoding/json"
	"slices"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/amdgpuusage"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
	"github.com/gpuisa/gpuisa/internal/store/costview"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// diffFacts stores every family's diff facts (famdiff.ExtraKey) and, for AMD,
// its cost table (costview.ExtraKey), so a diff or a ranking reads small
// documents, not every instruction.
func diffFacts(extras map[string][]byte, archs []isa.Architecture, insts []*isa.Instruction) error {
	byArch := map[string][]*isa.Instruction{}
	for _, in := range insts {
		byArch[in.Arch] = append(byArch[in.Arch], in)
	}
	fams := map[string]*famdiff.Family{}
	for _, a := range archs {
		var v any
		switch a.Vendor {
		case isa.VendorAMD:
			fam := famdiff.FamilyOf(a, byArch[a.ID])
			fams[a.ID], v = fam, fam
		case isa.VendorNVIDIA:
			v = famdiff.PTXOf(a, byArch[a.ID])
		default:
			continue
		}
		doc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		extras[famdiff.ExtraKey(a.ID)] = doc
		if a.Vendor == isa.VendorAMD {
			// The cost tables (costview) are per family too.
			if extras[costview.ExtraKey(a.ID)], err = costview.Pack(costview.Entries(byArch[a.ID])); err != nil {
				return err
			}
		}
	}
	// Each family's novelty against the previous generation built.
	for _, a := range archs {
		prev := famdiff.Previous(a.ID)
		for prev != "" && fams[prev] == nil {
			prev = famdiff.Previous(prev)
		}
		if fams[a.ID] == nil || prev == "" {
			continue
		}
		doc, err := json.Marshal(famdiff.NoveltyOf(famdiff.Diff(fams[prev], fams[a.ID])))
		if err != nil {
			return err
		}
		extras[famdiff.NoveltyKey(a.ID)] = doc
	}
	return nil
}

// ptxReleases turns the release notes into the model: each version with
// the sm_ targets it introduced (those its row of the history table lists
// first) and its new features, and each target with its version.
func ptxReleases(rels []ptxdoc.Release, historyFile string, rel func(string) string) ([]isa.PTXRelease, []isa.Processor) {
	var out []isa.PTXRelease
	var procs []isa.Processor
	seen := map[string]bool{}
	for _, r := range rels {
		pr := isa.PTXRelease{Version: r.Version, CUDA: r.CUDA, Targets: []string{}, Notes: r.Notes,
			Prov: isa.Prov{Source: isa.SourcePTXDoc, File: historyFile, Line: r.Line}}
		if r.NotesFile != "" {
			pr.Prov = isa.Prov{Source: isa.SourcePTXDoc, File: rel(r.NotesFile), Line: r.NotesLine}
		}
		if pr.Notes == nil {
			pr.Notes = []string{}
		}
		for _, t := range r.Targets {
			if seen[t] {
				continue
			}
			seen[t] = true
			pr.Targets = append(pr.Targets, t)
			procs = append(procs, isa.Processor{Target: t, PTXVersion: r.Version, Products: []string{},
				Prov: isa.Prov{Source: isa.SourcePTXDoc, File: historyFile, Line: r.Line}})
		}
		out = append(out, pr)
	}
	return out, procs
}

// applyProcessors attaches LLVM's processor table (AMDGPUUsage) to the AMD
// families: each target with its products, and the generic targets with a
// member in the family. Without the document it returns why, and the
// families keep their bare target names.
func applyProcessors(opts Options, archs []isa.Architecture) (*isa.Document, string) {
	docDir := opts.LLVMDocDir
	if docDir == "" {
		docDir = llvmdoc.DocDir()
	}
	if docDir == "" {
		return nil, "llvm: LLVM's AMDGPUUsage not found (install llvm-22-doc or set GPUISA_LLVM_DOC): targets have no product names"
	}
	procs, gens, err := amdgpuusage.Read(docDir)
	if err != nil {
		return nil, "llvm: AMDGPUUsage: " + err.Error() + ": targets have no product names"
	}
	file := "html/" + amdgpuusage.File
	prov := func(line int) isa.Prov { return isa.Prov{Source: isa.SourceLLVMDoc, File: file, Line: line} }
	byName := map[string]amdgpuusage.Processor{}
	for _, p := range procs {
		byName[p.Name] = p
	}
	doc := &isa.Document{Source: isa.SourceLLVMDoc, File: file, Title: "LLVM AMDGPU usage: processors and generic processors",
		Version: lastElems(docDir, 2), Attribution: "from LLVM's AMDGPU usage documentation (AMDGPUUsage)", License: "Apache-2.0 WITH LLVM-exception"}
	for i := range archs {
		a := &archs[i]
		if a.Vendor != isa.VendorAMD {
			continue
		}
		a.Processors = nil
		for _, t := range a.Targets {
			p, ok := byName[t]
			if !ok {
				continue
			}
			a.Processors = append(a.Processors, isa.Processor{Target: t, Alternatives: p.Alternatives, Kind: p.Kind,
				Generation: p.Generation, Products: append([]string{}, p.Products...), Features: p.Features, Prov: prov(p.Line)})
		}
		a.Generic = nil
		for _, g := range gens {
			for _, m := range g.Members {
				if slices.Contains(a.Targets, m) {
					a.Generic = append(a.Generic, isa.GenericTarget{Target: g.Name, Members: g.Members,
						Restrictions: append([]string{}, g.Restrictions...), Excluded: g.Excluded, Prov: prov(g.Line)})
					break
				}
			}
		}
		a.Documents = append(a.Documents, *doc)
	}
	return doc, ""
}

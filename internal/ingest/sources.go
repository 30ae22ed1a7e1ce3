package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/source/amdxml"
	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// mergeAMDXML reads every machine-readable spec (*.xml, or AMD's *.zip) in
// amd-mrisa-xml and merges it into its family.
func mergeAMDXML(src string, archsp *[]isa.Architecture, instsp *[]*isa.Instruction, prog Progress) ([]isa.Document, error) {
	dir := filepath.Join(src, "amd-mrisa-xml")
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		n := strings.ToLower(e.Name())
		if e.Type().IsRegular() && (strings.HasSuffix(n, ".xml") || strings.HasSuffix(n, ".zip")) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, nil
	}
	prog.Start("reading AMD machine-readable ISA XML", len(paths))
	defer prog.Done()
	var docs []isa.Document
	archs, insts := *archsp, *instsp
	defer func() { *archsp, *instsp = archs, insts }()
	for _, p := range paths {
		specs, err := amdxml.Load(p)
		if err != nil {
			return nil, &errs.Error{Kind: errs.KindUpstream, Msg: "AMD XML", Err: err}
		}
		for _, spec := range specs {
			family, ok := amdxml.Family(spec.ArchitectureName)
			if !ok {
				return nil, errs.Upstream(relPath(src, p), 1, fmt.Errorf("unknown architecture %q", spec.ArchitectureName))
			}
			file := relPath(src, spec.File)
			if strings.HasPrefix(spec.File, p) {
				file = relPath(src, p) + strings.TrimPrefix(spec.File, p)
			}
			var arch *isa.Architecture
			for i := range archs {
				if archs[i].ID == family {
					arch = &archs[i]
				}
			}
			if arch == nil {
				// A family with XML but no guide in the sources.
				info, _ := isa.LookupArch(family)
				archs = append(archs, isa.Architecture{ID: info.ID, Name: info.Name, Vendor: info.Vendor, Kind: info.Kind, Order: info.Order, Targets: info.Targets})
				arch = &archs[len(archs)-1]
			}
			doc := isa.Document{
				Source: isa.SourceAMDXML, File: file, Title: "AMD machine-readable ISA specification: " + spec.ArchitectureName,
				Version:     strings.TrimSpace("release " + spec.Document.ReleaseDate + ", schema " + spec.Document.SchemaVersion),
				Attribution: spec.Document.Copyright, License: spec.Document.License,
			}
			arch.Documents = append(arch.Documents, doc)
			docs = append(docs, doc)
			added := merge.ApplyXML(spec, file, arch, insts)
			insts = append(insts, added...)
		}
		prog.Advance(1)
	}
	return docs, nil
}

// readPTX reads NVIDIA's PTX ISA documentation tree, if present: the
// family, its instructions, the document, what could not be read, the
// checker's model and the documentation's PTX ISA version.
func readPTX(src string, prog Progress) (*isa.Architecture, []*isa.Instruction, []isa.Document, []string, []ptx.Instruction, string, error) {
	dir := filepath.Join(src, "ptx-isa-9.1")
	if _, err := os.Stat(dir); err != nil {
		matches, _ := filepath.Glob(filepath.Join(src, "ptx-isa*"))
		if len(matches) == 0 {
			return nil, nil, nil, nil, nil, "", nil
		}
		dir = matches[len(matches)-1]
	}
	prog.Start("reading PTX ISA documentation", 1)
	defer prog.Done()
	sections, err := ptxdoc.ReadDir(dir)
	if err != nil {
		return nil, nil, nil, nil, nil, "", &errs.Error{Kind: errs.KindUpstream, Msg: "PTX documentation", Err: err}
	}
	instrs, problems := ptx.Build(sections)
	rel := func(p string) string {
		if filepath.IsAbs(p) || strings.HasPrefix(p, src) {
			return relPath(src, p)
		}
		return filepath.ToSlash(filepath.Join(relPath(src, dir), p))
	}
	blocks := map[string][]isa.Syntax{}
	for _, sec := range sections {
		for _, m := range sec.Mnemonics {
			for _, cb := range sec.Syntax {
				blocks[m] = append(blocks[m], isa.Syntax{
					Text: strings.TrimRight(cb.Text, "\n"), Operands: []string{},
					Prov: isa.Prov{Source: isa.SourcePTXDoc, File: rel(sec.File), Line: cb.Line},
				})
			}
		}
	}
	insts := merge.PTX(instrs, blocks, rel)
	info, _ := isa.LookupArch("ptx")
	doc := isa.Document{
		Source: isa.SourcePTXDoc, File: relPath(src, dir), Title: "PTX ISA " + strings.TrimPrefix(filepath.Base(dir), "ptx-isa-"),
		Version:     strings.TrimPrefix(filepath.Base(dir), "ptx-isa-"),
		Attribution: "from NVIDIA's PTX ISA documentation", License: "NVIDIA copyright; shown with attribution",
	}
	arch := &isa.Architecture{ID: info.ID, Name: info.Name, Vendor: info.Vendor, Kind: info.Kind, Order: info.Order, Title: doc.Title, Documents: []isa.Document{doc}}
	var probs []string
	rels, historyFile, err := ptxdoc.ReadReleases(dir)
	if err != nil {
		probs = append(probs, "ptx: release notes: "+err.Error())
	}
	arch.Releases, arch.Processors = ptxReleases(rels, rel(historyFile), rel)
	for _, p := range problems {
		probs = append(probs, "ptx: "+p.String())
	}
	prog.Advance(1)
	return arch, insts, []isa.Document{doc}, probs, instrs, doc.Version, nil
}

package merge

import (
	"path/filepath"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

// PTX converts the PTX reader's per-mnemonic entries into instructions of the
// "ptx" architecture. rel turns a reader file path into the path recorded in
// provenance.
//
// blocks holds, per mnemonic, NVIDIA's syntax code blocks as written (with
// their template-variable definitions), which pages show verbatim; when a
// mnemonic has none the reader's syntax lines are used.
func PTX(instrs []ptx.Instruction, blocks map[string][]isa.Syntax, rel func(string) string) []*isa.Instruction {
	out := make([]*isa.Instruction, 0, len(instrs))
	for _, p := range instrs {
		in := &isa.Instruction{
			Arch: "ptx", Name: p.Name, Vendor: isa.VendorNVIDIA, Kind: isa.KindVirtual,
			Unit: ptxUnit(p), Category: strings.TrimSuffix(p.Category, " Instructions"),
			Entry:       p.Kind,
			Summary:     p.Summary,
			Description: p.Description,
			Semantics:   stripFences(p.Semantics),
			PTXVersion:  p.PTXVersion,
			MinTarget:   p.MinTarget,
			PTXNotes:    p.Notes,
			Aliases:     []isa.Alias{}, Encodings: []isa.Encoding{}, Examples: []isa.Example{},
			Targets: map[string]string{}, Concepts: []isa.ConceptRef{}, Opcodes: map[string]map[string]int{},
		}
		if in.Summary == "" {
			in.Summary = FirstSentence(p.Description)
		}
		if len(p.Sections) > 0 {
			in.Section = p.Sections[0].Title
		}
		for _, s := range p.Sections {
			in.Sources = appendProv(in.Sources, isa.Prov{Source: isa.SourcePTXDoc, File: rel(s.File), Line: s.Line})
		}
		if b := blocks[p.Name]; len(b) > 0 {
			in.Syntax = b
		} else {
			for _, line := range p.Syntax {
				in.Syntax = append(in.Syntax, isa.Syntax{Text: line, Operands: []string{}, Prov: isa.Prov{Source: isa.SourcePTXDoc}})
			}
		}
		for _, f := range p.Forms {
			in.Forms = append(in.Forms, f.PageForm(rel(f.File)))
		}
		for _, o := range p.Operands {
			in.Operands = append(in.Operands, isa.Operand{
				Name: o.Name, Order: o.Order + 1, Output: o.Output, Input: !o.Output,
				DataFormat:  strings.Join(o.Types, " "),
				Description: o.Description,
				Prov:        isa.Prov{Source: isa.SourcePTXDoc, File: rel(o.File), Line: o.Line},
			})
		}
		for _, ex := range p.Examples {
			in.Examples = append(in.Examples, isa.Example{
				Asm:    ex.Text,
				Source: "from NVIDIA's PTX ISA documentation, " + filepath.Base(ex.File),
				Prov:   isa.Prov{Source: isa.SourcePTXDoc, File: rel(ex.File), Line: ex.Line},
			})
		}
		out = append(out, in)
	}
	return out
}

func ptxUnit(p ptx.Instruction) string {
	switch p.Kind {
	case ptx.KindSpecialRegister:
		return "Special Register"
	case ptx.KindDirective:
		return "Directive"
	}
	return "Instruction"
}

// stripFences removes Markdown code-fence lines (```), which the PTX reader
// keeps around semantics code.
func stripFences(s string) string {
	if !strings.Contains(s, "```") {
		return s
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		out = append(out, line)
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

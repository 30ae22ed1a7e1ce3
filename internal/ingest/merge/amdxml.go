package merge

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/amdxml"
)

// xmlToGuideFormats maps an XML encoding name (ENC_ prefix dropped) to the
// format names the AMD guides use for the same encoding.
var xmlToGuideFormats = map[string][]string{
	"VOP3":          {"VOP3", "VOP3A"},
	"VOP3_SDST_ENC": {"VOP3B", "VOP3SD"},
	"VOP3P":         {"VOP3P"},
	"VOP3P_MFMA":    {"VOP3P-MAI", "VOP3P_MAI", "VOP3PX2"},
	"FLAT_GLBL":     {"GLOBAL"},
	"FLAT_GLOBAL":   {"GLOBAL"},
	"FLAT_SCRATCH":  {"SCRATCH"},
	"SMEM":          {"SMEM", "SMRD"},
	"VOPDXY":        {"VOPD"},
}

// guideFormatNames returns the names a guide may use for an XML encoding.
func guideFormatNames(xmlName string) []string {
	if names, ok := xmlToGuideFormats[xmlName]; ok {
		return names
	}
	return []string{xmlName}
}

// XMLFormat converts one XML encoding to a format. The fixed ENCODING bits
// are read from the identifier mask and the first identifier.
func XMLFormat(e amdxml.Encoding, file string) isa.Format {
	name := strings.TrimPrefix(e.Name, "ENC_")
	f := isa.Format{
		Name: name, Width: e.BitCount, Description: e.Description,
		Prov: isa.Prov{Source: isa.SourceAMDXML, File: file, Line: e.Line},
	}
	if e.IdentifierMask.Raw != "" {
		f.IdentifierMask = fmt.Sprintf("0x%08X", e.IdentifierMask.Value)
	}
	var fixedWord uint64
	if len(e.Identifiers) > 0 {
		fixedWord = e.Identifiers[0].Value
	}
	for _, fd := range e.Fields {
		out := isa.Field{Name: fd.Name, Description: fd.Description}
		rs := append([]amdxml.Range(nil), fd.Ranges...)
		sort.Slice(rs, func(i, j int) bool { return rs[i].BitOffset > rs[j].BitOffset })
		for _, r := range rs {
			out.Ranges = append(out.Ranges, isa.BitRange{MSB: r.BitOffset + r.BitCount - 1, LSB: r.BitOffset})
		}
		if len(out.Ranges) > 0 {
			out.MSB, out.LSB = out.Ranges[0].MSB, out.Ranges[0].LSB
		}
		if len(out.Ranges) == 1 {
			out.Ranges = nil
		}
		if fd.Name == "ENCODING" && len(fd.Ranges) == 1 && len(e.Identifiers) > 0 {
			r := fd.Ranges[0]
			v := fixedWord >> uint(r.BitOffset) & (1<<uint(r.BitCount) - 1)
			out.Fixed = fmt.Sprintf("%0*b", r.BitCount, v)
		}
		f.Fields = append(f.Fields, out)
	}
	sort.SliceStable(f.Fields, func(i, j int) bool { return f.Fields[i].MSB > f.Fields[j].MSB })
	return f
}

// ApplyXML merges one machine-readable spec into its family. The XML is
// authoritative for encodings and operands: its formats replace the guide's
// (differences are noted), its opcodes win (differences become conflicts),
// and identifiers are checked against the identifiers AMD lists.
func ApplyXML(spec *amdxml.Spec, file string, arch *isa.Architecture, insts []*isa.Instruction) []*isa.Instruction {
	xmlFormats := map[string]isa.Format{}
	identifiers := map[string]map[uint64]bool{}
	for _, e := range spec.Encodings {
		f := XMLFormat(e, file)
		xmlFormats[f.Name] = f
		ids := map[uint64]bool{}
		for _, id := range e.Identifiers {
			ids[id.Value] = true
		}
		identifiers[f.Name] = ids
		replaced := false
		for i, g := range arch.Formats {
			if !slices.Contains(guideFormatNames(f.Name), g.Name) {
				continue
			}
			merged := f
			merged.Name = g.Name
			merged.Notes = append(append([]string(nil), g.Notes...), compareLayouts(g, f)...)
			if merged.Description == "" {
				merged.Description = g.Description
			}
			arch.Formats[i] = merged
			replaced = true
		}
		if !replaced {
			arch.Formats = append(arch.Formats, f)
		}
	}

	byName := map[string]*isa.Instruction{}
	for _, in := range insts {
		if in.Arch == arch.ID {
			byName[in.Name] = in
		}
	}
	var added []*isa.Instruction
	for _, xi := range spec.Instructions {
		name := strings.ToLower(xi.Name)
		in, ok := byName[name]
		prov := isa.Prov{Source: isa.SourceAMDXML, File: file, Line: xi.Line}
		if !ok {
			in = &isa.Instruction{
				Arch: arch.ID, Name: name, Vendor: isa.VendorAMD, Kind: isa.KindNative,
				Aliases: []isa.Alias{}, Examples: []isa.Example{}, Concepts: []isa.ConceptRef{},
				Targets: map[string]string{}, Opcodes: map[string]map[string]int{},
				Notes: "Documented in AMD's machine-readable specification but not found in the reference guide.",
			}
			byName[name] = in
			added = append(added, in)
		}
		in.Sources = appendProv(in.Sources, prov)
		if xi.Description != "" {
			in.Summary = FirstSentence(xi.Description)
			if in.Description == "" {
				in.Description = xi.Description
			}
		}
		for _, a := range xi.Aliases {
			in.Aliases = appendAlias(in.Aliases, isa.Alias{Name: strings.ToLower(a), Note: "aliased name in AMD's machine-readable specification", Prov: prov})
		}
		in.Flags = xmlFlags(xi.Flags)
		if xi.FunctionalGroup != "" {
			in.Groups = append([]string{xi.FunctionalGroup}, xi.FunctionalSubgroups...)
		}
		for _, xe := range xi.Encodings {
			if !strings.HasPrefix(xe.EncodingName, "ENC_") {
				// Literal, DPP and SDWA variants of a base encoding: the base
				// encoding carries the opcode and operands.
				continue
			}
			fname := strings.TrimPrefix(xe.EncodingName, "ENC_")
			f := xmlFormats[fname]
			opcode := int(xe.Opcode.Value)
			encProv := isa.Prov{Source: isa.SourceAMDXML, File: file, Line: xi.Line}
			operands := xmlOperands(xe.Operands, encProv)
			idx := -1
			for i, e := range in.Encodings {
				if slices.Contains(guideFormatNames(fname), e.Format) {
					idx = i
					break
				}
			}
			if idx < 0 {
				in.Encodings = append(in.Encodings, isa.Encoding{Name: fname, Format: fname})
				idx = len(in.Encodings) - 1
			}
			enc := &in.Encodings[idx]
			if enc.Prov.Source == isa.SourceAMDManual && enc.Opcode != opcode {
				in.Conflicts = append(in.Conflicts, isa.Conflict{
					Fact: "opcode in " + enc.Name,
					Values: []isa.ConflictValue{
						{Value: fmt.Sprint(opcode), Prov: encProv},
						{Value: fmt.Sprint(enc.Opcode), Prov: enc.Prov},
					},
					Note: "AMD's XML and reference guide disagree; the XML value is used for the encoding",
				})
			}
			enc.Opcode = opcode
			enc.Prov = encProv
			enc.Operands = operands
			if f.Name != "" {
				enc.Width = f.Width
				for _, af := range arch.Formats {
					if af.Name == enc.Format {
						enc.Fields = af.Fields
					}
				}
				if len(enc.Fields) == 0 {
					enc.Fields = f.Fields
				}
				if id, ok := amdlayout.Identifier(isa.Format{Width: f.Width, Fields: f.Fields}, opcode); ok {
					enc.Identifier = id
					var v uint64
					fmt.Sscanf(id, "0x%X", &v)
					if identifiers[fname][v] {
						enc.IdentifierCheck = fmt.Sprintf("Opcode %d in OP rebuilds %s, an identifier AMD lists for %s", opcode, id, xe.EncodingName)
					} else {
						enc.IdentifierCheck = fmt.Sprintf("Opcode %d in OP gives %s, which is not among the identifiers AMD lists for %s", opcode, id, xe.EncodingName)
					}
				}
			}
		}
		if len(in.Encodings) > 0 {
			in.Operands = in.Encodings[0].Operands
		}
		if in.Category == "" {
			in.Unit, in.Category = classifyAMD(name, in.Encodings, in.Section)
		}
	}
	return added
}

func xmlOperands(ops []amdxml.Operand, prov isa.Prov) []isa.Operand {
	out := make([]isa.Operand, 0, len(ops))
	for _, o := range ops {
		out = append(out, isa.Operand{
			Name: strings.ToLower(o.FieldName), Order: o.Order, Input: o.Input, Output: o.Output,
			Implicit: o.IsImplicit, DataFormat: o.DataFormat, OperandType: o.OperandType, Size: o.Size, Prov: prov,
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

func xmlFlags(f amdxml.Flags) []string {
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	add(f.IsBranch, "branch")
	add(f.IsConditionalBranch, "conditional_branch")
	add(f.IsIndirectBranch, "indirect_branch")
	add(f.IsProgramTerminator, "program_terminator")
	add(f.IsImmediatelyExecuted, "immediately_executed")
	return out
}

// compareLayouts describes where the guide's field table and the XML differ.
func compareLayouts(guide, xml isa.Format) []string {
	var notes []string
	if guide.Width != 0 && guide.Width != xml.Width {
		notes = append(notes, fmt.Sprintf("AMD's reference guide gives a width of %d bits; AMD's XML gives %d (XML used)", guide.Width, xml.Width))
	}
	gf := map[string]isa.Field{}
	for _, f := range guide.Fields {
		gf[f.Name] = f
	}
	for _, x := range xml.Fields {
		g, ok := gf[x.Name]
		if !ok {
			continue
		}
		if g.MSB != x.MSB || g.LSB != x.LSB || len(g.Ranges) != len(x.Ranges) {
			notes = append(notes, fmt.Sprintf("field %s: reference guide bits %d:%d, XML bits %d:%d (XML used)", x.Name, g.MSB, g.LSB, x.MSB, x.LSB))
		}
	}
	return notes
}

// Package merge combines the readers' output into the one model (package isa)
// with per-fact provenance: AMD guides, AMD's machine-readable XML, LLVM's
// syntax and verification results, the PTX documentation and the concept
// catalogue. Where sources disagree it records a Conflict instead of picking
// one silently.
package merge

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
)

// AMDGuide converts one parsed AMD guide into the family's formats and
// instructions. file is the path recorded in provenance (relative to the
// sources directory).
func AMDGuide(g *amdmanual.Guide, file string) (isa.Architecture, []*isa.Instruction) {
	info, _ := isa.LookupArch(g.Family)
	arch := isa.Architecture{
		ID: info.ID, Name: info.Name, Vendor: info.Vendor, Kind: info.Kind,
		Order: info.Order, Targets: info.Targets, Title: g.Title,
	}
	formats := map[string]isa.Format{}
	for _, f := range g.Formats {
		ff := verifiedFormat(arch.ID, convertFormat(f, isa.Prov{Source: isa.SourceAMDManual, File: file, Line: f.Line}))
		arch.Formats = append(arch.Formats, ff)
		formats[ff.Name] = ff
	}

	byName := map[string][]amdmanual.Entry{}
	var order []string
	for _, e := range g.Instructions {
		n := strings.ToLower(e.Name)
		if _, ok := byName[n]; !ok {
			order = append(order, n)
		}
		byName[n] = append(byName[n], e)
	}
	sort.Strings(order)
	var out []*isa.Instruction
	for _, n := range order {
		out = append(out, amdInstruction(arch, n, byName[n], formats, file, g))
	}
	return arch, out
}

func convertFormat(f amdmanual.Format, prov isa.Prov) isa.Format {
	out := isa.Format{Name: f.Name, Width: f.Width, Description: f.Description, Notes: f.Notes, Prov: prov}
	for _, fd := range f.Fields {
		out.Fields = append(out.Fields, convertField(fd))
	}
	return out
}

// verifiedFormat replaces a guide's layout by the one llvm-mc encodes where
// package amdlayout knows they differ, keeping the guide's as Documented.
func verifiedFormat(family string, f isa.Format) isa.Format {
	v, changes := amdlayout.Verified(family, f)
	if len(changes) == 0 {
		return f
	}
	v.Documented = &isa.Layout{Fields: f.Fields, Changes: changes, Prov: f.Prov}
	return v
}

// encodingLayout gives an encoding its format's layout and the identifier
// it yields for opcode, with the guide's own where the two differ
// (amdlayout.EncodingLayout owns them; the immediate's parts are added for
// every encoding once the instruction has them all).
func encodingLayout(enc *isa.Encoding, f isa.Format, opcode int) {
	enc.Width, enc.Fields, enc.Identifier, enc.Documented = amdlayout.EncodingLayout("", "", f, opcode)
}

func convertField(fd amdmanual.Field) isa.Field {
	out := isa.Field{Name: fd.Name, Fixed: fd.Fixed, Description: fd.Description}
	if len(fd.Ranges) > 0 {
		out.MSB, out.LSB = fd.Ranges[0].MSB, fd.Ranges[0].LSB
	}
	if len(fd.Ranges) > 1 {
		for _, r := range fd.Ranges {
			out.Ranges = append(out.Ranges, isa.BitRange{MSB: r.MSB, LSB: r.LSB})
		}
	}
	return out
}

// amdInstruction builds one instruction from every fact the guide states
// about a name. The instruction chapter's entries come first: they carry the
// text and the native encoding; opcode-table facts add other encodings.
func amdInstruction(arch isa.Architecture, name string, entries []amdmanual.Entry, formats map[string]isa.Format, file string, g *amdmanual.Guide) *isa.Instruction {
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].FromOpcodeTable != entries[j].FromOpcodeTable {
			return !entries[i].FromOpcodeTable
		}
		return entries[i].Line < entries[j].Line
	})
	in := &isa.Instruction{
		Arch: arch.ID, Name: name, Vendor: isa.VendorAMD, Kind: isa.KindNative,
		Aliases: []isa.Alias{}, Examples: []isa.Example{}, Concepts: []isa.ConceptRef{},
		Targets: map[string]string{}, Opcodes: map[string]map[string]int{},
	}
	var textFrom *amdmanual.Entry
	for i := range entries {
		e := &entries[i]
		if textFrom == nil && (e.Description != "" || e.Pseudocode != "") {
			textFrom = e
		}
		if in.Section == "" && e.Section != "" {
			in.Section = e.Section
		}
		if e.Repair != "" {
			in.Repairs = append(in.Repairs, e.Repair)
		}
	}
	if textFrom != nil {
		in.Description = textFrom.Description
		in.Semantics = textFrom.Pseudocode
		in.Notes = textFrom.Notes
		in.Summary = FirstSentence(textFrom.Description)
		if in.Summary == "" {
			in.Summary = FirstSentence(textFrom.Pseudocode)
		}
	}
	// Texts of the same instruction in another section that differ are kept
	// as a conflict so the page can show both.
	for i := range entries {
		e := &entries[i]
		if textFrom != nil && e != textFrom && e.Pseudocode != "" && normalizeSpace(e.Pseudocode) != normalizeSpace(textFrom.Pseudocode) {
			in.Conflicts = append(in.Conflicts, isa.Conflict{
				Fact: "semantics",
				Values: []isa.ConflictValue{
					{Value: textFrom.Pseudocode, Prov: provOf(file, textFrom.Line)},
					{Value: e.Pseudocode, Prov: provOf(file, e.Line)},
				},
				Note: fmt.Sprintf("the guide documents %s twice (%s and %s) with different pseudocode", strings.ToUpper(name), textFrom.Section, e.Section),
			})
		}
	}

	type encKey struct {
		enc  string
		slot string
	}
	opcodes := map[encKey][]amdmanual.Entry{}
	var encOrder []encKey
	for _, e := range entries {
		k := encKey{e.Encoding, e.Slot}
		if _, ok := opcodes[k]; !ok {
			encOrder = append(encOrder, k)
		}
		opcodes[k] = append(opcodes[k], e)
	}
	for _, k := range encOrder {
		facts := opcodes[k]
		first := facts[0]
		encName := k.enc
		if k.slot != "" {
			encName = k.enc + "_" + k.slot
		}
		format := k.enc
		if _, ok := formats[amdlayout.MAIFormat]; ok && strings.EqualFold(format, "VOP3P") && amdlayout.UsesMAI(name) {
			// CDNA 3 and 4 list the matrix opcodes in the VOP3P table;
			// the words are VOP3P-MAI.
			format, encName = amdlayout.MAIFormat, amdlayout.MAIFormat
		}
		enc := isa.Encoding{Name: encName, Format: format, Opcode: first.Opcode, Prov: provOf(file, first.Line), Operands: []isa.Operand{}}
		if f, ok := formats[format]; ok {
			encodingLayout(&enc, f, first.Opcode)
		}
		in.Encodings = append(in.Encodings, enc)
		in.Sources = appendProv(in.Sources, provOf(file, first.Line))
		// Two statements of the opcode for one encoding that differ.
		for _, other := range facts[1:] {
			if other.Opcode != first.Opcode {
				in.Conflicts = append(in.Conflicts, isa.Conflict{
					Fact: "opcode in " + encName,
					Values: []isa.ConflictValue{
						{Value: fmt.Sprint(first.Opcode), Prov: provOf(file, first.Line)},
						{Value: fmt.Sprint(other.Opcode), Prov: provOf(file, other.Line)},
					},
					Note: "the guide states two different opcodes for this encoding",
				})
			}
		}
	}
	applyPromotions(in, g.Promotions, formats, file)
	for i := range in.Encodings {
		in.Encodings[i].Fields = amdlayout.WithParts(arch.ID, name, in.Encodings[i].Fields)
	}
	in.Unit, in.Category = classifyAMD(name, in.Encodings, in.Section)
	return in
}

// applyPromotions adds the VOP3 encoding of a VOP1/VOP2/VOPC instruction
// from the guide's rule ("The VOP3 opcode is: VOP2 opcode + 0x100") when no
// opcode table states it, and records a conflict when a table states a
// different one.
func applyPromotions(in *isa.Instruction, rules []amdmanual.Promotion, formats map[string]isa.Format, file string) {
	for _, r := range rules {
		var from *isa.Encoding
		hasVOP3 := -1
		for i := range in.Encodings {
			e := &in.Encodings[i]
			if e.Format == r.From && from == nil {
				from = e
			}
			if e.Format == r.To || e.Format == "VOP3B" || e.Format == "VOP3SD" {
				hasVOP3 = i
			}
		}
		if from == nil {
			continue
		}
		derived := from.Opcode + r.Offset
		ruleText := fmt.Sprintf("the guide's rule \"VOP3 opcode = %s opcode + %#x\" (line %d)", r.From, r.Offset, r.Line)
		if hasVOP3 >= 0 {
			if e := &in.Encodings[hasVOP3]; e.Format == r.To && e.Opcode != derived {
				// CDNA 3 and 4 list their VOP1 block 0x40 too high in the VOP3A
				// table (V_NOP at 384, where the rule and llvm-mc put 320), which
				// also collides with VOP3-only opcodes. The rule's value is used
				// for the encoding; the table's value stays visible, and the
				// llvm-mc cross-check tests the choice on every example.
				in.Conflicts = append(in.Conflicts, isa.Conflict{
					Fact: "opcode in " + e.Name,
					Values: []isa.ConflictValue{
						{Value: fmt.Sprint(e.Opcode), Prov: e.Prov},
						{Value: fmt.Sprint(derived), Prov: provOf(file, r.Line)},
					},
					Note: "the guide's opcode table and its promotion rule (" + ruleText + ") disagree; gpuisa encodes with the rule's value",
				})
				e.Opcode = derived
				e.Prov = provOf(file, r.Line)
				e.IdentifierCheck = fmt.Sprintf("Opcode %d from %s; the guide's VOP3 opcode table says otherwise (see Sources disagree)", derived, ruleText)
				if f, ok := formats[e.Format]; ok {
					encodingLayout(e, f, derived)
				}
			}
			continue
		}
		enc := isa.Encoding{Name: r.To, Format: r.To, Opcode: derived, Prov: provOf(file, r.Line), Operands: []isa.Operand{},
			IdentifierCheck: fmt.Sprintf("Opcode %d derived from %s opcode %d by %s; the guide's opcode table does not list it", derived, r.From, from.Opcode, ruleText)}
		if f, ok := formats[r.To]; ok {
			encodingLayout(&enc, f, derived)
		}
		in.Encodings = append(in.Encodings, enc)
	}
}

func provOf(file string, line int) isa.Prov {
	return isa.Prov{Source: isa.SourceAMDManual, File: file, Line: line}
}

func appendProv(list []isa.Prov, p isa.Prov) []isa.Prov {
	for _, q := range list {
		if q == p {
			return list
		}
	}
	return append(list, p)
}

// classifyAMD derives the unit and category shown in a page header from the
// instruction's encodings and name.
func classifyAMD(name string, encs []isa.Encoding, section string) (unit, category string) {
	format := ""
	if len(encs) > 0 {
		format = strings.ToUpper(encs[0].Format)
	}
	mem := isa.MemoryKindOf(format)
	switch {
	case isa.IsMatrix(name):
		return "Matrix", "Matrix Arithmetic"
	case format == "SOPP":
		return "Scalar", "Scalar Program Control"
	case strings.HasPrefix(format, "SOP"):
		return "Scalar", "Scalar ALU"
	case mem == isa.ScalarMemory:
		return "Scalar", "Scalar Memory"
	case mem == isa.DataShare:
		return "Memory", "Data Share (LDS/GDS)"
	case mem == isa.BufferMemory:
		return "Memory", "Buffer Memory"
	case mem == isa.ImageMemory:
		return "Memory", "Image Memory"
	case mem == isa.FlatMemory:
		return "Memory", "Flat, Global and Scratch Memory"
	case mem == isa.ExportPath:
		return "Export", "Export"
	case format == "VINTRP" || format == "VINTERP" || mem == isa.LDSDirect:
		return "Vector", "Parameter Interpolation"
	case strings.HasPrefix(format, "VOPC") || strings.HasPrefix(name, "v_cmp"):
		return "Vector", "Vector Compare"
	case strings.Contains(name, "_cvt_") || strings.HasPrefix(name, "v_cvt"):
		return "Vector", "Vector Conversion"
	case strings.HasPrefix(name, "v_dot"):
		return "Vector", "Vector Dot Product"
	case strings.HasPrefix(name, "v_pk_") || format == "VOP3P":
		return "Vector", "Vector Packed Arithmetic"
	case strings.HasPrefix(format, "VOP") || format == "DPP" || format == "SDWA" || strings.HasPrefix(name, "v_"):
		return "Vector", "Vector Arithmetic"
	case strings.HasPrefix(name, "s_"):
		return "Scalar", "Scalar ALU"
	}
	if section != "" {
		return "Other", section
	}
	return "Other", "Other"
}

// FirstSentence returns the first sentence of a description (up to the first
// period followed by a space or the end), for summaries and search.
func FirstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	s = normalizeSpace(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '.' && (i+1 == len(s) || s[i+1] == ' ') {
			// Skip abbreviations like "e.g." and decimals.
			if i >= 3 && (strings.HasSuffix(s[:i+1], "e.g.") || strings.HasSuffix(s[:i+1], "i.e.")) {
				continue
			}
			return s[:i+1]
		}
	}
	if len(s) > 240 {
		cut := strings.LastIndex(s[:240], " ")
		if cut < 100 {
			cut = 240
		}
		return s[:cut] + "…"
	}
	return s
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// vop3a and vop3b are the guides' names of the two VOP3 layouts of GCN 5,
// CDNA 1-4 and RDNA 1-2: VOP3B has a scalar destination (SDST, bits
// 14:8) where VOP3A has ABS, OPSEL and CLMP.
const (
	vop3a = "VOP3A"
	vop3b = "VOP3B"
)

// CarryOutLayouts gives the VOP3B layout to the VOP3A encodings of the
// instructions that write a scalar destination beside their vector one
// (a carry-out: v_add_co_u32 vdst, sdst, ...). The guides state the VOP3
// opcode of a VOP2 instruction by a rule ("VOP2 opcode + 0x100") and
// that VOP3B is "used only for div_scale, integer add and subtract" (the
// CDNA 1 guide lists those names), so the rule's encoding is VOP3A unless
// something says otherwise; LLVM's syntax, which the model's operands
// come from, says it: a vdst and a scalar destination are both outputs,
// and llvm-mc encodes that scalar destination in SDST. It runs after the
// operands are attached; without LLVM's syntax nothing changes.
func CarryOutLayouts(archs []isa.Architecture, insts []*isa.Instruction) int {
	formats := map[string]isa.Format{} // family -> its VOP3B format
	for _, a := range archs {
		for _, f := range a.Formats {
			if f.Name == vop3b {
				formats[a.ID] = f
			}
		}
	}
	changed := 0
	for _, in := range insts {
		f, ok := formats[in.Arch]
		if !ok || !writesCarryOut(in.Operands) {
			continue
		}
		for i := range in.Encodings {
			e := &in.Encodings[i]
			if e.Format != vop3a {
				continue
			}
			e.Format = vop3b
			if e.Name == vop3a {
				e.Name = vop3b
			}
			encodingLayout(e, f, e.Opcode)
			e.Fields = amdlayout.WithParts(in.Arch, in.Name, e.Fields)
			e.IdentifierCheck = JoinNote(e.IdentifierCheck, "the VOP3B layout: LLVM's syntax writes a scalar destination beside the vector one, which VOP3B holds in SDST")
			changed++
		}
	}
	return changed
}

// writesCarryOut says the operands write a vector destination and a
// scalar one (vcc or an SGPR pair).
func writesCarryOut(ops []isa.Operand) bool {
	vector, scalar := false, false
	for _, o := range ops {
		if !o.Output {
			continue
		}
		switch strings.ToLower(o.OperandType) {
		case "vdst":
			vector = true
		case "vcc", "sdst":
			scalar = true
		}
	}
	return vector && scalar
}

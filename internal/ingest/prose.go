package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
)

// The instructions the guides describe in prose only
// (amdmanual.ProseInstructions): the build finds the row's line in the
// guide (the provenance), takes the opcodes from the word the guide gives
// and from the unscaled MFMA the scaled one wraps, and the LLVM pass
// verifies the row's example like any other (llvm-mc is the oracle for
// the encoding).

// scaleOperands are the Load-Scale word's operands as LLVM's syntax lists
// them (the scale of matrix A, then of B).
var scaleOperands = []isa.Operand{
	{Name: "scale_src0", Order: 0, Input: true, Size: 32, Prov: isa.Prov{Source: isa.SourceAMDManual}, Description: "Matrix A's scale: a VGPR whose bytes hold E8M0 exponents; {OP_SEL_HI[0], OP_SEL[0]} chooses the byte"},
	{Name: "scale_src1", Order: 1, Input: true, Size: 32, Prov: isa.Prov{Source: isa.SourceAMDManual}, Description: "Matrix B's scale: a VGPR whose bytes hold E8M0 exponents; {OP_SEL_HI[1], OP_SEL[1]} chooses the byte"},
}

func mfmaScaleOperands() []isa.Operand {
	guide := isa.Prov{Source: isa.SourceAMDManual}
	out := []isa.Operand{
		{Name: "vdst", Order: 0, Output: true, Prov: guide, Description: "The result tuple (AGPRs when ACC_CD is set)"},
		{Name: "vsrc0", Order: 1, Input: true, Prov: guide, Description: "Matrix A: as many VGPRs or AGPRs as CBSZ's format needs"},
		{Name: "vsrc1", Order: 2, Input: true, Prov: guide, Description: "Matrix B: as many VGPRs or AGPRs as BLGP's format needs"},
		{Name: "src2", Order: 3, Input: true, Prov: guide, Description: "Matrix C, the accumulator"},
	}
	for _, o := range scaleOperands {
		o.Order += 4
		out = append(out, o)
	}
	return out
}

// guideLine finds the first line at or after from of a guide whose text,
// without the Markdown escapes, contains s (1-based; 0: none); with
// heading, the first such heading (the table of contents names the
// section first).
func guideLine(lines []string, from int, s string, heading bool) int {
	for i := max(from-1, 0); i < len(lines); i++ {
		if heading && !strings.HasPrefix(lines[i], "#") {
			continue
		}
		if strings.Contains(strings.ReplaceAll(lines[i], `\`, ""), s) {
			return i + 1
		}
	}
	return 0
}

// addProseInstructions adds proseInstrs to the families whose guides are
// under src; a row the guide no longer supports (its heading, name or
// word is gone, or the format does not hold the word) is a problem, not an
// instruction.
func addProseInstructions(src string, archs []isa.Architecture, insts []*isa.Instruction) ([]*isa.Instruction, []string) {
	var added []*isa.Instruction
	var problems []string
	byName := map[string]*isa.Instruction{}
	for _, in := range insts {
		byName[in.Arch+"\x00"+in.Name] = in
	}
	guides := map[string][]string{}
	for _, row := range amdmanual.ProseInstructions {
		var arch *isa.Architecture
		for i := range archs {
			if archs[i].ID == row.Family {
				arch = &archs[i]
			}
		}
		if arch == nil || byName[row.Family+"\x00"+row.Name] != nil {
			continue // no such family read, or the guide now lists it
		}
		rel := filepath.ToSlash(filepath.Join("amd-isa-manuals", row.Family, "README.md"))
		lines, ok := guides[row.Family]
		if !ok {
			b, err := os.ReadFile(filepath.Join(src, rel))
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", rel, err))
				guides[row.Family] = nil
				continue
			}
			lines = strings.Split(string(b), "\n")
			guides[row.Family] = lines
		}
		in, err := proseInstruction(row, arch, lines, rel, byName)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s %s: %v", row.Family, row.Name, err))
			continue
		}
		added = append(added, in)
		byName[row.Family+"\x00"+row.Name] = in
		problems = append(problems, fixPairHeads(row, arch, byName)...)
	}
	return added, problems
}

// proseInstruction builds one row's instruction from its guide's lines.
func proseInstruction(row amdmanual.ProseInstr, arch *isa.Architecture, lines []string, rel string, byName map[string]*isa.Instruction) (*isa.Instruction, error) {
	head := guideLine(lines, 1, row.Heading, true)
	if head == 0 {
		return nil, fmt.Errorf("no section %q in %s", row.Heading, rel)
	}
	at := head
	if row.Named != "" {
		if at = guideLine(lines, head, row.Named, false); at == 0 {
			return nil, fmt.Errorf("%s does not name %s after line %d", rel, row.Named, head)
		}
	}
	wordAt, err := wordLine(row, lines, head, at, rel)
	if err != nil {
		return nil, err
	}
	word, err := strconv.ParseUint(strings.TrimPrefix(row.Word, "0x"), 16, 16)
	if err != nil {
		return nil, err
	}
	ld := formatNamed(arch, "VOP3P")
	mai := formatNamed(arch, "VOP3P-MAI")
	if ld == nil || mai == nil && row.Wraps != "" {
		return nil, fmt.Errorf("%s has no VOP3P and VOP3P-MAI formats", arch.ID)
	}
	w0 := uint32(word) << 16
	op, ok := opField(ld)
	if !ok || !merge.FixedMatch(*ld, w0) {
		return nil, fmt.Errorf("%s is not a %s word", row.Word, ld.Name)
	}
	ldOp := int(op.Get([]uint32{w0}))
	prov := isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: at}
	wordProv := isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: wordAt}
	if row.FromAssembler {
		wordProv = isa.Prov{Source: isa.SourceLLVMMC}
	}
	operands := scaleOperands
	switch {
	case row.AssemblerOperands:
		operands = nil // the LLVM pass fills them from llvm-mc's printing
	case row.Wraps != "":
		operands = mfmaScaleOperands()
	}
	in := &isa.Instruction{
		Arch: arch.ID, Name: row.Name, Vendor: isa.VendorAMD, Kind: isa.KindNative, Unit: "Matrix",
		Category: "Matrix Arithmetic",
		Summary:  row.Summary, Description: row.Desc, Operands: operands,
		Aliases: []isa.Alias{}, Concepts: []isa.ConceptRef{}, Targets: map[string]string{}, Opcodes: map[string]map[string]int{},
		Examples: []isa.Example{{Asm: row.Example, Source: fmt.Sprintf("composed from the operands %s describes (line %d); verified with llvm-mc", rel, wordAt),
			Prov: isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: wordAt}}},
		Sources: []isa.Prov{prov, {Source: isa.SourceLLVMMC}},
	}
	in.Section = amdmanual.Clean(strings.TrimLeft(lines[head-1], "#")) // as the guide's parser reads headings
	check := fmt.Sprintf("bits 31:16 are the guide's %s (line %d): %s opcode %d", row.Word, wordAt, ld.Name, ldOp)
	if row.FromAssembler {
		check = fmt.Sprintf("bits 31:16 are %s as llvm-mc 22 encodes the word (the guide gives none): %s opcode %d", row.Word, ld.Name, ldOp)
	}
	if row.Wraps == "" {
		in.Encodings = []isa.Encoding{{Name: ld.Name, Format: ld.Name, Width: ld.Width, Opcode: ldOp, Fields: ld.Fields,
			Operands: operands, Prov: wordProv, IdentifierCheck: check}}
	} else {
		base := byName[arch.ID+"\x00"+row.Wraps]
		maiOp := -1
		if base != nil {
			for _, e := range base.Encodings {
				if e.Format == mai.Name || e.Name == mai.Name {
					maiOp = e.Opcode
				}
			}
		}
		if maiOp < 0 {
			return nil, fmt.Errorf("%s has no %s instruction %s to wrap", arch.ID, mai.Name, row.Wraps)
		}
		in.Encodings = []isa.Encoding{{Name: ScaledFormat, Format: mai.Name, Width: 128, Opcode: maiOp,
			Fields: scaledLayout(ld, mai, ldOp), Operands: operands, Prov: prov,
			IdentifierCheck: check + fmt.Sprintf("; bits 95:64 are %s's %s word (opcode %d) with ABID 1", strings.ToUpper(row.Wraps), mai.Name, maiOp)}}
	}
	if row.Table != "" && row.Table != row.Word {
		if t := guideLine(lines, head, row.Table, false); t != 0 {
			in.Conflicts = append(in.Conflicts, isa.Conflict{Fact: "bits 31:16 of the Load-Scale word",
				Values: []isa.ConflictValue{{Value: row.Word, Prov: isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: wordAt}},
					{Value: row.Table, Prov: isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: t}}},
				Note:        fmt.Sprintf("the section's prose gives %s (VOP3P opcode %d, what llvm-mc encodes); its operand table gives %s, which is not a VOP3P word (it is CDNA 5's VOP3PX2 Load-Scale identifier, ENCODING 0xCC3 and SCLOP 5)", row.Word, ldOp, row.Table),
				CorrectedBy: isa.SourceLLVMMC})
		}
	}
	return in, nil
}

// wordLine is the guide line that gives row's Load-Scale word: the word
// itself after the section's heading, or, for a row whose guide writes it
// as field values (Evidence), the first of those after the named line; a
// word only the assembler gives (FromAssembler) is cited at the named
// line, where the guide describes the word without its opcode.
func wordLine(row amdmanual.ProseInstr, lines []string, head, at int, rel string) (int, error) {
	switch {
	case row.FromAssembler:
		return at, nil
	case len(row.Evidence) > 0:
		first := 0
		for _, e := range row.Evidence {
			n := guideLine(lines, at, e, false)
			if n == 0 {
				return 0, fmt.Errorf("%s gives no %s after line %d", rel, e, at)
			}
			if first == 0 || n < first {
				first = n
			}
		}
		return first, nil
	}
	n := guideLine(lines, head, row.Word, false)
	if n == 0 {
		return 0, fmt.Errorf("%s gives no word %s after line %d", rel, row.Word, head)
	}
	return n, nil
}

// fixPairHeads fixes, in the 4-dword encodings row.Pairs names, the bits
// of the first dword that the Load-Scale word gives (Word, bits 31:16)
// and the guide's layout leaves open: CDNA 5's VOP3PX2 fixes only
// ENCODING [31:20]; its SCLOP [19:16] holds the rest of the VOP3P opcode,
// which tells the block-32 from the block-16 form (the guide's table names
// 'b0101 in SCLOP's description, for V_WMMA_SCALE_F32_16X16X128_F8F6F4
// only). A bit the guide fixes to another value is a problem, not an
// override.
func fixPairHeads(row amdmanual.ProseInstr, arch *isa.Architecture, byName map[string]*isa.Instruction) []string {
	if len(row.Pairs) == 0 {
		return nil
	}
	opf, ok := opField(formatNamed(arch, "VOP3P"))
	if !ok {
		return nil
	}
	word, err := strconv.ParseUint(strings.TrimPrefix(row.Word, "0x"), 16, 16)
	if err != nil {
		return []string{fmt.Sprintf("%s %s: word %q: %v", arch.ID, row.Name, row.Word, err)}
	}
	w0 := uint32(word) << 16
	var problems []string
	for pi, name := range row.Pairs {
		p := byName[arch.ID+"\x00"+name]
		if p == nil {
			problems = append(problems, fmt.Sprintf("%s %s: no instruction %s to start", arch.ID, row.Name, name))
			continue
		}
		example := ""
		if pi < len(row.PairExamples) {
			example = row.PairExamples[pi]
		}
		for ei := range p.Encodings {
			e := &p.Encodings[ei]
			if e.Width <= 96 {
				continue
			}
			e.Fields = slices.Clone(e.Fields) // the reader's instructions share their format's fields
			if example != "" {
				p.Examples = append(p.Examples, isa.Example{Asm: example, Prov: e.Prov,
					Source: fmt.Sprintf("composed from the operands the guide's %s tables describe; verified with llvm-mc", e.Format)})
				example = ""
			}
			for fi := range e.Fields {
				f := &e.Fields[fi]
				if f.MSB >= 32 || f.LSB < opf.LSB || f.MSB > opf.MSB {
					continue // not in the first dword's opcode bits
				}
				want := fmt.Sprintf("%0*b", f.MSB-f.LSB+1, w0>>uint(f.LSB)&(1<<uint(f.MSB-f.LSB+1)-1))
				switch strings.ReplaceAll(f.Fixed, "_", "") {
				case "":
					f.Fixed = want
					f.Description = strings.TrimSpace(f.Description + fmt.Sprintf(" (%s: %s's opcode)", want, row.Name))
				case want:
				default:
					problems = append(problems, fmt.Sprintf("%s %s: field %s is fixed at %s, %s's opcode gives %s", arch.ID, name, f.Name, f.Fixed, row.Name, want))
				}
			}
		}
	}
	return problems
}

// ScaledFormat names the 4-dword layout of a scaled MFMA (LLVM's VOP3PX).
const ScaledFormat = "VOP3PX"

// scaledLayout is the 128-bit layout of a scaled MFMA: the Load-Scale word
// pair (ld's layout, its ENCODING and OP fixed to the Load-Scale opcode,
// its fields named SCALE_*) and the MFMA word pair (mai's layout 64 bits
// up, ABID fixed at 1).
func scaledLayout(ld, mai *isa.Format, ldOp int) []isa.Field {
	var out []isa.Field
	for _, f := range ld.Fields {
		f.Name = "SCALE_" + f.Name
		f.Ranges = nil
		switch strings.TrimPrefix(f.Name, "SCALE_") {
		case "OP":
			f.Fixed = fmt.Sprintf("%0*b", f.MSB-f.LSB+1, ldOp)
			f.Description = "Load-Scale opcode"
		case "SRC0":
			f.Description = "Matrix A's scale (a VGPR)"
		case "SRC1":
			f.Description = "Matrix B's scale (a VGPR)"
		case "OPSEL", "OPSEL_HI":
			f.Description = "Bits 0 and 1 with OPSEL_HI/OPSEL choose the byte of the A and B scales"
		case "ENCODING":
		default:
			f.Description = "Not read by the scaled MFMA (LLVM encodes 0)"
		}
		out = append(out, f)
	}
	for _, f := range mai.Fields {
		f.MSB += 64
		f.LSB += 64
		f.Ranges = nil
		if f.Name == "ABID" {
			f.Fixed = fmt.Sprintf("%0*b", f.MSB-f.LSB+1, 1)
			f.Description = "1: the word pair is the scaled MFMA's"
		}
		out = append(out, f)
	}
	return out
}

// formatNamed is arch's format of that name, in any case; nil if none.
func formatNamed(arch *isa.Architecture, name string) *isa.Format {
	for i := range arch.Formats {
		if strings.EqualFold(arch.Formats[i].Name, name) {
			return &arch.Formats[i]
		}
	}
	return nil
}

// proseExamples are the composed examples of a proseInstrs instruction or
// of an instruction a row's word starts (Pairs): the LLVM pass's
// candidates for it (other instructions' examples come from LLVM's pages
// and tests).
func proseExamples(in *isa.Instruction) []isa.Example {
	for _, row := range amdmanual.ProseInstructions {
		if row.Family == in.Arch && (row.Name == in.Name || slices.Contains(row.Pairs, in.Name)) {
			return in.Examples
		}
	}
	return nil
}

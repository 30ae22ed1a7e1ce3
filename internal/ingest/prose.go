package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Instructions a guide describes only in prose: CDNA 4's scaled MFMAs are
// "4-dword instructions that combine a Load-Scale factors and MFMA
// functions into one instruction" (section 7.2.1), named there but in no
// opcode table, and their first two dwords (the Load-Scale word, which
// LLVM decodes alone as v_mfma_ld_scale_b32 when no MFMA follows) have no
// section at all. Each row says where the guide describes the
// instruction; the build finds that line (the provenance), takes the
// opcodes from the word the guide gives and from the unscaled MFMA the
// scaled one wraps, and the LLVM pass verifies the row's example like any
// other (llvm-mc is the oracle for the encoding).
type proseInstr struct {
	family string
	name   string // lower case, as LLVM spells it
	// heading is the guide section's heading; named is how the section
	// spells the instruction, or the heading of the part of the section
	// that describes it (the Load-Scale word has no name there).
	heading, named string
	// word is the identifier the section's prose gives the Load-Scale
	// word (bits 31:16); table is the one its operand table gives, when
	// the two differ.
	word, table string
	// wraps is the unscaled instruction whose opcode and operands the
	// scaled one's second word pair holds; "" for the Load-Scale word.
	wraps    string
	summary  string
	desc     string
	example  string
	operands []isa.Operand
}

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

const scaleSelect = " {OP_SEL_HI[i], OP_SEL[i]} of the Load-Scale word choose the byte of scale i that the lanes use: 00 bits [7:0], 01 [15:8], 10 [23:16], 11 [31:24]. " +
	"The scale is an E8M0 exponent (bias 127), one per 32 K values of a matrix row."

// The syntax of the byte selects as llvm-mc 22 prints them.
const (
	scaledSyntax = " LLVM writes the scales after the C matrix, then op_sel:[a,b,0] when either OP_SEL bit is set and always op_sel_hi:[a,b,0] (bit 2 of each is not encoded), then cbsz and blgp."
	ldSyntax     = " LLVM writes op_sel:[a,b] when either OP_SEL bit is set and op_sel_hi:[a,b] unless both OP_SEL_HI bits are 1, its default."
)

var proseInstrs = []proseInstr{
	{family: "cdna4", name: "v_mfma_scale_f32_16x16x128_f8f6f4", heading: "MFMA with Block Exponent Scaling", named: "V_MFMA_SCALE_F32_16X16X128_F8F6F4",
		word: "0xD3AC", table: "0xCC35", wraps: "v_mfma_f32_16x16x128_f8f6f4",
		summary: "Multiply 16x128 by 128x16 matrices of FP8, FP6 or FP4 values (formats chosen by CBSZ and BLGP), each block of 32 K values scaled by an E8M0 exponent, and add a 16x16 F32 matrix.",
		desc: "A 4-dword instruction: a Load-Scale word pair (bits 31:16 0xD3AC, VOP3P opcode 44) whose SRC0 and SRC1 give the scales of matrix A and matrix B, followed by the VOP3P-MAI word pair of V_MFMA_F32_16X16X128_F8F6F4 (its ABID field set to 1). " +
			"The scales apply to this instruction only and do not carry into later MFMAs. With K = 128 there are 4 scale values per matrix row and 16 rows: 64 8-bit scales, a quarter of one VGPR across 64 lanes." + scaleSelect + scaledSyntax,
		example: "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[4:11], v[12:19], a[0:3], v1, v2 op_sel:[1,0,0] op_sel_hi:[1,1,0]", operands: mfmaScaleOperands()},
	{family: "cdna4", name: "v_mfma_scale_f32_32x32x64_f8f6f4", heading: "MFMA with Block Exponent Scaling", named: "V_MFMA_SCALE_F32_32X32X64_F8F6F4",
		word: "0xD3AC", table: "0xCC35", wraps: "v_mfma_f32_32x32x64_f8f6f4",
		summary: "Multiply 32x64 by 64x32 matrices of FP8, FP6 or FP4 values (formats chosen by CBSZ and BLGP), each block of 32 K values scaled by an E8M0 exponent, and add a 32x32 F32 matrix.",
		desc: "A 4-dword instruction: a Load-Scale word pair (bits 31:16 0xD3AC, VOP3P opcode 44) whose SRC0 and SRC1 give the scales of matrix A and matrix B, followed by the VOP3P-MAI word pair of V_MFMA_F32_32X32X64_F8F6F4 (its ABID field set to 1). " +
			"The scales apply to this instruction only and do not carry into later MFMAs. With K = 64 there are 2 scale values per matrix row and 32 rows." + scaleSelect + scaledSyntax,
		example: "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[4:11], v[12:19], v[0:15], v1, v2 op_sel:[0,1,0] op_sel_hi:[1,0,0] cbsz:1", operands: mfmaScaleOperands()},
	{family: "cdna4", name: "v_mfma_ld_scale_b32", heading: "MFMA with Block Exponent Scaling", named: "Operands of Load-Scale", word: "0xD3AC", table: "0xCC35",
		summary: "The Load-Scale word of a scaled MFMA (the first two dwords of V_MFMA_SCALE_*): the scales of matrix A (SRC0) and matrix B (SRC1) for the MFMA word pair that follows.",
		desc: "AMD's guide describes this word only as the first half of the 4-dword V_MFMA_SCALE_F32_16X16X128_F8F6F4 and V_MFMA_SCALE_F32_32X32X64_F8F6F4. " +
			"LLVM names it v_mfma_ld_scale_b32 and decodes it alone when no scaled MFMA's word pair follows. VDST, CLAMP, NEG, NEG_HI and OP_SEL[2] must be zero; SRC2 and OP_SEL_HI[2] are not read. SRC0 and SRC1 may be VGPRs, SGPRs or constants here; in the scaled MFMA llvm-mc 22 takes VGPRs only." + scaleSelect + ldSyntax,
		example: "v_mfma_ld_scale_b32 v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", operands: scaleOperands},
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
	for _, row := range proseInstrs {
		var arch *isa.Architecture
		for i := range archs {
			if archs[i].ID == row.family {
				arch = &archs[i]
			}
		}
		if arch == nil || byName[row.family+"\x00"+row.name] != nil {
			continue // no such family read, or the guide now lists it
		}
		rel := filepath.ToSlash(filepath.Join("amd-isa-manuals", row.family, "README.md"))
		lines, ok := guides[row.family]
		if !ok {
			b, err := os.ReadFile(filepath.Join(src, rel))
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", rel, err))
				guides[row.family] = nil
				continue
			}
			lines = strings.Split(string(b), "\n")
			guides[row.family] = lines
		}
		in, err := proseInstruction(row, arch, lines, rel, byName)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s %s: %v", row.family, row.name, err))
			continue
		}
		added = append(added, in)
		byName[row.family+"\x00"+row.name] = in
	}
	return added, problems
}

// proseInstruction builds one row's instruction from its guide's lines.
func proseInstruction(row proseInstr, arch *isa.Architecture, lines []string, rel string, byName map[string]*isa.Instruction) (*isa.Instruction, error) {
	head := guideLine(lines, 1, row.heading, true)
	if head == 0 {
		return nil, fmt.Errorf("no section %q in %s", row.heading, rel)
	}
	at := head
	if row.named != "" {
		if at = guideLine(lines, head, row.named, false); at == 0 {
			return nil, fmt.Errorf("%s does not name %s after line %d", rel, row.named, head)
		}
	}
	wordAt := guideLine(lines, head, row.word, false)
	if wordAt == 0 {
		return nil, fmt.Errorf("%s gives no word %s after line %d", rel, row.word, head)
	}
	word, err := strconv.ParseUint(strings.TrimPrefix(row.word, "0x"), 16, 16)
	if err != nil {
		return nil, err
	}
	ld := formatNamed(arch, "VOP3P")
	mai := formatNamed(arch, "VOP3P-MAI")
	if ld == nil || mai == nil {
		return nil, fmt.Errorf("%s has no VOP3P and VOP3P-MAI formats", arch.ID)
	}
	w0 := uint32(word) << 16
	op, ok := opField(ld)
	if !ok || !merge.FixedMatch(*ld, w0) {
		return nil, fmt.Errorf("%s is not a %s word", row.word, ld.Name)
	}
	ldOp := int(op.Get([]uint32{w0}))
	prov := isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: at}
	in := &isa.Instruction{
		Arch: arch.ID, Name: row.name, Vendor: isa.VendorAMD, Kind: isa.KindNative, Unit: "Matrix",
		Category: "Matrix Arithmetic",
		Summary:  row.summary, Description: row.desc, Operands: row.operands,
		Aliases: []isa.Alias{}, Concepts: []isa.ConceptRef{}, Targets: map[string]string{}, Opcodes: map[string]map[string]int{},
		Examples: []isa.Example{{Asm: row.example, Source: fmt.Sprintf("composed from the operands %s describes (line %d); verified with llvm-mc", rel, wordAt),
			Prov: isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: wordAt}}},
		Sources: []isa.Prov{prov, {Source: isa.SourceLLVMMC}},
	}
	in.Section = strings.TrimSpace(strings.Trim(cleanHeading(lines[head-1]), "#* "))
	check := fmt.Sprintf("bits 31:16 are the guide's %s (line %d): %s opcode %d", row.word, wordAt, ld.Name, ldOp)
	if row.wraps == "" {
		in.Encodings = []isa.Encoding{{Name: ld.Name, Format: ld.Name, Width: ld.Width, Opcode: ldOp, Fields: ld.Fields,
			Operands: row.operands, Prov: isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: wordAt}, IdentifierCheck: check}}
	} else {
		base := byName[arch.ID+"\x00"+row.wraps]
		maiOp := -1
		if base != nil {
			for _, e := range base.Encodings {
				if e.Format == mai.Name || e.Name == mai.Name {
					maiOp = e.Opcode
				}
			}
		}
		if maiOp < 0 {
			return nil, fmt.Errorf("%s has no %s instruction %s to wrap", arch.ID, mai.Name, row.wraps)
		}
		in.Encodings = []isa.Encoding{{Name: ScaledFormat, Format: mai.Name, Width: 128, Opcode: maiOp,
			Fields: scaledLayout(ld, mai, ldOp), Operands: row.operands, Prov: prov,
			IdentifierCheck: check + fmt.Sprintf("; bits 95:64 are %s's %s word (opcode %d) with ABID 1", strings.ToUpper(row.wraps), mai.Name, maiOp)}}
	}
	if row.table != "" && row.table != row.word {
		if t := guideLine(lines, head, row.table, false); t != 0 {
			in.Conflicts = append(in.Conflicts, isa.Conflict{Fact: "bits 31:16 of the Load-Scale word",
				Values: []isa.ConflictValue{{Value: row.word, Prov: isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: wordAt}},
					{Value: row.table, Prov: isa.Prov{Source: isa.SourceAMDManual, File: rel, Line: t}}},
				Note:        fmt.Sprintf("the section's prose gives %s (VOP3P opcode %d, what llvm-mc encodes); its operand table gives %s, which is not a VOP3P word (it is CDNA 5's VOP3PX2 Load-Scale identifier, ENCODING 0xCC3 and SCLOP 5)", row.word, ldOp, row.table),
				CorrectedBy: isa.SourceLLVMMC})
		}
	}
	return in, nil
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

// cleanHeading drops a heading's HTML anchor ("<span id=...></span>").
func cleanHeading(s string) string {
	for {
		i := strings.Index(s, "<span")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "</span>")
		if j < 0 {
			return s
		}
		s = s[:i] + s[i+j+len("</span>"):]
	}
}

func formatNamed(arch *isa.Architecture, name string) *isa.Format {
	for i := range arch.Formats {
		if arch.Formats[i].Name == name {
			return &arch.Formats[i]
		}
	}
	return nil
}

// proseExamples are the composed examples of a proseInstrs instruction:
// the LLVM pass's candidates for it (other instructions' examples come
// from LLVM's pages and tests).
func proseExamples(in *isa.Instruction) []isa.Example {
	for _, row := range proseInstrs {
		if row.family == in.Arch && row.name == in.Name {
			return in.Examples
		}
	}
	return nil
}

package amdmanual

// Instructions a guide describes only in prose: CDNA 4's scaled MFMAs are
// "4-dword instructions that combine a Load-Scale factors and MFMA
// functions into one instruction" (section 7.2.1), named there but in no
// opcode table, and their first two dwords (the Load-Scale word, which
// LLVM decodes alone as v_mfma_ld_scale_b32 when no MFMA follows) have no
// section at all. Each row says where the guide describes the
// instruction; the build (package ingest) finds that line for the
// provenance, takes the opcodes from the word the guide gives and from
// the unscaled MFMA the scaled one wraps, and verifies the example with
// llvm-mc like any other.

// ProseInstr is one instruction a guide describes in prose only.
type ProseInstr struct {
	Family string
	Name   string // lower case, as LLVM spells it
	// Heading is the guide section's heading; Named is how the section
	// spells the instruction, or the heading of the part of the section
	// that describes it (the Load-Scale word has no name there).
	Heading, Named string
	// Word is the identifier the section's prose gives the Load-Scale
	// word (bits 31:16); Table is the one its operand table gives, when
	// the two differ.
	Word, Table string
	// Wraps is the unscaled instruction whose opcode and operands the
	// scaled one's second word pair holds; "" for the Load-Scale word.
	Wraps string
	// Evidence are the texts after Named that give Word where the guide
	// writes it as field values (CDNA 5's VOP3PX2 table gives ENCODING
	// and SCLOP in binary) rather than as a hex identifier; FromAssembler
	// says the guide gives no value for Word at all and llvm-mc 22's
	// encoding is its source (the LLVM pass verifies the example against
	// it like any other).
	Evidence      []string
	FromAssembler bool
	// AssemblerOperands: the build takes the operands from what llvm-mc
	// prints for the example, as for the family's other instructions
	// (CDNA 5 has no LLVM syntax page), rather than from the guide.
	AssemblerOperands bool
	// Pairs are the 4-dword instructions whose first word pair is this
	// Load-Scale word: the build fixes the bits of their first pair that
	// the word's opcode gives and the guide's layout leaves open (SCLOP).
	Pairs []string
	// PairExamples are lines of the Pairs instructions (one each, in
	// order) composed from the guide's VOP3PX2 operand description: the
	// guide's opcode tables give those instructions no syntax, and the LLVM
	// pass verifies these like any other example.
	PairExamples []string
	Summary      string
	Desc         string
	Example      string // composed from the section's operand description
}

// scaleSelect is what the section says the byte selects do.
const scaleSelect = " {OP_SEL_HI[i], OP_SEL[i]} of the Load-Scale word choose the byte of scale i that the lanes use: 00 bits [7:0], 01 [15:8], 10 [23:16], 11 [31:24]. " +
	"The scale is an E8M0 exponent (bias 127), one per 32 K values of a matrix row."

// The syntax of the byte selects as llvm-mc 22 prints them.
const (
	scaledSyntax = " LLVM writes the scales after the C matrix, then op_sel:[a,b,0] when either OP_SEL bit is set and always op_sel_hi:[a,b,0] (bit 2 of each is not encoded), then cbsz and blgp."
	ldSyntax     = " LLVM writes op_sel:[a,b] when either OP_SEL bit is set and op_sel_hi:[a,b] unless both OP_SEL_HI bits are 1, its default."
)

// ProseInstructions are the guides' prose-only instructions.
var ProseInstructions = []ProseInstr{
	{Family: "cdna4", Name: "v_mfma_scale_f32_16x16x128_f8f6f4", Heading: "MFMA with Block Exponent Scaling", Named: "V_MFMA_SCALE_F32_16X16X128_F8F6F4",
		Word: "0xD3AC", Table: "0xCC35", Wraps: "v_mfma_f32_16x16x128_f8f6f4",
		Summary: "Multiply 16x128 by 128x16 matrices of FP8, FP6 or FP4 values (formats chosen by CBSZ and BLGP), each block of 32 K values scaled by an E8M0 exponent, and add a 16x16 F32 matrix.",
		Desc: "A 4-dword instruction: a Load-Scale word pair (bits 31:16 0xD3AC, VOP3P opcode 44) whose SRC0 and SRC1 give the scales of matrix A and matrix B, followed by the VOP3P-MAI word pair of V_MFMA_F32_16X16X128_F8F6F4 (its ABID field set to 1). " +
			"The scales apply to this instruction only and do not carry into later MFMAs. With K = 128 there are 4 scale values per matrix row and 16 rows: 64 8-bit scales, a quarter of one VGPR across 64 lanes." + scaleSelect + scaledSyntax,
		Example: "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[4:11], v[12:19], a[0:3], v1, v2 op_sel:[1,0,0] op_sel_hi:[1,1,0]"},
	{Family: "cdna4", Name: "v_mfma_scale_f32_32x32x64_f8f6f4", Heading: "MFMA with Block Exponent Scaling", Named: "V_MFMA_SCALE_F32_32X32X64_F8F6F4",
		Word: "0xD3AC", Table: "0xCC35", Wraps: "v_mfma_f32_32x32x64_f8f6f4",
		Summary: "Multiply 32x64 by 64x32 matrices of FP8, FP6 or FP4 values (formats chosen by CBSZ and BLGP), each block of 32 K values scaled by an E8M0 exponent, and add a 32x32 F32 matrix.",
		Desc: "A 4-dword instruction: a Load-Scale word pair (bits 31:16 0xD3AC, VOP3P opcode 44) whose SRC0 and SRC1 give the scales of matrix A and matrix B, followed by the VOP3P-MAI word pair of V_MFMA_F32_32X32X64_F8F6F4 (its ABID field set to 1). " +
			"The scales apply to this instruction only and do not carry into later MFMAs. With K = 64 there are 2 scale values per matrix row and 32 rows." + scaleSelect + scaledSyntax,
		Example: "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[4:11], v[12:19], v[0:15], v1, v2 op_sel:[0,1,0] op_sel_hi:[1,0,0] cbsz:1"},
	{Family: "cdna4", Name: "v_mfma_ld_scale_b32", Heading: "MFMA with Block Exponent Scaling", Named: "Operands of Load-Scale", Word: "0xD3AC", Table: "0xCC35",
		Summary: "The Load-Scale word of a scaled MFMA (the first two dwords of V_MFMA_SCALE_*): the scales of matrix A (SRC0) and matrix B (SRC1) for the MFMA word pair that follows.",
		Desc: "AMD's guide describes this word only as the first half of the 4-dword V_MFMA_SCALE_F32_16X16X128_F8F6F4 and V_MFMA_SCALE_F32_32X32X64_F8F6F4. " +
			"LLVM names it v_mfma_ld_scale_b32 and decodes it alone when no scaled MFMA's word pair follows. VDST, CLAMP, NEG, NEG_HI and OP_SEL[2] must be zero; SRC2 and OP_SEL_HI[2] are not read. SRC0 and SRC1 may be VGPRs, SGPRs or constants here; in the scaled MFMA llvm-mc 22 takes VGPRs only." + scaleSelect + ldSyntax,
		Example: "v_mfma_ld_scale_b32 v1, v2 op_sel:[1,0] op_sel_hi:[0,1]"},
	// CDNA 5's VOP3PX2 tables (the "load scale" portion, bits [63:0])
	// give the first word pair of the scaled WMMAs: ENCODING 'b11001100_0011
	// at [31:20] and SCLOP 'b0101 at [19:16], VOP3P opcode 0x35, the value
	// the table names for V_WMMA_SCALE_F32_16X16X128_F8F6F4. It names no
	// SCLOP for the block-16 (SCALE16) forms; llvm-mc 22 encodes them with
	// VOP3P opcode 0x3A and 64-bit scales.
	{Family: "cdna5", Name: "v_wmma_ld_scale_paired_b32", Heading: "VOP3PX2", Named: `the "load scale" portion`, Word: "0xCC35",
		Evidence: []string{"'b0101", "'b11001100_0011"}, AssemblerOperands: true, Pairs: []string{"v_wmma_scale_f32_16x16x128_f8f6f4", "v_wmma_scale_f32_32x16x128_f4"},
		PairExamples: []string{"v_wmma_scale_f32_16x16x128_f8f6f4 v[0:7], v[8:23], v[24:39], v[40:47], v1, v2 matrix_a_fmt:MATRIX_FMT_BF8 matrix_a_scale:MATRIX_SCALE_ROW1 matrix_b_scale_fmt:MATRIX_SCALE_FMT_E4M3 matrix_a_reuse",
			"v_wmma_scale_f32_32x16x128_f4 v[0:15], v[16:31], v[32:39], v[40:55], v1, s2 matrix_b_scale:MATRIX_SCALE_ROW1"},
		Summary: "The Load-Scale word of a block-32 scaled WMMA (the first two dwords of V_WMMA_SCALE_*): the scales of matrix A (SRC0) and matrix B (SRC1) for the WMMA word pair that follows.",
		Desc:    "AMD's guide describes this word only as the \"load scale\" portion (bits [63:0]) of the VOP3PX2 encoding of V_WMMA_SCALE_F32_16X16X128_F8F6F4 and V_WMMA_SCALE_F32_32X16X128_F4. " + wmmaScaleFields + " LLVM names it v_wmma_ld_scale_paired_b32 and decodes it alone when no scaled WMMA's word pair follows.",
		Example: "v_wmma_ld_scale_paired_b32 v1, v2 matrix_a_scale:MATRIX_SCALE_ROW1 matrix_b_scale_fmt:MATRIX_SCALE_FMT_E4M3 matrix_a_reuse"},
	{Family: "cdna5", Name: "v_wmma_ld_scale16_paired_b64", Heading: "VOP3PX2", Named: `the "load scale" portion`, Word: "0xCC3A",
		FromAssembler: true, AssemblerOperands: true, Pairs: []string{"v_wmma_scale16_f32_16x16x128_f8f6f4", "v_wmma_scale16_f32_32x16x128_f4"},
		PairExamples: []string{"v_wmma_scale16_f32_16x16x128_f8f6f4 v[0:7], v[8:23], v[24:35], v[40:47], v[2:3], v[4:5] matrix_b_fmt:MATRIX_FMT_FP6 matrix_a_scale_fmt:MATRIX_SCALE_FMT_E5M3",
			"v_wmma_scale16_f32_32x16x128_f4 v[0:15], v[16:31], v[32:39], v[40:55], v[2:3], s[4:5] matrix_b_reuse"},
		Summary: "The Load-Scale word of a block-16 scaled WMMA (the first two dwords of V_WMMA_SCALE16_*): the 64-bit scales of matrix A (SRC0) and matrix B (SRC1) for the WMMA word pair that follows.",
		Desc:    "AMD's guide gives the VOP3PX2 \"load scale\" layout but no SCLOP for V_WMMA_SCALE16_F32_16X16X128_F8F6F4 and V_WMMA_SCALE16_F32_32X16X128_F4; llvm-mc 22 encodes their first word pair as VOP3P opcode 0x3A (SCLOP 'b1010), with 64-bit scales (16x8 scale bytes of A, 8 per lane). " + wmmaScaleFields + " LLVM names it v_wmma_ld_scale16_paired_b64 and decodes it alone when no scaled WMMA's word pair follows.",
		Example: "v_wmma_ld_scale16_paired_b64 v[2:3], v[4:5] matrix_b_scale:MATRIX_SCALE_ROW1 matrix_a_scale_fmt:MATRIX_SCALE_FMT_E5M3 matrix_b_reuse"},
}

// wmmaScaleFields is what CDNA 5's VOP3PX2 table says the Load-Scale
// fields hold, and how LLVM 22 spells them.
const wmmaScaleFields = "SCL_OPSEL[0] and SCL_OPSEL_HI[0] select the lanes of the A and B scales (matrix_a_scale, matrix_b_scale: MATRIX_SCALE_ROW0 lanes 0-15, ROW1 lanes 16-31), SCL_NEG[1:0] and SCL_NEG_HI[1:0] their formats (matrix_a_scale_fmt, matrix_b_scale_fmt: 0 E8M0, 1 E5M3, 2 E4M3), SCL_OPSEL[2] and SCL_OPSEL_HI[2] the reuse hints (matrix_a_reuse, matrix_b_reuse). The scales may be VGPRs, SGPRs or inline constants; VDST (in the scaled WMMA not read), CLAMP, NEG[2], NEG_HI[2], OPSEL[1] and OPSEL_HI[1] must be zero and SRC2 must hold 0x100, as the guide requires (llvm-mc 22 rejects a word with any other value)."

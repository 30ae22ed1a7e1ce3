package decode

import (
	"fmt"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// family holds the facts about one AMD family that the bit-layout tables do
// not carry: what the 8/9-bit operand codes mean, which src0 codes announce a
// DPP or SDWA dword, and the register file sizes. They are written from the
// "SSRC0"/"SRC0" code lists of each guide's microcode-format chapter (e.g.
// CDNA 4 guide, Table 65 "SOP2 Fields"; RDNA 3 guide, Table 77 "VOP2
// Fields") and from the operand tables of the "Instruction Operands" chapter.
type family struct {
	gen      int    // the encoding generation (isa.ArchInfo.Gen)
	line     string // the product line (isa.ArchInfo.Line)
	lastSGPR int    // highest SGPR code (101 on GCN/CDNA, 105 on RDNA)
	null     int    // the code LLVM decodes as null (125; 124 on gfx11+)
	names32  map[int]string
	names64  map[int]string // names a code has when it starts a 64-bit operand
	// ldsDirect is the code of src_lds_direct, which LLVM's scalar
	// source classes (SSrc_b32, SSrc_b64) do not hold.
	ldsDirect   int
	wave32      bool // LLVM disassembles gfx10+ as wave32 by default: vcc_lo
	sdwa        int  // src0 code announcing an SDWA dword (-1: none)
	dpp         int  // src0 code announcing a DPP (DPP16) dword
	dpp8        int  // src0 code announcing a DPP8 dword (-1: none)
	dpp8fi      int  // src0 code announcing a DPP8 dword with FI set (-1: none)
	vop3Lit     bool // VOP3/VOP3P may take a 32-bit literal (gfx10+)
	trueSixteen bool // 16-bit VGPR halves are named v1.l / v1.h (gfx11+)
	matrixReuse bool // gfx1250: WMMA op_sel[2] / op_sel_hi[2] are matrix_a_reuse / matrix_b_reuse
	lit64       bool // gfx1250: source code 254 announces a 64-bit literal (VOP1/VOP2/VOPC, SALU)
	noNV        bool // SMEM bit 15 (NV) is not printed (gfx940+)
	// noGDS: CDNA 2-4 (gfx90a+) have no GDS; llvm-mc 22 ignores the DS GDS
	// bit there and prints no gds.
	noGDS bool
	// alignedVGPRs: VGPR and AGPR tuples start at an even register
	// (isa.TraitAlignedVGPRs); a misaligned one makes the word invalid.
	alignedVGPRs bool
	// lo128: 16-bit VGPR operands of VOP1/VOP2/VOPC name v0-v127 only
	// (LLVM's VGPR_32_Lo128 class): gfx11+ targets decoded without true16
	// names, where the field's bit 7 is no register half.
	lo128 bool
	// n32/n64 are names32/names64 as arrays: the decoder's hot path reads
	// them without hashing; code32/code64 are the other way round (the
	// lowest code of a name), for the encoder's ScalarCode.
	n32, n64       [256]string
	code32, code64 map[string]int
	// scBits: CDNA 3/4 cache bits are sc0/sc1/nt instead of glc/slc.
	scBits bool
	// accRegs: the ACC bit of memory and MAI instructions selects AGPRs (a0).
	accRegs bool
	// waveShifts: DPP_CTRL has wave_shl/rol/shr/ror and row_bcast (GCN 5
	// and CDNA 1-4: every gen-9 guide's DPP_CTRL table, and llvm-mc 22
	// prints them on gfx90a-gfx950 too); rowNewBcast: 0x150-0x15f are
	// row_newbcast (CDNA 2+).
	waveShifts, rowNewBcast bool

	// hwreg and msg name the hardware registers of hwreg(...) and the
	// messages of sendmsg(...) by ID (symbolic.go).
	hwreg [64]string
	msg   [256]string
}

func (f *family) named(info isa.ArchInfo) *family {
	f.hwreg, f.msg = hwregNames(info), msgNames(info)
	f.alignedVGPRs = info.Has(isa.TraitAlignedVGPRs)
	f.line = info.Line
	return f
}

func (f *family) index() *family {
	for c, n := range f.names32 {
		if c >= 0 && c < 256 {
			f.n32[c] = n
		}
	}
	for c, n := range f.names64 {
		if c >= 0 && c < 256 {
			f.n64[c] = n
		}
	}
	f.code32, f.code64 = codesByName(f.names32), codesByName(f.names64)
	return f
}

func codesByName(names map[int]string) map[string]int {
	m := make(map[string]int, len(names))
	for c, n := range names {
		if old, ok := m[n]; !ok || c < old {
			m[n] = c
		}
	}
	return m
}

const literalCode = 255

// addConst64 gives the 64-bit names LLVM 22 decodes for the constant and
// flat-scratch-base codes (llvm-mc 22, every generation): the base's low
// code, src_pops_exiting_wave_id, src_vccz, src_execz and src_scc start a
// 64-bit operand under their own names; src_flat_scratch_base_hi and
// src_lds_direct do not (a 64-bit operand there is rejected, srcText), and
// src_lds_direct is no scalar source at all.
func (f *family) addConst64() {
	for _, c := range [...]int{230, 239, 251, 252, 253} {
		f.names64[c] = f.names32[c]
	}
	f.ldsDirect = 254
}

func newFamily(arch string) (*family, error) {
	info, ok := isa.ArchByID(arch)
	if !ok || info.Vendor != isa.VendorAMD {
		return nil, fmt.Errorf("decode: no operand-code table for family %q", arch)
	}
	switch info.Gen {
	case 9:
		f := &family{gen: 9, lastSGPR: 101, null: 125, sdwa: 249, dpp: 250, dpp8: -1, dpp8fi: -1}
		f.names32 = map[int]string{
			102: "flat_scratch_lo", 103: "flat_scratch_hi", 104: "xnack_mask_lo", 105: "xnack_mask_hi",
			106: "vcc_lo", 107: "vcc_hi", 124: "m0", 126: "exec_lo", 127: "exec_hi",
			235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
			239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz", 253: "src_scc", 254: "src_lds_direct",
		}
		f.names64 = map[int]string{102: "flat_scratch", 104: "xnack_mask", 106: "vcc", 126: "exec",
			235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit"}
		// LLVM 22 decodes codes 230/231 as the flat-scratch base and 125
		// as null on every gfx9 target, and prints no SMEM nv bit there.
		f.names32[230], f.names32[231] = "src_flat_scratch_base_lo", "src_flat_scratch_base_hi"
		f.addConst64()
		f.names32[125] = "null"
		f.names64[125] = "null" // and as a 64-bit operand (s_load_dwordx2 null, ...)
		f.noNV = true
		f.scBits = info.Has(isa.TraitCacheSC)
		f.accRegs = info.Has(isa.TraitAccBit)
		f.noGDS = f.accRegs
		f.rowNewBcast = f.accRegs
		f.waveShifts = true
		return f.index().named(info), nil
	case 10, 11, 12:
		f := &family{gen: info.Gen, lastSGPR: 105, null: 125, wave32: true, sdwa: 249, dpp: 250, dpp8: 233, dpp8fi: 234, vop3Lit: true}
		f.names32 = map[int]string{
			106: "vcc_lo", 107: "vcc_hi", 124: "m0", 125: "null", 126: "exec_lo", 127: "exec_hi",
			235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
			239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz", 253: "src_scc", 254: "src_lds_direct",
		}
		f.names64 = map[int]string{106: "vcc", 126: "exec", 125: "null",
			235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit"}
		// LLVM 22 reads codes 230/231 as the flat-scratch base on gfx10 too.
		f.names32[230], f.names32[231] = "src_flat_scratch_base_lo", "src_flat_scratch_base_hi"
		f.addConst64()
		if f.gen >= 11 {
			// RDNA 3 swapped M0 and NULL (RDNA 3 guide, "SSRC0" code list: 124 NULL, 125 M0)
			// and dropped SDWA.
			f.names32[124], f.names32[125] = "null", "m0"
			delete(f.names64, 125)
			f.names64[124] = "null"
			f.null = 124
			f.sdwa = -1
			// llvm-mc 22 decodes gfx11 with real true16 (v1.l / v1.h) but
			// gfx12 and gfx1250 with the "fake16" instructions: 16-bit
			// operands are whole VGPRs (v1) there.
			f.trueSixteen = f.gen == 11
			f.lo128 = !f.trueSixteen
		}
		f.matrixReuse = info.Has(isa.TraitMatrixReuse)
		f.lit64 = info.Has(isa.TraitLiteral64)
		return f.index().named(info), nil
	}
	return nil, fmt.Errorf("decode: no operand-code table for family %q", arch)
}

// ttmp codes 108-123 name the trap temporaries on every family here.
const ttmpFirst, ttmpLast = 108, 123

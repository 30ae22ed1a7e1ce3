package decode

import (
	"github.com/gpuisa/gpuisa/internal/lazyre"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// shape is the operand layout an instruction follows when it differs from
// its format's usual one; it is worked out once per opcode from the
// mnemonic (the model does not say it), so rendering compares no strings.
type shape uint8

const (
	shPlain shape = iota
	shNoOperands
	// SALU
	shGFork      // s_cbranch_g_fork ssrc0, ssrc1 (64-bit, no destination)
	shRfeRestore // s_rfe_restore_b64 ssrc0 (64-bit), ssrc1 (32-bit): no destination
	shDstOnly    // s_getpc_b64 sdst
	shSrcOnly    // s_setpc_b64 ssrc0
	shGprIdxOn   // s_set_gpr_idx_on ssrc0, imm4
	shCallFork   // s_call_b64 sdst, simm16
	shGetreg     // s_getreg_b32 sdst, hwreg
	shSetreg     // s_setreg_b32 hwreg, sdst
	shSetregImm  // s_setreg_imm32_b32 literal, hwreg
	shVersion
	shSOPKDec // s_subvector_loop_begin sdst, simm16 in decimal
	shEndpgm
	shBranch
	shWaitcnt  // s_waitcnt vmcnt(..) expcnt(..) lgkmcnt(..)
	shDelayALU // s_delay_alu instid0(..) | instskip(..) | instid1(..)
	shHex16    // s_clause 0x3: the immediate in hex
	shDepCtr   // s_waitcnt_depctr / s_wait_alu depctr_va_vdst(0) ...
	shU16
	shSendmsg
	shGprIdxMode // s_set_gpr_idx_mode gpr_idx(...)
	shSendmsgRtn // s_sendmsg_rtn_b32 sdst, sendmsg(...): the ID in SSRC0
	shOtherSOPP
	// SMEM
	shSMEMTime
	shSMEMWaveID // s_get_waveid_in_workgroup sdst (32-bit, no address)
	shSMEMDiscard
	shSMEMBuffer
	shATCProbe      // s_atc_probe imm, sbase, offset: SDATA is an immediate
	shPrefetch      // gfx12 s_prefetch_*: [sbase,] ioffset, soffset, count (SDATA)
	shPrefetchPCRel // s_prefetch_*_pc_rel: no base
	// VALU
	shReadlane   // the destination is an SGPR
	shCndmask    // vcc (or an SGPR mask) as the last source
	shCarryInOut // v_addc: carry out and carry in
	shCarryOut   // v_add_co_u32: carry out
	shMadmk      // vdst, src0, K, vsrc1
	shMadak      // vdst, src0, vsrc1, K
	shCmpxNoDst  // v_cmpx on gfx10+: writes EXEC only
	shInterpVOP3 // GCN 5 / RDNA 1-2 v_interp_* VOP3: vdst, vsrc, attrN.c(, vsrc2)
	// memory
	shAtomic
	shMix // v_mad_mix / v_fma_mix (VOP3P)
	// dual issue (VOPD, VOPD3)
	shDualMov   // v_dual_mov_b32 vdst, src0
	shDualThree // VOPD3 v_dual_fma_*: vdst, src0, vsrc1, vsrc2
	shDualMask  // VOPD3 v_dual_cndmask_b32 vdst, src0, vsrc1, smask
	shDualBitop // VOPD3 v_dual_bitop2_b32 vdst, src0, vsrc1 bitop3:imm
	// matrix (VOP3P-MAI); every shape from here on renders as MAI
	shMFMA
	shSparse // v_smfmac: src2 is the sparsity index VGPR
	shAccRead
	shAccWrite
	shAccMov
)

// maiSizes are the register counts of an MFMA's operands.
type maiSizes struct{ dst, a, b, c int }

var mfmaName = lazyre.New(`^v_(s?)mfmac?_(f32|i32|f64)_(\d+)x(\d+)x(\d+)_?(?:(\d+)b_?)?(.*)$`)

// maiShape works the register counts out of an MFMA mnemonic: an MxN
// result per block over 64 lanes, inputs of MxK (and NxK) elements of the
// source type per block; v_smfmac reads half of A and an index VGPR.
func maiShape(name string) (maiSizes, bool) {
	m := mfmaName.FindStringSubmatch(name)
	if m == nil {
		return maiSizes{}, false
	}
	M, _ := strconv.Atoi(m[3])
	N, _ := strconv.Atoi(m[4])
	K, _ := strconv.Atoi(m[5])
	B := 1
	if m[6] != "" {
		B, _ = strconv.Atoi(m[6])
	}
	outBits := 32
	if m[2] == "f64" {
		outBits = 64
	}
	// natural is the bits per lane the A operand holds when the name does
	// not say the block count: one dword of f32/i8/bf16, two of f16,
	// bf16_1k and f64.
	inBits, natural := 0, 32
	rest := m[7]
	switch {
	case strings.Contains(rest, "f64"):
		inBits, natural = 64, 64
	case strings.Contains(rest, "bf16") && !strings.Contains(rest, "_1k") && m[6] == "" && !strings.Contains(rest, "_bf16"):
		inBits = 16
	case strings.Contains(rest, "f16"):
		inBits, natural = 16, 64
	case strings.Contains(rest, "xf32"), strings.Contains(rest, "f32"):
		inBits = 32
	case strings.Contains(rest, "i8"), strings.Contains(rest, "fp8"), strings.Contains(rest, "bf8"), strings.Contains(rest, "f8f6f4"):
		// f8f6f4: the FP8 width; fmtRegs narrows it to the word's formats.
		inBits = 8
	default:
		return maiSizes{}, false
	}
	perLane := M * K * inBits / 64
	if m[6] == "" && perLane > 0 && perLane < natural {
		B = natural / perLane
	}
	regs := func(bits int) int { return max(1, bits/64/32) }
	s := maiSizes{dst: regs(M * N * B * outBits), a: regs(M * K * B * inBits), b: regs(N * K * B * inBits)}
	s.c = s.dst
	if m[1] == "s" {
		s.a = regs(M * K * B * inBits / 2)
		s.c = 1
	}
	return s, true
}

// dsOperandRegs gives the register counts of an LDS instruction's vdst,
// data0 and data1 from the model's operands (LLVM's syntax row, with its
// b64/b128 tags, or what llvm-mc printed), 0 where the model names none:
// the BVH stack operations read a 4- or 8-VGPR data1 whatever their
// b32/b64 suffix says, ds_add_gs_reg_rtn returns a pair.
func dsOperandRegs(in *isa.Instruction) [3]int {
	var n [3]int
	if in == nil {
		return n
	}
	for _, o := range in.Operands {
		if o.Size <= 0 || o.Prov.Source != isa.SourceLLVMDoc && o.Prov.Source != isa.SourceLLVMMC {
			continue
		}
		i := -1
		switch strings.ToLower(o.Name) {
		case "vdst":
			i = 0
		case "data0", "vdata0", "vdata", "data":
			i = 1
		case "data1", "vdata1":
			i = 2
		}
		if i >= 0 && n[i] == 0 {
			n[i] = (o.Size + 31) / 32
		}
	}
	return n
}

// smemOperandsOf reads an SMEM instruction's shape from the model's
// operands (LLVM's syntax row or what llvm-mc printed): an operand list
// that ends with sdata is a prefetch ([sbase,] ioffset, soffset, then the
// SDATA field as a line count: s_prefetch_data, s_buffer_prefetch_data),
// without sbase a PC-relative one; baseBits is sbase's size (0 when the
// model does not give it).
func smemOperandsOf(in *isa.Instruction) (prefetch, pcRel bool, baseBits int) {
	if in == nil || len(in.Operands) == 0 {
		return false, false, 0
	}
	hasBase := false
	for _, o := range in.Operands {
		if strings.EqualFold(o.Name, "sbase") {
			hasBase, baseBits = true, o.Size
		}
	}
	last := in.Operands[len(in.Operands)-1]
	prefetch = strings.EqualFold(last.Name, "sdata") && len(in.Operands) > 1
	return prefetch, prefetch && !hasBase, baseBits
}

// printedMAI takes an MFMA's register counts from the operands llvm-mc
// printed for its example (destination, A, B, C in that order) where the
// mnemonic does not give them; zero counts when the model has none.
func printedMAI(in *isa.Instruction) maiSizes {
	if in == nil || len(in.Operands) != 4 {
		return maiSizes{}
	}
	var n [4]int
	for i, o := range in.Operands {
		if o.Prov.Source != isa.SourceLLVMMC && o.Prov.Source != isa.SourceLLVMDoc || o.Size <= 0 {
			return maiSizes{}
		}
		n[i] = (o.Size + 31) / 32
	}
	return maiSizes{dst: n[0], a: n[1], b: n[2], c: n[3]}
}

// fmtRegs is the register count of an f8f6f4 matrix operand holding the
// format fmt (LLVM's MATRIX_FMT_* and cbsz/blgp values), from its count
// for FP8: FP8 and BF8 (0, 1) take 8 bits an element, FP6 and BF6 (2, 3)
// 6, FP4 (4) 4; llvm-mc gives the values it has no format for the FP8
// width.
func fmtRegs(regs8, fmt int) int {
	switch fmt {
	case 2, 3:
		return regs8 * 3 / 4
	case 4:
		return regs8 / 2
	}
	return regs8
}

// matrixFmtNames are LLVM's names of the matrix_a_fmt / matrix_b_fmt values.
var matrixFmtNames = [...]string{"MATRIX_FMT_FP8", "MATRIX_FMT_BF8", "MATRIX_FMT_FP6", "MATRIX_FMT_BF6", "MATRIX_FMT_FP4"}

// memOps says which operands a memory instruction prints, from LLVM's
// syntax for it (vdst, vaddr, vdata, vdata0, vdata1, saddr, srsrc, soffset).
type memOps uint16

const (
	moVdst memOps = 1 << iota
	moVdstOpt
	moAddr
	moData0
	moData1
	moSaddr
	moSrsrc
	moSoffset
	moKnown // the syntax was found
)

// memFlags are facts about a memory instruction's operands read from its
// name once.
type memFlags uint8

const (
	mfTwoAddr   memFlags = 1 << iota // ds_read2/write2: offset0 and offset1
	mfDoubleDst                      // the destination holds two data items
	mfCmpswap                        // the data operand holds compare and swap values
	mfSwizzle                        // ds_swizzle: the offset is a pattern
	mfGWS                            // ds_gws_*: data0 sits in the ADDR bits
)

// segment is what the SEG field of a FLAT-family format says.
type segment uint8

const (
	segFlat segment = iota
	segGlobal
	segScratch
)

// noSuffix lists instructions LLVM prints without _e32/_e64 although they
// have both encodings.
var noSuffix = map[string]bool{"v_readfirstlane_b32": true, "v_nop": true, "v_clrexcp": true, "v_pipeflush": true,
	"v_swap_b32": true, "v_swap_b16": true, "v_accvgpr_mov_b32": true}

// shortOnly names 32-bit VALU instructions that have no VOP3 form in LLVM
// (so no _e32 suffix) although a guide's promotion rule gives them one.
// CDNA keeps VOP3 forms of the dot and packed-FMAC instructions; RDNA
// does not.
func shortOnly(name string, gen int) bool {
	for _, p := range []string{"madmk", "madak", "fmamk", "fmaak"} {
		if strings.Contains(name, p) {
			return true
		}
	}
	if gen < 10 {
		return false
	}
	switch name {
	case "v_dot2acc_f32_f16", "v_pk_fmac_f16", "v_permlane64_b32", "v_swaprel_b32", "v_dot2c_f32_f16", "v_dot4c_i32_i8",
		"v_cvt_pk_f16_fp8", "v_cvt_pk_f16_bf8":
		return true
	}
	return false
}

var sopNoOperand = map[string]bool{
	"s_barrier": true, "s_icache_inv": true, "s_wakeup": true, "s_ttracedata": true, "s_endpgm_saved": true,
	"s_endpgm_ordered_ps_done": true, "s_code_end": true, "s_wait_idle": true, "s_set_gpr_idx_off": true,
	"s_barrier_leave": true,
}

// prepare precomputes an opcode's mnemonic, shape and data sizes.
func (d *Decoder) prepare(fm *format, en *entry) {
	name := en.name
	// LLVM prints its own name where it rejects AMD's (v_fma_mix_f32 for
	// CDNA's V_MAD_MIX_F32); the build records it as an LLVMName alias.
	printed := llvmName(en.instr, name)
	en.mnemonic = printed
	has := func(s string) bool { return strings.Contains(name, s) }
	pre := func(s string) bool { return strings.HasPrefix(name, s) }
	en.legacy16 = d.fam.gen == 9 && strings.HasSuffix(name, "_legacy_f16")
	en.intDot = fm.kind == kVOP3P && intDotName.MatchString(name)
	switch fm.kind {
	case kVOP1, kVOP2, kVOPC:
		if !noSuffix[name] && d.hasVOP3[name] && !shortOnly(name, d.fam.gen) {
			en.mnemonic = printed + "_e32"
		}
	case kVINTRP:
		// Every VINTRP instruction also has a VOP3 form (not always in
		// the model's opcode tables), so LLVM always adds _e32.
		en.mnemonic = printed + "_e32"
	case kVOP3, kVOP3B:
		if !noSuffix[name] && d.hasShort[name] {
			en.mnemonic = printed + "_e64"
		}
	case kFLAT:
		// One opcode table serves FLAT, GLOBAL and SCRATCH in some guides;
		// the SEG field (the format) decides the prefix LLVM prints.
		seg := map[string]string{"GLOBAL": "global_", "SCRATCH": "scratch_", "VGLOBAL": "global_", "VSCRATCH": "scratch_"}[strings.ToUpper(fm.Name)]
		if rest, ok := strings.CutPrefix(name, "flat_"); ok && seg != "" {
			en.mnemonic = seg + rest
		}
	}
	gen := d.fam.gen
	switch fm.kind {
	case kSOP2:
		switch {
		case name == "s_cbranch_g_fork":
			en.shape = shGFork
		case name == "s_rfe_restore_b64":
			en.shape = shRfeRestore
		case has("fmamk"):
			en.shape, en.kconst = shMadmk, true
		case has("fmaak"):
			en.shape, en.kconst = shMadak, true
		}
	case kSOP1:
		switch {
		case name == "s_getpc_b64", name == "s_get_pc_i64", name == "s_get_shader_cycles_u64":
			en.shape = shDstOnly
		case name == "s_setpc_b64", name == "s_rfe_b64", name == "s_cbranch_join", name == "s_set_gpr_idx_idx",
			pre("s_sleep_var"), pre("s_barrier_signal"), name == "s_alloc_vgpr", name == "s_barrier_init",
			name == "s_barrier_join", name == "s_wakeup_barrier", name == "s_set_pc_i64", name == "s_rfe_i64":
			en.shape = shSrcOnly
		case pre("s_sendmsg_rtn"):
			en.shape = shSendmsgRtn
		}
	case kSOPC:
		if name == "s_set_gpr_idx_on" {
			en.shape = shGprIdxOn
		}
	case kSOPK:
		switch {
		case pre("s_call_b64"), pre("s_call_i64"), pre("s_cbranch_i_fork"):
			en.shape = shCallFork
		case pre("s_getreg"):
			en.shape = shGetreg
		case pre("s_setreg_imm32"):
			en.shape = shSetregImm
		case pre("s_setreg"):
			en.shape = shSetreg
		case name == "s_version":
			en.shape = shVersion
		case pre("s_subvector_loop"):
			en.shape = shSOPKDec
		}
	case kSOPP:
		switch {
		case sopNoOperand[name]:
			en.shape = shNoOperands
		case name == "s_endpgm":
			en.shape = shEndpgm
		case pre("s_branch"), pre("s_cbranch"), pre("s_call"):
			en.shape = shBranch
		case name == "s_waitcnt":
			en.shape = shWaitcnt
		case name == "s_delay_alu":
			en.shape = shDelayALU
		case name == "s_waitcnt_depctr", name == "s_wait_alu":
			en.shape = shDepCtr
		case name == "s_clause", name == "s_round_mode":
			en.shape = shHex16
		case name == "s_nop", name == "s_sleep", name == "s_setprio", name == "s_sethalt", name == "s_setkill",
			name == "s_trap", name == "s_incperflevel", name == "s_decperflevel", name == "s_denorm_mode",
			name == "s_barrier_wait", name == "s_monitor_sleep", name == "s_set_vgpr_msb", name == "s_setprio_inc_wg":
			en.shape = shU16
		case pre("s_sendmsg"):
			en.shape = shSendmsg
		case name == "s_set_gpr_idx_mode":
			en.shape = shGprIdxMode
		default:
			en.shape = shOtherSOPP
		}
	case kSMEM:
		en.dataRegs = dataRegs(name)
		prefetch, pcRel, baseBits := smemOperandsOf(en.instr)
		if baseBits == 0 {
			baseBits = 64
			if has("buffer") {
				baseBits = 128
			}
		}
		en.baseBits = baseBits
		if !prefetch && (en.instr == nil || len(en.instr.Operands) == 0) && gen >= 12 && pre("s_prefetch_") {
			// No operands in the model (a build without llvm-mc): the names.
			prefetch, pcRel = true, strings.HasSuffix(name, "_pc_rel")
		}
		switch {
		case pre("s_memtime"), pre("s_memrealtime"):
			en.shape = shSMEMTime
		case name == "s_get_waveid_in_workgroup":
			en.shape = shSMEMWaveID
		case name == "s_dcache_discard", name == "s_dcache_discard_x2":
			en.shape = shSMEMDiscard
		case pre("s_atc_probe"):
			en.shape = shATCProbe
		case prefetch && pcRel:
			en.shape = shPrefetchPCRel
		case prefetch:
			en.shape = shPrefetch
		case has("_inv") || has("_wb"):
			en.shape = shNoOperands
		case has("buffer"):
			en.shape = shSMEMBuffer
		}
		if has("atomic") {
			en.dataRegs = 1
			if strings.HasSuffix(name, "_x2") || has("cmpswap") {
				en.dataRegs = 2
			}
			if strings.HasSuffix(name, "cmpswap_x2") {
				en.dataRegs = 4
			}
		}
	case kVOP3P, kMAI:
		en.wmma = gen >= 12 && (pre("v_wmma_") || pre("v_swmmac_"))
		en.sparse = en.wmma && pre("v_swmmac_")
		en.fmtScaled = strings.HasSuffix(name, "_f8f6f4")
		en.fmtFixed = en.wmma && strings.HasSuffix(name, "_f4")
		switch {
		case has("_mix"):
			en.shape = shMix
		case pre("v_accvgpr_read"):
			en.shape, en.mnemonic = shAccRead, "v_accvgpr_read_b32"
		case pre("v_accvgpr_write"):
			en.shape, en.mnemonic = shAccWrite, "v_accvgpr_write_b32"
		case pre("v_mfma") || pre("v_smfmac"):
			en.shape = shMFMA
			if pre("v_smfmac") {
				en.shape = shSparse
			}
			var ok bool
			if en.mai, ok = maiShape(name); !ok {
				en.mai = printedMAI(en.instr)
			}
		}
	case kVOP1:
		switch {
		case name == "v_nop" || name == "v_clrexcp" || name == "v_pipeflush":
			en.shape = shNoOperands
		case pre("v_accvgpr_mov"):
			en.shape = shAccMov
		case pre("v_readfirstlane"):
			en.shape = shReadlane
		}
	case kVOP2, kVOP3, kVOP3B, kVOPC:
		switch {
		case pre("v_readlane"), pre("v_readfirstlane"), pre("v_s_") && fm.kind == kVOP3:
			// v_s_exp_f32 s2, s3 (gfx12): a scalar result from a VOP3 word.
			en.shape = shReadlane
		case pre("v_cndmask"):
			en.shape = shCndmask
		case pre("v_addc") || pre("v_subb") || has("_co_ci_"):
			en.shape = shCarryInOut
		case has("_co_u32"):
			en.shape = shCarryOut
		case has("madmk") || has("fmamk"):
			en.shape = shMadmk
		case has("madak") || has("fmaak"):
			en.shape = shMadak
		case pre("v_cmpx") && gen >= 10:
			en.shape = shCmpxNoDst
		case pre("v_interp_") && fm.kind == kVOP3 && gen < 11:
			en.shape = shInterpVOP3
			en.interpMov = pre("v_interp_mov")
			en.interpSrc2 = has("_f16") && !pre("v_interp_p1ll")
		}
		en.kconst = fm.kind == kVOP2 && (en.shape == shMadmk || en.shape == shMadak)
	case kDS, kFLAT, kMUBUF, kMTBUF:
		en.dataRegs = dataRegs(name)
		if has("atomic") || (fm.kind == kDS && (has("_rtn") || has("wrxchg") || has("cmpst") || has("_add_") || has("_and_"))) {
			en.shape = shAtomic
		}
		en.memOps = memOperands(en)
		if fm.kind == kDS {
			en.dsRegs = dsOperandRegs(en.instr)
		}
		if has("read2") || has("write2") || has("wrxchg2") || has("load_2addr") || has("store_2addr") || has("storexchg_2addr") {
			en.memFlags |= mfTwoAddr
		}
		if en.memFlags&mfTwoAddr != 0 && en.memOps&moData0 == 0 || has("wrxchg2") || has("storexchg_2addr") {
			en.memFlags |= mfDoubleDst
		}
		if has("cmpswap") {
			en.memFlags |= mfCmpswap
		}
		if pre("ds_swizzle") {
			en.memFlags |= mfSwizzle
		}
		if pre("ds_gws_") {
			en.memFlags |= mfGWS
		}
	}
}

// intDotName matches the integer dot products of 4- and 8-bit elements.
var intDotName = lazyre.New(`^v_dot(2|4|8)c?_[iu]32_(i|u|iu)(4|8)$`)

// llvmName is the name LLVM prints for an instruction: its LLVMName alias
// if it has one, else name.
func llvmName(in *isa.Instruction, name string) string {
	if in != nil {
		for _, a := range in.Aliases {
			if a.LLVMName {
				return a.Name
			}
		}
	}
	return name
}

// dataRegs gives the dwords of a memory instruction's data from its name:
// dwordx4 / b128 / format_xyzw -> 4, u8 / b16 -> 1.
func dataRegs(name string) int {
	for _, p := range []struct {
		s string
		n int
	}{{"_block", 32}, {"_async_", 1}, {"x16", 16}, {"b512", 16}, {"x8", 8}, {"b256", 8}, {"dwordx4", 4}, {"b128", 4}, {"dwordx3", 3}, {"b96", 3},
		{"dwordx2", 2}, {"_x2", 2}, {"b64", 2}, {"u64", 2}, {"i64", 2}, {"f64", 2},
		{"d16_xyzw", 2}, {"d16_xyz", 2}, {"d16_hi", 1}, {"d16_xy", 1}, {"d16_x", 1},
		// RDNA 3 on spell them buffer_load_d16_format_xyzw.
		{"d16_format_xyzw", 2}, {"d16_format_xyz", 2}, {"d16_format_xy", 1}, {"d16_format_x", 1},
		{"xyzw", 4}, {"xyz", 3}, {"_xy", 2}} {
		if strings.Contains(name, p.s) {
			return p.n
		}
	}
	if strings.HasPrefix(name, "s_") {
		if strings.HasSuffix(name, "_x4") {
			return 4
		}
	}
	return 1
}

func memOperands(en *entry) memOps {
	if en.instr == nil || len(en.instr.Syntax) == 0 {
		return memOperandsByName(en.name)
	}
	en.syntaxOps = en.instr.Syntax[0].Operands
	m := moKnown
	for _, o := range en.syntaxOps {
		name, opt, _ := strings.Cut(o, ":")
		switch name {
		case "vdst":
			if opt == "opt" {
				m |= moVdstOpt
			} else {
				m |= moVdst
			}
		case "vaddr", "addr":
			m |= moAddr
		case "vdata", "vdata0", "data0", "data", "vsrc":
			if m&moData0 != 0 {
				m |= moData1
			}
			m |= moData0
		case "vdata1", "data1":
			m |= moData1
		case "saddr":
			m |= moSaddr
		case "srsrc":
			m |= moSrsrc
		case "soffset":
			m |= moSoffset
		}
	}
	return m
}

// memOperandsByName is the fallback for families whose model has no LLVM
// syntax lines (CDNA 5): the plain loads, stores and atomics of the FLAT
// and buffer families have the operands their names say.
func memOperandsByName(name string) memOps {
	seg, rest, _ := strings.Cut(name, "_")
	switch seg {
	case "ds":
		return dsOperandsByName(rest)
	case "flat", "global", "scratch", "buffer", "cluster":
	default:
		return 0
	}
	m := moKnown | moAddr
	if strings.Contains(rest, "addtid") {
		m = moKnown // the lane id is the address
	}
	if seg == "buffer" {
		m |= moSrsrc | moSoffset
	} else {
		m |= moSaddr
	}
	switch {
	case strings.HasPrefix(rest, "load_lds_"):
		return m // global_load_lds_dwordx4 v1, s[2:3]: the data goes to LDS, no VGPR destination
	case strings.HasPrefix(rest, "load_"):
		return m | moVdst
	case strings.HasPrefix(rest, "store_"):
		return m | moData0
	case strings.HasPrefix(rest, "atomic_"):
		return m | moVdstOpt | moData0
	case strings.HasPrefix(rest, "prefetch_"):
		return m
	case rest == "wb" || rest == "inv" || rest == "wbinv":
		return moKnown // gfx1250 global_wb / global_inv: cache control, no operands
	case seg == "buffer":
		return moKnown // buffer_wbinvl1, buffer_gl0_inv, buffer_inv: cache control, no operands
	}
	return 0
}

// dsOperandsByName gives the operands of an LDS/GDS instruction (name
// without "ds_") for families without LLVM syntax lines (CDNA 5). The rule
// is checked against the syntax-derived operands of the families that have
// them (TestDSOperandsByName).
func dsOperandsByName(rest string) memOps {
	has := func(s string) bool { return strings.Contains(rest, s) }
	pre := func(s string) bool { return strings.HasPrefix(rest, s) }
	m := moKnown
	switch {
	case rest == "nop", pre("gws_sema_v"), pre("gws_sema_p"), pre("gws_sema_release_all"):
		return m
	case pre("gws_"):
		return m | moData0
	case pre("atomic_async_barrier_arrive"):
		return m | moAddr
	case pre("append"), pre("consume"), pre("direct_load"), pre("param_load"):
		return m | moVdst
	case has("_src2_"):
		return m | moAddr
	case pre("ordered_count"):
		return m | moVdst | moAddr
	case has("_gs_reg_rtn"):
		return m | moVdst | moData0
	case has("addtid") && (pre("read") || pre("load")):
		return m | moVdst
	case has("addtid"):
		return m | moData0
	case pre("read"), pre("load"):
		return m | moVdst | moAddr
	case pre("swizzle"):
		return m | moVdst | moAddr
	case pre("permute"), pre("bpermute"):
		return m | moVdst | moAddr | moData0
	}
	if has("_rtn") || has("wrxchg") || has("storexchg") || has("condxchg") {
		m |= moVdst
	}
	m |= moAddr | moData0
	if has("write2") || has("store_2addr") || has("wrxchg2") || has("storexchg_2addr") ||
		has("mskor") || has("cmpst") || has("cmpstore") || has("wrap_") || has("bvh_stack") {
		m |= moData1
	}
	return m
}

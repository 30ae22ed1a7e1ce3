package decode

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
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
	// shLdScale: a scaled MFMA's Load-Scale word alone (scaled.go)
	shLdScale
	// shWmmaLdScale: a CDNA 5 scaled WMMA's Load-Scale word alone (scaled.go)
	shWmmaLdScale
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

// shapeNames are the shapes as the rules table (shapes.tsv) and the
// entries tables (testdata/entries) write them.
var shapeNames = [...]string{
	shPlain: "plain", shNoOperands: "no-operands",
	shGFork: "g-fork", shRfeRestore: "rfe-restore", shDstOnly: "dst-only", shSrcOnly: "src-only",
	shGprIdxOn: "gpr-idx-on", shCallFork: "call-fork", shGetreg: "getreg", shSetreg: "setreg",
	shSetregImm: "setreg-imm", shVersion: "version", shSOPKDec: "sopk-dec", shEndpgm: "endpgm",
	shBranch: "branch", shWaitcnt: "waitcnt", shDelayALU: "delay-alu", shHex16: "hex16", shDepCtr: "depctr",
	shU16: "u16", shSendmsg: "sendmsg", shGprIdxMode: "gpr-idx-mode", shSendmsgRtn: "sendmsg-rtn",
	shSMEMTime: "smem-time", shSMEMWaveID: "smem-waveid", shSMEMDiscard: "smem-discard", shSMEMBuffer: "smem-buffer",
	shATCProbe: "atc-probe", shPrefetch: "prefetch", shPrefetchPCRel: "prefetch-pc-rel",
	shReadlane: "readlane", shCndmask: "cndmask", shCarryInOut: "carry-in-out", shCarryOut: "carry-out",
	shMadmk: "madmk", shMadak: "madak", shCmpxNoDst: "cmpx-no-dst", shInterpVOP3: "interp-vop3",
	shAtomic: "atomic", shMix: "mix", shLdScale: "ld-scale", shWmmaLdScale: "wmma-ld-scale",
	shDualMov: "dual-mov", shDualThree: "dual-three", shDualMask: "dual-mask", shDualBitop: "dual-bitop",
	shMFMA: "mfma", shSparse: "smfmac", shAccRead: "acc-read", shAccWrite: "acc-write", shAccMov: "acc-mov",
}

func (s shape) String() string {
	if int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("shape(%d)", uint8(s))
}

var shapeByName = func() map[string]shape {
	m := map[string]shape{}
	for i, n := range shapeNames {
		m[n] = shape(i)
	}
	return m
}()

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
// format fmt (isa.F8F6F4FormatCodes: LLVM's MATRIX_FMT_* and cbsz/blgp
// values), from its count for FP8's 8 bits an element; llvm-mc gives the
// values it has no format for the FP8 width.
func fmtRegs(regs8, fmt int) int {
	if fmt < 0 || fmt >= len(isa.F8F6F4FormatCodes) {
		return regs8
	}
	return regs8 * isa.F8F6F4FormatCodes[fmt].Bits / 8
}

// matrixFmtNames are LLVM's names of the matrix_a_fmt / matrix_b_fmt
// values ("MATRIX_FMT_FP8").
var matrixFmtNames = func() []string {
	var out []string
	for _, f := range isa.F8F6F4FormatCodes {
		out = append(out, "MATRIX_FMT_"+strings.ToUpper(f.Name))
	}
	return out
}()

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
type memFlags uint16

const (
	mfTwoAddr   memFlags = 1 << iota // ds_read2/write2: offset0 and offset1
	mfDoubleDst                      // the destination holds two data items
	mfCmpswap                        // the data operand holds compare and swap values
	mfSwizzle                        // ds_swizzle: the offset is a pattern
	mfGWS                            // ds_gws_*: data0 sits in the ADDR bits
	// mfNoLDS: the instruction's LLVM syntax lists no lds modifier (a
	// buffer load without an LDS form, a store, an atomic): llvm-mc
	// decodes no such word with the LDS bit set.
	mfNoLDS
	// mfNoGLC, mfNoSLC: the LLVM syntax lists no glc / slc modifier
	// (gfx9-11 buffer and FLAT instructions; cacheAbsent).
	mfNoGLC
	mfNoSLC
)

// segment is what the SEG field of a FLAT-family format says.
type segment uint8

const (
	segFlat segment = iota
	segGlobal
	segScratch
)

// prepare precomputes an opcode's mnemonic, shape and data sizes from its
// format, the model's operands and the rules table (shapes.tsv), so that
// rendering compares no strings.
func (d *Decoder) prepare(fm *format, en *entry) {
	name := en.name
	gen := d.fam.gen
	f := rules.lookup(gen, fm.kind, name, modelOps(en.instr))
	en.facts = &f
	// LLVM prints its own name where it rejects AMD's (v_fma_mix_f32 for
	// CDNA's V_MAD_MIX_F32); the build records it as an LLVMName alias.
	printed := llvmName(en.instr, name)
	if p := f.get("print"); p != "" {
		printed = p
	}
	en.mnemonic = printed
	en.legacy16 = f.has("legacy16")
	en.bitop3 = f.has("bitop3")
	en.laneCtl = f.has("lane-ctl")
	en.opSelList, _ = strconv.Atoi(f.get("op-sel-list"))
	en.byteSel = [2]int8{-1, -1}
	if v := f.get("byte-sel"); len(v) == 2 {
		// Two digits: the op_sel bits of byte_sel's bits 0 and 1.
		en.byteSel = [2]int8{int8(v[0] - '0'), int8(v[1] - '0')}
	}
	en.intDot = f.has("int-dot")
	if ts := typesOf(name); len(ts) > 0 && (f.has("pk16") || f.has("dot")) && ts[len(ts)-1].size == 16 {
		en.packed16 = ts[len(ts)-1].t
	}
	bare := f.get("suffix") == "none"
	switch fm.kind {
	case KindVOP1, KindVOP2, KindVOPC:
		if !bare && d.hasVOP3[name] && !f.has("short-only") {
			en.mnemonic = printed + "_e32"
		}
	case KindVINTRP:
		// Every VINTRP instruction also has a VOP3 form (not always in
		// the model's opcode tables), so LLVM always adds _e32.
		en.mnemonic = printed + "_e32"
	case KindVOP3, KindVOP3B:
		if !bare && d.hasShort[name] {
			en.mnemonic = printed + "_e64"
		}
	case KindFLAT:
		// One opcode table serves FLAT, GLOBAL and SCRATCH in some guides;
		// the SEG field (the format) decides the segment prefix LLVM
		// prints in place of the table's flat_ (a naming rule, not a
		// fact about one instruction).
		if rest, ok := strings.CutPrefix(name, "flat_"); ok && fm.seg != segFlat {
			en.mnemonic = [...]string{segGlobal: "global_", segScratch: "scratch_"}[fm.seg] + rest
		}
	}
	en.shape = shapeByName[f.get("shape")]
	en.prof, _ = profileOf(&f) // parseRules checked the values
	switch fm.kind {
	case KindVOP1:
		en.vgprSrc0 = syntaxVGPRSource(en.instr)
	case KindSMEM:
		en.dataRegs = max(1, f.num("data"))
		prefetch, pcRel, baseBits := smemOperandsOf(en.instr)
		if baseBits == 0 {
			baseBits = max(64, f.num("sbase"))
		}
		en.baseBits = baseBits
		if !prefetch && (en.instr == nil || len(en.instr.Operands) == 0) {
			// No operands in the model (a build without llvm-mc): the table.
			prefetch, pcRel = f.has("prefetch"), f.has("pc-rel")
		}
		switch {
		case prefetch && pcRel:
			en.shape = shPrefetchPCRel
		case prefetch:
			en.shape = shPrefetch
		}
	case KindVOP3P, KindMAI:
		en.wmma, en.sparse = f.has("wmma"), f.has("sparse")
		en.fmtScaled, en.fmtFixed = f.has("fmt-scaled"), f.has("fmt-fixed")
		en.blgpNeg = f.has("blgp-neg")
		en.negIgnored = f.has("neg-ignored")
		if en.shape == shMFMA || en.shape == shSparse {
			// The model's tuple sizes; the mnemonic's M x N x K where it
			// has none.
			if en.mai = printedMAI(en.instr); en.mai.dst == 0 {
				en.mai, _ = maiShape(name)
			}
		}
	case KindVOP3, KindVOP3B:
		en.interpMov, en.interpSrc2 = f.has("interp-mov"), f.has("interp-src2")
	case KindVINTRP:
		en.interpMov = f.has("interp-mov")
	case KindVINTERP:
		en.interpF16, en.interpP10 = f.has("interp-f16"), f.has("interp-p10")
	case KindLDSDIR:
		en.ldsParam = f.has("lds-param")
	case KindMIMG:
		en.mimg = mimgOf(&f, name)
		en.thStore = f.get("th") == "store"
	case KindDS, KindFLAT, KindMUBUF, KindMTBUF:
		en.dataRegs = max(1, f.num("data"))
		en.memOps = memOperands(en, fm.kind, &f)
		if fm.kind == KindDS {
			en.dsRegs = dsOperandRegs(en.instr)
		}
		en.thStore = f.get("th") == "store"
		en.typed = fm.kind == KindMTBUF || f.has("typed")
		en.cacheBits = f.has("cache-bits")
		for _, fl := range [...]struct {
			key string
			f   memFlags
		}{{"two-addr", mfTwoAddr}, {"double-dst", mfDoubleDst}, {"cmpswap", mfCmpswap}, {"swizzle", mfSwizzle}, {"gws", mfGWS}} {
			if f.has(fl.key) {
				en.memFlags |= fl.f
			}
		}
		if syntaxLacks(en.instr, "lds") {
			en.memFlags |= mfNoLDS
		}
		if (fm.kind == KindMUBUF || fm.kind == KindFLAT) && syntaxLacks(en.instr, "glc") {
			en.memFlags |= mfNoGLC
		}
		if (fm.kind == KindMUBUF || fm.kind == KindFLAT) && syntaxLacks(en.instr, "slc") {
			en.memFlags |= mfNoSLC
		}
		// Two addresses and no data operand: the destination holds both
		// items read.
		if en.memFlags&mfTwoAddr != 0 && en.memOps&moData0 == 0 {
			en.memFlags |= mfDoubleDst
		}
	}
	// A K constant: the madmk/madak shapes of the 32-bit and dual-issue
	// formats always carry a literal (their VOP3 forms take none).
	switch fm.kind {
	case KindSOP2, KindVOP2, KindVOPD, KindVOPD3:
		en.kconst = en.shape == shMadmk || en.shape == shMadak
	}
}

// syntaxLacks says the model has LLVM's syntax for the instruction and
// none of its lines lists the modifier mod; false where it has no syntax
// (a build without LLVM's syntax pages decides nothing from them).
func syntaxLacks(in *isa.Instruction, mod string) bool {
	if in == nil || len(in.Syntax) == 0 {
		return false
	}
	for _, s := range in.Syntax {
		for _, m := range s.Modifiers {
			if m == mod {
				return false
			}
		}
	}
	return true
}

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

func memOperands(en *entry, k Kind, f *facts) memOps {
	if en.instr == nil || len(en.instr.Syntax) == 0 {
		return memOperandsByRule(k, f)
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

// memOperandsByRule is the fallback for a model without LLVM syntax lines
// (CDNA 5): the rules table's class of the instruction (mem=) decides its
// operands. An LDS instruction the table does not classify takes an
// address and data, a result where it returns one (ds-returns) and a
// second data operand (ds-two-data); a FLAT or buffer one takes the
// address (none: lane-addr, the lane id is the address), then the SGPR
// base (FLAT) or the resource and offset SGPRs (buffers), then what its
// class adds. TestMemOperandsByRule holds it to the syntax-derived
// operands of the families that have them.
func memOperandsByRule(k Kind, f *facts) memOps {
	v := f.get("mem")
	if k == KindDS {
		if v == "" {
			m := moKnown | moAddr | moData0
			if f.has("ds-returns") {
				m |= moVdst
			}
			if f.has("ds-two-data") {
				m |= moData1
			}
			return m
		}
		return memOpsList(v)
	}
	if k != KindFLAT && k != KindMUBUF || v == "" {
		return 0
	}
	m := moKnown | moAddr
	if f.has("lane-addr") {
		m = moKnown
	}
	if k == KindMUBUF {
		m |= moSrsrc | moSoffset
	} else {
		m |= moSaddr
	}
	switch v {
	case "load":
		return m | moVdst
	case "store":
		return m | moData0
	case "atomic":
		return m | moVdstOpt | moData0
	case "load-lds", "prefetch":
		return m // the data goes to LDS or nowhere: no VGPR data operand
	case "cache":
		return moKnown // cache control: no operands
	}
	return 0
}

// memOpsList reads a mem= list of the rules table: vdst, addr, data0,
// data1 joined by commas, or "-" for none.
func memOpsList(v string) memOps {
	m := moKnown
	for _, o := range strings.Split(v, ",") {
		switch o {
		case "vdst":
			m |= moVdst
		case "addr":
			m |= moAddr
		case "data0":
			m |= moData0
		case "data1":
			m |= moData1
		}
	}
	return m
}

// syntaxVGPRSource says every line of LLVM's syntax for the instruction
// outside its DPP and SDWA forms (whose source is a VGPR by nature) names
// the first source vsrc or vdata: a VGPR-only operand (v_swap_b32 vdst,
// vsrc; v_permlane64_b32 vdst, vdata), where a scalar or constant code is
// outside the operand's class. The lines are told apart by their
// modifiers, which the prepared tables keep (codec.Facts drops the text).
func syntaxVGPRSource(in *isa.Instruction) bool {
	if in == nil {
		return false
	}
	seen := false
	for _, sx := range in.Syntax {
		if extSyntax(sx.Modifiers) {
			continue
		}
		if len(sx.Operands) < 2 {
			return false
		}
		switch name, _, _ := strings.Cut(sx.Operands[1], ":"); name {
		case "vsrc", "vsrc0", "vdata":
			seen = true
		default:
			return false
		}
	}
	return seen
}

// extSyntax says a syntax line's modifiers are a DPP or SDWA form's.
func extSyntax(mods []string) bool {
	for _, m := range mods {
		switch m {
		case "dpp16_ctrl", "dpp8_sel", "dpp_ctrl", "dpp32_ctrl", "dpp64_ctrl", "src0_sel", "dst_sel":
			return true
		}
	}
	return false
}

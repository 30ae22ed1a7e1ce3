package decode

import (
	"encoding/binary"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"strconv"
)

// renderer prints one instruction in LLVM's syntax into buf. It records
// where each operand and modifier starts and ends (spans), so Decode can
// split the text into Operands and Modifiers while AppendText keeps only the
// bytes: the hot path builds no strings.
type renderer struct {
	d   *Decoder
	fm  *format
	en  *entry
	raw [3]uint32

	buf    []byte
	base   int // where this instruction's text starts in buf
	mnEnd  int // end of the mnemonic in buf (relative to 0 of buf)
	nops   int
	spans  *[24]span // nil for AppendText, which needs only the bytes
	nspans int

	// ext holds a DPP/SDWA dword at ext[1] (where the DPP and SDWA layouts
	// put it); dpp8FI says src0 announced DPP8 with FI set; vop3DPP says a
	// VOP3/VOP3P word carries a DPP dword and src0 is its VGPR.
	ext     [3]uint32
	dpp8FI  bool
	vop3DPP bool
	// maskSrc: the source being printed is a lane mask (not alignment-checked).
	maskSrc bool

	literal    uint32
	literalHi  uint32 // the high half of a 64-bit constant K (gfx1250 v_fmaak_f64) or literal
	lit64      bool   // the literal is a gfx1250 64-bit one (source code 254)
	hasLiteral bool
	needLit    bool
	partial    bool
	extra      string

	// enY is the Y operation of a VOPD word; its text starts at dualAt
	// (" :: ") and its mnemonic ends at dualMnEnd.
	enY               *entry
	dualAt, dualMnEnd int

	// invalid says an operand makes the word invalid although its format
	// and opcode decoded (a reserved operand code); decode turns it into an
	// error.
	invalid     invalidKind
	invalidCode int
	// invalidField is the field an invalidUnused word sets.
	invalidField fieldID
	// head is the format of a 4-dword instruction's first word pair
	// (headRaw) when raw holds its second (scaled.go); nil otherwise.
	head    *format
	headRaw [3]uint32
	headEn  *entry // the first pair's own entry (its operand sizes)
	// noPair reads a Load-Scale word alone, the pair after it ignored.
	noPair bool
}

type invalidKind uint8

const (
	validWord        invalidKind = iota
	invalidReserved              // an operand code the family reserves
	invalidOpSel                 // op_sel bits on an instruction without op_sel
	invalidAlign                 // a VGPR/AGPR tuple at an odd register (alignedVGPRs)
	invalidLo128                 // a 16-bit VOP1/VOP2/VOPC VGPR above v127 (lo128)
	invalidOMod                  // an output modifier on an instruction without a float result
	invalidDst                   // a VOP3 scalar destination code that names a constant
	invalidClass                 // an operand code outside its register class (a VGPR-only or SGPR-only operand)
	invalidUnused                // a field of an operand or modifier the instruction lacks is not zero
	invalidSrcMod                // a source modifier the variant's LLVM syntax does not give that source (invalidCode: the source)
	invalidClamp                 // clamp on a variant whose LLVM syntax has no clamp
	invalidVariant               // a DPP or SDWA word of an instruction LLVM has no such form of
	invalidDPPCtrl               // a reserved DPP_CTRL value (invalidCode)
	invalidSCC                   // the SCC cache bit (invalidCode) on a CDNA 2 float atomic
	invalidNoLiteral             // the literal code in an encoding that carries no literal (GCN 5 / CDNA VOP3, VOP3P)
)

// fixedBits says the word is invalid for a bit LLVM's encoding of the
// instruction fixes, not for an operand it decodes and flags.
func (k invalidKind) fixedBits() bool {
	switch k {
	case invalidOpSel, invalidUnused, invalidSrcMod, invalidClamp, invalidOMod:
		return true
	}
	return false
}

type span struct {
	start, end int32
	mod        bool
}

func (r *renderer) f(id fieldID) int { return int(r.fm.cf[id].get(&r.raw)) }

func (r *renderer) has(id fieldID) bool { return r.fm.cf[id].n != 0 }

// op starts an operand: ", " between operands, " " before the first.
func (r *renderer) op() {
	if r.nops == 0 {
		r.buf = append(r.buf, ' ')
	} else {
		r.buf = append(r.buf, ',', ' ')
	}
	r.nops++
	r.open(false)
}

// mod starts a modifier ("offset:16", "glc"): separated by a space.
func (r *renderer) mod() {
	r.buf = append(r.buf, ' ')
	r.open(true)
}

func (r *renderer) open(mod bool) {
	if r.spans != nil && r.nspans < len(r.spans) {
		r.spans[r.nspans] = span{start: int32(len(r.buf) - r.base), mod: mod}
	}
}

// end closes the operand or modifier op/mod opened.
func (r *renderer) end() {
	if r.spans != nil && r.nspans < len(r.spans) {
		r.spans[r.nspans].start += int32(r.base)
		r.spans[r.nspans].end = int32(len(r.buf))
		r.nspans++
	}
}

func (r *renderer) str(s string) { r.buf = append(r.buf, s...) }
func (r *renderer) modStr(s string) {
	r.mod()
	r.str(s)
	r.end()
}

// flag prints a one-word modifier when on: glc, tfe, d16.
func (r *renderer) flag(on bool, s string) {
	if on {
		r.modStr(s)
	}
}

func (r *renderer) opStr(s string) {
	r.op()
	r.str(s)
	r.end()
}

// dec appends v in decimal; register numbers and small immediates (the
// most frequent numbers in disassembly) are written digit by digit.
func (r *renderer) dec(v int) {
	switch {
	case v >= 0 && v < 10:
		r.buf = append(r.buf, byte('0'+v))
	case v >= 10 && v < 100:
		r.buf = append(r.buf, byte('0'+v/10), byte('0'+v%10))
	case v >= 100 && v < 1000:
		r.buf = append(r.buf, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
	case v < 0 && v > -100: // the negative inline constants, -1 to -16
		r.buf = append(r.buf, '-')
		r.dec(-v)
	default:
		r.buf = strconv.AppendInt(r.buf, int64(v), 10)
	}
}

func (r *renderer) hex(v uint64) {
	r.buf = append(r.buf, '0', 'x')
	r.buf = strconv.AppendUint(r.buf, v, 16)
}

// render fills r.buf and returns how many bytes follow the fixed-width part
// (a literal, a DPP or SDWA dword).
func (r *renderer) render(code []byte, next int) (int, error) {
	fam := r.d.fam
	en := r.en
	r.buf = append(r.buf, r.d.mnemonic(en)...)
	r.mnEnd = len(r.buf) - r.base
	if r.enY != nil {
		return r.renderDual(code, next)
	}
	// A second dword announced by src0 (DPP, SDWA) or a literal constant.
	if k := r.fm.kind; k == KindVOP1 || k == KindVOP2 || k == KindVOPC {
		src0 := r.f(fSRC0)
		isDPP8 := fam.dpp8 >= 0 && (src0 == fam.dpp8 || src0 == fam.dpp8fi)
		if src0 == fam.dpp || src0 == fam.sdwa || isDPP8 {
			if len(code)-next < 4 {
				return 0, fmt.Errorf("truncated: %s needs a DPP/SDWA dword at offset %d", r.fm.Name, next)
			}
			r.buf = append(r.buf[:r.base], en.name...)
			switch {
			case src0 == fam.sdwa:
				r.extra = "SDWA"
				r.str("_sdwa")
			case isDPP8:
				r.extra = "DPP8"
				r.dpp8FI = src0 == fam.dpp8fi
			default:
				r.extra = "DPP"
			}
			if r.extra != "SDWA" && (k != KindVOPC || fam.gen < 11) {
				// gfx11+ prints VOPC DPP without a suffix: v_cmp_lt_f16 vcc_lo, ...
				r.str("_dpp")
			}
			r.mnEnd = len(r.buf) - r.base
			r.raw[1] = binary.LittleEndian.Uint32(code[next:])
			r.ext[1] = r.raw[1]
			done := false
			switch r.extra {
			case "DPP", "DPP8":
				done = r.renderDPP()
			case "SDWA":
				done = r.renderSDWA()
			}
			if !done && r.invalid != validWord {
				return 4, nil // decode reports why
			}
			if !done {
				r.buf = r.buf[:r.base+r.mnEnd]
				r.nops, r.nspans = 0, 0
				r.partial = true
				r.opStr("(" + r.extra + " operands not rendered yet)")
			}
			return 4, nil
		}
	}
	// gfx11+: a VOP3/VOP3P word whose src0 announces DPP carries a third
	// dword (VOP3 DPP16/DPP8); src0 is the VGPR in its low byte.
	if k := r.fm.kind; (k == KindVOP3 || k == KindVOP3B || (k == KindVOP3P && en.shape < shMFMA)) && fam.gen >= 11 {
		src0 := r.f(fSRC0)
		if src0 == fam.dpp || src0 == fam.dpp8 || src0 == fam.dpp8fi {
			if len(code)-next < 4 {
				return 0, fmt.Errorf("truncated: %s DPP needs a third dword at offset %d", r.fm.Name, next)
			}
			r.ext[1] = binary.LittleEndian.Uint32(code[next:])
			r.vop3DPP = true
			r.extra = "DPP"
			if src0 != fam.dpp {
				r.extra = "DPP8"
				r.dpp8FI = src0 == fam.dpp8fi
			}
			r.buf = append(r.buf[:r.base], en.name...)
			r.str("_e64_dpp")
			r.mnEnd = len(r.buf) - r.base
			if k == KindVOP3P {
				r.renderVOP3P()
			} else {
				r.renderVOP3()
			}
			if !r.dppControls(r.extra == "DPP8") && r.invalid == validWord {
				r.buf = r.buf[:r.base+r.mnEnd]
				r.nops, r.nspans = 0, 0
				r.partial = true
				r.opStr("(DPP operands not rendered yet)")
			}
			return 4, nil
		}
	}
	extra := 0
	if r.d.fam.lit64 && r.usesLit64() {
		if len(code)-next < 8 {
			return 0, fmt.Errorf("truncated literal: %s %s needs a 64-bit constant at offset %d, %d byte(s) left", en.name, r.fm.Name, next, len(code)-next)
		}
		r.literal = binary.LittleEndian.Uint32(code[next:])
		r.literalHi = binary.LittleEndian.Uint32(code[next+4:])
		r.hasLiteral, r.lit64 = true, true
		extra = 8
	} else if r.mayUseLiteral() || r.d.fam.lit64 && r.usesLit32() {
		if len(code)-next < 4 {
			return 0, fmt.Errorf("truncated literal: %s %s needs a 32-bit constant at offset %d, %d byte(s) left", en.name, r.fm.Name, next, len(code)-next)
		}
		r.literal = binary.LittleEndian.Uint32(code[next:])
		r.hasLiteral = true
		extra = 4
		if en.kconst && en.sig.dst.size == 64 && r.fm.kind == KindVOP2 {
			// gfx1250 v_fmaak_f64 / v_fmamk_f64 carry a 64-bit K.
			if len(code)-next < 8 {
				return 0, fmt.Errorf("truncated literal: %s %s needs a 64-bit constant at offset %d, %d byte(s) left", en.name, r.fm.Name, next, len(code)-next)
			}
			r.literalHi = binary.LittleEndian.Uint32(code[next+4:])
			extra = 8
		}
	}
	if p := en.prof; p != nil && r.fm.kind != KindVOP3P {
		r.checkClasses(p)
	}
	switch r.fm.kind {
	case KindSOP2:
		r.renderSOP2()
	case KindSOP1:
		r.renderSOP1()
	case KindSOPC:
		r.renderSOPC()
	case KindSOPK:
		r.renderSOPK()
	case KindSOPP:
		r.renderSOPP()
	case KindSMEM:
		r.renderSMEM()
	case KindVOP1:
		r.renderVOP1()
	case KindVOP2:
		r.renderVOP2()
	case KindVOPC:
		r.renderVOPC()
	case KindVOP3, KindVOP3B:
		r.renderVOP3()
	case KindVOP3P:
		if en.shape >= shMFMA {
			r.renderMAI()
			break
		}
		if en.shape == shLdScale {
			r.renderLdScale()
			break
		}
		if en.shape == shWmmaLdScale {
			r.renderWmmaLdScale()
			break
		}
		r.renderVOP3P()
	case KindMAI:
		r.renderMAI()
	case KindDS:
		r.renderDS()
	case KindFLAT:
		r.renderFLAT()
	case KindMUBUF, KindMTBUF:
		r.renderMUBUF()
	case KindVINTRP:
		r.renderVINTRP()
	case KindVINTERP:
		r.renderVINTERP()
	case KindLDSDIR:
		r.renderLDSDIR()
	case KindEXP:
		r.renderEXP()
	case KindMIMG:
		n, err := r.renderMIMG(code, next)
		if err != nil {
			return 0, err
		}
		extra += n
	default:
		r.partial = true
	}
	if r.hasLiteral && !r.needLit {
		// A literal was read for a field that did not use it: give it back.
		extra = 0
	}
	return extra, nil
}

// usesLit64 says whether a source of a VOP1/VOP2/VOPC or SALU word holds
// gfx1250's 64-bit literal code.
func (r *renderer) usesLit64() bool {
	s := r.en.sig
	switch r.fm.kind {
	case KindSOP2, KindSOPC:
		return r.f(fSSRC0) == lit64Code && s.src[0].size == 64 || r.f(fSSRC1) == lit64Code && s.src[1].size == 64
	case KindSOP1, KindVOP1, KindVOP2, KindVOPC:
		return r.f(srcField0(r.fm.kind)) == lit64Code && s.src[0].size == 64
	}
	return false
}

// usesLit32 says whether gfx1250's 64-bit literal code stands on a 32-bit
// (or narrower) source, where it reads an ordinary 32-bit literal.
func (r *renderer) usesLit32() bool {
	switch r.fm.kind {
	case KindSOP2, KindSOPC:
		return r.f(fSSRC0) == lit64Code || r.f(fSSRC1) == lit64Code
	case KindSOP1, KindVOP1, KindVOP2, KindVOPC:
		return r.f(srcField0(r.fm.kind)) == lit64Code
	}
	return false
}

func srcField0(k Kind) fieldID {
	if k == KindSOP1 {
		return fSSRC0
	}
	return fSRC0
}

// mayUseLiteral says whether any source field of this instruction holds the
// literal code, or the instruction always carries a constant (v_fmamk_f32).
func (r *renderer) mayUseLiteral() bool {
	switch r.fm.kind {
	case KindSOP2:
		return r.f(fSSRC0) == literalCode || r.f(fSSRC1) == literalCode || r.en.kconst
	case KindSOPC:
		return r.f(fSSRC0) == literalCode || r.f(fSSRC1) == literalCode
	case KindSOP1:
		return r.f(fSSRC0) == literalCode
	case KindSOPK:
		return r.en.shape == shSetregImm
	case KindVOP1, KindVOPC:
		return r.f(fSRC0) == literalCode
	case KindVOP2:
		return r.f(fSRC0) == literalCode || r.en.kconst
	case KindVOP3, KindVOP3B, KindVOP3P:
		if (r.en.shape == shLdScale || r.en.shape == shWmmaLdScale) && r.head == nil {
			// LLVM 22 reads a literal after the Load-Scale word alone
			// (lit(0x3f800000)), though its assembler writes none.
			return r.f(fSRC0) == literalCode || r.f(fSRC1) == literalCode
		}
		if !r.d.fam.vop3Lit {
			return false
		}
		n := r.en.sig.nsrc
		return (n > 0 && r.f(fSRC0) == literalCode) || (n > 1 && r.f(fSRC1) == literalCode) ||
			(n > 2 && r.f(fSRC2) == literalCode)
	case KindMUBUF, KindMTBUF:
		// gfx10-11 read a literal SOFFSET (llvm-mc 22 prints the dword
		// that follows; gfx9 rejects one, bufAbsent).
		g := r.d.fam.gen
		return g >= 10 && g <= 11 && r.has(fSOFFSET) && r.f(fSOFFSET) == literalCode
	}
	return false
}

func (r *renderer) renderSOP2() {
	s := r.en.sig
	if r.en.shape == shGFork {
		r.ssrc(r.f(fSSRC0), opType{'b', 64})
		r.ssrc(r.f(fSSRC1), opType{'b', 64})
		return
	}
	if r.en.shape == shRfeRestore {
		r.ssrc(r.f(fSSRC0), opType{'b', 64})
		r.ssrc(r.f(fSSRC1), opType{'b', 32})
		return
	}
	r.sdst(r.f(fSDST), s.dst)
	r.ssrc(r.f(fSSRC0), s.src[0])
	if r.en.shape == shMadmk {
		r.needLit = true
		r.opLiteralK()
	}
	r.ssrc(r.f(fSSRC1), s.src[1])
	if r.en.shape == shMadak {
		r.needLit = true
		r.opLiteralK()
	}
}

// kHex prints the constant K; a 64-bit K whose low half is zero is
// printed as its high half, as LLVM writes f64 literals (0x3ff80000 = 1.5).
func (r *renderer) kHex() {
	if r.literalHi != 0 && r.literal == 0 {
		r.hex(uint64(r.literalHi))
		return
	}
	r.hex(uint64(r.literalHi)<<32 | uint64(r.literal))
}

// opLiteralK prints the constant K of s_fmamk/s_fmaak and v_fmamk/v_fmaak.
func (r *renderer) opLiteralK() {
	r.op()
	r.kHex()
	r.end()
}

func (r *renderer) renderSOPC() {
	s := r.en.sig
	r.ssrc(r.f(fSSRC0), s.src[0])
	if r.en.shape == shGprIdxOn {
		// SSRC1 holds the mode mask as an immediate, not an operand code.
		r.op()
		r.gprIdx(r.f(fSSRC1))
		r.end()
		return
	}
	r.ssrc(r.f(fSSRC1), s.src[1])
}

func (r *renderer) renderSOP1() {
	s := r.en.sig
	switch r.en.shape {
	case shDstOnly:
		r.sdst(r.f(fSDST), s.dst)
	case shSrcOnly:
		r.ssrc(r.f(fSSRC0), s.src[0])
	case shSendmsgRtn:
		// SSRC0 holds the message ID itself, never an operand code.
		r.sdst(r.f(fSDST), s.dst)
		r.op()
		r.sendmsg(r.f(fSSRC0))
		r.end()
	default:
		r.sdst(r.f(fSDST), s.dst)
		r.ssrc(r.f(fSSRC0), s.src[0])
	}
}

func (r *renderer) renderSOPK() {
	imm := r.f(fSIMM16)
	switch r.en.shape {
	case shCallFork:
		r.sdst(r.f(fSDST), opType{'b', 64})
		r.op()
		r.dec(imm)
		r.end()
	case shGetreg:
		r.sdst(r.f(fSDST), r.en.sig.dst)
		r.op()
		r.hwreg(imm)
		r.end()
	case shSetreg:
		r.op()
		r.hwreg(imm)
		r.end()
		r.sdst(r.f(fSDST), r.en.sig.dst)
	case shSetregImm:
		r.needLit = true
		r.op()
		r.hwreg(imm)
		r.end()
		r.op()
		if v := int32(r.literal); v >= -16 && v <= 64 {
			// LLVM prints the value in decimal when it is an inline integer.
			r.buf = strconv.AppendInt(r.buf, int64(v), 10)
		} else {
			r.hex(uint64(r.literal))
		}
		r.end()
	case shVersion:
		r.op()
		r.ucVersion(imm)
		r.end()
	case shSOPKDec:
		r.sdst(r.f(fSDST), r.en.sig.dst)
		r.op()
		r.dec(imm)
		r.end()
	default:
		r.sdst(r.f(fSDST), r.en.sig.dst)
		r.op()
		r.hex(uint64(imm))
		r.end()
	}
}

// ucVersionNames are the s_version code-object versions LLVM names.
var ucVersionNames = map[int]string{0: "UC_VERSION_GFX7", 4: "UC_VERSION_GFX10", 6: "UC_VERSION_GFX11", 9: "UC_VERSION_GFX12"}

// ucVersionFlags are the s_version flag bits, in LLVM's order.
var ucVersionFlags = [...]struct {
	bit  int
	name string
}{{13, "UC_VERSION_W64_BIT"}, {14, "UC_VERSION_W32_BIT"}, {15, "UC_VERSION_MDP_BIT"}}

// ucVersion prints s_version's immediate as LLVM 22 does: the version in
// bits 7:0 by name (or in decimal), then each flag joined by "|", every
// earlier part parenthesised: ((GFX7|W64)|W32)|MDP. Other bits: plain hex.
func (r *renderer) ucVersion(imm int) {
	if imm&^0xe0ff != 0 {
		r.u16(imm)
		return
	}
	flags := 0
	for _, f := range ucVersionFlags {
		if imm>>uint(f.bit)&1 == 1 {
			flags++
		}
	}
	for i := 1; i < flags; i++ {
		r.buf = append(r.buf, '(')
	}
	if n, ok := ucVersionNames[imm&0xff]; ok {
		r.str(n)
	} else {
		r.dec(imm & 0xff)
	}
	seen := 0
	for _, f := range ucVersionFlags {
		if imm>>uint(f.bit)&1 == 0 {
			continue
		}
		if seen > 0 {
			r.buf = append(r.buf, ')')
		}
		seen++
		r.buf = append(r.buf, '|')
		r.str(f.name)
	}
}

// u16 prints an unsigned immediate as LLVM does: decimal when it could be an
// inline integer (0..64), hex otherwise.
func (r *renderer) u16(v int) {
	if v >= 0 && v <= 64 {
		r.dec(v)
		return
	}
	r.hex(uint64(v))
}

func (r *renderer) renderSOPP() {
	imm := r.f(fSIMM16)
	switch r.en.shape {
	case shNoOperands:
		// LLVM's SOPP encodings of an instruction without an immediate
		// (s_barrier, s_wakeup) fix SIMM16 at 0.
		r.absent(fSIMM16)
	case shEndpgm:
		if imm != 0 {
			r.op()
			r.dec(imm)
			r.end()
		}
	case shBranch:
		// Without a label LLVM prints the raw 16-bit offset, unsigned.
		r.op()
		r.dec(imm)
		r.end()
	case shWaitcnt:
		r.op()
		r.waitcnt(imm)
		r.end()
	case shDelayALU:
		r.op()
		r.delayALU(imm)
		r.end()
	case shU16:
		r.op()
		r.u16(imm)
		r.end()
	case shDepCtr:
		r.op()
		r.depCtr(imm)
		r.end()
	case shHex16:
		r.op()
		r.hex(uint64(imm))
		r.end()
	case shSendmsg:
		r.op()
		r.sendmsg(imm)
		r.end()
	case shGprIdxMode:
		r.op()
		r.gprIdx(imm)
		r.end()
	default:
		// A shape renderSOPP does not know (the rules give every SOPP
		// instruction one).
		r.partial = true
		r.op()
		r.hex(uint64(imm))
		r.end()
	}
}

// waitcnt prints the s_waitcnt counters of SIMM16 as LLVM does: the ones
// not at their "no wait" maximum (all of them when every one is), at the
// bits package amdlayout gives for the generation.
func (r *renderer) waitcnt(imm int) {
	subs := r.d.immFields(amdlayout.ImmWaitcnt)
	if len(subs) == 0 {
		r.hex(uint64(imm))
		return
	}
	r.counters(subs, imm)
}

// counters prints the counters of imm that are not at their default as
// name(value), all of them when every one is at its default.
func (r *renderer) counters(subs []amdlayout.ImmField, imm int) {
	nonDefault := false
	for _, s := range subs {
		nonDefault = nonDefault || immGet(s, imm) != s.Default
	}
	sep := false
	for _, s := range subs {
		v := immGet(s, imm)
		if v == s.Default && nonDefault {
			continue
		}
		if sep {
			r.buf = append(r.buf, ' ')
		}
		r.str(s.Name)
		r.buf = append(r.buf, '(')
		r.dec(v)
		r.buf = append(r.buf, ')')
		sep = true
	}
}

// depCtr prints the s_waitcnt_depctr / s_wait_alu counters that are not at
// their default (all of them when every one is), or hex when bits outside
// the counters are set.
func (r *renderer) depCtr(imm int) {
	subs := r.d.immFields(amdlayout.ImmDepCtr)
	used := 0
	for _, s := range subs {
		used |= immMask(s)
	}
	if imm&^used != 0 {
		r.hex(uint64(imm))
		return
	}
	r.counters(subs, imm)
}

var delayInstIDs = [...]string{"NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1",
	"TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3"}
var delaySkips = [...]string{"SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"}

// delayNames are the names of s_delay_alu's sub-field values.
func delayNames(field string) []string {
	if field == "instskip" {
		return delaySkips[:]
	}
	return delayInstIDs[:]
}

// delayALU prints s_delay_alu's SIMM16 (instid0, instskip, instid1)
// joined by " | "; values without a name get LLVM's comment.
func (r *renderer) delayALU(imm int) {
	sep := false
	for _, s := range r.d.immFields(amdlayout.ImmDelayALU) {
		v := immGet(s, imm)
		if v == 0 {
			continue
		}
		if sep {
			r.str(" | ")
		}
		r.str(s.Name)
		r.buf = append(r.buf, '(')
		if names := delayNames(s.Name); v < len(names) {
			r.str(names[v])
		} else if s.Name == "instskip" {
			r.str("/* invalid instskip value */")
		} else {
			r.str("/* invalid instid value */")
		}
		r.buf = append(r.buf, ')')
		sep = true
	}
	if !sep {
		r.buf = append(r.buf, '0')
	}
}

func (r *renderer) renderSMEM() {
	en := r.en
	fam := r.d.fam
	base := r.f(fSBASE) << 1
	baseSize := en.baseBits
	sdata := r.f(fSDATA)
	r.smemAbsent()
	switch en.shape {
	case shSMEMTime:
		r.smemDataClass(sdata, 2)
		r.sdst(sdata, opType{'b', 64})
		return
	case shSMEMWaveID:
		r.sdst(sdata, opType{'b', 32})
		return
	case shNoOperands:
		return
	case shPrefetch, shPrefetchPCRel:
		r.renderPrefetch(base, sdata)
		return
	case shSMEMDiscard:
	case shATCProbe:
		r.op()
		r.u16(sdata)
		r.end()
	default:
		r.smemDataClass(sdata, en.dataRegs)
		r.sdst(sdata, opType{'b', 32 * en.dataRegs})
	}
	r.sdst(base, opType{'b', baseSize})
	off := r.f(fOFFSET)
	if fam.gen == 9 {
		imm := r.f(fIMM)
		soe := r.f(fSOE)
		switch {
		case imm == 1 && soe == 1:
			r.sdst(r.f(fSOFFSET), opType{'b', 32})
			r.mod()
			r.str("offset:")
			r.smemOffset(off, 21)
			r.end()
		case imm == 1:
			r.op()
			r.smemOffset(off, 21)
			r.end()
		case soe == 1:
			r.sdst(r.f(fSOFFSET), opType{'b', 32})
		default:
			// IMM=0: OFFSET[6:0] names the SGPR holding the offset.
			r.sdst(off&0x7f, opType{'b', 32})
		}
		if en.shape == shATCProbe {
			return // LLVM prints no cache bits on the probes
		}
		if r.f(fGLC) == 1 && en.shape != shSMEMDiscard { // LLVM prints no glc on s_dcache_discard
			r.modStr("glc")
		}
		if r.f(fNV) == 1 && !fam.noNV {
			r.modStr("nv")
		}
		return
	}
	offBits := 21
	if fam.gen >= 12 {
		offBits = 24 // IOFFSET[55:32]
	}
	soff := r.f(fSOFFSET)
	if fam.n32[soff] == "null" && off == 0 && fam.gen < 12 {
		// No offset at all: LLVM 22 prints the SGPR operand, null, on
		// gfx10/gfx11 (what llc emits for a plain load).
		r.sdst(soff, opType{'b', 32})
	} else if fam.n32[soff] == "null" {
		r.op()
		r.smemOffset(off, offBits)
		r.end()
	} else {
		r.sdst(soff, opType{'b', 32})
		if off != 0 || fam.gen >= 12 { // gfx12 always shows the offset beside an SGPR
			r.mod()
			r.str("offset:")
			r.smemOffset(off, offBits)
			r.end()
		}
	}
	if fam.gen >= 12 && en.shape == shATCProbe {
		return // LLVM prints no cache policy on the probes
	}
	if fam.gen >= 12 {
		// The CDNA 5 guide's SMEM table places NV at bit 20 and
		// SCALE_OFFSET at bit 56; the RDNA 4 guide's omits them, but
		// llvm-mc decodes both on gfx12 too.
		th, scope := r.f(fTH), r.f(fSCOPE)
		r.cachePolicy12(int(r.raw[1]>>24&1) == 1, th, scope, int(r.raw[0]>>20&1) == 1, thLoad)
		return
	}
	if en.shape == shATCProbe {
		return
	}
	glc, dlc := r.f(fGLC), r.f(fDLC)
	if fam.gen >= 11 {
		// LLVM (and the hardware, per LLVM's SMEM encoding for GFX11) puts
		// GLC at bit 14 and DLC at bit 13; the RDNA 3 guide's SMEM table
		// lists DLC at 14 and GLC at 16. We follow the assembler.
		glc, dlc = int(r.raw[0]>>14&1), int(r.raw[0]>>13&1)
	}
	if en.shape == shSMEMDiscard {
		return // LLVM prints no cache bits on s_dcache_discard
	}
	if glc == 1 {
		r.modStr("glc")
	}
	if dlc == 1 {
		r.modStr("dlc")
	}
}

// renderPrefetch prints gfx12 s_prefetch_inst/data: the base pair (none
// for the _pc_rel forms), the signed 24-bit offset always in hex, SOFFSET
// (null when unused) and the SDATA field as a decimal line count.
func (r *renderer) renderPrefetch(base, count int) {
	if r.en.shape == shPrefetch {
		r.sdst(base, opType{'b', r.en.baseBits})
	}
	r.op()
	r.smemOffset(r.f(fOFFSET), 24)
	r.end()
	r.sdst(r.f(fSOFFSET), opType{'b', 32})
	r.op()
	r.dec(count)
	r.end()
}

// thKind is how LLVM names a TH value: per loads, stores or atomics.
type thKind uint8

const (
	thLoad thKind = iota
	thStore
	thAtomic
)

var scopeNames = [...]string{"", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"}

// cachePolicy12 prints the gfx12 cache policy modifiers in LLVM's order:
// scale_offset, th:TH_..., scope:SCOPE_..., nv. TH values (RDNA 4 guide,
// "Memory Scope and Temporal Hints"): 0 RT (not printed), 1 NT, 2 HT, 3 LU
// for loads / WB for stores / BYPASS at system scope, 4 NT_RT, 5 RT_NT,
// 6 NT_HT, 7 NT_WB; atomics: bit 0 RETURN, bit 1 NT, bit 2 CASCADE.
func (r *renderer) cachePolicy12(scale bool, th, scope int, nv bool, k thKind) {
	if scale {
		r.modStr("scale_offset")
	}
	if th != 0 {
		r.mod()
		r.str("th:")
		switch {
		case k == thAtomic:
			r.str("TH_ATOMIC_")
			switch {
			case th&4 != 0 && scope >= 2:
				r.str("CASCADE")
				if th&2 != 0 {
					r.str("_NT")
				} else {
					r.str("_RT")
				}
			case th&4 != 0:
				r.hex(uint64(th))
			case th&2 != 0:
				r.str("NT")
				if th&1 != 0 {
					r.str("_RETURN")
				}
			case th&1 != 0:
				r.str("RETURN")
			}
		case k == thLoad && th == 7:
			r.hex(uint64(th))
		default:
			if k == thStore {
				r.str("TH_STORE_")
			} else {
				r.str("TH_LOAD_")
			}
			switch th {
			case 1:
				r.str("NT")
			case 2:
				r.str("HT")
			case 3:
				switch {
				case scope == 3:
					r.str("BYPASS")
				case k == thStore:
					r.str("WB")
				default:
					r.str("LU")
				}
			case 4:
				r.str("NT_RT")
			case 5:
				r.str("RT_NT")
			case 6:
				r.str("NT_HT")
			case 7:
				r.str("NT_WB")
			}
		}
		r.end()
	}
	if scope != 0 {
		r.mod()
		r.str("scope:")
		r.str(scopeNames[scope&3])
		r.end()
	}
	if nv {
		r.modStr("nv")
	}
}

// smemOffset prints a signed offset of width bits in hex.
func (r *renderer) smemOffset(v int, width int) {
	x := int64(uint64(v)<<(64-uint(width))) >> (64 - uint(width))
	if x < 0 {
		r.buf = append(r.buf, '-')
		x = -x
	}
	r.hex(uint64(x))
}

// vcc is the implicit carry/condition operand: vcc on wave64, vcc_lo on wave32.
func (r *renderer) vcc() {
	if r.d.fam.wave32 {
		r.opStr("vcc_lo")
		return
	}
	r.opStr("vcc")
}

func (r *renderer) renderVOP1() {
	s := r.en.sig
	switch r.en.shape {
	case shNoOperands:
		// v_nop, v_clrexcp, v_pipeflush: LLVM's VOP1 encoding writes 0 to
		// the VDST and SRC0 fields of an instruction without operands.
		if r.extra == "" {
			r.absent(fVDST, fSRC0)
		}
		return
	case shReadlane:
		if d := r.f(fVDST); r.d.fam.n32[d] == "" && d > r.d.fam.lastSGPR && (d < ttmpFirst || d > ttmpLast) {
			r.mark(invalidDst, d) // the result is an SGPR (SReg_32), not a constant's code
		}
		r.sdst(r.f(fVDST), opType{'b', 32})
	case shAccMov:
		r.op()
		r.reg("a", r.f(fVDST), 1)
		r.end()
		if src := r.f(fSRC0); src < 256 {
			// Not an AGPR: LLVM prints the scalar or constant the code names.
			r.src(src, opType{'b', 32}, 0)
			return
		}
		r.op()
		r.reg("a", r.f(fSRC0)&0xff, 1)
		r.end()
		return
	default:
		r.vgpr(r.f(fVDST), s.dst)
	}
	if src := r.f(fSRC0); r.extra == "" && src < 256 && (r.en.vgprSrc0 || r.en.shape == shReadlane && r.d.fam.n32[src] != "src_lds_direct") {
		// A VGPR-only source (v_swap_b32's vsrc; v_readfirstlane_b32's
		// VRegOrLds_32, a VGPR or lds_direct) given a scalar or constant.
		r.mark(invalidClass, src)
	}
	r.src(r.f(fSRC0), s.src[0], 0)
}

func (r *renderer) renderVOP2() {
	s := r.en.sig
	sh := r.en.shape
	r.vgpr(r.f(fVDST), s.dst)
	if sh == shCarryInOut || sh == shCarryOut {
		r.vcc()
	}
	r.src(r.f(fSRC0), s.src[0], 0)
	if sh == shMadmk {
		r.needLit = true
		r.op()
		r.kHex()
		r.end()
	}
	r.vgpr(r.f(fVSRC1), s.src[1])
	switch sh {
	case shMadak:
		r.needLit = true
		r.op()
		r.kHex()
		r.end()
	case shCndmask, shCarryInOut:
		r.vcc()
	}
}

func (r *renderer) renderVOPC() {
	s := r.en.sig
	if r.en.shape != shCmpxNoDst {
		r.vcc()
	}
	r.src(r.f(fSRC0), s.src[0], 0)
	r.vgpr(r.f(fVSRC1), s.src[1])
}

var srcFields = [3]fieldID{fSRC0, fSRC1, fSRC2}

func (r *renderer) renderVOP3() {
	en := r.en
	s := en.sig
	fam := r.d.fam
	if en.shape == shInterpVOP3 {
		r.renderInterpVOP3()
		return
	}
	abs := r.f(fABS)
	neg := r.f(fNEG)
	opsel := r.f(fOPSEL)
	bitop3 := -1
	if en.bitop3 {
		// The modifier fields hold the BITOP3 immediate (shapes.tsv).
		bitop3 = r.f(fOMOD)<<6 | abs<<3 | neg
		abs, neg = 0, 0
	}
	switch {
	case s.origin == KindVOPC:
		if en.shape != shCmpxNoDst {
			r.sdst(r.f(fVDST), r.maskType())
		}
	case en.shape == shReadlane:
		r.sdst(r.f(fVDST), opType{'b', 32})
	case fam.trueSixteen && s.dst.size == 16 && opsel>>3&1 == 1:
		r.op()
		r.buf = append(r.buf, 'v')
		r.dec(r.f(fVDST))
		r.str(".h")
		r.end()
	default:
		r.vgpr(r.f(fVDST), s.dst)
	}
	if r.fm.kind == KindVOP3B {
		r.sdst(r.f(fSDST), r.maskType())
	}
	// LLVM gives VOP3 forms an output modifier only when the result is a
	// float (its VOPProfile's HasOMod): OMOD set elsewhere is invalid.
	// A VOP3A row without clamp: LLVM's VOP3 profile has none (integer
	// ALU, integer compares, v_cmp_class), and llvm-mc rejects the bit.
	// (VOP3B rows leave clamp out, v_div_scale_f32, though llvm-mc
	// prints it there; the gfx11+ rows leave it out of 16-bit integer
	// ALU that has it, v_med3_u16, so there only a compare's sources
	// decide: a compare takes clamp when every source is a float.)
	if m := &en.mods.vop3; r.f(fCLMP) == 1 && bitop3 < 0 && r.fm.kind == KindVOP3 &&
		(fam.gen <= 10 && m.known && !m.clamp || s.origin == KindVOPC && !r.floatSources()) {
		r.mark(invalidClamp, 1)
	}
	if omod := r.f(fOMOD); omod != 0 && s.dst.t != 'f' && bitop3 < 0 && s.origin != KindVOPC {
		r.mark(invalidOMod, omod)
	} else if omod != 0 && s.origin == KindVOPC {
		r.mark(invalidOMod, omod)
	} else if m := &en.mods.vop3; omod != 0 && bitop3 < 0 && r.fm.kind == KindVOP3 && fam.gen <= 10 && m.known && !m.omod {
		// A float result without omod in the VOP3 row (gfx9-10; the
		// gfx11+ rows leave omod out of v_cvt_pk_rtz_f16_f32, which
		// llvm-mc 22 decodes with it).
		r.mark(invalidOMod, omod)
	}
	for i := 0; i < s.nsrc && i < 3; i++ {
		code := r.src0or(i)
		t := s.src[i]
		mask := i == 2 && (en.shape == shCndmask || en.shape == shCarryInOut)
		if mask {
			t = r.maskType()
		}
		a, n := abs>>uint(i)&1 == 1, neg>>uint(i)&1 == 1
		if t.t == 'i' {
			// Integer operands take no input modifiers in LLVM: the bits are ignored.
			a, n = false, false
		}
		// A lane mask in VGPRs is no register tuple to LLVM: llvm-mc 22
		// prints v[1:2] as a carry-in on CDNA 3 unchecked.
		r.maskSrc = mask
		r.srcMods(code, t, opsel>>uint(i)&1, a, n)
		r.maskSrc = false
	}
	if bitop3 < 0 {
		r.vop3ModsAbsent(abs, neg)
	}
	// op_sel: with true16 LLVM prints it whenever it is set (besides the
	// .h names); without, only VOP3-only 16-bit instructions have the
	// operand (the promoted VOP1/VOP2/VOPC ones ignore the bits, and so do
	// the pre-gfx9 _legacy_f16 forms GCN 5 / CDNA keep).
	if bitop3 > 0 {
		r.mod()
		r.str("bitop3:")
		if bitop3 <= 9 {
			r.dec(bitop3)
		} else {
			r.str("0x")
			r.buf = strconv.AppendUint(r.buf, uint64(bitop3), 16)
		}
		r.end()
	}
	if en.opSelList > 0 || en.byteSel[0] >= 0 {
		r.opSelBytes(opsel)
	} else if en.laneCtl {
		// Two flags, not source halves: LLVM prints op_sel:[fi,bc] when
		// either is set and ignores op_sel bits 2 and 3 (printOpSel's
		// permlane16 case).
		if opsel&3 != 0 {
			r.mod()
			r.str("op_sel:")
			r.bitList(opsel&3, 2, false)
			r.end()
		}
	} else if opsel != 0 && s.has16() && (fam.trueSixteen || s.origin == KindOther) && !en.legacy16 {
		r.mod()
		r.str("op_sel:")
		r.bitList(opsel, s.nsrc, true)
		r.end()
	}
	if bitop3 >= 0 {
		r.printClampOmod(r.f(fCLMP) == 1, 0)
		return
	}
	r.clampOmod()
}

// opSelBytes prints the op_sel of the FP8/BF8 conversions that select
// bytes or halves with it (shapes.tsv op-sel-list, byte-sel): GCN 5 / CDNA
// and the RDNA 4 packs list the source bits LLVM's profile has and the
// destination bit (printPackedModifier with VOP3_OPSEL), the RDNA 4 /
// CDNA 5 conversions print two of the bits as byte_sel:N. A bit outside
// those makes the word invalid (llvm-mc rejects it).
func (r *renderer) opSelBytes(opsel int) {
	en := r.en
	used := 0
	if n := en.opSelList; n > 0 {
		used = 1<<uint(n) - 1 | 8
		if opsel != 0 {
			r.mod()
			r.str("op_sel:")
			r.bitList(opsel, n, true)
			r.end()
		}
	} else {
		lo, hi := int(en.byteSel[0]), int(en.byteSel[1])
		used = 1<<uint(lo) | 1<<uint(hi)
		if v := opsel>>uint(lo)&1 | opsel>>uint(hi)&1<<1; v != 0 {
			r.mod()
			r.str("byte_sel:")
			r.dec(v)
			r.end()
		}
	}
	if opsel&^used != 0 {
		r.markField(fOPSEL)
	}
}

// vop3ModsAbsent marks a VOP3 word invalid when it sets ABS or NEG bits
// LLVM's encoding fixes at 0: its VOP3 profiles give input modifiers only
// to an instruction with a float source (HasModifiers; v_cndmask_b32's
// two data sources too; on gfx11+ a 16-bit instruction with op_sel, whose
// op_sel bits LLVM keeps in the same source-modifier operands: entry.
// inputMods), and only to the sources it has, so an integer
// instruction's bits and a missing source's bit must be zero. (An integer
// source of an instruction that has modifiers keeps its bits: llvm-mc
// reads and drops them, v_cvt_pk_u8_f32.)
func (r *renderer) vop3ModsAbsent(abs, neg int) {
	s := r.en.sig
	allowed := 0
	if r.en.inputMods {
		allowed = 1<<uint(min(s.nsrc, 3)) - 1
	}
	if r.en.shape == shCndmask {
		allowed = 3 // src0 and src1; src2 is the lane mask
	}
	switch {
	case abs&^allowed != 0:
		r.markField(fABS)
	case neg&^allowed != 0:
		r.markField(fNEG)
	}
}

// renderInterpVOP3 prints the VOP3 interpolation forms of GCN 5 and
// RDNA 1-2 as LLVM does: "v1, -v2, attr3.w, v3 high clamp". SRC0 holds the
// attribute (bits 5:0), its channel (7:6) and the high-half flag (bit 8);
// SRC1 the VGPR (or, for v_interp_mov, the parameter p10/p20/p0); SRC2
// the second VGPR of the f16 forms that take one.
func (r *renderer) renderInterpVOP3() {
	abs, neg := r.f(fABS), r.f(fNEG)
	r.op()
	r.reg("v", r.f(fVDST), 1)
	r.end()
	src1 := r.f(fSRC1)
	if r.en.interpMov {
		r.op()
		switch src1 & 3 {
		case 0:
			r.str("p10")
		case 1:
			r.str("p20")
		case 2:
			r.str("p0")
		default:
			r.str("invalid_param_3")
		}
		r.end()
	} else {
		r.srcMods(src1, r.en.sig.src[1], 0, abs>>1&1 == 1, neg>>1&1 == 1)
	}
	attr := r.f(fSRC0)
	r.op()
	r.str("attr")
	r.dec(attr & 0x3f)
	r.buf = append(r.buf, '.', "xyzw"[attr>>6&3])
	r.end()
	if r.en.interpSrc2 {
		r.srcMods(r.f(fSRC2), r.en.sig.src[2], 0, abs>>2&1 == 1, neg>>2&1 == 1)
	}
	if attr>>8&1 == 1 {
		r.modStr("high")
	}
	r.clampOmod()
}

// src0or reads source i of a VOP3/VOP3P word; with a DPP dword, source 0
// is the VGPR the dword names.
func (r *renderer) src0or(i int) int {
	if i == 0 && r.vop3DPP {
		return 256 + int(r.ext[1]&0xff)
	}
	return r.f(srcFields[i])
}

// bitList prints "[b0,b1,...]" for the low n bits of v, and bit 3 after
// them when dstBit is set (VOP3 op_sel has the destination bit there).
func (r *renderer) bitList(v, n int, dstBit bool) {
	r.buf = append(r.buf, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.buf = append(r.buf, byte('0'+v>>uint(i)&1))
	}
	if dstBit {
		r.buf = append(r.buf, ',', byte('0'+v>>3&1))
	}
	r.buf = append(r.buf, ']')
}

func (r *renderer) maskType() opType {
	if r.d.fam.wave32 {
		return opType{'b', 32}
	}
	return opType{'b', 64}
}

func (r *renderer) renderVOP3P() {
	s := r.en.sig
	if r.en.shape == shMix {
		r.renderMix()
		return
	}
	neg := r.f(fNEG)
	opsel := r.f(fOPSEL)
	opselHi := r.f(fOPSELHI) | r.f(fOPSELHI2)<<2
	full := 1<<uint(s.nsrc) - 1
	if r.en.fmtScaled && opsel <= 4 && opselHi <= 4 {
		// matrix_a_fmt and matrix_b_fmt size A and B; llvm-mc reads
		// both at the FP8 width when either is not a format.
		s.src[0].size, s.src[1].size = 32*fmtRegs(s.src[0].regs(), opsel), 32*fmtRegs(s.src[1].regs(), opselHi)
	}
	if r.en.fmtFixed && (opsel != 0 || opselHi != 7) {
		// The f4-only WMMA fixes its op_sel bits (FP4 formats): llvm-mc
		// rejects any other value.
		r.invalid = invalidOpSel
	}
	r.vgpr(r.f(fVDST), s.dst)
	for i := 0; i < s.nsrc; i++ {
		r.src(r.src0or(i), s.src[i], 0)
	}
	if r.head != nil {
		// A CDNA 5 scaled WMMA: the Load-Scale word's scales follow C.
		hs := r.headEn.sig
		r.wmmaScales(r.head, &r.headRaw, [2]int{hs.src[0].size, hs.src[1].size}, true)
	}
	if p := r.en.prof; p != nil {
		r.checkProfile(p, s.nsrc)
	}
	if p := r.en.prof; p != nil && p.opSelHiIgnored {
		opsel, opselHi = 0, full
	}
	if r.en.wmma {
		r.wmmaModifiers(opsel, opselHi)
		opsel, opselHi = 0, full
	}
	if r.en.intDot {
		// Integer dot products of 4- and 8-bit elements have no op_sel in
		// LLVM: llvm-mc rejects a word with op_sel bits set and ignores
		// op_sel_hi.
		if opsel != 0 {
			r.invalid = invalidOpSel
		}
		opsel, opselHi = 0, full
	}
	if opsel != 0 {
		r.mod()
		r.str("op_sel:")
		r.bitList(opsel, s.nsrc, false)
		r.end()
	}
	if opselHi&full != full {
		r.mod()
		r.str("op_sel_hi:")
		r.bitList(opselHi, s.nsrc, false)
		r.end()
	}
	nh := r.f(fNEGHI)
	if r.en.negIgnored {
		neg, nh = 0, 0
	}
	if neg&full != 0 {
		r.mod()
		r.str("neg_lo:")
		r.bitList(neg, s.nsrc, false)
		r.end()
	}
	if nh&full != 0 {
		r.mod()
		r.str("neg_hi:")
		r.bitList(nh, s.nsrc, false)
		r.end()
	}
	if r.f(fCLMP) == 1 {
		r.modStr("clamp")
	}
	if !r.en.wmma && s.nsrc < 3 {
		// A missing source's op_sel, neg and neg_hi bits are fixed at 0
		// in LLVM's VOP3P encodings (its op_sel_hi bit is not checked).
		missing := 7 &^ full
		switch {
		case r.f(fOPSEL)&missing != 0:
			r.markField(fOPSEL)
		case r.f(fNEG)&missing != 0:
			r.markField(fNEG)
		case r.f(fNEGHI)&missing != 0:
			r.markField(fNEGHI)
		}
	}
}

// wmmaModifiers prints what gfx12 WMMA/SWMMAC keep in the op_sel bits:
// SWMMAC's index_key (op_sel[1:0]) and, on gfx1250, matrix_a_reuse
// (op_sel[2]) and matrix_b_reuse (op_sel_hi[2]). The other op_sel_hi bits
// are fixed, so LLVM prints no op_sel_hi.
func (r *renderer) wmmaModifiers(opsel, opselHi int) {
	switch {
	case r.en.fmtScaled:
		// The f8f6f4 WMMA keeps its matrix formats there instead.
		r.matrixFmt("matrix_a_fmt:", opsel)
		r.matrixFmt("matrix_b_fmt:", opselHi)
		r.pairedScaleModifiers()
		return
	case r.en.fmtFixed:
		r.pairedScaleModifiers()
		return
	}
	if k := opsel & 3; r.en.sparse && k != 0 {
		r.mod()
		r.str("index_key:")
		r.dec(k)
		r.end()
	}
	if r.d.fam.matrixReuse && (r.en.prof == nil || r.en.prof.reuse) {
		if opsel>>2&1 == 1 {
			r.modStr("matrix_a_reuse")
		}
		if opselHi>>2&1 == 1 {
			r.modStr("matrix_b_reuse")
		}
	}
}

// matrixFmt prints a matrix format modifier unless it is FP8 (0): by
// LLVM's name, in decimal for the values it names none.
func (r *renderer) matrixFmt(label string, v int) {
	if v == 0 {
		return
	}
	r.mod()
	r.str(label)
	if v < len(matrixFmtNames) {
		r.str(matrixFmtNames[v])
	} else {
		r.dec(v)
	}
	r.end()
}

// renderMix prints v_mad_mix*/v_fma_mix*: VOP3P words whose sources are
// f32 or f16 as op_sel_hi says, so LLVM shows NEG as -x and NEG_HI as |x|
// (abs), op_sel_hi only when set, and a whole-VGPR destination.
func (r *renderer) renderMix() {
	s := r.en.sig
	r.op()
	r.reg("v", r.f(fVDST), 1)
	r.end()
	neg, abs := r.f(fNEG), r.f(fNEGHI)
	for i := 0; i < 3; i++ {
		r.srcMods(r.src0or(i), s.src[i], 0, abs>>uint(i)&1 == 1, neg>>uint(i)&1 == 1)
	}
	if opsel := r.f(fOPSEL); opsel != 0 {
		r.mod()
		r.str("op_sel:")
		r.bitList(opsel, 3, false)
		r.end()
	}
	if hi := r.f(fOPSELHI) | r.f(fOPSELHI2)<<2; hi != 0 {
		r.mod()
		r.str("op_sel_hi:")
		r.bitList(hi, 3, false)
		r.end()
	}
	if r.f(fCLMP) == 1 {
		r.modStr("clamp")
	}
}

// srcMods prints a VOP3 source with its modifiers: -x, |x|, -|x|; a negated
// constant without abs is printed neg(x) so it is not read as a negative
// constant.
func (r *renderer) srcMods(code int, t opType, hi int, abs, neg bool) {
	constant := (code >= 128 && code <= 208) || (code >= 240 && code <= 248) || code == literalCode
	r.op()
	switch {
	case neg && constant && !abs:
		r.str("neg(")
	case neg:
		r.buf = append(r.buf, '-')
	}
	if abs {
		r.buf = append(r.buf, '|')
	}
	r.srcText(code, t, hi)
	if abs {
		r.buf = append(r.buf, '|')
	}
	if neg && constant && !abs {
		r.buf = append(r.buf, ')')
	}
	r.end()
}

// clampOmod prints the VOP3 clamp bit and output modifier as LLVM does.
func (r *renderer) clampOmod() { r.printClampOmod(r.f(fCLMP) == 1, r.f(fOMOD)) }

// printClampOmod prints a clamp bit and an output modifier, wherever they
// are stored (VOP3 fields, SDWA's extra dword).
func (r *renderer) printClampOmod(clamp bool, omod int) {
	if clamp {
		r.modStr("clamp")
	}
	switch omod {
	case 1:
		r.modStr("mul:2")
	case 2:
		r.modStr("mul:4")
	case 3:
		r.modStr("div:2")
	}
}

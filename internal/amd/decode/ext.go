package decode

import (
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// DPP and SDWA: a second dword, announced by SRC0 = 250 (DPP) or 249
// (SDWA) in a VOP1/VOP2/VOPC word, that holds the real first source and its
// lane-selection controls. Their layouts come from the model's DPP/DPP16,
// SDWA and SDWAB formats (bits 32-63 of the two-dword instruction).

type extID uint8

const (
	xSRC0 extID = iota
	xDPPCTRL
	xBC
	xFI
	xSRC0NEG
	xSRC0ABS
	xSRC1NEG
	xSRC1ABS
	xBANKMASK
	xROWMASK
	xDSTSEL
	xDSTU
	xCLMP
	xOMOD
	xSRC0SEL
	xSRC0SEXT
	xS0
	xSRC1SEL
	xSRC1SEXT
	xS1
	xSDST
	xSD
	numExt
)

var extNames = map[string]extID{
	"SRC0": xSRC0, "DPP_CTRL": xDPPCTRL, "BC": xBC, "BOUND_CTRL": xBC, "FI": xFI, "SRC0_NEG": xSRC0NEG,
	"SRC0_ABS": xSRC0ABS, "SRC1_NEG": xSRC1NEG, "SRC1_ABS": xSRC1ABS, "BANK_MASK": xBANKMASK,
	"ROW_MASK": xROWMASK, "DST_SEL": xDSTSEL, "DST_U": xDSTU, "DST_UNUSED": xDSTU, "CLMP": xCLMP, "OMOD": xOMOD,
	"SRC0_SEL": xSRC0SEL, "SRC0_SEXT": xSRC0SEXT, "S0": xS0, "SRC1_SEL": xSRC1SEL, "SRC1_SEXT": xSRC1SEXT,
	"S1": xS1, "SDST": xSDST, "SD": xSD,
}

type extLayout struct {
	ok bool
	cf [numExt]compiledField
}

func compileExt(f isa.Format) extLayout {
	l := extLayout{ok: true}
	for _, fl := range f.Fields {
		if id, ok := extNames[strings.ToUpper(fl.Name)]; ok && l.cf[id].n == 0 {
			l.cf[id] = compileField(fl)
		}
	}
	return l
}

// extLayouts finds the second-dword layouts of a family.
func (d *Decoder) extLayouts(formats []isa.Format) {
	for _, f := range formats {
		switch strings.ToUpper(f.Name) {
		case "DPP", "DPP16":
			if !d.dppL.ok {
				d.dppL = compileExt(f)
			}
		case "SDWA":
			d.sdwaL = compileExt(f)
		case "SDWAB":
			d.sdwabL = compileExt(f)
		}
	}
}

// x reads a field of the DPP/SDWA dword: the layouts place it at bits
// 32-63, so it sits in r.ext[1] whatever the instruction's width.
func (r *renderer) x(l *extLayout, id extID) int { return int(l.cf[id].get(&r.ext)) }

var selNames = [...]string{"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "7"}
var unusedNames = [...]string{"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "3"}

// renderDPP prints a VOP1/VOP2/VOPC instruction with a DPP16 or DPP8 dword
// (in r.ext[1]) and says whether it could.
func (r *renderer) renderDPP() bool {
	l := &r.d.dppL
	if !l.ok || r.en.shape == shNoOperands {
		return false
	}
	if r.wide() {
		// SDWA selects bytes and words of 32-bit operands: LLVM has no
		// SDWA form of an instruction with a 64-bit one (v_sqrt_f64).
		r.mark(invalidVariant, 0)
		return false
	}
	dpp8 := r.extra == "DPP8"
	s := r.en.sig
	src0 := int(r.ext[1] & 0xff)
	// DPP8 has no modifier bits: the lane selects fill the dword.
	mods := func(i int, negID, absID extID) (bool, bool) {
		if dpp8 {
			return false, false
		}
		neg, abs := r.x(l, negID) == 1, r.x(l, absID) == 1
		// The _dpp syntax row says which sources take neg and abs; where
		// the model has none, the operand's type does (LLVM gives DPP
		// float modifiers to float sources only).
		m := &r.en.mods.dpp
		if (neg || abs) && (m.known && !m.src[i] || !m.known && r.intMods(s.src[i])) {
			r.mark(invalidSrcMod, i)
		}
		return neg, abs
	}
	if (r.d.fam.gen >= 10 || !r.d.fam.rowNewBcast) && r.wide() {
		// Only CDNA 2-4 (DP ALU DPP, row_newbcast) have a DPP form of an
		// instruction with a 64-bit operand: GCN 5, CDNA 1 and gfx10+
		// have none (llvm-mc 22: "dpp variant of this instruction is not
		// supported").
		r.mark(invalidVariant, 0)
		return false
	}
	withMods := func(neg, abs bool, text func()) {
		r.op()
		if neg {
			r.buf = append(r.buf, '-')
		}
		if abs {
			r.buf = append(r.buf, '|')
		}
		text()
		if abs {
			r.buf = append(r.buf, '|')
		}
		r.end()
	}
	src0Text := func() {
		neg, abs := mods(0, xSRC0NEG, xSRC0ABS)
		withMods(neg, abs, func() { r.srcText(256+src0, s.src[0], 0) })
	}
	src1Text := func() {
		neg, abs := mods(1, xSRC1NEG, xSRC1ABS)
		withMods(neg, abs, func() { r.vgprText(r.f(fVSRC1), s.src[1]) })
	}
	switch r.fm.kind {
	case KindVOP1:
		if r.en.shape == shReadlane {
			r.mark(invalidVariant, 0)
			return false
		}
		r.vgpr(r.f(fVDST), s.dst)
		src0Text()
	case KindVOP2:
		sh := r.en.shape
		if sh == shMadmk || sh == shMadak {
			r.mark(invalidVariant, 0)
			return false
		}
		r.vop2Operands(s.dst, src0Text, src1Text)
	case KindVOPC:
		if r.en.shape != shCmpxNoDst {
			r.vcc()
		}
		src0Text()
		src1Text()
	default:
		return false
	}
	return r.dppControls(dpp8)
}

// vop2Operands prints a DPP or SDWA VOP2 word's operands in LLVM's order:
// vdst, the carry-out VCC (v_add_co), src0, src1, then the carry-in or
// mask VCC (v_addc, v_cndmask).
func (r *renderer) vop2Operands(dst opType, src0, src1 func()) {
	sh := r.en.shape
	r.vgpr(r.f(fVDST), dst)
	if sh == shCarryInOut || sh == shCarryOut {
		r.vcc()
	}
	src0()
	src1()
	if sh == shCndmask || sh == shCarryInOut {
		r.vcc()
	}
}

// dppControls appends the lane-selection modifiers of the DPP16 or DPP8
// dword in r.ext[1] as LLVM prints them after the operands, and says
// whether the DPP_CTRL value is one LLVM accepts.
func (r *renderer) dppControls(dpp8 bool) bool {
	l := &r.d.dppL
	fam := r.d.fam
	if dpp8 {
		w := r.ext[1]
		r.mod()
		r.str("dpp8:[")
		for i := 0; i < 8; i++ {
			if i > 0 {
				r.buf = append(r.buf, ',')
			}
			r.buf = append(r.buf, byte('0'+w>>uint(8+3*i)&7))
		}
		r.buf = append(r.buf, ']')
		r.end()
		if r.dpp8FI {
			r.modStr("fi:1")
		}
		return true
	}
	ctrl := r.x(l, xDPPCTRL)
	r.mod()
	switch {
	case ctrl <= 0xff:
		r.str("quad_perm:[")
		for i := 0; i < 4; i++ {
			if i > 0 {
				r.buf = append(r.buf, ',')
			}
			r.dec(ctrl >> uint(2*i) & 3)
		}
		r.buf = append(r.buf, ']')
	case ctrl >= 0x101 && ctrl <= 0x10f:
		r.str("row_shl:")
		r.dec(ctrl & 0xf)
	case ctrl >= 0x111 && ctrl <= 0x11f:
		r.str("row_shr:")
		r.dec(ctrl & 0xf)
	case ctrl >= 0x121 && ctrl <= 0x12f:
		r.str("row_ror:")
		r.dec(ctrl & 0xf)
	case ctrl == 0x130 && fam.waveShifts:
		r.str("wave_shl:1")
	case ctrl == 0x134 && fam.waveShifts:
		r.str("wave_rol:1")
	case ctrl == 0x138 && fam.waveShifts:
		r.str("wave_shr:1")
	case ctrl == 0x13c && fam.waveShifts:
		r.str("wave_ror:1")
	case ctrl == 0x140:
		r.str("row_mirror")
	case ctrl == 0x141:
		r.str("row_half_mirror")
	case ctrl == 0x142 && fam.waveShifts:
		r.str("row_bcast:15")
	case ctrl == 0x143 && fam.waveShifts:
		r.str("row_bcast:31")
	case ctrl >= 0x150 && ctrl <= 0x15f && fam.gen >= 10:
		r.str("row_share:")
		r.dec(ctrl & 0xf)
	case ctrl >= 0x160 && ctrl <= 0x16f && fam.gen >= 10:
		r.str("row_xmask:")
		r.dec(ctrl & 0xf)
	case ctrl >= 0x150 && ctrl <= 0x15f && fam.rowNewBcast:
		r.str("row_newbcast:")
		r.dec(ctrl & 0xf)
	default:
		// A reserved DPP_CTRL value: llvm-mc 22 prints a gfx9-10 word
		// with an "Invalid dpp_ctrl value" comment (gfx11+ ones with no
		// control at all, which is left to the partial rendering).
		if fam.gen <= 10 {
			r.mark(invalidDPPCtrl, ctrl)
		}
		return false
	}
	r.end()
	r.mod()
	r.str("row_mask:")
	r.hex(uint64(r.x(l, xROWMASK)))
	r.end()
	r.mod()
	r.str("bank_mask:")
	r.hex(uint64(r.x(l, xBANKMASK)))
	r.end()
	if r.x(l, xBC) == 1 {
		r.modStr("bound_ctrl:1")
	}
	if fam.gen >= 10 && l.cf[xFI].n != 0 && r.x(l, xFI) == 1 {
		r.modStr("fi:1")
	}
	return true
}

// renderSDWA prints a GCN / RDNA 1-2 SDWA instruction and says whether it could.
func (r *renderer) renderSDWA() bool {
	l := &r.d.sdwaL
	if r.fm.kind == KindVOPC {
		l = &r.d.sdwabL
	}
	if sh := r.en.shape; sh == shReadlane || sh == shMadmk || sh == shMadak {
		// LLVM has no SDWA form of v_readfirstlane or the K-constant
		// forms (their DPP ones neither: renderDPP).
		r.mark(invalidVariant, 0)
		return false
	}
	if !l.ok || r.en.shape == shNoOperands {
		return false
	}
	s := r.en.sig
	srcText := func(code int, isSGPR bool, t opType, neg, abs, sext bool) {
		r.op()
		if neg {
			r.buf = append(r.buf, '-')
		}
		if abs {
			r.buf = append(r.buf, '|')
		}
		if sext {
			r.str("sext(")
		}
		if isSGPR {
			r.srcText(code, t, 0)
		} else {
			r.reg("v", code, t.regs())
		}
		if sext {
			r.buf = append(r.buf, ')')
		}
		if abs {
			r.buf = append(r.buf, '|')
		}
		r.end()
	}
	src0 := func() {
		neg, abs, sext := r.x(l, xSRC0NEG) == 1, r.x(l, xSRC0ABS) == 1, r.x(l, xSRC0SEXT) == 1
		r.sdwaMods(0, s.src[0], neg, abs, sext)
		srcText(r.x(l, xSRC0), r.x(l, xS0) == 1, s.src[0], neg, abs, sext)
	}
	src1 := func() {
		neg, abs, sext := r.x(l, xSRC1NEG) == 1, r.x(l, xSRC1ABS) == 1, r.x(l, xSRC1SEXT) == 1
		r.sdwaMods(1, s.src[1], neg, abs, sext)
		srcText(r.f(fVSRC1), r.x(l, xS1) == 1 && r.fm.kind == KindVOPC && false, s.src[1], neg, abs, sext)
	}
	switch r.fm.kind {
	case KindVOP1:
		r.vgpr(r.f(fVDST), s.dst)
		src0()
	case KindVOP2:
		r.vop2Operands(s.dst, src0, src1)
	case KindVOPC:
		if r.x(l, xSD) == 1 {
			r.sdst(r.x(l, xSDST), r.maskType())
		} else if r.en.shape != shCmpxNoDst || r.d.fam.gen == 9 {
			r.vcc()
		}
		src0()
		src1()
	default:
		return false
	}
	if r.fm.kind != KindVOPC {
		omod := 0
		if l.cf[xOMOD].n != 0 {
			omod = int(r.x(l, xOMOD))
		}
		if m := &r.en.mods.sdwa; m.known && !m.omod && omod != 0 {
			r.mark(invalidOMod, omod)
		}
		r.printClampOmod(l.cf[xCLMP].n != 0 && r.x(l, xCLMP) == 1, omod)
	}
	if r.fm.kind != KindVOPC && r.en.facts != nil && r.en.facts.has("sdwa-pad") {
		// The FP8 conversions to f32 write a whole dword and have no SDWA
		// destination operands in LLVM 22: it prints no dst_sel or
		// dst_unused, reads past DST_U and rejects a DST_SEL other than
		// DWORD (6).
		if sel := r.x(l, xDSTSEL); sel != 6 {
			r.mark(invalidUnused, int(sel))
		}
	} else if r.fm.kind != KindVOPC {
		r.mod()
		r.str("dst_sel:")
		r.str(selNames[r.x(l, xDSTSEL)&7])
		r.end()
		r.mod()
		r.str("dst_unused:")
		r.str(unusedNames[r.x(l, xDSTU)&3])
		r.end()
	}
	r.mod()
	r.str("src0_sel:")
	r.str(selNames[r.x(l, xSRC0SEL)&7])
	r.end()
	if r.fm.kind != KindVOP1 {
		r.mod()
		r.str("src1_sel:")
		r.str(selNames[r.x(l, xSRC1SEL)&7])
		r.end()
	}
	return true
}

// wide says whether the VOP1/VOP2/VOPC instruction being rendered has a
// 64-bit operand (a VOPC's destination is its lane mask, not counted).
func (r *renderer) wide() bool {
	s := r.en.sig
	if r.fm.kind != KindVOPC && s.dst.size == 64 {
		return true
	}
	for i := 0; i < s.nsrc && i < len(s.src); i++ {
		if s.src[i].size == 64 {
			return true
		}
	}
	return false
}

package decode

import (
	"math"
	"strconv"
)

// reg appends a register or a register tuple: s5, s[2:3], v[0:3].
func (r *renderer) reg(prefix string, first, n int) {
	if n > 1 && first&1 == 1 && r.d != nil && r.d.fam.alignedVGPRs && (prefix == "v" || prefix == "a") {
		r.mark(invalidAlign, first)
	}
	r.regUnchecked(prefix, first, n)
}

// regUnchecked is reg without the tuple-alignment check.
func (r *renderer) regUnchecked(prefix string, first, n int) {
	if len(prefix) == 1 {
		r.buf = append(r.buf, prefix[0]) // v, s, a: no copy call
	} else {
		r.str(prefix)
	}
	if n <= 1 {
		r.dec(first)
		return
	}
	r.buf = append(r.buf, '[')
	r.dec(first)
	r.buf = append(r.buf, ':')
	r.dec(first + n - 1)
	r.buf = append(r.buf, ']')
}

// scalarText appends the name of an SGPR-space code (0-127) of size t and
// says whether the code names one.
func (r *renderer) scalarText(code int, t opType) bool {
	fam := r.d.fam
	n := t.regs()
	// LLVM decodes a misaligned SGPR tuple as the aligned one: pairs start
	// at an even register, larger tuples at a multiple of 4.
	align := func(c, base int) int {
		switch {
		case n == 2:
			return base + (c-base)&^1
		case n > 2:
			return base + (c-base)&^3
		}
		return c
	}
	switch {
	case code <= fam.lastSGPR:
		if align(code, 0)+n > llvmSGPRs {
			r.mark(invalidClass, code) // s[104:107]: past s105
		}
		r.reg("s", align(code, 0), n)
		return true
	case code >= ttmpFirst && code <= ttmpLast:
		if align(code, ttmpFirst)+n-1 > ttmpLast {
			r.mark(invalidClass, code) // ttmp[12:27]: past ttmp15
		}
		r.reg("ttmp", align(code, ttmpFirst)-ttmpFirst, n)
		return true
	}
	if code < 0 || code > 255 {
		return false
	}
	if n > 1 && fam.n64[code] != "" {
		if n > 2 && code != fam.null {
			r.mark(invalidClass, code) // xnack_mask as a 128-bit resource
		}
		r.str(fam.n64[code])
		return true
	}
	if fam.n32[code] != "" {
		if n > 1 {
			// exec_hi or m0 as a 64-bit operand: LLVM's 64-bit and wider
			// scalar classes hold no such register.
			r.mark(invalidClass, code)
		}
		r.str(fam.n32[code])
		return true
	}
	return false
}

// (null, fam.null, names a register of every width in LLVM: SGPR_NULL64
// to SGPR_NULL512.)

// llvmSGPRs is the size of LLVM's SGPR file on every generation (s0-s105,
// SIRegisterInfo.td): a tuple reaching past s105 names no register, so
// llvm-mc rejects the word.
const llvmSGPRs = 106

// sdst prints a scalar destination (SDST, SDATA, SBASE) as one operand.
func (r *renderer) sdst(code int, t opType) {
	r.op()
	if !r.scalarText(code, t) {
		if k := r.fm.kind; k == KindVOP3 || k == KindVOP3B {
			// A VOP3 scalar destination (a compare's mask, a carry-out)
			// is a register; LLVM rejects a constant's code there.
			r.mark(invalidDst, code)
		}
		r.srcText(code, t, 0)
	}
	r.end()
}

// scalarKind says whether k is a scalar ALU format (SOP1, SOP2, SOPC, SOPK).
func scalarKind(k Kind) bool {
	switch k {
	case KindSOP1, KindSOP2, KindSOPC, KindSOPK:
		return true
	}
	return false
}

// ssrc prints an 8-bit scalar source (SSRC0/SSRC1) as one operand.
func (r *renderer) ssrc(code int, t opType) { r.src(code, t, 0) }

// src prints a 9-bit source operand code as one operand.
func (r *renderer) src(code int, t opType, hi int) {
	r.op()
	r.srcText(code, t, hi)
	r.end()
}

// vgpr prints an 8-bit VGPR field (VDST, VSRC1) as one operand.
func (r *renderer) vgpr(n int, t opType) {
	r.op()
	r.vgprText(n, t)
	r.end()
}

// vgprText: on families with 16-bit VGPR halves (RDNA 3+), bit 7 of a
// 16-bit operand's field in the 32-bit encodings selects .h.
func (r *renderer) vgprText(n int, t opType) {
	r.checkLo128(n, t)
	if r.d.fam.trueSixteen && t.size == 16 {
		if k := r.fm.kind; k == KindVOP1 || k == KindVOP2 || k == KindVOPC {
			r.half16(n&0x7f, n&0x80 != 0)
			return
		}
		r.half16(n, false)
		return
	}
	r.reg("v", n, t.regs())
}

// checkLo128 marks the word invalid when a 16-bit VGPR of a VOP1, VOP2 or
// VOPC field is above v127 on a lo128 family.
func (r *renderer) checkLo128(v int, t opType) {
	if !r.d.fam.lo128 || t.size != 16 || v < 128 {
		return
	}
	if k := r.fm.kind; k == KindVOP1 || k == KindVOP2 || k == KindVOPC {
		r.mark(invalidLo128, v)
	}
}

// absent marks the word invalid when a field of an operand or modifier
// the instruction does not have is not zero: LLVM's encodings fix such a
// field at 0 (its Real classes write !if(ps.has_X, X, 0)), so llvm-mc
// decodes no instruction from a word that sets it. A field the format
// lacks is skipped.
func (r *renderer) absent(ids ...fieldID) {
	for _, id := range ids {
		if r.invalid != validWord {
			return
		}
		if r.has(id) && r.f(id) != 0 {
			r.markField(id)
		}
	}
}

// markField marks the word invalid for the value of field id: a value
// LLVM's encoding of the instruction fixes (see absent).
func (r *renderer) markField(id fieldID) {
	if r.invalid == validWord {
		r.invalid, r.invalidCode, r.invalidField = invalidUnused, r.f(id), id
	}
}

// mark records the first reason the word is invalid.
func (r *renderer) mark(k invalidKind, code int) {
	if r.invalid == validWord {
		r.invalid, r.invalidCode = k, code
	}
}

// half16 appends a 16-bit VGPR half: v5.l or v5.h.
func (r *renderer) half16(n int, hi bool) {
	r.buf = append(r.buf, 'v')
	r.dec(n)
	if hi {
		r.str(".h")
	} else {
		r.str(".l")
	}
}

// srcText appends a 9-bit (or 8-bit scalar) source operand code: registers,
// inline constants (128-208, 240-248) and the literal (255).
func (r *renderer) srcText(code int, t opType, hi int) {
	fam := r.d.fam
	switch {
	case code >= 256:
		v := code - 256
		r.checkLo128(v, t)
		if fam.trueSixteen && t.size == 16 {
			switch r.fm.kind {
			case KindVOP3, KindVOP3B:
				r.half16(v, hi&1 == 1)
				return
			case KindVOP1, KindVOP2, KindVOPC:
				// In the 32-bit encodings bit 7 of a 16-bit VGPR selects the high half.
				r.half16(v&0x7f, v&0x80 != 0)
				return
			}
		}
		if r.maskSrc {
			r.regUnchecked("v", v, t.regs())
			return
		}
		r.reg("v", v, t.regs())
		return
	case code < 128:
		if r.scalarText(code, t) {
			return
		}
	case code <= 192:
		r.dec(code - 128)
		return
	case code <= 208:
		r.dec(192 - code)
		return
	case code >= 240 && code <= 248:
		r.str(inlineFloat(code, t))
		return
	case code == literalCode:
		if !r.hasLiteral {
			// No literal dword follows this encoding (GCN 5 / CDNA VOP3
			// and VOP3P: LLVM's decoder has no literal there and llvm-mc
			// rejects the word).
			r.mark(invalidNoLiteral, code)
		}
		r.needLit = true
		r.literalText(t)
		return
	case code == lit64Code && r.lit64:
		r.needLit = true
		r.literal64Text(t)
		return
	case code == lit64Code && fam.lit64 && r.hasLiteral:
		// gfx1250: the 64-bit literal code on a 32-bit operand reads an
		// ordinary 32-bit literal.
		r.needLit = true
		r.literalText(t)
		return
	}
	if code >= 0 && code < 256 && fam.n32[code] != "" {
		if t.regs() > 1 && fam.n64[code] != "" {
			r.str(fam.n64[code])
			return
		}
		if t.regs() > 1 || code == fam.ldsDirect && scalarKind(r.fm.kind) {
			// No 64-bit register by that name (src_flat_scratch_base_hi,
			// src_lds_direct), or lds_direct as a scalar source: LLVM's
			// class for the operand does not hold it.
			r.mark(invalidClass, code)
		}
		r.str(fam.n32[code])
		return
	}
	// A reserved code: the word is invalid (decode reports it), the text
	// says which code it was.
	r.invalid, r.invalidCode = invalidReserved, code
	r.str("<reserved ")
	r.dec(code)
	r.buf = append(r.buf, '>')
}

var inlineFloats = [...]float64{0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0}
var inlineFloatText = [...]string{"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"}

// inlineFloat gives codes 240-248 as LLVM prints them: 0.5 ... -4.0 and
// 1/(2*pi) at the operand's precision.
func inlineFloat(code int, t opType) string {
	if code == 248 {
		if t.size == 64 {
			return "0.15915494309189532"
		}
		return "0.15915494"
	}
	return inlineFloatText[code-240]
}

// literalText appends the 32-bit literal as LLVM 22's disassembler gives
// it (decodeLiteralConstant): wrapped in lit() when the value, read at the
// operand's type, is one an inline constant could have given, so that it
// re-assembles to the same bytes (litInline); a 16-bit operand's literal
// otherwise shows its low half (some gfx12 conversions, s_cvt_f32_f16,
// print all 32 bits); a 64-bit float's literal is the high dword and is
// printed as that double, by name where it is an inline constant.
func (r *renderer) literalText(t opType) {
	v := r.literal
	if t.size == 64 && t.t == 'f' {
		if v == 0 {
			r.str("0")
			return
		}
		if i := inlineFloatIndex(math.Float64frombits(uint64(v) << 32)); i >= 0 {
			r.str(inlineFloatText[i])
			return
		}
		r.hex(uint64(v))
		return
	}
	if litInline(v, t, r.en.packed16) {
		r.str("lit(")
		r.hex(uint64(v))
		r.buf = append(r.buf, ')')
		return
	}
	if t.size == 16 {
		v &= 0xffff
	}
	r.hex(uint64(v))
}

// lit64Code is the gfx1250 source code of a 64-bit literal (src_lds_direct
// on the other families).
const lit64Code = 254

// literal64Text prints a gfx1250 64-bit literal as LLVM 22 does: an f64
// inline constant by name, a value whose low dword is zero on a float
// operand as its high dword, a value that fits 32 bits as lit64(...) (so
// it re-assembles to the long form), anything else in hex.
func (r *renderer) literal64Text(t opType) {
	v := uint64(r.literalHi)<<32 | uint64(r.literal)
	if t.size != 64 {
		// A 32-bit operand reads the low dword: an inline integer in
		// decimal, anything else still marked as the long form.
		if x := int32(r.literal); x >= -16 && x <= 64 {
			r.buf = strconv.AppendInt(r.buf, int64(x), 10)
			return
		}
		r.str("lit64(")
		r.hex(uint64(r.literal))
		r.buf = append(r.buf, ')')
		return
	}
	if r.literal == 0 && t.t != 'i' {
		if i := inlineFloatIndex(math.Float64frombits(v)); i >= 0 {
			r.str(inlineFloatText[i])
			return
		}
		if v == 0x3fc45f306dc9c882 {
			r.str("0.15915494309189532")
			return
		}
		if t.t == 'f' {
			r.hex(uint64(r.literalHi))
			return
		}
	}
	if r.literalHi == 0 {
		r.str("lit64(")
		r.hex(v)
		r.buf = append(r.buf, ')')
		return
	}
	r.hex(v)
}

// litInline says whether LLVM reads literal v as a value an inline
// constant gives at the operand's type (AMDGPU::isInlinableLiteral*): a
// 32-bit operand of any type, a 16-bit integer one and a packed 16-bit
// integer pair take the integers -16..64 and the f32 constants as the
// whole dword; an f16 or bf16 operand its low half as an integer or its
// own constants; a packed f16 or bf16 pair the whole dword as an integer
// or one constant in the low half; a 64-bit integer operand (its literal
// zero-extended) only 0..64. packed16 is the element type of a packed
// pair (entry.packed16).
func litInline(v uint32, t opType, packed16 byte) bool {
	intInline := int32(v) >= -16 && int32(v) <= 64
	switch {
	case t.size == 64:
		return v <= 64
	case t.size == 16 && (t.t == 'f' || t.t == 'h'):
		lo := uint16(v)
		return int16(lo) >= -16 && int16(lo) <= 64 || half16Inline(lo, t.t)
	case t.size == 32 && (packed16 == 'f' || packed16 == 'h'):
		return intInline || v <= 0xffff && half16Inline(uint16(v), packed16)
	}
	return intInline || f32Inline(v)
}

// f32Inline: the f32 inline constants' bit patterns (0.5 ... -4.0, 1/(2*pi)).
func f32Inline(v uint32) bool {
	return inlineFloatIndex(float64(math.Float32frombits(v))) >= 0 || v == 0x3e22f983
}

// half16Inline: the f16 ('f') or bf16 ('h') inline constants' patterns.
func half16Inline(v uint16, t byte) bool {
	pats := &f16Inline
	if t == 'h' {
		pats = &bf16Inline
	}
	for _, p := range pats {
		if p == v {
			return true
		}
	}
	return false
}

var (
	f16Inline  = [...]uint16{0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118}
	bf16Inline = [...]uint16{0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22}
)

// inlineFloatIndex is f's index in inlineFloats (0.5 ... -4.0), -1 when
// it is none of them.
func inlineFloatIndex(f float64) int {
	for i, x := range inlineFloats {
		if f == x {
			return i
		}
	}
	return -1
}

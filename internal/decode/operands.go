package decode

import (
	"fmt"
	"math"
	"strconv"
)

// regRange prints a register or a register tuple: s5, s[2:3], v[0:3].
func regRange(prefix string, first, n int) string {
	if n <= 1 {
		return prefix + strconv.Itoa(first)
	}
	return fmt.Sprintf("%s[%d:%d]", prefix, first, first+n-1)
}

// scalar names an SGPR-space code (0-127) of size t.
func (r *renderer) scalar(code int, t opType) (string, bool) {
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
		code = align(code, 0)
		return regRange("s", code, n), true
	case code >= ttmpFirst && code <= ttmpLast:
		return regRange("ttmp", align(code, ttmpFirst)-ttmpFirst, n), true
	}
	if n > 1 {
		if s, ok := fam.names64[code]; ok {
			return s, true
		}
	}
	if s, ok := fam.names32[code]; ok {
		return s, true
	}
	return "", false
}

// sdst prints a scalar destination (SDST, SDATA, SBASE).
func (r *renderer) sdst(code int, t opType) string {
	if s, ok := r.scalar(code, t); ok {
		return s
	}
	return r.src(code, t, 0)
}

// ssrc prints an 8-bit scalar source (SSRC0/SSRC1).
func (r *renderer) ssrc(code int, t opType) string { return r.src(code, t, 0) }

// vgpr prints an 8-bit VGPR field (VDST, VSRC1). On families with 16-bit
// VGPR halves (RDNA 3+), bit 7 of a 16-bit operand's field selects .h.
func (r *renderer) vgpr(n int, t opType, isSrc bool) string {
	if r.d.fam.trueSixteen && t.size == 16 && (r.fm.kind == kVOP1 || r.fm.kind == kVOP2 || r.fm.kind == kVOPC) {
		half := ".l"
		if n&0x80 != 0 {
			half = ".h"
		}
		return fmt.Sprintf("v%d%s", n&0x7f, half)
	}
	if r.d.fam.trueSixteen && t.size == 16 {
		return fmt.Sprintf("v%d.l", n)
	}
	return regRange("v", n, t.regs())
}

// src prints a 9-bit (or 8-bit scalar) source operand code: registers,
// inline constants (128-208, 240-248) and the literal (255).
func (r *renderer) src(code int, t opType, hi int) string {
	fam := r.d.fam
	switch {
	case code >= 256:
		v := code - 256
		if fam.trueSixteen && t.size == 16 {
			if r.fm.kind == kVOP3 || r.fm.kind == kVOP3B {
				return fmt.Sprintf("v%d%s", v, map[int]string{0: ".l", 1: ".h"}[hi&1])
			}
			if r.fm.kind == kVOP1 || r.fm.kind == kVOP2 || r.fm.kind == kVOPC {
				// In the 32-bit encodings bit 7 of a 16-bit VGPR selects the high half.
				return fmt.Sprintf("v%d%s", v&0x7f, map[bool]string{false: ".l", true: ".h"}[v&0x80 != 0])
			}
		}
		return regRange("v", v, t.regs())
	case code < 128:
		if s, ok := r.scalar(code, t); ok {
			return s
		}
		return fmt.Sprintf("<reserved %d>", code)
	case code >= 128 && code <= 192:
		return strconv.Itoa(code - 128)
	case code >= 193 && code <= 208:
		return strconv.Itoa(192 - code)
	case code >= 240 && code <= 248:
		return inlineFloat(code, t)
	case code == literalCode:
		r.needLit = true
		return r.literalText(t)
	}
	if s, ok := fam.names32[code]; ok {
		if t.regs() > 1 {
			if s64, ok := fam.names64[code]; ok {
				return s64
			}
		}
		return s
	}
	return fmt.Sprintf("<reserved %d>", code)
}

var inlineFloats = [...]float64{0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0}

// inlineFloat prints codes 240-248 as LLVM does: 0.5 ... -4.0 and
// 1/(2*pi) at the operand's precision.
func inlineFloat(code int, t opType) string {
	if code == 248 {
		switch t.size {
		case 64:
			return "0.15915494309189532"
		case 16:
			if t.t == 'h' {
				return "0.15915494"
			}
			return "0.15915494"
		}
		return "0.15915494"
	}
	return strconv.FormatFloat(inlineFloats[code-240], 'f', 1, 64)
}

// literalText prints the 32-bit literal; when the value could have been an
// inline constant LLVM wraps it in lit() so it re-assembles to the same bytes.
func (r *renderer) literalText(t opType) string {
	v := r.literal
	s := fmt.Sprintf("0x%x", v)
	if isInlineValue(v, t) {
		return "lit(" + s + ")"
	}
	return s
}

func isInlineValue(v uint32, t opType) bool {
	if int32(v) >= -16 && int32(v) <= 64 {
		return true
	}
	switch {
	case t.t == 'f' && t.size == 32:
		f := math.Float32frombits(v)
		for _, x := range inlineFloats {
			if float64(f) == x {
				return true
			}
		}
		return v == 0x3e22f983
	case t.t == 'f' && t.size == 64:
		// A 64-bit float literal holds the high dword.
		f := math.Float64frombits(uint64(v) << 32)
		for _, x := range inlineFloats {
			if f == x {
				return true
			}
		}
	}
	return false
}

package decode

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Dual issue. A VOPD word (RDNA 3+, CDNA 5) carries two VALU operations, X
// and Y, each with its own opcode table (OPX, OPY); LLVM prints them as
// "v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4". The guides list an
// instruction's X and Y opcodes as two encodings, VOPD_X and VOPD_Y. VOPD3
// (CDNA 5, 96 bits) adds a third source and neg bits per operation.

// dualSep separates the X and Y operations in LLVM's text.
const dualSep = " :: "

// addDual files one VOPD_X/VOPD_Y (or VOPD3_X/VOPD3_Y) encoding.
func (fm *format) addDual(in *isa.Instruction, e isa.Encoding) {
	name := strings.ToUpper(e.Name)
	tab := &fm.dualX
	switch {
	case strings.HasSuffix(name, "_X"):
	case strings.HasSuffix(name, "_Y"):
		tab = &fm.dualY
	default:
		return // neither half: nothing to file it under
	}
	if e.Opcode < 0 || e.Opcode >= 1<<8 {
		return
	}
	for len(*tab) <= e.Opcode {
		*tab = append(*tab, nil)
	}
	if (*tab)[e.Opcode] == nil {
		(*tab)[e.Opcode] = &entry{name: in.Name, instr: in, enc: e}
	}
}

func lookupDual(tab []*entry, op uint32) *entry {
	if int(op) < len(tab) {
		return tab[op]
	}
	return nil
}

// dual returns the X and Y operations of a VOPD word.
func (fm *format) dual(raw *[3]uint32) (x, y *entry) {
	return lookupDual(fm.dualX, fm.cf[fOPX].get(raw)), lookupDual(fm.dualY, fm.cf[fOPY].get(raw))
}

// dualMiss says which half of a VOPD word has no instruction.
func (fm *format) dualMiss(raw *[3]uint32) string {
	x, y := fm.dual(raw)
	var miss []string
	if x == nil {
		miss = append(miss, fmt.Sprintf("no X operation with opcode %d", fm.cf[fOPX].get(raw)))
	}
	if y == nil {
		miss = append(miss, fmt.Sprintf("no Y operation with opcode %d", fm.cf[fOPY].get(raw)))
	}
	return fmt.Sprintf("0x%08x: %s has %s", raw[0], fm.Name, strings.Join(miss, " and "))
}

// prepareDual works out the operand layout of one half of a dual-issue
// word from the rules table.
func (d *Decoder) prepareDual(fm *format, en *entry) {
	f := rules.lookup(d.fam.gen, fm.kind, en.name, "")
	en.facts = &f
	en.mnemonic = en.name
	en.shape = shapeByName[f.get("shape")]
	en.kconst = en.shape == shMadmk || en.shape == shMadak
}

// renderDual prints both operations of a VOPD/VOPD3 word and returns the
// bytes that follow the fixed part: the literal the two share, if any.
func (r *renderer) renderDual(code []byte, next int) (int, error) {
	x, y := r.en, r.enY
	three := r.fm.kind == KindVOPD3
	extra := 0
	isLit := func(code int) bool { return code == literalCode || r.d.fam.lit64 && code == lit64Code }
	if !three && (x.kconst || y.kconst || isLit(r.f(fSRCX0)) || isLit(r.f(fSRCY0))) {
		if len(code)-next < 4 {
			return 0, fmt.Errorf("truncated literal: %s needs a 32-bit constant at offset %d, %d byte(s) left", r.fm.Name, next, len(code)-next)
		}
		r.literal = binary.LittleEndian.Uint32(code[next:])
		r.hasLiteral = true
		extra = 4
	}
	dstX := r.f(fVDSTX)
	dstY := r.f(fVDSTY)
	if !three {
		// VDSTY holds all but the lowest bit, which is the opposite of
		// VDSTX's: the two results land in different VGPR banks.
		dstY = dstY<<1 | (^dstX & 1)
	}
	r.dualHalf(x, dstX, r.f(fSRCX0), r.f(fVSRCX1), r.f(fVSRCX2), r.f(fNEGX), three)
	r.dualAt = len(r.buf)
	r.str(dualSep)
	r.str(y.mnemonic)
	r.dualMnEnd = len(r.buf)
	r.nops = 0
	r.dualHalf(y, dstY, r.f(fSRCY0), r.f(fVSRCY1), r.f(fVSRCY2), r.f(fNEGY), three)
	if !three {
		r.dualAbsent(x, y)
	}
	return extra, nil
}

// dualAbsent marks a VOPD word invalid where a half with one source
// (v_dual_mov_b32) sets its VSRC1 field, which LLVM 22's encoding fixes
// at 0 (llvm-mc rejects the word). LLVM's assembler also refuses halves
// that read src0 from the same VGPR bank; its decoder does not check
// banks, and neither does this one.
func (r *renderer) dualAbsent(x, y *entry) {
	if x.shape == shDualMov {
		r.absent(fVSRCX1)
	}
	if y.shape == shDualMov {
		r.absent(fVSRCY1)
	}
}

// dualHalf prints the operands of one operation; neg holds VOPD3's neg
// bits for sources 0, 1 and 2.
func (r *renderer) dualHalf(en *entry, dst, src0, vsrc1, vsrc2, neg int, three bool) {
	s := en.sig
	r.vgpr(dst, s.dst)
	negSrc := func(i int) {
		if three && neg>>uint(i)&1 == 1 {
			r.buf = append(r.buf, '-')
		}
	}
	r.op()
	negSrc(0)
	r.srcText(src0, s.src[0], 0)
	r.end()
	switch en.shape {
	case shDualMov:
		return
	case shMadmk:
		r.needLit = true
		r.opLiteralK()
	}
	r.op()
	negSrc(1)
	r.reg("v", vsrc1, s.src[1].regs())
	r.end()
	switch en.shape {
	case shMadak:
		r.needLit = true
		r.opLiteralK()
	case shDualThree:
		r.op()
		negSrc(2)
		r.reg("v", vsrc2, s.src[2].regs())
		r.end()
	case shDualMask:
		if three {
			r.sdst(vsrc2, opType{'b', 32})
		}
	case shDualBitop:
		if three {
			r.mod()
			r.str("bitop3:")
			r.hex(uint64(vsrc2))
			r.end()
		}
	}
}

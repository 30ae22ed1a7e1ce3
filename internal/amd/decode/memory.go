package decode

import (
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
)

// Memory formats (DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF) in LLVM's syntax:
// operands in the order of LLVM's syntax for the instruction, then the
// offset and cache-policy modifiers in the order LLVM's printer writes them.

// dataReg prints n VGPRs (or AGPRs when acc) starting at first. LLVM 22
// checks an AGPR tuple's alignment (on the families that align tuples) in
// the buffer formats and in FLAT loads, stores and non-returning atomics,
// whose data classes are the aligned AV_* ones; it decodes a DS
// instruction's and a returning FLAT atomic's AGPR tuple without the
// check (the differential test's accepted words).
func (r *renderer) dataReg(first, n int, acc bool) {
	r.op()
	switch {
	case !acc:
		r.reg("v", first, n)
	case r.fm.kind == KindDS || r.fm.kind == KindFLAT && r.en.shape == shAtomic && r.flatReturns():
		r.regUnchecked("a", first, n)
	default:
		r.reg("a", first, n)
	}
	r.end()
}

// flatReturns says a FLAT atomic returns the old value (GLC, or SC0 on
// CDNA 3/4).
func (r *renderer) flatReturns() bool {
	if r.d.fam.scBits {
		return r.f(fSC0) == 1
	}
	return r.f(fGLC) == 1
}

func (r *renderer) acc() bool { return r.d.fam.accRegs && r.has(fACC) && r.f(fACC) == 1 }

func (r *renderer) renderDS() {
	en := r.en
	if r.memUnknown() {
		return
	}
	n := en.dataRegs
	two := en.memFlags&mfTwoAddr != 0
	acc := r.acc()
	// The model's sizes where it gives them, else the name's.
	regs := func(i, def int) int {
		if en.dsRegs[i] > 0 {
			return en.dsRegs[i]
		}
		return def
	}
	if en.memOps&moVdst != 0 {
		vn := n
		if en.memFlags&mfDoubleDst != 0 {
			vn = 2 * n
		}
		r.dataReg(r.f(fVDST), regs(0, vn), acc)
	}
	if en.memOps&moAddr != 0 {
		r.dataReg(r.f(fADDR), 1, false)
	}
	if en.memOps&moData0 != 0 {
		data0 := fDATA0
		if en.memFlags&mfGWS != 0 {
			data0 = fADDR // LLVM encodes a GWS instruction's data0 in the ADDR bits
		}
		r.dataReg(r.f(data0), regs(1, n), acc)
	}
	if en.memOps&moData1 != 0 {
		r.dataReg(r.f(fDATA1), regs(2, n), acc)
	}
	r.dsAbsent()
	o0, o1 := r.f(fOFFSET0), r.f(fOFFSET1)
	if two {
		if o0 != 0 {
			r.mod()
			r.str("offset0:")
			r.dec(o0)
			r.end()
		}
		if o1 != 0 {
			r.mod()
			r.str("offset1:")
			r.dec(o1)
			r.end()
		}
	} else if off := o1<<8 | o0; off != 0 {
		r.mod()
		r.str("offset:")
		if en.memFlags&mfSwizzle != 0 {
			r.str(swizzleText(off)) // the lane pattern, as LLVM names it
		} else {
			r.dec(off)
		}
		r.end()
	}
	if r.f(fGDS) == 1 && (!r.d.fam.noGDS || en.memFlags&mfGWS != 0) {
		r.modStr("gds")
	}
}

// dsAbsent marks the word invalid when it sets the field of a DS operand
// the instruction does not have (LLVM's DS encodings write 0 there): the
// result of a store, the data of a load, the second data operand of a
// one-data atomic, the address of a GWS or append instruction; a GWS
// instruction's data sits in the ADDR bits, so its DATA0 field is unused.
func (r *renderer) dsAbsent() {
	en := r.en
	if en.memOps&moVdst == 0 {
		r.absent(fVDST)
	}
	if en.memOps&moAddr == 0 && (en.memFlags&mfGWS == 0 || en.memOps&moData0 == 0) {
		r.absent(fADDR)
	}
	if en.memOps&moData0 == 0 || en.memFlags&mfGWS != 0 {
		r.absent(fDATA0)
	}
	if en.memOps&moData1 == 0 {
		r.absent(fDATA1)
	}
	if en.memOps&(moVdst|moData0) == 0 {
		r.absent(fACC) // the ACC bit selects AGPRs for vdst or data0
	}
}

// isOff says a scalar address field holds the "no SGPR" code: 0x7f on GCN,
// NULL on RDNA.
func (r *renderer) isOff(code int) bool {
	if r.d.fam.gen == 9 {
		return code == 0x7f
	}
	return r.d.fam.n32[code] == "null"
}

// memUnknown marks the word partial when the rules give its entry no
// memory operands: the renderer cannot print what it does not know.
func (r *renderer) memUnknown() bool {
	if r.en.memOps&moKnown != 0 {
		return false
	}
	r.partial = true
	return true
}

func (r *renderer) renderFLAT() {
	en := r.en
	fam := r.d.fam
	if r.memUnknown() {
		return
	}
	if fam.gen >= 12 {
		r.renderFLAT12()
		return
	}
	seg := r.fm.seg
	n := en.dataRegs
	acc := r.acc()
	ret := r.f(fGLC) == 1
	if fam.scBits {
		ret = r.f(fSC0) == 1
	}
	cmpswap := en.memFlags&mfCmpswap != 0
	// Atomics return the old value (and print vdst) only when asked to.
	lds := r.has(fLDS) && r.f(fLDS) == 1
	sve := false
	if fam.scBits && seg == segScratch {
		// gfx940+: bit 13 of a SCRATCH word is SVE (use the VGPR address), not LDS.
		sve, lds = lds, false
	}
	// data: a VGPR (or AGPR) data operand is printed, which the ACC bit
	// may select.
	data := en.memOps&moData0 != 0
	if en.shape == shAtomic {
		if ret && en.memOps&(moVdst|moVdstOpt) != 0 {
			r.dataReg(r.f(fVDST), n, acc)
		}
	} else if en.memOps&moVdst != 0 || (en.memOps&moVdstOpt != 0 && !lds) {
		r.dataReg(r.f(fVDST), n, acc)
		data = true
	}
	saddr := r.f(fSADDR)
	off := r.isOff(saddr)
	addr := r.f(fADDR)
	if en.memOps&moAddr != 0 {
		switch seg {
		case segFlat:
			r.dataReg(addr, 2, false)
		case segGlobal:
			if off {
				r.dataReg(addr, 2, false)
			} else {
				r.dataReg(addr, 1, false)
			}
		default: // SCRATCH: the VGPR address is used when there is no SGPR one (or SVE says so).
			useV := off || sve
			switch {
			case fam.gen >= 11:
				useV = r.f(fSVE) == 1
			case fam.scBits:
				// gfx940+: SVE alone says whether the VGPR address is
				// used; with neither, llvm-mc 22 prints "off, ..., off".
				useV = sve
			}
			if useV {
				r.dataReg(addr, 1, false)
			} else {
				r.opStr("off")
			}
		}
	}
	if en.memOps&moData0 != 0 {
		dn := n
		if cmpswap {
			dn = 2 * n
		}
		r.dataReg(r.f(fDATA), dn, acc)
	}
	if en.memOps&moSaddr != 0 && seg != segFlat {
		if off {
			r.opStr("off")
		} else if seg == segGlobal {
			r.sdst(saddr, opType{'b', 64})
		} else {
			r.sdst(saddr, opType{'b', 32})
		}
	}
	if o := r.f(fOFFSET); o != 0 {
		w := r.fm.cf[fOFFSET].parts[0].width
		// Global and scratch offsets are signed; plain FLAT ones are
		// unsigned up to RDNA 3.5 (llvm-mc 22 prints 4095 for gfx10's
		// twelve bits set, 8191 for gfx11's thirteen, and rejects a
		// negative one: "expected a 12-bit unsigned offset") and signed
		// from gfx12 on.
		if seg != segFlat || fam.gen >= 12 {
			o = int(int64(uint64(o)<<(64-uint(w))) >> (64 - uint(w)))
		}
		if o != 0 {
			r.mod()
			r.str("offset:")
			r.dec(o)
			r.end()
		}
	}
	r.cachePolicy()
	if lds {
		r.modStr("lds")
	}
	r.flatAbsent(lds, data)
}

// flatAbsent marks a gfx9-11 FLAT/GLOBAL/SCRATCH word invalid where LLVM
// 22's encoding fixes a bit the instruction has no use for: LDS on an
// instruction whose syntax lists no lds, ACC on an instruction without a
// data operand (CDNA 2+), bit 55 on GCN 5 and CDNA 1 (ACC to LLVM, with
// no AGPR memory operands there), gfx11's SVE outside SCRATCH, and
// the SADDR field of a FLAT
// (segment 0) instruction, which has no scalar address: LLVM writes 0 there
// on gfx9 and the "off" code (null) on gfx10+.
func (r *renderer) flatAbsent(lds, data bool) {
	if lds && r.en.memFlags&mfNoLDS != 0 {
		r.absent(fLDS)
	}
	if r.d.fam.accRegs && r.en.memOps&moKnown != 0 && !data {
		// No data operand (the LDS loads, global_load_lds_dword, a
		// load with LDS set): LLVM writes 0 to the ACC bit that would
		// select its AGPRs.
		r.absent(fACC)
	}
	if !r.d.fam.scBits && r.d.fam.gen <= 11 {
		r.cacheAbsent()
	}
	r.sccAbsent()
	if r.d.fam.gen == 9 && !r.d.fam.accRegs {
		// Bit 55 of a GCN 5 / CDNA 1 FLAT word (the guides' NV) is the
		// ACC bit to LLVM 22, and no memory operand of these targets
		// holds an AGPR: llvm-mc rejects every word with it set or
		// flags the AGPR it prints (/*Invalid register*/).
		r.absent(fNV, fACC)
	}
	if r.d.fam.gen == 11 && r.fm.seg != segScratch {
		// gfx11's bit 55 is SVE, which only SCRATCH addressing has; LLVM
		// writes 0 there for FLAT and GLOBAL.
		r.absent(fSVE)
	}
	if r.fm.seg != segFlat || r.en.memOps&moKnown == 0 {
		return
	}
	switch saddr := r.f(fSADDR); {
	case r.d.fam.gen == 9:
		r.absent(fSADDR)
	case !r.isOff(saddr):
		r.markField(fSADDR)
	}
}

// cachePolicy prints the cache bits as LLVM does: sc0 nt sc1 on CDNA 3/4,
// else glc slc dlc.
func (r *renderer) cachePolicy() {
	if r.d.fam.scBits {
		r.flag(r.f(fSC0) == 1, "sc0")
		r.flag(r.f(fNT) == 1, "nt")
		r.flag(r.f(fSC1) == 1, "sc1")
		return
	}
	r.flag(r.f(fGLC) == 1, "glc")
	r.flag(r.f(fSLC) == 1, "slc")
	r.flag(r.has(fDLC) && r.f(fDLC) == 1, "dlc")
	// CDNA 2 adds an SCC cache bit; its guide's tables leave it out
	// (RESERVED): bit 15 in MUBUF, bit 53 in MTBUF, bit 25 in FLAT.
	if r.d.fam.accRegs {
		bit := -1
		switch r.fm.kind {
		case KindMUBUF:
			bit = 15
		case KindMTBUF:
			bit = 53
		case KindFLAT:
			bit = 25
		}
		if bit >= 0 && r.raw[bit/32]>>(bit%32)&1 == 1 {
			r.modStr("scc")
		}
	}
}

func (r *renderer) renderMUBUF() {
	en := r.en
	fam := r.d.fam
	if r.memUnknown() {
		return
	}
	if en.memOps&^moKnown == 0 && fam.gen < 12 {
		// buffer_wbinvl1, buffer_gl0_inv, buffer_wbl2: no operands; only
		// CDNA 3/4 print their cache bits (buffer_wbl2 sc0 sc1), CDNA 2's
		// buffer_wbl2 sets glc and scc without LLVM printing them.
		if fam.scBits {
			r.cachePolicy()
		}
		r.bufAbsent()
		return
	}
	if fam.gen >= 12 {
		r.renderBUF12()
		return
	}
	r.bufAbsent()
	n := en.dataRegs
	if en.memFlags&mfCmpswap != 0 {
		n *= 2
	}
	tfe := r.has(fTFE) && r.f(fTFE) == 1
	if tfe {
		n++
	}
	lds := r.has(fLDS) && r.f(fLDS) == 1
	if en.memOps&(moVdst|moData0) != 0 || (en.memOps&moVdstOpt != 0 && !lds) {
		r.dataReg(r.f(fVDATA), n, r.acc())
	}
	idxen, offen := r.bufferAddr()
	r.bufferRest(r.f(fSRSRC)<<2, r.fm.kind == KindMTBUF, idxen, offen)
	r.cachePolicy()
	if lds {
		r.modStr("lds")
	}
	if tfe {
		r.modStr("tfe")
	}
}

// bufAbsent marks a buffer word invalid where it sets a bit that
// LLVM 22's encoding of the instruction fixes at zero (its pseudos fix
// OFFEN, IDXEN, LDS and TFE per variant, and the cache bits an
// instruction has no operand for):
//   - LDS on an instruction whose syntax lists no lds (only the dword and
//     sub-dword loads and buffer_load_format_x have LDS forms);
//   - TFE on an atomic, a typed (tbuffer) access or an LDS load: LLVM 22
//     has TFE forms of the untyped loads and stores only (gfx9-12);
//   - ACC on a CDNA 2+ LDS load; lds_direct (or on gfx9 a literal) as SOFFSET;
//   - DLC on an RDNA 1-2 atomic (gfx10's atomics take glc and slc only);
//   - on a cache-control instruction (buffer_wbinvl1, buffer_gl0_inv):
//     OFFEN, IDXEN, LDS, TFE, GLC and DLC. CDNA 3/4 print the cache bits
//     of buffer_wbl2 and buffer_inv (cachePolicy), so they are read there.
func (r *renderer) bufAbsent() {
	en := r.en
	fam := r.d.fam
	lds := r.has(fLDS) && r.f(fLDS) == 1
	if lds && en.memFlags&mfNoLDS != 0 {
		r.absent(fLDS)
	}
	if en.memOps&^moKnown == 0 {
		r.absent(fOFFEN, fIDXEN, fLDS, fTFE)
		if !fam.scBits && !en.cacheBits {
			r.absent(fGLC, fDLC)
		}
		return
	}
	if en.shape == shAtomic || en.typed || lds {
		r.absent(fTFE)
	}
	if !fam.scBits {
		r.cacheAbsent()
	}
	r.sccAbsent()
	if lds && fam.accRegs {
		r.absent(fACC) // an LDS load writes no VGPR or AGPR
	}
	if so := r.f(fSOFFSET); r.has(fSOFFSET) && (so == literalCode && fam.gen == 9 || so == fam.ldsDirect) {
		// SOFFSET is an SReg_32 operand: no lds_direct, and on gfx9 no
		// literal (gfx10+ reads one, llvm-mc 22).
		r.mark(invalidClass, so)
	}
	if en.shape == shAtomic && fam.gen == 10 {
		r.absent(fDLC)
	}
}

// accAbsent marks a v_accvgpr_read/write word invalid where it sets the
// modifier bits LLVM 22's encoding of the accumulator moves fixes at 0:
// bits 13:8 (NEG_HI and OP_SEL, or CBSZ and ABID in the MAI layout) and
// bits 63:61 (NEG, or BLGP). OP_SEL_HI, CLAMP and the unused SRC1/SRC2
// fields are read past.
func (r *renderer) accAbsent() {
	switch {
	case r.raw[0]>>8&0x3f != 0:
		r.mark(invalidUnused, int(r.raw[0]>>8&0x3f))
	case r.raw[1]>>29 != 0:
		r.mark(invalidUnused, int(r.raw[1]>>29))
	}
}

// renderMAI prints VOP3P-MAI (MFMA) instructions: vdst, src0, src1, src2
// with AGPRs where ACC_CD / ACC select them (always for vdst and src2 on
// CDNA 1), and the cbsz/abid/blgp modifiers. Register counts come from the
// mnemonic's shape (v_mfma_f32_32x32x8_f16: 16 results, 2-dword inputs).
func (r *renderer) renderMAI() {
	en := r.en
	fam := r.d.fam
	accCD := r.f(fACCCD) == 1 || !fam.accRegs
	accAB := r.f(fACC)
	switch en.shape {
	case shAccRead: // v_accvgpr_read_b32 vN, aM
		r.accAbsent()
		if r.f(fSRC0) < 256 {
			r.mark(invalidClass, r.f(fSRC0)) // the source is an AGPR (AGPR_32)
		}
		r.vgpr(r.f(fVDST), opType{'b', 32})
		r.op()
		r.reg("a", r.f(fSRC0)&0xff, 1)
		r.end()
		return
	case shAccWrite: // v_accvgpr_write_b32 aN, src
		r.accAbsent()
		r.op()
		r.reg("a", r.f(fVDST), 1)
		r.end()
		r.src(r.f(fSRC0), opType{'b', 32}, 0)
		return
	}
	if en.mai.dst == 0 {
		r.partial = true
		return
	}
	r.op()
	if accCD {
		r.reg("a", r.f(fVDST), en.mai.dst)
	} else {
		r.reg("v", r.f(fVDST), en.mai.dst)
	}
	r.end()
	sizes := [3]int{en.mai.a, en.mai.b, en.mai.c}
	if en.fmtScaled {
		// cbsz and blgp name the formats of A and B.
		sizes[0], sizes[1] = fmtRegs(sizes[0], r.f(fCBSZ)), fmtRegs(sizes[1], r.f(fBLGP))
	}
	for i := 0; i < 3; i++ {
		code := r.f(srcFields[i])
		t := opType{'b', 32 * sizes[i]}
		if (i < 2 || en.shape == shSparse) && maiNotAV(code, fam.lastSGPR) {
			// LLVM's A and B operands (and a sparse MFMA's index) are
			// AV_* classes: a VGPR or an AGPR, never an SGPR or a constant.
			r.mark(invalidClass, code)
		}
		if code >= 256 && (i < 2 && accAB>>uint(i)&1 == 1 || i == 2 && accCD && en.shape != shSparse) {
			r.op()
			r.reg("a", code-256, sizes[i])
			r.end()
			continue
		}
		r.src(code, t, 0)
	}
	if r.head != nil {
		r.scaleOperands() // ABID is the pair's fixed 1
	}
	if v := r.f(fCBSZ); v != 0 {
		r.mod()
		r.str("cbsz:")
		r.dec(v)
		r.end()
	}
	if v := r.f(fABID); v != 0 && r.head == nil {
		r.mod()
		r.str("abid:")
		r.dec(v)
		r.end()
	}
	if v := r.f(fBLGP); v != 0 {
		r.mod()
		if fam.accRegs && en.blgpNeg {
			// The f64 MFMAs of CDNA 2+ use the BLGP bits as neg:[a,b,c].
			r.str("neg:")
			r.bitList(v, 3, false)
		} else {
			r.str("blgp:")
			r.dec(v)
		}
		r.end()
	}
}

// fieldValues lists every field of the format with its value and bits.
func (r *renderer) fieldValues() []FieldValue {
	fields, raw := r.fm.Fields, r.raw[:r.fm.words]
	if r.head != nil {
		// A 4-dword instruction: the model's 128-bit layout.
		fields, raw = r.en.enc.Fields, []uint32{r.headRaw[0], r.headRaw[1], r.raw[0], r.raw[1]}
	}
	out := make([]FieldValue, 0, len(fields))
	for _, fl := range fields {
		v := fl.Get(raw)
		fv := FieldValue{Name: fl.Name, MSB: fl.MSB, LSB: fl.LSB, Ranges: fl.Ranges, Value: v, Bits: binString(v, fl.Width())}
		if strings.EqualFold(fl.Name, "SIMM16") {
			for _, p := range amdlayout.Parts(r.d.arch.ID, r.en.name, fl) {
				pv := p.Get(raw)
				fv.Parts = append(fv.Parts, FieldValue{Name: p.Name, MSB: p.MSB, LSB: p.LSB, Ranges: p.Ranges, Value: pv, Bits: binString(pv, p.Width())})
			}
		}
		out = append(out, fv)
	}
	return out
}

// bufferAddr prints a buffer instruction's VGPR address: an index and an
// offset (two VGPRs), one of them, or "off"; it returns IDXEN and OFFEN.
func (r *renderer) bufferAddr() (idxen, offen bool) {
	idxen, offen = r.f(fIDXEN) == 1, r.f(fOFFEN) == 1
	switch {
	case idxen && offen && r.fm.kind == KindMTBUF:
		// LLVM 22's MTBUF address pair is the unaligned VReg_64 class.
		r.op()
		r.regUnchecked("v", r.f(fVADDR), 2)
		r.end()
	case idxen && offen:
		r.dataReg(r.f(fVADDR), 2, false)
	case idxen || offen:
		r.dataReg(r.f(fVADDR), 1, false)
	default:
		r.opStr("off")
	}
	return idxen, offen
}

// bufferRest prints what follows a buffer instruction's address on every
// generation: the resource, the SGPR offset, the format of typed accesses,
// idxen/offen and a non-zero immediate offset. srsrc is the resource's
// SGPR code (the older formats store it divided by four).
func (r *renderer) bufferRest(srsrc int, typed, idxen, offen bool) {
	if srsrc > 127 {
		// gfx12's 9-bit RSRC field can name a VGPR or a constant; the
		// resource is an SGPR quad (LLVM's SReg_128).
		r.mark(invalidClass, srsrc)
	}
	r.sdst(srsrc, opType{'b', 128})
	r.src(r.f(fSOFFSET), opType{'b', 32}, 0)
	if typed {
		r.bufFormat()
	}
	if idxen {
		r.modStr("idxen")
	}
	if offen {
		r.modStr("offen")
	}
	if o := r.f(fOFFSET); o != 0 {
		r.mod()
		r.str("offset:")
		r.dec(o)
		r.end()
	}
}

// maiNotAV says a 9-bit source code names an SGPR or a constant (inline
// or literal), which LLVM 22 rejects in an MFMA's A/B operand. The
// special registers' codes (null, src_execz...) it decodes there anyway
// (the differential test's accepted words), so they are not rejected.
func maiNotAV(code, lastSGPR int) bool {
	switch {
	case code <= lastSGPR:
		return true
	case code >= 128 && code <= 208, code >= 240 && code <= 248, code == literalCode:
		return true
	}
	return false
}

// cacheAbsent marks a gfx9-11 buffer or FLAT word invalid where it sets a
// cache bit (GLC, SLC) the instruction's LLVM syntax lists no modifier
// for: CDNA 1's buffer_atomic_add_f32 and pk_add_f16 return nothing and
// take slc only, and llvm-mc rejects a word with GLC set.
func (r *renderer) cacheAbsent() {
	if r.en.memFlags&mfNoGLC != 0 {
		r.absent(fGLC)
	}
	if r.en.memFlags&mfNoSLC != 0 {
		r.absent(fSLC)
	}
}

// sccAbsent marks a CDNA 2 float atomic (buffer/global/flat add_f32,
// pk_add_f16, add/min/max_f64) invalid where it sets the SCC cache bit:
// LLVM 22 defines those atomics without it (its assembler writes 0 for
// "scc" and llvm-mc rejects a word with the bit set), where the integer
// atomics take it. The float data type the instruction's name gives
// decides (typesOf).
func (r *renderer) sccAbsent() {
	fam := r.d.fam
	if !fam.accRegs || fam.scBits || r.en.shape != shAtomic {
		return
	}
	ts := typesOf(r.en.name)
	if len(ts) == 0 || ts[len(ts)-1].t != 'f' {
		return
	}
	bit := 15 // MUBUF
	if r.fm.kind == KindFLAT {
		bit = 25
	}
	if r.raw[bit/32]>>(bit%32)&1 == 1 {
		r.mark(invalidSCC, bit)
	}
}

package decode

// RDNA 3+ interpolation (VINTERP), LDS parameter/direct loads (LDSDIR,
// VDSDIR) and exports (EXP, VEXPORT) in LLVM's syntax.

// renderVINTERP prints "v_interp_p10_f32 vD, src0, src1, src2 [clamp]
// [op_sel:[a,b,c,d]] wait_exp:N"; sources take only neg. LLVM gives the
// f32 forms no op_sel operand, so their OPSEL bits are not printed.
func (r *renderer) renderVINTERP() {
	opsel := r.f(fOPSEL)
	f16 := r.en.interpF16
	// 16-bit operands of the f16 forms: the attribute (src0) with, for
	// p10, the P0 value (src2) or, for p2, the result.
	var half [4]bool // src0, src1, src2, dst
	if f16 {
		half[0] = true
		if r.en.interpP10 {
			half[2] = true
		} else {
			half[3] = true
		}
	}
	// With true16 (RDNA 3) LLVM prints 16-bit operands as VGPR halves,
	// .h where op_sel says so; the source field then names a VGPR only.
	t16 := r.d.fam.trueSixteen
	r.op()
	r.buf = append(r.buf, 'v')
	r.dec(r.f(fVDST))
	if t16 && half[3] {
		r.half(opsel >> 3)
	}
	r.end()
	neg := r.f(fNEG)
	for i := 0; i < 3; i++ {
		code, n := r.f(srcFields[i]), neg>>uint(i)&1 == 1
		if !(t16 && half[i]) {
			if code < 256 && srcClass(code)&classC == 0 {
				// VINTERP sources are VGPRs (LLVM's VGPR_32 class, which
				// llvm-mc 22 also decodes the named constant registers
				// in: src_shared_base); a true16 half operand's field
				// names a VGPR only.
				r.mark(invalidClass, code)
			}
			r.srcMods(code, opType{'f', 32}, 0, false, n)
			continue
		}
		r.op()
		if n {
			r.buf = append(r.buf, '-')
		}
		r.buf = append(r.buf, 'v')
		r.dec(code & 0xff)
		r.half(opsel >> uint(i))
		r.end()
	}
	if r.f(fCLMP) == 1 {
		r.modStr("clamp")
	}
	if opsel != 0 && f16 {
		r.mod()
		r.str("op_sel:")
		r.bitList(opsel, 3, true)
		r.end()
	}
	r.mod()
	r.str("wait_exp:")
	r.dec(r.f(fWAITEXP))
	r.end()
}

// half writes the .l or .h suffix of a 16-bit VGPR half from bit 0 of sel.
func (r *renderer) half(sel int) {
	if sel&1 == 1 {
		r.str(".h")
	} else {
		r.str(".l")
	}
}

// renderLDSDIR prints "lds_param_load vD, attrN.c wait_vdst:N" (RDNA 3) or
// "ds_param_load vD, attrN.c wait_va_vdst:N wait_vm_vsrc:M" (RDNA 4);
// the direct loads have no attribute operand.
func (r *renderer) renderLDSDIR() {
	r.dataReg(r.f(fVDST), 1, false)
	if r.en.ldsParam {
		r.op()
		r.str("attr")
		r.dec(r.f(fATTR))
		r.buf = append(r.buf, '.', "xyzw"[r.f(fATTRCHAN)&3])
		r.end()
	}
	r.mod()
	if r.has(fWAITVM) {
		r.str("wait_va_vdst:")
		r.dec(r.f(fWAITVA))
		r.end()
		r.mod()
		r.str("wait_vm_vsrc:")
		r.dec(r.f(fWAITVM))
	} else {
		r.str("wait_vdst:")
		r.dec(r.f(fWAITVA))
	}
	r.end()
}

// Export targets as LLVM numbers them (AMDGPU::Exp in LLVM).
const (
	expMRTZ      = 8
	expNull      = 9
	expPos0      = 12
	expPos4      = 16
	expPrim      = 20
	expDualBlend = 21
	expParam0    = 32
)

// expMnemonic is LLVM's name of the export instruction: RDNA 4 renames
// it.
func expMnemonic(gen int) string {
	if gen >= 12 {
		return "export"
	}
	return "exp"
}

// renderEXP prints "exp TARGET v0, v1, off, off [done] [compr] [vm]
// [row_en]": a source whose EN bit is clear is "off"; with COMPR the
// sources are printed src0, src0, src1, src1 as LLVM does.
func (r *renderer) renderEXP() {
	// LLVM writes the target after the mnemonic without a comma
	// ("exp$tgt $src0, ..."), so it is part of the mnemonic here.
	if r.d.fam.gen >= 12 {
		// RDNA 4 renames the instruction.
		r.buf = append(r.buf[:r.base], expMnemonic(r.d.fam.gen)...)
	}
	r.buf = append(r.buf, ' ')
	r.expTarget(r.f(fTARGET), r.d.fam.gen)
	r.mnEnd = len(r.buf) - r.base
	en := r.f(fEN)
	compr := r.has(fCOMPR) && r.f(fCOMPR) == 1
	srcs := [4]fieldID{fVSRC0, fVSRC1, fVSRC2, fVSRC3}
	for i := 0; i < 4; i++ {
		if en>>uint(i)&1 == 0 {
			r.opStr("off")
			continue
		}
		j := i
		if compr {
			j = i / 2
		}
		r.dataReg(r.f(srcs[j]), 1, false)
	}
	if r.f(fDONE) == 1 {
		r.modStr("done")
	}
	if compr {
		r.modStr("compr")
	}
	if r.has(fVM) && r.f(fVM) == 1 {
		r.modStr("vm")
	}
	if r.has(fROW) && r.f(fROW) == 1 {
		r.modStr("row_en")
	}
}

// expTarget writes the target name, or invalid_target_N for one the
// generation does not have (LLVM's printExpTgt).
func (r *renderer) expTarget(t, gen int) {
	switch {
	case t < expMRTZ:
		r.str("mrt")
		r.dec(t)
		return
	case t == expMRTZ:
		r.str("mrtz")
		return
	case t == expNull && gen < 11:
		r.str("null")
		return
	case t >= expPos0 && t < expPos4 || t == expPos4 && gen >= 10:
		r.str("pos")
		r.dec(t - expPos0)
		return
	case t == expPrim && gen >= 10:
		r.str("prim")
		return
	case (t == expDualBlend || t == expDualBlend+1) && gen >= 11:
		r.str("dual_src_blend")
		r.dec(t - expDualBlend)
		return
	case t >= expParam0 && gen < 11:
		r.str("param")
		r.dec(t - expParam0)
		return
	}
	r.str("invalid_target_")
	r.dec(t)
}

// renderFLAT12 prints the RDNA 4 / CDNA 5 VFLAT, VGLOBAL and VSCRATCH
// words: "global_load_b32 v1, v2, s[2:3] offset:-8 th:TH_LOAD_NT
// scope:SCOPE_SE". Atomics print their result only with TH_ATOMIC_RETURN.
func (r *renderer) renderFLAT12() {
	en := r.en
	seg := r.fm.seg
	n := en.dataRegs
	th := r.f(fTH)
	k := r.thKindOf()
	if en.shape == shAtomic {
		if th&1 == 1 && en.memOps&(moVdst|moVdstOpt) != 0 {
			r.dataReg(r.f(fVDST), n, false)
		}
	} else if en.memOps&(moVdst|moVdstOpt) != 0 {
		r.dataReg(r.f(fVDST), n, false)
	}
	saddr := r.f(fSADDR)
	off := r.isOff(saddr)
	addr := r.f(fVADDR)
	if en.memOps&moAddr != 0 {
		switch seg {
		case segFlat, segGlobal:
			// CDNA 5 FLAT takes an SGPR base like GLOBAL.
			if off {
				r.dataReg(addr, 2, false)
			} else {
				r.dataReg(addr, 1, false)
			}
		default:
			if r.f(fSVE) == 1 {
				r.dataReg(addr, 1, false)
			} else {
				r.opStr("off")
			}
		}
	}
	if en.memOps&moData0 != 0 {
		dn := n
		if en.memFlags&mfCmpswap != 0 {
			dn = 2 * n
		}
		r.dataReg(r.f(fVSRC), dn, false)
	}
	if en.memOps&moSaddr != 0 && (seg != segFlat || !off) {
		switch {
		case off:
			r.opStr("off")
		case seg != segScratch:
			r.sdst(saddr, opType{'b', 64})
		default:
			r.sdst(saddr, opType{'b', 32})
		}
	}
	if r.has(fOFFSET) {
		if o := r.f(fOFFSET); o != 0 {
			w := r.fm.cf[fOFFSET].width()
			r.mod()
			r.str("offset:")
			r.dec(int(int64(uint64(o)<<(64-uint(w))) >> (64 - uint(w))))
			r.end()
		}
	}
	r.cachePolicy12(r.bit12(fSCALEOFF, 48), th, r.f(fSCOPE), r.bit12(fNV, 7), k)
	r.flat12Absent(off)
}

// flat12Absent is flatAbsent for gfx12's VFLAT/VGLOBAL/VSCRATCH: SVE
// (bit 49) belongs to SCRATCH addressing, and LLVM writes 0 there for
// FLAT and GLOBAL; a FLAT instruction whose syntax has no scalar base
// (RDNA 4's; CDNA 5's FLAT takes one) has the "off" code, null, in SADDR.
func (r *renderer) flat12Absent(saddrOff bool) {
	if r.fm.seg != segScratch {
		r.absent(fSVE)
	}
	if r.fm.seg == segFlat && r.en.memOps&moSaddr == 0 && !saddrOff {
		r.markField(fSADDR)
	}
}

// thKindOf says which TH names apply: atomic, store or load.
func (r *renderer) thKindOf() thKind {
	switch {
	case r.en.shape == shAtomic:
		return thAtomic
	case r.en.thStore:
		return thStore
	}
	return thLoad
}

// bit12 reads a one-bit cache-policy field, or where the guide leaves it
// out (RDNA 4 marks NV, bit 7, and SCALE_OFFSET, bit 48, reserved) the bit
// LLVM 22 reads there for every gfx12 target.
func (r *renderer) bit12(id fieldID, bit int) bool {
	if r.has(id) {
		return r.f(id) == 1
	}
	return r.raw[bit/32]>>(bit%32)&1 == 1
}

// renderBUF12 prints RDNA 4 / CDNA 5 VBUFFER words: "buffer_load_b32 v1,
// v2, s[4:7], s3 offen offset:16 th:TH_LOAD_NT" (tbuffer ones with
// their format).
func (r *renderer) renderBUF12() {
	en := r.en
	n := en.dataRegs
	if en.memFlags&mfCmpswap != 0 {
		n *= 2
	}
	tfe := r.f(fTFE) == 1
	if tfe {
		n++
	}
	th := r.f(fTH)
	k := r.thKindOf()
	if en.memOps&(moVdst|moData0|moVdstOpt) != 0 {
		r.dataReg(r.f(fVDATA), n, false)
	}
	idxen, offen := r.bufferAddr()
	r.bufferRest(r.f(fSRSRC), en.typed, idxen, offen)
	r.cachePolicy12(false, th, r.f(fSCOPE), r.bit12(fNV, 7), k)
	if tfe {
		r.modStr("tfe")
	}
	if r.has(fOFFSET) && r.f(fOFFSET)>>23&1 == 1 {
		// The 24-bit offset is signed to LLVM 22's decoder, which reads a
		// negative one as invalid (as gfx12 SMEM buffer offsets, smemAbsent).
		r.markField(fOFFSET)
	}
	r.bufAbsent()
}

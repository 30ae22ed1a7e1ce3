package decode

// smemAbsent marks an SMEM word invalid where LLVM 22's encoding of the
// instruction fixes bits it has no use for, or where an operand lies
// outside LLVM's register class for it. Each rule is a property of an
// instruction's shape and operand widths, not of a mnemonic:
//   - gfx9: an instruction without an offset operand (the cache-control
//     instructions s_dcache_inv/wb, the counters s_memtime/s_memrealtime)
//     is encoded with IMM (bit 17) 0; LLVM leaves SBASE and SOFFSET
//     unchecked there.
//   - gfx11: such instructions have no cache policy either: LLVM writes
//     0 to GLC (bit 14) and DLC (bit 13).
//   - gfx12: a buffer access (the 128-bit resource base) takes an unsigned
//     offset (LLVM's decoder reads a negative IOFFSET as invalid), a
//     prefetch's SDATA holds a 5-bit line count and s_atc_probe's a 5-bit
//     probe mode (bits 11-12 are 0; gfx10-gfx11 and gfx9 take 7 bits).
func (r *renderer) smemAbsent() {
	en := r.en
	gen := r.d.fam.gen
	noOffset := en.shape == shNoOperands || en.shape == shSMEMTime || en.shape == shSMEMWaveID
	switch {
	case gen == 9 && noOffset:
		r.absent(fIMM)
	case gen == 11 && noOffset:
		if r.raw[0]>>13&3 != 0 {
			r.mark(invalidUnused, int(r.raw[0]>>13&3))
		}
	case gen >= 12:
		if en.baseBits == 128 && r.f(fOFFSET)>>23&1 == 1 {
			r.markField(fOFFSET)
		}
		if (en.shape == shPrefetch || en.shape == shPrefetchPCRel || en.shape == shATCProbe) && r.f(fSDATA) >= 32 {
			r.markField(fSDATA)
		}
	}
}

// smemDataClass marks an SMEM data operand outside LLVM's class for it:
// loads, stores and atomics use SReg_32_XM0_XEXEC and SReg_64_XEXEC for
// one and two dwords (no m0, exec_lo, exec_hi or exec), and SReg_96 (three
// dwords) holds SGPR tuples only, no ttmp one.
func (r *renderer) smemDataClass(code, regs int) {
	fam := r.d.fam
	switch regs {
	case 1:
		switch fam.n32[code] {
		case "m0", "exec_lo", "exec_hi":
			r.mark(invalidClass, code)
		}
	case 2:
		if fam.n64[code] == "exec" {
			r.mark(invalidClass, code)
		}
	case 3:
		if code >= ttmpFirst && code <= ttmpLast {
			r.mark(invalidClass, code)
		}
	}
}

package amdlayout

import (
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// ImmField is one documented sub-field of a 16-bit immediate (SIMM16), in
// the bits of the immediate (0-15), with the value that means "no wait"
// or "default" where the assembler leaves it out.
type ImmField struct {
	isa.Field
	// Default is the value llvm-mc assumes when the assembly leaves the
	// sub-field out (a counter's "no wait" maximum); -1 when it must be
	// given.
	Default int
}

// Immediate fields of the SOPP/SOPK immediates, by what they hold. The
// bit positions are the guides' (RDNA 3 guide, S_WAITCNT, S_DELAY_ALU,
// S_WAITCNT_DEPCTR, S_GETREG_B32, S_SENDMSG; CDNA 4 guide, S_WAITCNT) and
// the ones llvm-mc 22 encodes for every generation.
var (
	waitcnt9 = []ImmField{
		imm("vmcnt", "Vector memory count: wait until at most this many vector memory loads are outstanding (bits [15:14] are its high part).", 63, isa.BitRange{MSB: 15, LSB: 14}, isa.BitRange{MSB: 3, LSB: 0}),
		imm("expcnt", "Export count: wait until at most this many exports and GDS writes are outstanding.", 7, isa.BitRange{MSB: 6, LSB: 4}),
		imm("lgkmcnt", "LDS, GDS, constant and message count: wait until at most this many are outstanding.", 15, isa.BitRange{MSB: 11, LSB: 8}),
	}
	waitcnt10 = []ImmField{
		waitcnt9[0], waitcnt9[1],
		imm("lgkmcnt", waitcnt9[2].Description, 63, isa.BitRange{MSB: 13, LSB: 8}),
	}
	waitcnt11 = []ImmField{
		imm("vmcnt", "Vector memory count: wait until at most this many vector memory loads are outstanding.", 63, isa.BitRange{MSB: 15, LSB: 10}),
		imm("expcnt", waitcnt9[1].Description, 7, isa.BitRange{MSB: 2, LSB: 0}),
		imm("lgkmcnt", waitcnt9[2].Description, 63, isa.BitRange{MSB: 9, LSB: 4}),
	}
	delayALU = []ImmField{
		imm("instid0", "Which earlier instruction the next one depends on (NO_DEP, VALU_DEP_1-4, TRANS32_DEP_1-3, FMA_ACCUM_CYCLE_1, SALU_CYCLE_1-3).", 0, isa.BitRange{MSB: 3, LSB: 0}),
		imm("instskip", "How many instructions after the next one the second dependency applies to (SAME, NEXT, SKIP_1-4).", 0, isa.BitRange{MSB: 6, LSB: 4}),
		imm("instid1", "The second dependency, as instid0.", 0, isa.BitRange{MSB: 10, LSB: 7}),
	}
	// depCtr lists the counters in LLVM's printing order.
	depCtr = []ImmField{
		imm("depctr_hold_cnt", "Hold count.", 1, isa.BitRange{MSB: 7, LSB: 7}),
		imm("depctr_sa_sdst", "Wait for SALU writes of SGPRs.", 1, isa.BitRange{MSB: 0, LSB: 0}),
		imm("depctr_va_vdst", "Wait until at most this many VALU writes of VGPRs are outstanding.", 15, isa.BitRange{MSB: 15, LSB: 12}),
		imm("depctr_va_sdst", "Wait until at most this many VALU writes of SGPRs are outstanding.", 7, isa.BitRange{MSB: 11, LSB: 9}),
		imm("depctr_va_ssrc", "Wait for VALU reads of SGPRs.", 1, isa.BitRange{MSB: 8, LSB: 8}),
		imm("depctr_va_vcc", "Wait for VALU writes of VCC.", 1, isa.BitRange{MSB: 1, LSB: 1}),
		imm("depctr_vm_vsrc", "Wait until at most this many vector memory reads of VGPRs are outstanding.", 7, isa.BitRange{MSB: 4, LSB: 2}),
	}
	hwreg = []ImmField{
		imm("id", "Hardware register (hwreg(HW_REG_...)).", -1, isa.BitRange{MSB: 5, LSB: 0}),
		imm("offset", "First bit of the register read or written.", 0, isa.BitRange{MSB: 10, LSB: 6}),
		imm("size", "Number of bits read or written, minus one.", 31, isa.BitRange{MSB: 15, LSB: 11}),
	}
	sendmsg9 = []ImmField{
		imm("msg", "Message (sendmsg(MSG_...)).", -1, isa.BitRange{MSB: 3, LSB: 0}),
		imm("op", "Operation of the message (GS_OP_..., SYSMSG_OP_...).", 0, isa.BitRange{MSB: 6, LSB: 4}),
		imm("stream", "Stream of a GS message.", 0, isa.BitRange{MSB: 9, LSB: 8}),
	}
	sendmsg11 = []ImmField{
		imm("msg", "Message (sendmsg(MSG_...)).", -1, isa.BitRange{MSB: 7, LSB: 0}),
	}
)

func imm(name, desc string, def int, rs ...isa.BitRange) ImmField {
	f := isa.Field{Name: name, MSB: rs[0].MSB, LSB: rs[0].LSB, Description: desc}
	if len(rs) > 1 {
		f.Ranges = rs
	}
	return ImmField{Field: f, Default: def}
}

// Immediate kinds ImmediateFields knows.
const (
	ImmWaitcnt  = "waitcnt"
	ImmDelayALU = "delay_alu"
	ImmDepCtr   = "depctr"
	ImmHwreg    = "hwreg"
	ImmSendmsg  = "sendmsg"
)

// ImmediateKind says which documented layout an instruction's SIMM16
// follows ("" for a plain number).
func ImmediateKind(mnemonic string) string {
	switch strings.ToLower(mnemonic) {
	case "s_waitcnt":
		return ImmWaitcnt
	case "s_delay_alu":
		return ImmDelayALU
	case "s_waitcnt_depctr", "s_wait_alu":
		return ImmDepCtr
	case "s_getreg_b32", "s_setreg_b32", "s_setreg_imm32_b32":
		return ImmHwreg
	case "s_sendmsg", "s_sendmsghalt":
		return ImmSendmsg
	}
	return ""
}

// ImmediateFields returns the sub-fields of the 16-bit immediate of kind
// (ImmediateKind) in family, in the bits of the immediate; nil when the
// family has no such layout. The slice is shared: do not modify it.
func ImmediateFields(family, kind string) []ImmField {
	// The layouts follow the encoding generation (isa.ArchInfo.Gen); an
	// unknown family has generation 0 and no layouts.
	info, _ := isa.ArchByID(family)
	gen := info.Gen
	switch kind {
	case ImmWaitcnt:
		switch gen {
		case 9:
			return waitcnt9
		case 10:
			return waitcnt10
		case 11, 12:
			return waitcnt11
		}
	case ImmDelayALU:
		if gen >= 11 {
			return delayALU
		}
	case ImmDepCtr:
		switch {
		case info.Has(isa.TraitNoDepCtrHoldCnt):
			// gfx1010 has no hold_cnt (bit 7); llvm-mc decodes it from gfx1030 on.
			return depCtr[1:]
		case gen >= 10:
			return depCtr
		}
	case ImmHwreg:
		if gen > 0 {
			return hwreg
		}
	case ImmSendmsg:
		switch {
		case gen >= 11:
			return sendmsg11
		case gen > 0:
			return sendmsg9
		}
	}
	return nil
}

// Parts returns the documented sub-fields of the SIMM16 field of mnemonic
// in family, placed at simm16's bits (which may start above bit 0): what
// a diagram draws inside SIMM16. nil when there are none.
func Parts(family, mnemonic string, simm16 isa.Field) []isa.Field {
	subs := ImmediateFields(family, ImmediateKind(mnemonic))
	if len(subs) == 0 || len(simm16.Ranges) > 0 || simm16.Width() != 16 {
		return nil
	}
	base := simm16.LSB
	out := make([]isa.Field, 0, len(subs))
	for _, s := range subs {
		f := s.Field
		f.MSB, f.LSB = f.MSB+base, f.LSB+base
		if len(f.Ranges) > 0 {
			rs := make([]isa.BitRange, len(f.Ranges))
			for i, r := range f.Ranges {
				rs[i] = isa.BitRange{MSB: r.MSB + base, LSB: r.LSB + base}
			}
			f.Ranges = rs
		}
		out = append(out, f)
	}
	return out
}

package decode

import (
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Symbolic SALU immediates: s_getreg/s_setreg's hwreg(...), s_sendmsg's
// sendmsg(...) and s_set_gpr_idx_on/mode's gpr_idx(...). LLVM prints these
// 16-bit fields by name; the names below were written down from what
// llvm-mc 22 prints for each generation (every register / message ID
// disassembled on gfx900, gfx942, gfx1010, gfx1030, gfx1100, gfx1200,
// gfx1250), not copied from LLVM's sources.

// hwregNames returns the HW_REG_* names by register ID (SIMM16[5:0]) that
// LLVM prints for a family (by its generation and traits); IDs without a
// name print as numbers.
func hwregNames(info isa.ArchInfo) (t [64]string) {
	switch info.Gen {
	case 9:
		for id, n := range []string{1: "MODE", 2: "STATUS", 3: "TRAPSTS", 4: "HW_ID", 5: "GPR_ALLOC",
			6: "LDS_ALLOC", 7: "IB_STS", 15: "SH_MEM_BASES", 16: "TBA_LO", 17: "TBA_HI", 18: "TMA_LO", 19: "TMA_HI"} {
			t[id] = n
		}
		if info.Has(isa.TraitXCCHwregs) {
			// The CDNA 3 XCC and performance-snapshot registers.
			for id, n := range map[int]string{20: "XCC_ID", 21: "SQ_PERF_SNAPSHOT_DATA", 22: "SQ_PERF_SNAPSHOT_DATA1",
				23: "SQ_PERF_SNAPSHOT_PC_LO", 24: "SQ_PERF_SNAPSHOT_PC_HI"} {
				t[id] = n
			}
		}
	case 10:
		for id, n := range []string{1: "MODE", 2: "STATUS", 3: "TRAPSTS", 5: "GPR_ALLOC", 6: "LDS_ALLOC",
			7: "IB_STS", 15: "SH_MEM_BASES", 16: "TBA_LO", 17: "TBA_HI", 18: "TMA_LO", 19: "TMA_HI",
			20: "FLAT_SCR_LO", 21: "FLAT_SCR_HI", 23: "HW_ID1", 24: "HW_ID2", 25: "POPS_PACKER"} {
			t[id] = n
		}
		if info.Has(isa.TraitXNACKMaskHwreg) {
			t[22] = "XNACK_MASK"
		} else {
			t[29] = "SHADER_CYCLES"
		}
	case 11:
		for id, n := range []string{1: "MODE", 2: "STATUS", 3: "TRAPSTS", 5: "GPR_ALLOC", 6: "LDS_ALLOC",
			7: "IB_STS", 15: "SH_MEM_BASES", 18: "PERF_SNAPSHOT_PC_LO", 19: "PERF_SNAPSHOT_PC_HI",
			20: "FLAT_SCR_LO", 21: "FLAT_SCR_HI", 23: "HW_ID1", 24: "HW_ID2", 27: "PERF_SNAPSHOT_DATA",
			29: "SHADER_CYCLES"} {
			t[id] = n
		}
	case 12:
		for id, n := range []string{1: "WAVE_MODE", 2: "WAVE_STATUS", 4: "WAVE_STATE_PRIV", 5: "WAVE_GPR_ALLOC",
			6: "WAVE_LDS_ALLOC", 7: "IB_STS", 10: "PERF_SNAPSHOT_DATA", 11: "PERF_SNAPSHOT_PC_LO",
			12: "PERF_SNAPSHOT_PC_HI", 15: "PERF_SNAPSHOT_DATA1", 16: "PERF_SNAPSHOT_DATA2",
			17: "WAVE_EXCP_FLAG_PRIV", 18: "WAVE_EXCP_FLAG_USER", 19: "WAVE_TRAP_CTRL",
			20: "WAVE_SCRATCH_BASE_LO", 21: "WAVE_SCRATCH_BASE_HI", 23: "WAVE_HW_ID1", 24: "WAVE_HW_ID2",
			26: "WAVE_SCHED_MODE", 29: "SHADER_CYCLES_LO", 30: "SHADER_CYCLES_HI",
			31: "WAVE_DVGPR_ALLOC_LO", 32: "WAVE_DVGPR_ALLOC_HI"} {
			t[id] = n
		}
		if info.Has(isa.TraitGFX1250Names) {
			t[28], t[33], t[34] = "IB_STS2", "XNACK_STATE_PRIV", "XNACK_MASK"
		}
	}
	for i, n := range t {
		if n != "" {
			t[i] = "HW_REG_" + n
		}
	}
	return t
}

// msgNames returns the MSG_* names by message ID: SIMM16[3:0] before RDNA 3,
// SIMM16[7:0] from RDNA 3 on.
func msgNames(info isa.ArchInfo) (t [256]string) {
	switch {
	case info.Gen < 11:
		for id, n := range []string{1: "INTERRUPT", 2: "GS", 3: "GS_DONE", 4: "SAVEWAVE", 5: "STALL_WAVE_GEN",
			6: "HALT_WAVES", 7: "ORDERED_PS_DONE", 8: "EARLY_PRIM_DEALLOC", 9: "GS_ALLOC_REQ",
			10: "GET_DOORBELL", 15: "SYSMSG"} {
			t[id] = n
		}
		if info.Gen == 10 {
			t[11] = "GET_DDID"
		}
	default:
		for id, n := range []string{1: "INTERRUPT", 2: "HS_TESSFACTOR", 3: "DEALLOC_VGPRS", 9: "GS_ALLOC_REQ",
			128: "RTN_GET_DOORBELL", 129: "RTN_GET_DDID", 130: "RTN_GET_TMA", 131: "RTN_GET_REALTIME",
			132: "RTN_SAVE_WAVE", 133: "RTN_GET_TBA", 134: "RTN_GET_TBA_TO_PC"} {
			t[id] = n
		}
		switch info.Gen {
		case 11:
			t[5], t[6] = "STALL_WAVE_GEN", "HALT_WAVES"
		case 12:
			t[135] = "RTN_GET_SE_AID_ID"
		}
		if info.Has(isa.TraitGFX1250Names) {
			t[10], t[136] = "SAVEWAVE_HAS_TDM", "RTN_GET_CLUSTER_BARRIER_STATE"
		}
	}
	for i, n := range t {
		if n != "" {
			t[i] = "MSG_" + n
		}
	}
	return t
}

// Message IDs (before RDNA 3) whose operation field is printed, and the
// names of those operations.
const (
	msgGS, msgGSDone, msgSysmsg = 2, 3, 15
)

var (
	gsOpNames     = [8]string{0: "GS_OP_NOP", 1: "GS_OP_CUT", 2: "GS_OP_EMIT", 3: "GS_OP_EMIT_CUT"}
	sysmsgOpNames = [8]string{1: "SYSMSG_OP_ECC_ERR_INTERRUPT", 2: "SYSMSG_OP_REG_RD", 4: "SYSMSG_OP_TTRACE_PC"}
	gprIdxNames   = [4]string{"SRC0", "SRC1", "SRC2", "DST"}
)

// immFields returns the documented sub-fields of a kind of immediate for
// the decoder's family (package amdlayout owns their layouts).
func (d *Decoder) immFields(kind string) []amdlayout.ImmField {
	return amdlayout.ImmediateFields(d.arch.ID, kind)
}

// immGet reads sub-field f of the 16-bit immediate v.
func immGet(f amdlayout.ImmField, v int) int {
	w := [1]uint32{uint32(v)}
	return int(f.Get(w[:]))
}

// immPut writes x into sub-field f of v.
func immPut(f amdlayout.ImmField, v, x int) int {
	w := [1]uint32{uint32(v)}
	f.Put(w[:], uint64(x))
	return int(w[0])
}

// immMask is the bits of sub-field f.
func immMask(f amdlayout.ImmField) int { return immPut(f, 0, 1<<f.Width()-1) }

// immMax is the largest value sub-field f holds.
func immMax(f amdlayout.ImmField) int { return 1<<f.Width() - 1 }

// immByName finds a sub-field by name.
func immByName(subs []amdlayout.ImmField, name string) (amdlayout.ImmField, bool) {
	for _, s := range subs {
		if s.Name == name {
			return s, true
		}
	}
	return amdlayout.ImmField{}, false
}

// hwreg prints SIMM16 as hwreg(NAME) when it reads the whole register,
// else hwreg(NAME, offset, size) (the stored size is one less).
func (r *renderer) hwreg(v int) {
	subs := r.d.immFields(amdlayout.ImmHwreg)
	fID, ok1 := immByName(subs, "id")
	fOff, ok2 := immByName(subs, "offset")
	fSize, ok3 := immByName(subs, "size")
	if !ok1 || !ok2 || !ok3 {
		r.dec(v)
		return
	}
	id, off, size := immGet(fID, v), immGet(fOff, v), immGet(fSize, v)+1
	r.str("hwreg(")
	if n := r.d.fam.hwreg[id&63]; n != "" {
		r.str(n)
	} else {
		r.dec(id)
	}
	if off != 0 || size != 32 {
		r.str(", ")
		r.dec(off)
		r.str(", ")
		r.dec(size)
	}
	r.buf = append(r.buf, ')')
}

// sendmsg prints a message immediate as LLVM does: by name when the ID,
// operation and stream are all valid for the generation; as
// sendmsg(id, op, stream) when the value holds nothing but those fields;
// else as a plain decimal. From RDNA 3 on a message is only an ID.
func (r *renderer) sendmsg(v int) {
	fam := r.d.fam
	subs := r.d.immFields(amdlayout.ImmSendmsg)
	var id, op, stream, fields int
	for _, s := range subs {
		fields |= immMask(s)
		switch s.Name {
		case "msg":
			id = immGet(s, v)
		case "op":
			op = immGet(s, v)
		case "stream":
			stream = immGet(s, v)
		}
	}
	fields &= v
	name := fam.msg[id&255]
	if fam.gen >= 11 || (id != msgGS && id != msgGSDone && id != msgSysmsg) {
		if name != "" && op == 0 && stream == 0 {
			r.str("sendmsg(")
			r.str(name)
			r.buf = append(r.buf, ')')
			return
		}
	} else {
		var opName string
		streamOK := stream == 0
		if id == msgSysmsg {
			opName = sysmsgOpNames[op&7]
		} else {
			opName = gsOpNames[op&7]
			if id == msgGS && op == 0 {
				opName = "" // GS_OP_NOP is only valid with MSG_GS_DONE
			}
			if op != 0 {
				streamOK = true
			}
		}
		if opName != "" && streamOK {
			r.str("sendmsg(")
			r.str(name)
			r.str(", ")
			r.str(opName)
			if id != msgSysmsg && op != 0 {
				r.str(", ")
				r.dec(stream)
			}
			r.buf = append(r.buf, ')')
			return
		}
	}
	if fields == v {
		r.str("sendmsg(")
		r.dec(id)
		r.str(", ")
		r.dec(op)
		r.str(", ")
		r.dec(stream)
		r.buf = append(r.buf, ')')
		return
	}
	r.dec(v)
}

// gprIdx prints s_set_gpr_idx_on/mode's mode bits as gpr_idx(SRC0,...),
// or the value in hex when bits above the four modes are set.
func (r *renderer) gprIdx(v int) {
	if v&^15 != 0 {
		r.hex(uint64(v))
		return
	}
	r.str("gpr_idx(")
	first := true
	for i, n := range gprIdxNames {
		if v&(1<<i) != 0 {
			if !first {
				r.buf = append(r.buf, ',')
			}
			r.str(n)
			first = false
		}
	}
	r.buf = append(r.buf, ')')
}

// Buffer formats of MTBUF (tbuffer_*), as LLVM 22 prints them. GCN 5 / CDNA
// split the field into a data format (DFMT) and a number format (NFMT);
// RDNA has one 7-bit unified format whose numbering changed in RDNA 3.
var (
	bufDataFormats = [16]string{"INVALID", "8", "16", "8_8", "32", "16_16", "10_11_11", "11_11_10",
		"10_10_10_2", "2_10_10_10", "8_8_8_8", "32_32", "16_16_16_16", "32_32_32", "32_32_32_32", "RESERVED_15"}
	bufNumFormats = [8]string{"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "RESERVED_6", "FLOAT"}
	// unifiedFormats10/11 index BUF_FMT_* names by the unified format
	// value: each data format followed by the number formats it allows.
	unifiedFormats10 = unifiedFormats([]string{"INVALID"},
		fmtRun{"8", nfAll6}, fmtRun{"16", nfAll7}, fmtRun{"8_8", nfAll6}, fmtRun{"32", nfInt3},
		fmtRun{"16_16", nfAll7}, fmtRun{"10_11_11", nfAll7}, fmtRun{"11_11_10", nfAll7},
		fmtRun{"10_10_10_2", nfAll6}, fmtRun{"2_10_10_10", nfAll6}, fmtRun{"8_8_8_8", nfAll6},
		fmtRun{"32_32", nfInt3}, fmtRun{"16_16_16_16", nfAll7}, fmtRun{"32_32_32", nfInt3},
		fmtRun{"32_32_32_32", nfInt3})
	unifiedFormats11 = unifiedFormats([]string{"INVALID"},
		fmtRun{"8", nfAll6}, fmtRun{"16", nfAll7}, fmtRun{"8_8", nfAll6}, fmtRun{"32", nfInt3},
		fmtRun{"16_16", nfAll7}, fmtRun{"10_11_11", []string{"FLOAT"}}, fmtRun{"11_11_10", []string{"FLOAT"}},
		fmtRun{"10_10_10_2", []string{"UNORM", "SNORM", "UINT", "SINT"}}, fmtRun{"2_10_10_10", nfAll6},
		fmtRun{"8_8_8_8", nfAll6}, fmtRun{"32_32", nfInt3}, fmtRun{"16_16_16_16", nfAll7},
		fmtRun{"32_32_32", nfInt3}, fmtRun{"32_32_32_32", nfInt3})
	nfAll6 = []string{"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT"}
	nfAll7 = append(append([]string(nil), nfAll6...), "FLOAT")
	nfInt3 = []string{"UINT", "SINT", "FLOAT"}
)

type fmtRun struct {
	data string
	nums []string
}

func unifiedFormats(first []string, runs ...fmtRun) (t [128]string) {
	i := 0
	for _, n := range first {
		t[i] = "BUF_FMT_" + n
		i++
	}
	for _, r := range runs {
		for _, n := range r.nums {
			t[i] = "BUF_FMT_" + r.data + "_" + n
			i++
		}
	}
	return t
}

// bufFormat prints an MTBUF's format:[...] unless it is the default
// (BUF_DATA_FORMAT_8 with BUF_NUM_FORMAT_UNORM; BUF_FMT_8_UNORM).
func (r *renderer) bufFormat() {
	if r.d.fam.gen < 10 {
		dfmt, nfmt := r.f(fDFMT), r.f(fNFMT)
		if dfmt == 1 && nfmt == 0 {
			return
		}
		r.mod()
		r.str("format:[")
		if dfmt != 1 {
			r.str("BUF_DATA_FORMAT_")
			r.str(bufDataFormats[dfmt&15])
			if nfmt != 0 {
				r.buf = append(r.buf, ',')
			}
		}
		if nfmt != 0 {
			r.str("BUF_NUM_FORMAT_")
			r.str(bufNumFormats[nfmt&7])
		}
		r.buf = append(r.buf, ']')
		r.end()
		return
	}
	v := r.f(fFORMAT)
	if !r.has(fFORMAT) {
		v = r.f(fDFMT) // the RDNA 1/2 guides call the unified field DFMT
	}
	if v == 1 {
		return
	}
	names := &unifiedFormats10
	if r.d.fam.gen >= 11 {
		names = &unifiedFormats11
	}
	r.mod()
	r.str("format:")
	if n := names[v&127]; n != "" {
		r.buf = append(r.buf, '[')
		r.str(n)
		r.buf = append(r.buf, ']')
	} else {
		r.dec(v)
	}
	r.end()
}

// interpParams names v_interp_mov_f32's VSRC codes; others print as
// invalid_param_N, as LLVM does.
var interpParams = [3]string{"p10", "p20", "p0"}

// renderVINTRP prints vdst, the vertex data (a VGPR, or for v_interp_mov
// the parameter p10/p20/p0) and attrN.chan.
func (r *renderer) renderVINTRP() {
	r.dataReg(r.f(fVDST), 1, false)
	r.op()
	v := r.f(fVSRC)
	switch {
	case !r.en.interpMov:
		r.str("v")
		r.dec(v)
	case v < len(interpParams):
		r.str(interpParams[v])
	default:
		r.str("invalid_param_")
		r.dec(v)
	}
	r.end()
	r.op()
	r.str("attr")
	r.dec(r.f(fATTR))
	r.buf = append(r.buf, '.', "xyzw"[r.f(fATTRCHAN)&3])
	r.end()
}

// SymbolicImmediate turns the symbolic immediate of an s_waitcnt,
// s_delay_alu or s_waitcnt_depctr / s_wait_alu operand ("vmcnt(0)
// lgkmcnt(0)", "instid0(VALU_DEP_1) | instskip(NEXT)", "depctr_va_vdst(0)")
// into the 16-bit value, with the same bit layouts and names the decoder
// prints them with; counters left out keep their "no wait" maximum.
func (d *Decoder) SymbolicImmediate(mnemonic, text string) (int, bool) {
	type arg struct {
		name string
		val  string
	}
	var args []arg
	for _, tok := range strings.FieldsFunc(strings.ToLower(text), func(c rune) bool { return c == ' ' || c == '|' || c == '&' || c == ',' }) {
		name, rest, ok := strings.Cut(tok, "(")
		if !ok || !strings.HasSuffix(rest, ")") {
			return 0, false
		}
		args = append(args, arg{name, strings.TrimSuffix(rest, ")")})
	}
	if len(args) == 0 {
		return 0, false
	}
	num := func(s string) (int, bool) {
		v, err := strconv.Atoi(s)
		return v, err == nil && v >= 0
	}
	subs := d.immFields(amdlayout.ImmediateKind(mnemonic))
	if len(subs) == 0 {
		return 0, false
	}
	switch amdlayout.ImmediateKind(mnemonic) {
	case amdlayout.ImmWaitcnt, amdlayout.ImmDepCtr:
		// Counters left out keep their "no wait" default.
		v := 0
		for _, s := range subs {
			v = immPut(s, v, s.Default)
		}
		for _, a := range args {
			n, ok := num(a.val)
			s, found := immByName(subs, a.name)
			if !ok || !found || n > immMax(s) {
				return 0, false
			}
			v = immPut(s, v, n)
		}
		return v, true
	case amdlayout.ImmDelayALU:
		v := 0
		for _, a := range args {
			s, found := immByName(subs, a.name)
			if !found {
				return 0, false
			}
			i := indexFold(delayNames(s.Name), a.val)
			if i < 0 || i > immMax(s) {
				return 0, false
			}
			v = immPut(s, v, i)
		}
		return v, true
	}
	return 0, false
}

func indexFold(names []string, s string) int {
	for i, n := range names {
		if strings.EqualFold(n, s) {
			return i
		}
	}
	return -1
}

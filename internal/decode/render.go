package decode

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// renderer prints one instruction's operands in LLVM's syntax.
type renderer struct {
	d   *Decoder
	fm  *format
	en  *entry
	raw []uint32
	in  *Inst

	literal    uint32
	hasLiteral bool
	needLit    bool
}

// standardLayout gives the position of fields some guides leave out of a
// table (the RDNA 3 guide's SOPK table has no SIMM16 row). Keys are
// "KIND/FIELD"; the ranges are the same in every family.
var standardLayout = map[string][2]int{
	"SOPK/SIMM16": {15, 0},
	"SOPP/SIMM16": {15, 0},
}

func (r *renderer) field(name string) (uint64, bool) {
	if f, ok := r.fm.fields[name]; ok {
		return extractWords(r.raw, f), true
	}
	kindName := map[kind]string{kSOPK: "SOPK", kSOPP: "SOPP"}[r.fm.kind]
	if lay, ok := standardLayout[kindName+"/"+name]; ok {
		var v uint64
		for b := lay[0]; b >= lay[1]; b-- {
			v = v<<1 | uint64(r.raw[b/32]>>(uint(b)%32)&1)
		}
		return v, true
	}
	return 0, false
}

func (r *renderer) f(name string) int {
	v, _ := r.field(name)
	return int(v)
}

func (r *renderer) add(ops ...string) { r.in.Operands = append(r.in.Operands, ops...) }
func (r *renderer) mod(m ...string)   { r.in.Modifiers = append(r.in.Modifiers, m...) }

// render fills r.in and returns how many bytes follow the fixed-width part
// (a literal, a DPP or SDWA dword).
func (r *renderer) render(code []byte, next int) (int, error) {
	name := r.en.name
	s := r.en.sig
	fam := r.d.fam
	extra := 0
	// A second dword announced by src0 (DPP, SDWA) or a literal constant.
	if k := r.fm.kind; k == kVOP1 || k == kVOP2 || k == kVOPC {
		src0 := r.f("SRC0")
		switch {
		case src0 == fam.dpp || src0 == fam.sdwa || (fam.dpp8 >= 0 && (src0 == fam.dpp8 || src0 == fam.dpp8fi)):
			if len(code)-next < 4 {
				return 0, fmt.Errorf("truncated: %s needs a DPP/SDWA dword at offset %d", r.fm.Name, next)
			}
			r.in.Extra = map[bool]string{true: "SDWA", false: "DPP"}[src0 == fam.sdwa]
			if fam.dpp8 >= 0 && (src0 == fam.dpp8 || src0 == fam.dpp8fi) {
				r.in.Extra = "DPP8"
			}
			r.in.Mnemonic = name + "_" + strings.ToLower(strings.TrimSuffix(r.in.Extra, "8"))
			r.in.Partial = true
			r.in.Operands = []string{"(" + r.in.Extra + " operands not rendered yet)"}
			return 4, nil
		}
	}
	if r.mayUseLiteral() {
		if len(code)-next < 4 {
			return 0, fmt.Errorf("truncated literal: %s %s needs a 32-bit constant at offset %d, %d byte(s) left", name, r.fm.Name, next, len(code)-next)
		}
		r.literal = binary.LittleEndian.Uint32(code[next:])
		r.hasLiteral = true
		extra = 4
	}
	switch r.fm.kind {
	case kSOP2:
		if name == "s_cbranch_g_fork" {
			r.add(r.ssrc(r.f("SSRC0"), opType{'b', 64}), r.ssrc(r.f("SSRC1"), opType{'b', 64}))
			break
		}
		r.add(r.sdst(r.f("SDST"), s.dst), r.ssrc(r.f("SSRC0"), s.src[0]), r.ssrc(r.f("SSRC1"), s.src[1]))
	case kSOP1:
		r.renderSOP1()
	case kSOPC:
		if name == "s_set_gpr_idx_on" {
			// SSRC1 holds the 4-bit mode mask as an immediate, not an operand code.
			r.add(r.ssrc(r.f("SSRC0"), s.src[0]), fmt.Sprintf("0x%x", r.f("SSRC1")))
			break
		}
		r.add(r.ssrc(r.f("SSRC0"), s.src[0]), r.ssrc(r.f("SSRC1"), s.src[1]))
	case kSOPK:
		r.renderSOPK()
	case kSOPP:
		r.renderSOPP()
	case kSMEM:
		r.renderSMEM()
	case kVOP1:
		r.renderVOP1()
	case kVOP2:
		r.renderVOP2()
	case kVOPC:
		r.renderVOPC()
	case kVOP3, kVOP3B:
		r.renderVOP3()
	case kVOP3P:
		r.renderVOP3P()
	default:
		r.in.Partial = true
	}
	if r.hasLiteral && !r.needLit {
		// A literal was read for a field that did not use it: give it back.
		extra = 0
	}
	return extra, nil
}

// mayUseLiteral says whether any source field of this instruction holds the
// literal code, or the instruction always carries a constant (v_fmamk_f32).
func (r *renderer) mayUseLiteral() bool {
	name := r.en.name
	switch r.fm.kind {
	case kSOP2, kSOPC:
		return r.f("SSRC0") == literalCode || r.f("SSRC1") == literalCode
	case kSOP1:
		return r.f("SSRC0") == literalCode
	case kSOPK:
		return strings.HasPrefix(name, "s_setreg_imm32")
	case kVOP1, kVOPC:
		return r.f("SRC0") == literalCode
	case kVOP2:
		return r.f("SRC0") == literalCode || isKConst(name)
	case kVOP3, kVOP3B, kVOP3P:
		if !r.d.fam.vop3Lit {
			return false
		}
		for i, n := range []string{"SRC0", "SRC1", "SRC2"} {
			if i < r.en.sig.nsrc && r.f(n) == literalCode {
				return true
			}
		}
	}
	return false
}

func isKConst(name string) bool {
	return strings.Contains(name, "madmk") || strings.Contains(name, "madak") ||
		strings.Contains(name, "fmamk") || strings.Contains(name, "fmaak")
}

func (r *renderer) renderSOP1() {
	name, s := r.en.name, r.en.sig
	switch {
	case name == "s_getpc_b64":
		r.add(r.sdst(r.f("SDST"), s.dst))
	case name == "s_setpc_b64", name == "s_rfe_b64", name == "s_cbranch_join", name == "s_set_gpr_idx_idx",
		strings.HasPrefix(name, "s_sleep_var"):
		r.add(r.ssrc(r.f("SSRC0"), s.src[0]))
	default:
		r.add(r.sdst(r.f("SDST"), s.dst), r.ssrc(r.f("SSRC0"), s.src[0]))
	}
}

func (r *renderer) renderSOPK() {
	name := r.en.name
	imm := r.f("SIMM16")
	dst := r.sdst(r.f("SDST"), r.en.sig.dst)
	switch {
	case strings.HasPrefix(name, "s_call_b64"), strings.HasPrefix(name, "s_cbranch_i_fork"):
		r.add(r.sdst(r.f("SDST"), opType{'b', 64}), fmt.Sprint(imm))
	case strings.HasPrefix(name, "s_getreg"), strings.HasPrefix(name, "s_setreg"):
		// hwreg(...) symbolic form: printed as the raw 16-bit value here.
		r.in.Partial = true
		if strings.HasPrefix(name, "s_getreg") {
			r.add(dst, fmt.Sprintf("0x%x", imm))
		} else if strings.HasPrefix(name, "s_setreg_imm32") {
			r.needLit = true
			r.add(fmt.Sprintf("0x%x", r.literal), fmt.Sprintf("0x%x", imm))
		} else {
			r.add(fmt.Sprintf("0x%x", imm), dst)
		}
	case name == "s_version":
		r.add(u16(imm))
	default:
		r.add(dst, fmt.Sprintf("0x%x", imm))
	}
}

// u16 prints an unsigned immediate as LLVM does: decimal when it could be an
// inline integer (0..64), hex otherwise.
func u16(v int) string {
	if v >= 0 && v <= 64 {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("0x%x", v)
}

// sopNoOperand lists SOPP instructions LLVM prints without an operand.
var sopNoOperand = map[string]bool{
	"s_barrier": true, "s_icache_inv": true, "s_wakeup": true, "s_ttracedata": true, "s_endpgm_saved": true,
	"s_endpgm_ordered_ps_done": true, "s_code_end": true, "s_wait_idle": true, "s_set_gpr_idx_off": true,
	"s_barrier_wait": false,
}

func (r *renderer) renderSOPP() {
	name := r.en.name
	imm := r.f("SIMM16")
	switch {
	case sopNoOperand[name]:
	case name == "s_endpgm":
		if imm != 0 {
			r.add(fmt.Sprint(imm))
		}
	case strings.HasPrefix(name, "s_branch") || strings.HasPrefix(name, "s_cbranch") || strings.HasPrefix(name, "s_call"):
		// Without a label LLVM prints the raw 16-bit offset, unsigned.
		r.add(fmt.Sprint(imm))
	case name == "s_waitcnt" && r.d.fam.gen == 9:
		r.add(waitcntGFX9(imm))
	case name == "s_nop", name == "s_sleep", name == "s_setprio", name == "s_sethalt", name == "s_setkill",
		name == "s_trap", name == "s_incperflevel", name == "s_decperflevel", name == "s_clause":
		r.add(u16(imm))
	case strings.HasPrefix(name, "s_sendmsg"):
		// LLVM prints sendmsg(MSG_..., ...) for known messages, else decimal.
		r.in.Partial = true
		r.add(fmt.Sprint(imm))
	default:
		// waitcnt on RDNA, delay_alu, depctr: symbolic forms in LLVM.
		r.in.Partial = true
		r.add(fmt.Sprintf("0x%x", imm))
	}
}

// waitcntGFX9 prints the GCN s_waitcnt counters: vmcnt in bits [3:0] and
// [15:14], expcnt [6:4], lgkmcnt [11:8] (CDNA 4 guide, S_WAITCNT).
func waitcntGFX9(imm int) string {
	vm := imm&0xf | (imm>>14&3)<<4
	exp := imm >> 4 & 7
	lgkm := imm >> 8 & 0xf
	var parts []string
	if vm != 63 {
		parts = append(parts, fmt.Sprintf("vmcnt(%d)", vm))
	}
	if exp != 7 {
		parts = append(parts, fmt.Sprintf("expcnt(%d)", exp))
	}
	if lgkm != 15 {
		parts = append(parts, fmt.Sprintf("lgkmcnt(%d)", lgkm))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("vmcnt(%d) expcnt(%d) lgkmcnt(%d)", vm, exp, lgkm)
	}
	return strings.Join(parts, " ")
}

// smemDataSize gives the SDATA register count from the mnemonic
// (s_load_dwordx4, s_load_b128, s_buffer_load_dword...).
func smemDataSize(name string) int {
	switch {
	case strings.Contains(name, "x16"), strings.HasSuffix(name, "b512"):
		return 512
	case strings.Contains(name, "x8"), strings.HasSuffix(name, "b256"):
		return 256
	case strings.Contains(name, "x4"), strings.HasSuffix(name, "b128"):
		return 128
	case strings.Contains(name, "x3"), strings.HasSuffix(name, "b96"):
		return 96
	case strings.Contains(name, "x2"), strings.HasSuffix(name, "b64"), strings.HasSuffix(name, "_x2"):
		return 64
	}
	return 32
}

func (r *renderer) renderSMEM() {
	name := r.en.name
	fam := r.d.fam
	base := r.f("SBASE") << 1
	baseSize := 64
	if strings.Contains(name, "buffer") {
		baseSize = 128
	}
	sdata := r.f("SDATA")
	switch {
	case strings.HasPrefix(name, "s_memtime"), strings.HasPrefix(name, "s_memrealtime"):
		r.add(r.sdst(sdata, opType{'b', 64}))
		return
	case strings.Contains(name, "_inv") || strings.Contains(name, "_wb") || name == "s_dcache_discard":
		if !strings.Contains(name, "discard") {
			return
		}
	}
	data := opType{'b', smemDataSize(name)}
	if strings.Contains(name, "atomic") {
		data.size = 32
		if strings.HasSuffix(name, "_x2") || strings.Contains(name, "cmpswap") {
			data.size = 64
		}
		if strings.HasSuffix(name, "cmpswap_x2") {
			data.size = 128
		}
	}
	if !strings.Contains(name, "discard") {
		r.add(r.sdst(sdata, data))
	}
	r.add(r.sdst(base, opType{'b', baseSize}))
	off, _ := r.field("OFFSET")
	if fam.gen == 9 {
		imm := r.f("IMM")
		soe := r.f("SOE")
		switch {
		case imm == 1 && soe == 1:
			r.add(r.sdst(r.f("SOFFSET"), opType{'b', 32}))
			r.mod("offset:" + smemOffset(off, 21))
		case imm == 1:
			r.add(smemOffset(off, 21))
		case soe == 1:
			r.add(r.sdst(r.f("SOFFSET"), opType{'b', 32}))
		default:
			// IMM=0: OFFSET[6:0] names the SGPR holding the offset.
			r.add(r.sdst(int(off&0x7f), opType{'b', 32}))
		}
		if r.f("GLC") == 1 {
			r.mod("glc")
		}
		if r.f("NV") == 1 && !fam.noNV {
			r.mod("nv")
		}
		return
	}
	soff := r.f("SOFFSET")
	if fam.names32[soff] == "null" {
		r.add(smemOffset(off, 21))
	} else {
		r.add(r.sdst(soff, opType{'b', 32}))
		if off != 0 {
			r.mod(fmt.Sprintf("offset:%s", smemOffset(off, 21)))
		}
	}
	glc, dlc := r.f("GLC"), r.f("DLC")
	if fam.gen >= 11 {
		// LLVM (and the hardware, per LLVM's SMEM encoding for GFX11) puts
		// GLC at bit 14 and DLC at bit 13; the RDNA 3 guide's SMEM table
		// lists DLC at 14 and GLC at 16. We follow the assembler.
		glc, dlc = int(r.raw[0]>>14&1), int(r.raw[0]>>13&1)
	}
	if glc == 1 {
		r.mod("glc")
	}
	if dlc == 1 {
		r.mod("dlc")
	}
}

func smemOffset(v uint64, width int) string {
	x := int64(v<<(64-uint(width))) >> (64 - uint(width))
	if x < 0 {
		return fmt.Sprintf("-0x%x", -x)
	}
	return fmt.Sprintf("0x%x", x)
}

// vcc is the implicit carry/condition operand: vcc on wave64, vcc_lo on wave32.
func (r *renderer) vcc() string {
	if r.d.fam.wave32 {
		return "vcc_lo"
	}
	return "vcc"
}

func (r *renderer) suffix(short bool) {
	name := r.en.name
	if noSuffix[name] {
		return
	}
	if short && r.d.hasVOP3[name] {
		r.in.Mnemonic = name + "_e32"
	}
	if !short && r.d.hasShort[name] {
		r.in.Mnemonic = name + "_e64"
	}
}

// noSuffix lists instructions LLVM prints without _e32/_e64 although they
// have both encodings.
var noSuffix = map[string]bool{"v_readfirstlane_b32": true, "v_nop": true, "v_clrexcp": true, "v_pipeflush": true}

func (r *renderer) renderVOP1() {
	name, s := r.en.name, r.en.sig
	r.suffix(true)
	switch {
	case name == "v_nop" || name == "v_clrexcp" || name == "v_pipeflush":
		return
	case strings.HasPrefix(name, "v_readfirstlane"):
		r.add(r.sdst(r.f("VDST"), opType{'b', 32}), r.src(r.f("SRC0"), s.src[0], 0))
		return
	}
	r.add(r.vgpr(r.f("VDST"), s.dst, false), r.src(r.f("SRC0"), s.src[0], 0))
}

func (r *renderer) renderVOP2() {
	name, s := r.en.name, r.en.sig
	r.suffix(true)
	vdst := r.vgpr(r.f("VDST"), s.dst, false)
	src0 := r.src(r.f("SRC0"), s.src[0], 0)
	vsrc1 := r.vgpr(r.f("VSRC1"), s.src[1], true)
	switch {
	case strings.HasPrefix(name, "v_cndmask"):
		r.add(vdst, src0, vsrc1, r.vcc())
	case strings.HasPrefix(name, "v_addc") || strings.HasPrefix(name, "v_subb") || strings.Contains(name, "_co_ci_"):
		r.add(vdst, r.vcc(), src0, vsrc1, r.vcc())
	case strings.Contains(name, "_co_u32"):
		r.add(vdst, r.vcc(), src0, vsrc1)
	case strings.Contains(name, "madmk") || strings.Contains(name, "fmamk"):
		r.needLit = true
		r.add(vdst, src0, fmt.Sprintf("0x%x", r.literal), vsrc1)
	case strings.Contains(name, "madak") || strings.Contains(name, "fmaak"):
		r.needLit = true
		r.add(vdst, src0, vsrc1, fmt.Sprintf("0x%x", r.literal))
	default:
		r.add(vdst, src0, vsrc1)
	}
}

func (r *renderer) renderVOPC() {
	name, s := r.en.name, r.en.sig
	r.suffix(true)
	src0 := r.src(r.f("SRC0"), s.src[0], 0)
	vsrc1 := r.vgpr(r.f("VSRC1"), s.src[1], true)
	if strings.HasPrefix(name, "v_cmpx") && r.d.fam.gen >= 10 {
		r.add(src0, vsrc1)
		return
	}
	r.add(r.vcc(), src0, vsrc1)
}

func (r *renderer) renderVOP3() {
	name, s := r.en.name, r.en.sig
	r.suffix(false)
	abs := r.f("ABS")
	neg := r.f("NEG")
	opsel := r.f("OPSEL")
	var srcs []string
	for i := 0; i < s.nsrc && i < 3; i++ {
		code := r.f([]string{"SRC0", "SRC1", "SRC2"}[i])
		t := s.src[i]
		if (strings.HasPrefix(name, "v_cndmask") || strings.HasPrefix(name, "v_addc") || strings.HasPrefix(name, "v_subb") ||
			strings.Contains(name, "_co_ci_")) && i == 2 {
			t = r.maskType()
		}
		if strings.HasPrefix(name, "v_div_fmas") && i == 2 {
			t = s.src[i]
		}
		op := applyMods(r.src(code, t, opsel>>uint(i)&1), code, abs>>uint(i)&1 == 1, neg>>uint(i)&1 == 1)
		srcs = append(srcs, op)
	}
	var dst []string
	switch {
	case s.origin == kVOPC:
		if !(strings.HasPrefix(name, "v_cmpx") && r.d.fam.gen >= 10) {
			dst = []string{r.sdst(r.f("VDST"), r.maskType())}
		}
	case strings.HasPrefix(name, "v_readlane") || strings.HasPrefix(name, "v_readfirstlane"):
		dst = []string{r.sdst(r.f("VDST"), opType{'b', 32})}
	default:
		dst = []string{r.vgpr(r.f("VDST"), s.dst, false)}
		if r.d.fam.trueSixteen && s.dst.size == 16 && opsel>>3&1 == 1 {
			dst = []string{fmt.Sprintf("v%d.h", r.f("VDST"))}
		}
	}
	if r.fm.kind == kVOP3B {
		dst = append(dst, r.sdst(r.f("SDST"), r.maskType()))
	}
	r.add(dst...)
	r.add(srcs...)
	if opsel != 0 && s.has16() {
		if !r.d.fam.trueSixteen || r.anyNonVGPR16() {
			n := s.nsrc
			var b []string
			for i := 0; i < n; i++ {
				b = append(b, fmt.Sprint(opsel>>uint(i)&1))
			}
			b = append(b, fmt.Sprint(opsel>>3&1))
			r.mod("op_sel:[" + strings.Join(b, ",") + "]")
		}
	}
	if r.f("CLMP") == 1 {
		r.mod("clamp")
	}
	switch r.f("OMOD") {
	case 1:
		r.mod("mul:2")
	case 2:
		r.mod("mul:4")
	case 3:
		r.mod("div:2")
	}
}

// anyNonVGPR16 says a 16-bit source of a true16 VOP3 is not a VGPR, so its
// op_sel bit cannot be shown as .h and LLVM prints op_sel:[...] instead.
func (r *renderer) anyNonVGPR16() bool {
	s := r.en.sig
	for i := 0; i < s.nsrc && i < 3; i++ {
		if s.src[i].size == 16 && r.f([]string{"SRC0", "SRC1", "SRC2"}[i]) < 256 {
			return true
		}
	}
	return false
}

func (r *renderer) maskType() opType {
	if r.d.fam.wave32 {
		return opType{'b', 32}
	}
	return opType{'b', 64}
}

func (r *renderer) renderVOP3P() {
	s := r.en.sig
	neg := r.f("NEG")
	var srcs []string
	for i := 0; i < s.nsrc; i++ {
		op := r.src(r.f([]string{"SRC0", "SRC1", "SRC2"}[i]), s.src[i], 0)
		_ = neg
		srcs = append(srcs, op)
	}
	r.add(r.vgpr(r.f("VDST"), s.dst, false))
	r.add(srcs...)
	opsel := r.f("OPSEL")
	opselHi := r.f("OPSEL_HI") | r.f("OPSEL_HI2")<<2
	bitsOf := func(v int) string {
		var b []string
		for i := 0; i < s.nsrc; i++ {
			b = append(b, fmt.Sprint(v>>uint(i)&1))
		}
		return "[" + strings.Join(b, ",") + "]"
	}
	full := 1<<uint(s.nsrc) - 1
	if opsel != 0 {
		r.mod("op_sel:" + bitsOf(opsel))
	}
	if opselHi&full != full {
		r.mod("op_sel_hi:" + bitsOf(opselHi))
	}
	if neg&full != 0 {
		r.mod("neg_lo:" + bitsOf(neg))
	}
	if nh := r.f("NEG_HI"); nh&full != 0 {
		r.mod("neg_hi:" + bitsOf(nh))
	}
	if r.f("CLMP") == 1 {
		r.mod("clamp")
	}
}

// applyMods adds the VOP3 source modifiers: -x, |x|, -|x|; a negated
// constant without abs is printed neg(x) so it is not read as a negative
// constant.
func applyMods(op string, code int, abs, neg bool) string {
	constant := (code >= 128 && code <= 208) || (code >= 240 && code <= 248) || code == literalCode
	if abs {
		op = "|" + op + "|"
	}
	if neg {
		if constant && !abs {
			return "neg(" + op + ")"
		}
		return "-" + op
	}
	return op
}

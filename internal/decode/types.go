package decode

import (
	"github.com/gpuisa/gpuisa/internal/lazyre"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// kind is the rendering rule a format follows; format names differ between
// guides (VOP3A on CDNA, VOP3 on RDNA) but the operand shapes do not.
type kind int

const (
	kOther kind = iota
	kSOP2
	kSOPK
	kSOP1
	kSOPC
	kSOPP
	kSMEM
	kVOP1
	kVOP2
	kVOPC
	kVOP3
	kVOP3B
	kVOP3P
	kMAI
	kDS
	kFLAT // FLAT, GLOBAL and SCRATCH: the SEG field tells them apart
	kMUBUF
	kMTBUF
	kVINTRP  // GCN 5 / CDNA / RDNA 1-2 parameter interpolation
	kVINTERP // RDNA 3+ interpolation (VALU with wait_exp)
	kLDSDIR  // RDNA 3+ LDS parameter and direct loads
	kEXP     // export to the render back-ends and position buffers
	kMIMG    // image memory: MIMG, RDNA 4's VIMAGE and VSAMPLE
	kVOPD    // RDNA 3+ dual issue: two VALU operations (X and Y) in one word
	kVOPD3   // CDNA 5's 96-bit dual issue with three sources and neg bits
)

func kindOf(format string) kind {
	switch strings.ToUpper(strings.TrimPrefix(strings.ToUpper(format), "ENC_")) {
	case "SOP2":
		return kSOP2
	case "SOPK":
		return kSOPK
	case "SOP1":
		return kSOP1
	case "SOPC":
		return kSOPC
	case "SOPP":
		return kSOPP
	case "SMEM", "SMRD":
		return kSMEM
	case "VOP1":
		return kVOP1
	case "VOP2":
		return kVOP2
	case "VOPC":
		return kVOPC
	case "VOP3", "VOP3A":
		return kVOP3
	case "VOP3B", "VOP3SD":
		return kVOP3B
	case "VOP3P":
		return kVOP3P
	case "VOP3P-MAI":
		return kMAI
	case "DS", "VDS":
		return kDS
	case "FLAT", "GLOBAL", "SCRATCH", "VFLAT", "VGLOBAL", "VSCRATCH":
		return kFLAT
	case "MUBUF", "VBUFFER":
		return kMUBUF
	case "MTBUF":
		return kMTBUF
	case "MIMG", "VIMAGE", "VSAMPLE":
		return kMIMG
	case "VINTRP":
		return kVINTRP
	case "VINTERP":
		return kVINTERP
	case "LDSDIR", "VDSDIR":
		return kLDSDIR
	case "EXP", "VEXPORT":
		return kEXP
	case "VOPD":
		return kVOPD
	case "VOPD3":
		return kVOPD3
	}
	return kOther
}

// opType is the data type of one operand: 'f' float, 'i' signed or
// unsigned integer, 'b' untyped bits, and its size in bits.
type opType struct {
	t    byte
	size int
}

func (o opType) regs() int {
	if o.size <= 32 {
		return 1
	}
	return (o.size + 31) / 32
}

// signature is what the renderer needs to know about an instruction's
// operands beyond the bit layout.
type signature struct {
	dst  opType
	src  [3]opType
	nsrc int
	// origin is the short encoding a VOP3 opcode promotes, if any.
	origin kind
}

var typeTok = lazyre.New(`^(f|i|u|b|bf)(4|8|16|24|32|64|128|256|512)$`)

// typesOf reads the type suffixes of a mnemonic: "v_cvt_f64_i32" -> f64, i32.
// AMD names put the result type first and the source type last.
func typesOf(name string) []opType {
	var out []opType
	for _, tok := range strings.Split(name, "_") {
		m := typeTok.FindStringSubmatch(tok)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		t := m[1][0]
		switch m[1] {
		case "u", "i":
			t = 'i'
		case "bf":
			t = 'h' // bfloat16: inline float constants are printed differently
		}
		if n < 16 {
			n = 32 // packed 4/8-bit data lives in 32-bit operands
		}
		if n == 24 {
			n = 32
		}
		out = append(out, opType{t, n})
	}
	return out
}

// signatureOf derives operand types and counts. The model's Operand sizes
// win when it has them; otherwise the mnemonic's type suffixes decide, with
// the exceptions LLVM's operand definitions make (shift amounts, bit
// indexes and exponents are 32-bit even in 64-bit instructions).
func (d *Decoder) signatureOf(fm *format, en *entry) signature {
	name := en.name
	ts := typesOf(name)
	var s signature
	s.dst = opType{'b', 32}
	if len(ts) > 0 {
		s.dst = ts[0]
		last := ts[len(ts)-1]
		s.src = [3]opType{last, last, last}
	} else {
		s.src = [3]opType{{'b', 32}, {'b', 32}, {'b', 32}}
	}
	if strings.Contains(name, "_pk_") || strings.HasPrefix(name, "v_pk_") {
		// Packed math: 16-bit halves in 32-bit registers.
		for i := range s.src {
			if s.src[i].size == 16 {
				s.src[i].size = 32
			}
		}
		if s.dst.size == 16 {
			s.dst.size = 32
		}
	}
	if strings.Contains(name, "dot2") || strings.Contains(name, "dot4") || strings.Contains(name, "dot8") {
		for i := range s.src {
			s.src[i].size = 32 // packed pairs/quads
		}
		if s.dst.size < 32 {
			s.dst.size = 32
		}
	}
	if strings.Contains(name, "_pk_f32_") && s.dst.size == 32 {
		s.dst.size = 64 // two f32 results
	}
	switch name {
	case "v_pk_fma_f32", "v_pk_mul_f32", "v_pk_add_f32", "v_pk_mov_b32":
		// Packed pairs of 32-bit values: every operand is a register pair.
		s.dst = opType{'f', 64}
		s.src = [3]opType{{'f', 64}, {'f', 64}, {'f', 64}}
	}
	s.nsrc = 2
	switch fm.kind {
	case kVOP1, kSOP1:
		s.nsrc = 1
	case kVOP3, kVOP3B:
		s.nsrc = 2
		if d.hasShort[name] {
			for _, e := range en.instr.Encodings {
				switch k := kindOf(e.Format); k {
				case kVOP1:
					s.origin, s.nsrc = k, 1
				case kVOP2, kVOPC:
					s.origin, s.nsrc = k, 2
				}
			}
		} else if threeSource(name) {
			s.nsrc = 3
		}
		if n, ok := vop3OnlySources(name); ok && !d.hasShort[name] {
			s.nsrc = n
		}
		if s.origin == kVOP2 && (strings.HasPrefix(name, "v_cndmask") || strings.Contains(name, "_co_ci_") ||
			strings.HasPrefix(name, "v_addc") || strings.HasPrefix(name, "v_subb")) {
			s.nsrc = 3
		}
		if s.origin == kVOP2 && (strings.Contains(name, "fmac") || strings.Contains(name, "mac_") || strings.HasPrefix(name, "v_dot2c")) {
			s.nsrc = 2
		}
	case kVOP3P:
		s.nsrc = 2
		if threeSource(name) {
			s.nsrc = 3
		}
	}
	// Exceptions to "every source has the last type".
	shift := strings.Contains(name, "lshl") || strings.Contains(name, "lshr") || strings.Contains(name, "ashr")
	if s.src[0].size == 64 || s.dst.size == 64 {
		switch {
		case shift && strings.Contains(name, "rev"):
			s.src[0] = opType{'i', 32}
		case shift && strings.HasSuffix(name, "_add_u64"): // v_lshl_add_u64 v[0:1], v[2:3], s4, v[6:7]
			s.src[1] = opType{'i', 32}
		case shift:
			s.src[1] = opType{'i', 32}
		case strings.HasPrefix(name, "s_bfe_"), strings.HasPrefix(name, "s_bitcmp"),
			strings.HasPrefix(name, "v_ldexp_f64"), strings.HasPrefix(name, "v_trig_preop"),
			strings.HasPrefix(name, "v_cmp_class_f64"), strings.HasPrefix(name, "v_cmpx_class_f64"),
			strings.HasPrefix(name, "v_bfm_b64"):
			s.src[1] = opType{'i', 32}
		case strings.HasPrefix(name, "s_bfm_b64"):
			s.src[0], s.src[1] = opType{'i', 32}, opType{'i', 32}
		case strings.HasPrefix(name, "s_bitset"), strings.HasPrefix(name, "s_bitreplicate"):
			s.src[0] = opType{'i', 32}
		case strings.HasPrefix(name, "v_mad_u64_u32"), strings.HasPrefix(name, "v_mad_i64_i32"),
			strings.HasPrefix(name, "v_mad_co_u64_u32"), strings.HasPrefix(name, "v_mad_co_i64_i32"):
			s.src[2] = opType{'i', 64}
		}
	}
	if strings.HasPrefix(name, "v_qsad_pk_u16_u8") || strings.HasPrefix(name, "v_mqsad_pk_u16_u8") {
		// Four 16-bit sums in a register pair, from a byte quad pair.
		s.dst = opType{'i', 64}
		s.src = [3]opType{{'i', 64}, {'i', 32}, {'i', 64}}
	}
	if strings.HasPrefix(name, "v_mqsad_u32_u8") {
		s.dst = opType{'i', 128}
		s.src = [3]opType{{'i', 64}, {'i', 32}, {'i', 128}}
	}
	if strings.HasPrefix(name, "v_ldexp") || strings.HasPrefix(name, "v_cmp_class") || strings.HasPrefix(name, "v_cmpx_class") {
		s.src[1].t = 'i'
	}
	if strings.HasPrefix(name, "s_cselect") || strings.HasPrefix(name, "s_cmp_") {
		s.src[1] = s.src[0]
	}
	// The model's operand sizes, when present, override the guesses.
	if en.instr != nil {
		ops := en.enc.Operands
		if len(ops) == 0 {
			ops = en.instr.Operands
		}
		applyModelSizes(&s, ops)
	}
	if strings.HasPrefix(name, "v_ldexp") || strings.HasPrefix(name, "v_cmp_class") || strings.HasPrefix(name, "v_cmpx_class") {
		s.src[1].t = 'i' // the exponent / class mask, whatever the model's data format says
	}
	if d.fam.gen >= 11 {
		wmmaSizes(&s, name, d.fam.gen)
	}
	if en.instr != nil {
		d.applyPrintedOperands(&s, fm, en)
	}
	if strings.HasPrefix(name, "v_cvt_sr_pk_") {
		s.src[2] = opType{'i', 32} // the rounding seed: no input modifiers
	}
	switch {
	case strings.HasPrefix(name, "v_sat_pk_u8_i16"):
		// Four bytes packed into a 16-bit result from two 16-bit halves of a dword.
		s.dst, s.src[0] = opType{'i', 16}, opType{'i', 32}
	case d.fam.trueSixteen && (strings.HasPrefix(name, "v_cmp_class_f16") || strings.HasPrefix(name, "v_cmpx_class_f16") ||
		strings.HasPrefix(name, "v_ldexp_f16")):
		// The class mask / exponent is a 16-bit operand in LLVM's true16 forms.
		s.src[1].size = 16
	case d.fam.trueSixteen && (strings.HasPrefix(name, "v_alignbit_b32") || strings.HasPrefix(name, "v_alignbyte_b32")):
		// LLVM's true16 forms read the shift amount from a 16-bit half.
		s.src[2].size = 16
	case d.fam.trueSixteen && (name == "v_dot2_f16_f16" || name == "v_dot2_bf16_bf16"):
		// Packed pairs in, a 16-bit accumulator and result.
		s.dst.size, s.src[2].size = 16, 16
	case d.fam.trueSixteen && strings.HasPrefix(name, "v_cvt_pk_norm_") && strings.HasSuffix(name, "_f16"):
		s.src[0].size, s.src[1].size = 16, 16
	case d.fam.trueSixteen && fm.kind == kVOP3 && (strings.HasSuffix(name, "rev_b16") || strings.HasSuffix(name, "rev_i16")):
		s.src[0].size = 16 // the shift amount is a 16-bit half too
	}
	return s
}

// has16 says some operand is 16-bit (op_sel applies).
func (s signature) has16() bool {
	if s.dst.size == 16 {
		return true
	}
	for i := 0; i < s.nsrc && i < 3; i++ {
		if s.src[i].size == 16 {
			return true
		}
	}
	return false
}

func applyModelSizes(s *signature, ops []isa.Operand) {
	for _, o := range ops {
		// AMD's XML and LLVM's own type tags give a data format with the
		// size; other sizes come from LLVM's syntax pages, which write
		// 16-bit operands of the 32-bit encodings as 32-bit registers.
		if o.Size <= 0 || o.DataFormat == "" || o.Prov.Source == isa.SourceLLVMMC ||
			o.TypeFrom != "" && o.TypeFrom != isa.TypeFromTag {
			// Types LLVM's rule implies or another page gives, and the
			// register sizes llvm-mc printed, say nothing of the bits an
			// operand uses.
			continue
		}
		t := byte('b')
		f := strings.ToUpper(o.DataFormat)
		switch {
		case strings.Contains(f, "_F") || strings.Contains(f, "FLOAT"):
			t = 'f'
		case strings.Contains(f, "_I") || strings.Contains(f, "_U") || strings.Contains(f, "INT"):
			t = 'i'
		}
		ot := opType{t, o.Size}
		switch strings.ToLower(o.Name) {
		case "vdst", "sdst", "sdata", "dst":
			s.dst = ot
		case "src0", "ssrc0", "srcx0":
			s.src[0] = ot
		case "src1", "ssrc1", "vsrc1":
			s.src[1] = ot
		case "src2":
			s.src[2] = ot
		}
	}
}

// operandSlot says which operand of the signature the operand at pos of
// what llvm-mc printed is: -1 the destination, 0-2 a source, -2 one the
// signature does not hold. LLVM prints the destination first, then (VOP3B)
// the carry-out SGPR, then the sources; the names the model gives them
// (AMD's, or a syntax row's: vdata, ssrc2, vsrc2) vary too much to go by.
func operandSlot(pos int, k kind) int {
	if k == kVOP3B {
		switch {
		case pos == 1:
			return -2
		case pos > 1:
			pos--
		}
	}
	if pos > 3 {
		return -2
	}
	return pos - 1
}

// applyPrintedOperands takes what the model's operands say exactly where
// they are what llvm-mc printed for the instruction's example (internal/
// build's assemblerOperands: CDNA 5, and the CDNA 4 instructions newer
// than LLVM's syntax pages): the register count of every tuple wider than
// one register (v[8:13] is six, whatever the mnemonic suggests) and, for a
// VOP3-only or VOP3P instruction, how many sources it reads. A size of 32
// bits or less is left to the type rules (LLVM prints a 16-bit operand as
// a 32-bit register), and so are the sizes of LLVM's syntax pages (the
// GFX12 page gives RDNA 4's bf16 WMMA results RDNA 3's 8 dwords). The A
// and B tuples of the f8f6f4 matrix instructions (fmtScaled) follow the
// word's format fields, not the one example.
func (d *Decoder) applyPrintedOperands(s *signature, fm *format, en *entry) {
	ops := en.instr.Operands
	if len(ops) == 0 || !valuKind(fm.kind) || en.shape != shPlain || s.origin == kVOPC {
		return
	}
	for _, o := range ops {
		if o.Prov.Source != isa.SourceLLVMMC {
			return
		}
	}
	srcs := 0
	for i, o := range ops {
		slot := operandSlot(i, fm.kind)
		if slot >= 0 {
			srcs = slot + 1
		}
		bits := o.Size
		switch {
		case d.fam.wave32 && o.SizeWave32 > 0:
			bits = o.SizeWave32
		case !d.fam.wave32 && o.SizeWave64 > 0:
			bits = o.SizeWave64
		}
		switch {
		case bits <= 32 || slot == -2 || slot >= 0 && slot < 2 && en.fmtScaled:
		case slot == -1:
			s.dst.size = bits
		default:
			s.src[slot].size = bits
		}
	}
	if srcs > 0 && (fm.kind == kVOP3 || fm.kind == kVOP3B || fm.kind == kVOP3P) && !d.hasShort[en.name] {
		s.nsrc = srcs
	}
}

// valuKind says whether a format's operands are a destination and
// sources in the signature's sense.
func valuKind(k kind) bool {
	switch k {
	case kVOP1, kVOP2, kVOP3, kVOP3B, kVOP3P, kMAI:
		return true
	}
	return false
}

// threeSource names the VOP3-only operations that read three sources.
func threeSource(name string) bool {
	for _, p := range []string{"mad", "fma", "bfe_", "bfi_", "alignbit", "alignbyte", "lerp", "min3", "max3",
		"med3", "minimum3", "maximum3", "sad_", "cube", "div_fixup", "div_fmas", "div_scale", "perm_b32",
		"xad", "lshl_add", "add_lshl", "add3", "lshl_or", "and_or", "or3", "xor3", "msad", "qsad", "mqsad",
		"dot2_", "dot4_", "dot8_", "maxmin", "minmax", "permlane16", "permlanex16", "cvt_pk_u8_f32",
		"dot2c", "bitop3", "cvt_scalef32_pk", "cvt_scalef32_sr_", "cvt_sr_pk_", "mullit", "wmma", "swmmac", "ashr_pk", "cndmask",
		"maximumminimum", "minimummaximum", "add_max", "add_min"} {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}

// vop3OnlySources gives the source count of VOP3-only conversions and lane
// operations whose names threeSource would miscount (LLVM 22's operand
// lists), for a model without llvm-mc's operands (applyPrintedOperands
// overrides it where they are there): the scaled packed conversions read a scale after one packed
// source, or after two f32 sources; the stochastic-rounding conversions
// read a seed after one source; the FP8 packs of f16 read one source.
func vop3OnlySources(name string) (int, bool) {
	switch {
	case strings.HasPrefix(name, "v_cvt_scalef32_pk"):
		if strings.HasSuffix(name, "_f32") {
			return 3, true // two f32 values and the scale
		}
		return 2, true
	case strings.HasPrefix(name, "v_cvt_sr_") && !strings.HasPrefix(name, "v_cvt_sr_pk_"):
		return 2, true
	case name == "v_cvt_pk_fp8_f16", name == "v_cvt_pk_bf8_f16":
		return 1, true
	case strings.HasPrefix(name, "v_permlane16_var"), strings.HasPrefix(name, "v_permlanex16_var"):
		return 2, true
	case strings.HasPrefix(name, "v_s_"):
		return 1, true // v_s_exp_f32 s2, s3: scalar transcendentals
	}
	return 0, false
}

var wmmaName = lazyre.New(`^v_(s?)wmmac?_(f32|i32|f16|bf16)_(\d+)x(\d+)x(\d+)_(f16|bf16|fp8|bf8|iu8|iu4|f32|f8f6f4|f4)`)

// wmmaSizes fills the register tuples of gfx12 (wave32) WMMA/SWMMAC
// operands the model gives no size for: an MxN result and MxK / KxN inputs
// spread over 32 lanes; SWMMAC stores half of A (it is 2:4 sparse) and
// reads a one-VGPR index as src2.
func wmmaSizes(s *signature, name string, gen int) {
	m := wmmaName.FindStringSubmatch(name)
	if m == nil {
		return
	}
	M, _ := strconv.Atoi(m[3])
	N, _ := strconv.Atoi(m[4])
	K, _ := strconv.Atoi(m[5])
	bits := func(t string) int {
		switch t {
		case "f32", "i32":
			return 32
		case "f16", "bf16":
			return 16
		case "iu4", "f4":
			return 4
		}
		return 8
	}
	out, in := bits(m[2]), bits(m[6])
	// gfx12 spreads A and B over the 32 lanes of a wave32; gfx11 (RDNA 3)
	// keeps them in lanes 0-15 and repeats them in lanes 16-31, and writes
	// a 16-bit result in one half of a 32-bit VGPR.
	abLanes := 32
	if gen == 11 {
		abLanes, out = 16, 32
	}
	grow := func(t *opType, b int) {
		b = max(32, b) // bits per lane
		if t.size < b {
			t.size = b
		}
	}
	grow(&s.dst, M*N*out/32)
	a := M * K * in / abLanes
	if m[1] == "s" {
		a /= 2
	}
	grow(&s.src[0], a)
	grow(&s.src[1], K*N*in/abLanes)
	if m[1] == "" {
		grow(&s.src[2], M*N*out/32)
	}
}

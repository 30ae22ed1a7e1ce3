package decode

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Kind is the rendering rule a format follows; format names differ between
// guides (VOP3A on CDNA, VOP3 on RDNA) but the operand shapes do not. The
// encoder and the rules table (shapes.tsv) name formats by it.
type Kind uint8

const (
	KindOther Kind = iota
	KindSOP2
	KindSOPK
	KindSOP1
	KindSOPC
	KindSOPP
	KindSMEM
	KindVOP1
	KindVOP2
	KindVOPC
	KindVOP3
	KindVOP3B
	KindVOP3P
	KindMAI
	KindDS
	KindFLAT // FLAT, GLOBAL and SCRATCH: the SEG field tells them apart
	KindMUBUF
	KindMTBUF
	KindVINTRP  // GCN 5 / CDNA / RDNA 1-2 parameter interpolation
	KindVINTERP // RDNA 3+ interpolation (VALU with wait_exp)
	KindLDSDIR  // RDNA 3+ LDS parameter and direct loads
	KindEXP     // export to the render back-ends and position buffers
	KindMIMG    // image memory: MIMG, RDNA 4's VIMAGE and VSAMPLE
	KindVOPD    // RDNA 3+ dual issue: two VALU operations (X and Y) in one word
	KindVOPD3   // CDNA 5's 96-bit dual issue with three sources and neg bits
	numKinds
)

// kindNames are the kinds' names: the guides' most common spelling of the
// format.
var kindNames = [numKinds]string{"other", "SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC",
	"VOP3", "VOP3B", "VOP3P", "MAI", "DS", "FLAT", "MUBUF", "MTBUF", "VINTRP", "VINTERP", "LDSDIR", "EXP", "MIMG",
	"VOPD", "VOPD3"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// kindSpellings are the format names of every guide (the XML's ENC_ prefix
// dropped) by kind, except those of the memory and export formats, which
// isa's table names (memoryKinds).
var kindSpellings = map[string]Kind{
	"SOP2": KindSOP2, "SOPK": KindSOPK, "SOP1": KindSOP1, "SOPC": KindSOPC, "SOPP": KindSOPP,
	"VOP1": KindVOP1, "VOP2": KindVOP2, "VOPC": KindVOPC,
	"VOP3": KindVOP3, "VOP3A": KindVOP3, "VOP3B": KindVOP3B, "VOP3SD": KindVOP3B, "VOP3P": KindVOP3P,
	"VOP3P-MAI": KindMAI,
	// MTBUF is buffer memory to isa; its words carry a FORMAT field.
	"MTBUF":  KindMTBUF,
	"VINTRP": KindVINTRP, "VINTERP": KindVINTERP,
	"VOPD": KindVOPD, "VOPD3": KindVOPD3,
}

// memoryKinds are the decoder's rules for isa's memory paths.
var memoryKinds = [...]Kind{
	isa.ScalarMemory: KindSMEM, isa.DataShare: KindDS, isa.LDSDirect: KindLDSDIR, isa.BufferMemory: KindMUBUF,
	isa.ImageMemory: KindMIMG, isa.FlatMemory: KindFLAT, isa.ExportPath: KindEXP,
}

// KindOf is the kind of a format name ("VOP3A", "ENC_VOP3", "VGLOBAL");
// KindOther for one the decoder has no rule for.
func KindOf(format string) Kind {
	f := strings.TrimPrefix(strings.ToUpper(format), "ENC_")
	if k, ok := kindSpellings[f]; ok {
		return k
	}
	return memoryKinds[isa.MemoryKindOf(f)]
}

func kindOf(format string) Kind { return KindOf(format) }

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
	origin Kind
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
// the exceptions the rules table gives (LLVM's operand definitions: shift
// amounts, bit indexes and exponents are 32-bit even in 64-bit
// instructions). Type facts marked "!" in the table override the model.
func (d *Decoder) signatureOf(fm *format, en *entry) signature {
	name := en.name
	f := en.facts
	if f == nil {
		lf := rules.lookup(d.fam.gen, fm.kind, name, modelOps(en.instr))
		f = &lf
	}
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
	if f.has("pk16") {
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
	if f.has("dot") {
		for i := range s.src {
			s.src[i].size = 32 // packed pairs/quads
		}
		if s.dst.size < 32 {
			s.dst.size = 32
		}
	}
	if f.has("pk-f32") && s.dst.size == 32 {
		s.dst.size = 64 // two f32 results
	}
	s.nsrc = 2
	switch fm.kind {
	case KindVOP1, KindSOP1:
		s.nsrc = 1
	case KindVOP3, KindVOP3B:
		s.nsrc = 2
		if d.hasShort[name] {
			for _, e := range en.instr.Encodings {
				switch k := kindOf(e.Format); k {
				case KindVOP1:
					s.origin, s.nsrc = k, 1
				case KindVOP2, KindVOPC:
					s.origin, s.nsrc = k, 2
				}
			}
		} else if n := f.num("srcs-vop3"); n > 0 {
			s.nsrc = n
		}
		if n := f.num("srcs-vop2"); n > 0 && s.origin == KindVOP2 {
			s.nsrc = n
		}
	case KindVOP3P:
		if n := f.num("srcs-vop3"); n > 0 {
			s.nsrc = n
		}
	}
	if w := f.get("wide"); w != "" && (s.src[0].size == 64 || s.dst.size == 64) {
		// The exceptions of the 64-bit forms: "src1:i32,src0:i32".
		for _, part := range strings.Split(w, ",") {
			slot, typ, _ := strings.Cut(part, ":")
			if tf, ok := parseTypeFact(typ); ok {
				s.apply(sigSlot[slot], tf, true)
			}
		}
	}
	s.applyFacts(f.sig[0])
	// The model's operand sizes, when present, override the guesses.
	if en.instr != nil {
		ops := en.enc.Operands
		if len(ops) == 0 {
			ops = en.instr.Operands
		}
		applyModelSizes(&s, ops)
	}
	if d.fam.gen >= 11 {
		wmmaSizes(&s, name, d.fam.gen)
	}
	if en.instr != nil {
		d.applyPrintedOperands(&s, fm, en)
	}
	s.applyFacts(f.sig[1])
	return s
}

// applyFacts sets the operand types a rule gives: the destination, then
// every source (srcs), then single sources.
func (s *signature) applyFacts(tf [5]typeFact) {
	for _, slot := range [...]int{0, 4, 1, 2, 3} {
		s.apply(slot, tf[slot], false)
	}
}

// apply sets slot (0 dst, 1-3 src0-src2, 4 every source) from tf; whole
// replaces the operand type where tf gives only part of it.
func (s *signature) apply(slot int, tf typeFact, whole bool) {
	set := func(o *opType) {
		if whole {
			*o = opType{tf.t, tf.size}
			return
		}
		tf.apply(o)
	}
	switch slot {
	case 0:
		set(&s.dst)
	case 1, 2, 3:
		set(&s.src[slot-1])
	case 4:
		for i := range s.src {
			set(&s.src[i])
		}
	}
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
func operandSlot(pos int, k Kind) int {
	if k == KindVOP3B {
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
	if len(ops) == 0 || !valuKind(fm.kind) || en.shape != shPlain || s.origin == KindVOPC {
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
	if srcs > 0 && (fm.kind == KindVOP3 || fm.kind == KindVOP3B || fm.kind == KindVOP3P) && !d.hasShort[en.name] {
		s.nsrc = srcs
	}
}

// valuKind says whether a format's operands are a destination and
// sources in the signature's sense.
func valuKind(k Kind) bool {
	switch k {
	case KindVOP1, KindVOP2, KindVOP3, KindVOP3B, KindVOP3P, KindMAI:
		return true
	}
	return false
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

// inputMods says whether LLVM gives a VOP3 instruction source modifiers
// (ABS, NEG): its profile has them when a source is a float (the type the
// name gives last: v_cvt_f32_i32 reads an integer and has none,
// v_cvt_pk_u8_f32 reads a float and has them) and, on gfx11+, when the
// instruction has op_sel, which LLVM keeps in the same operands. The
// model's operand types do not tell floats from untyped bits reliably
// (v_cvt_pkrtz_f16_f32's sources are B32 there), so the name decides.
func (d *Decoder) inputMods(fm *format, en *entry) bool {
	if fm.kind != KindVOP3 && fm.kind != KindVOP3B {
		return false
	}
	if ts := typesOf(en.name); len(ts) > 0 {
		if t := ts[len(ts)-1].t; t == 'f' || t == 'h' {
			return true
		}
	}
	s := en.sig
	return d.fam.gen >= 11 && s.has16() && !en.legacy16
}

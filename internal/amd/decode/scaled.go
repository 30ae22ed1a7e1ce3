package decode

import (
	"encoding/binary"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Scaled words. CDNA 4's scaled MFMAs are 4 dwords: a VOP3P "Load-Scale"
// word pair (LLVM's v_mfma_ld_scale_b32 when it stands alone) whose SRC0
// and SRC1 are the scales of matrix A and B, then the VOP3P-MAI word pair
// of the MFMA they scale. The model gives such an instruction a 128-bit
// encoding whose fixed fields identify both pairs (the first pair's
// ENCODING and OP, the second's ENCODING and ABID) and whose opcode is
// the second pair's; the decoder files it under the entry of the first
// pair, and reads the pair after it before settling for that entry alone.
// LLVM 22 prints the MFMA's operands, then the two scales, op_sel:[a,b,0]
// when an OP_SEL bit of the scales is set, op_sel_hi:[a,b,0] always, and
// the MFMA's cbsz/blgp.

// pairEntry is a 4-dword instruction filed under its first pair's entry.
type pairEntry struct {
	mask1, val1 uint32  // the fixed bits of dword 1 (CDNA 5's SRC2 constant)
	mask2, val2 uint32  // the fixed bits and opcode of dword 2
	tail        *format // the format of dwords 2 and 3
	en          *entry  // the 4-dword instruction, rendered with tail's fields
}

// PairTemplate is how the encoder builds a 4-dword instruction: the first
// word pair in format Head with its fixed bits (HeadWords), then the word
// pair of the instruction Wrapped (as LLVM prints it) with the bits
// Fixed2 set in its first dword (ABID = 1).
type PairTemplate struct {
	Model     string
	Head      isa.Format
	HeadWords [2]uint32
	Wrapped   string
	Fixed2    uint32
	// WMMA: the wrapped instruction is a CDNA 5 WMMA, whose scales'
	// modifiers are the Load-Scale word's ScaleModifiers (CDNA 4's MFMAs
	// take op_sel and op_sel_hi instead).
	WMMA bool
}

// PairTemplates are the 4-dword encodings of the instruction name.
func (d *Decoder) PairTemplates(name string) []PairTemplate {
	return d.pairTmpl[strings.ToLower(name)]
}

// pendingPair is a 4-dword encoding New files once every entry is in.
type pendingPair struct {
	in *isa.Instruction
	e  isa.Encoding
}

// fixedBits gives the fixed bits of fs that fall in dword word (mask,
// value), the field's own value aligned at its most significant bit.
func fixedBits(fs []isa.Field, word int) (mask, value uint32) {
	for _, f := range fs {
		v := strings.ReplaceAll(f.Fixed, "_", "")
		if v == "" || f.MSB/32 != word || (f.MSB-len(v)+1)/32 != word {
			continue
		}
		for i, c := range v {
			bit := uint(f.MSB-i) % 32
			mask |= 1 << bit
			if c == '1' {
				value |= 1 << bit
			}
		}
	}
	return mask, value
}

// addPairs files the 4-dword encodings under the entries of their first
// pairs: the entry the first pair's fixed bits decode to alone. The
// scaled instruction takes its register counts and f8f6f4 formats from
// the instruction its second pair is on its own (the same opcode).
func (d *Decoder) addPairs(formats map[string]*format, pending []pendingPair) {
	for _, p := range pending {
		m0, v0 := fixedBits(p.e.Fields, 0)
		m2, v2 := fixedBits(p.e.Fields, 2)
		tail := formats[p.e.Format]
		if tail == nil {
			// A layout of its own (CDNA 5's VOP3PX2): the second pair is
			// a word of the format its fixed bits name.
			tail = d.wordFormat(m2, v2)
		}
		if tail == nil || tail.op == nil {
			continue
		}
		raw := [3]uint32{v0}
		head, headEn := d.lookupWord(&raw)
		if head == nil {
			continue // the first pair decodes to nothing alone
		}
		opMask, opShift, ok := tail.opField.inWord0()
		hm, _, hok := head.opField.inWord0()
		if !ok || !hok || m0&hm != hm {
			continue
		}
		m2 |= opMask
		v2 |= uint32(p.e.Opcode) << opShift & opMask
		wrapped := tail.lookup(uint32(p.e.Opcode))
		if wrapped == nil {
			continue // no instruction to take the register counts from
		}
		en := &entry{name: p.in.Name, instr: p.in, enc: p.e}
		d.ready(tail, en)
		w := d.ready(tail, wrapped)
		d.ready(head, headEn)
		en.mai, en.fmtScaled, en.shape = w.mai, w.fmtScaled, w.shape
		if w.wmma {
			// A WMMA pair renders as the WMMA (its operands as the
			// wrapped instruction has them), the scales from the first
			// pair's own entry (CDNA 4's MFMA pairs keep their model's).
			en.sig, en.prof, en.wmma, en.sparse, en.fmtFixed = w.sig, w.prof, w.wmma, w.sparse, w.fmtFixed
		}
		m1, v1 := fixedBits(p.e.Fields, 1)
		headEn.pairs = append(headEn.pairs, &pairEntry{mask1: m1, val1: v1, mask2: m2, val2: v2, tail: tail, en: en})
		if d.pairTmpl == nil {
			d.pairTmpl = map[string][]PairTemplate{}
		}
		d.pairTmpl[p.in.Name] = append(d.pairTmpl[p.in.Name], PairTemplate{Model: p.in.Name, Head: head.Format,
			HeadWords: [2]uint32{v0 & m0, v1 & m1}, Wrapped: w.mnemonic, Fixed2: v2 &^ opMask, WMMA: w.wmma})
	}
}

// inWord0 gives the mask and shift of a field that lies in the first
// dword in one piece (ok false otherwise).
func (c *compiledField) inWord0() (mask uint32, shift uint8, ok bool) {
	if c.n != 1 || c.parts[0].word != 0 {
		return 0, 0, false
	}
	p := c.parts[0]
	return uint32(1<<p.width-1) << p.shift, p.shift, true
}

// wordFormat is the first format with an opcode whose fixed bits the
// dword fixed bits (mask, value) hold.
func (d *Decoder) wordFormat(mask, value uint32) *format {
	for _, g := range d.byTop[value>>23] {
		if mask&g.mask != g.mask || value&g.mask != g.value {
			continue
		}
		for _, f := range g.formats {
			if f.op != nil {
				return f
			}
		}
	}
	return nil
}

// lookupWord finds the format and entry the first dword of raw decodes to.
func (d *Decoder) lookupWord(raw *[3]uint32) (*format, *entry) {
	w0 := raw[0]
	for _, g := range d.byTop[w0>>23] {
		if w0&g.mask != g.value {
			continue
		}
		for _, f := range g.formats {
			if f.op == nil {
				continue
			}
			if e := f.lookup(f.opField.get(raw)); e != nil {
				return f, e
			}
		}
		return nil, nil
	}
	return nil, nil
}

// pairAt returns the 4-dword instruction of en's whose second pair is at
// code[next:], if any.
func pairAt(en *entry, code []byte, next int) *pairEntry {
	if len(en.pairs) == 0 || len(code)-next < 8 {
		return nil
	}
	w1 := binary.LittleEndian.Uint32(code[next-4:])
	w2 := binary.LittleEndian.Uint32(code[next:])
	for _, p := range en.pairs {
		if w1&p.mask1 == p.val1 && w2&p.mask2 == p.val2 {
			return p
		}
	}
	return nil
}

// scaleOperands prints the scales of a scaled MFMA (the first pair, in
// r.head's layout) after its sources: VGPRs in LLVM 22's syntax, which
// flags any other operand code; the OP_SEL and OP_SEL_HI bits of sources
// 0 and 1 choose their bytes.
func (r *renderer) scaleOperands() {
	h := r.head
	raw := &r.headRaw
	for _, id := range [2]fieldID{fSRC0, fSRC1} {
		code := int(h.cf[id].get(raw))
		if code < 256 {
			r.mark(invalidClass, code)
		}
		r.src(code, opType{'b', 32}, 0)
	}
	opsel := int(h.cf[fOPSEL].get(raw)) & 3
	hi := int(h.cf[fOPSELHI].get(raw)) & 3
	if opsel != 0 {
		r.mod()
		r.str("op_sel:")
		r.bitList(opsel, 3, false)
		r.end()
	}
	r.mod()
	r.str("op_sel_hi:")
	r.bitList(hi, 3, false)
	r.end()
}

// renderLdScale prints a Load-Scale word that no scaled MFMA's pair
// follows: v_mfma_ld_scale_b32 src0, src1 with op_sel:[a,b] when set and
// op_sel_hi:[a,b] unless both are 1 (LLVM's default). LLVM 22's
// encoding fixes VDST, CLAMP and the third source's NEG, NEG_HI and
// OP_SEL bits at 0 (llvm-mc rejects a word that sets them); it reads past
// SRC2, the two sources' NEG and NEG_HI bits and OP_SEL_HI bit 2.
func (r *renderer) renderLdScale() {
	r.absent(fVDST, fCLMP)
	for _, id := range [3]fieldID{fNEG, fNEGHI, fOPSEL} {
		if r.has(id) && r.f(id)>>2 != 0 {
			r.markField(id)
		}
	}
	opsel, hi := r.f(fOPSEL), r.f(fOPSELHI)
	r.src(r.f(fSRC0), opType{'b', 32}, 0)
	r.src(r.f(fSRC1), opType{'b', 32}, 0)
	if opsel != 0 {
		r.mod()
		r.str("op_sel:")
		r.bitList(opsel&3, 2, false)
		r.end()
	}
	if hi != 3 {
		r.mod()
		r.str("op_sel_hi:")
		r.bitList(hi, 2, false)
		r.end()
	}
}

// CDNA 5's scaled WMMAs (VOP3PX2) are 4 dwords too: a VOP3P Load-Scale
// word pair (LLVM's v_wmma_ld_scale_paired_b32, or
// v_wmma_ld_scale16_paired_b64 for the block-16 forms, when it stands
// alone) whose SRC0 and SRC1 are the scales of matrix A and B, then the
// VOP3P word pair of the WMMA they scale. The Load-Scale word keeps the
// scales' modifiers in VOP3P's modifier fields (the guide's VOP3PX2
// table, "load scale" portion); LLVM 22 prints the WMMA's operands, the
// two scales, the WMMA's matrix formats, these modifiers in the order of
// wmmaScaleMods, then the WMMA's neg_lo/neg_hi.

// ScaleModifier is one modifier of a CDNA 5 Load-Scale word: bits [LSB,
// LSB+Width) of the VOP3P field Field, printed as Label, ':' and a name
// from Names (the value in decimal past them), or as the bare Label when
// Names is nil and the bit is set. The encoder sets the same bits.
type ScaleModifier struct {
	Field      string
	LSB, Width uint
	Label      string
	Names      []string
}

// ScaleModifiers are the Load-Scale word's modifiers in LLVM 22's order.
func ScaleModifiers() []ScaleModifier { return wmmaScaleMods }

var (
	scaleRowNames = []string{"MATRIX_SCALE_ROW0", "MATRIX_SCALE_ROW1"}
	// LLVM 22 names E8M0 MATRIX_SCALE_FMT_E8 (its parser takes no _E8M0).
	scaleFmtNames = []string{"MATRIX_SCALE_FMT_E8", "MATRIX_SCALE_FMT_E5M3", "MATRIX_SCALE_FMT_E4M3"}
)

// wmmaScaleMods are the Load-Scale word's modifiers in LLVM 22's order
// (llvm-mc 22, bit by bit; the guide's VOP3PX2 table gives the same
// bits: SCL_OPSEL[0]/SCL_OPSEL_HI[0] the scale rows, SCL_NEG[1:0] and
// SCL_NEG_HI[1:0] the scale formats, SCL_OPSEL[2]/SCL_OPSEL_HI[2] reuse).
// A zero value prints nothing (ROW0 and E8M0 are LLVM's defaults).
var wmmaScaleMods = []ScaleModifier{
	{"OPSEL", 0, 1, "matrix_a_scale", scaleRowNames},
	{"OPSEL_HI", 0, 1, "matrix_b_scale", scaleRowNames},
	{"NEG", 0, 2, "matrix_a_scale_fmt", scaleFmtNames},
	{"NEG_HI", 0, 2, "matrix_b_scale_fmt", scaleFmtNames},
	{"OPSEL", 2, 1, "matrix_a_reuse", nil},
	{"OPSEL_HI2", 0, 1, "matrix_b_reuse", nil},
}

// wmmaScaleFixed are the Load-Scale word's bits LLVM 22's encoding fixes
// (a word with other values is invalid, alone or paired): field, mask and
// value. SRC2 holds the guide's constant 0x100 (VOP3PX2's "Constant
// [58:50] Must be set to 0x100", which the pair's fixed bits check too);
// VDST is fixed at zero when the word stands alone (the scaled WMMA reads
// past it).
var wmmaScaleFixed = []struct {
	field       fieldID
	mask, value uint32
}{{fNEGHI, 4, 0}, {fOPSEL, 2, 0}, {fCLMP, 1, 0}, {fSRC2, 0x1ff, 0x100}, {fOPSELHI, 2, 0}, {fNEG, 4, 0}}

// wmmaScaleModifiers prints the modifiers of a Load-Scale word in h's
// layout (raw) and marks the word invalid for a fixed bit it sets.
func (r *renderer) wmmaScaleModifiers(h *format, raw *[3]uint32) {
	for _, fx := range wmmaScaleFixed {
		if v := h.cf[fx.field].get(raw); v&fx.mask != fx.value && r.invalid == validWord {
			r.invalid, r.invalidCode, r.invalidField = invalidUnused, int(v), fx.field
		}
	}
	for _, m := range wmmaScaleMods {
		v := int(h.cf[fieldAliases[m.Field]].get(raw) >> m.LSB & (1<<m.Width - 1))
		if v == 0 {
			continue
		}
		r.mod()
		r.str(m.Label)
		switch {
		case m.Names == nil:
		case v < len(m.Names):
			r.buf = append(r.buf, ':')
			r.str(m.Names[v])
		default:
			r.buf = append(r.buf, ':')
			r.dec(v)
		}
		r.end()
	}
}

// wmmaScales prints the two scales of a Load-Scale word in h's layout
// (raw): sources of sizes bits (the Load-Scale instruction's own, 32 or
// 64). llvm-mc 22 rejects the 64-bit literal code alone and misreads
// either literal after the paired word (it takes the WMMA's words for it,
// or fails), so those scales are invalid here.
func (r *renderer) wmmaScales(h *format, raw *[3]uint32, bits [2]int, paired bool) {
	for i, id := range [2]fieldID{fSRC0, fSRC1} {
		code := int(h.cf[id].get(raw))
		if code == lit64Code || paired && code == literalCode {
			r.mark(invalidReserved, code)
		}
		r.src(code, opType{'b', bits[i]}, 0)
	}
}

// renderWmmaLdScale prints a CDNA 5 Load-Scale word that no scaled WMMA's
// pair follows: v_wmma_ld_scale_paired_b32 src0, src1 and its modifiers.
func (r *renderer) renderWmmaLdScale() {
	r.absent(fVDST)
	s := r.en.sig
	r.wmmaScales(r.fm, &r.raw, [2]int{s.src[0].size, s.src[1].size}, false)
	r.wmmaScaleModifiers(r.fm, &r.raw)
}

// pairedScaleModifiers prints a CDNA 5 scaled WMMA's Load-Scale
// modifiers after its matrix formats (nothing for an unpaired WMMA or a
// CDNA 4 MFMA pair, whose tail is no WMMA).
func (r *renderer) pairedScaleModifiers() {
	if r.head != nil {
		r.wmmaScaleModifiers(r.head, &r.headRaw)
	}
}

// setScaleFixed sets the values wmmaScaleFixed gives a Load-Scale word in
// fm's layout (SRC2's constant 0x100) in words.
func (fm *format) setScaleFixed(words []uint32) {
	for _, fx := range wmmaScaleFixed {
		id := fx.field
		for i := range fm.Fields {
			if fieldAliases[strings.ToUpper(fm.Fields[i].Name)] == id && fx.value != 0 {
				f := fm.Fields[i]
				SetField(words, f, f.Get(words)&^uint64(fx.mask)|uint64(fx.value))
				break
			}
		}
	}
}

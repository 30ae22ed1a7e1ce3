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
		tail := formats[p.e.Format]
		if tail == nil || tail.op == nil {
			continue
		}
		m0, v0 := fixedBits(p.e.Fields, 0)
		m2, v2 := fixedBits(p.e.Fields, 2)
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
		en.mai, en.fmtScaled, en.shape = w.mai, w.fmtScaled, w.shape
		headEn.pairs = append(headEn.pairs, &pairEntry{mask2: m2, val2: v2, tail: tail, en: en})
		if d.pairTmpl == nil {
			d.pairTmpl = map[string][]PairTemplate{}
		}
		d.pairTmpl[p.in.Name] = append(d.pairTmpl[p.in.Name], PairTemplate{Model: p.in.Name, Head: head.Format,
			HeadWords: [2]uint32{v0 & m0, 0}, Wrapped: w.mnemonic, Fixed2: v2 &^ opMask})
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
	w2 := binary.LittleEndian.Uint32(code[next:])
	for _, p := range en.pairs {
		if w2&p.mask2 == p.val2 {
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

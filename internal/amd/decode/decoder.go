// Package decode turns AMD GPU machine code back into instructions: it builds
// a dispatch table from a family's microcode formats (the fixed ENCODING bits
// and the OP field of each isa.Format) and the opcodes of its instructions,
// then renders the operands the way the LLVM disassembler (llvm-mc) prints
// them, so its output can be compared with llvm-mc line by line.
//
// It also reads the inputs users paste (hex words, llvm-mc byte lists, raw
// binary, AMDGPU ELF code objects) and implements `gpuisa decode`.
package decode

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// FieldValue is one field of a decoded instruction with the value it holds.
type FieldValue struct {
	Name   string         `json:"name"`
	MSB    int            `json:"msb"`
	LSB    int            `json:"lsb"`
	Ranges []isa.BitRange `json:"ranges,omitempty"`
	Value  uint64         `json:"value"`
	Bits   string         `json:"bits"` // binary, most significant bit first
	// Parts are the documented sub-fields of an immediate (s_waitcnt's
	// vmcnt, expcnt, lgkmcnt) with their values.
	Parts []FieldValue `json:"parts,omitempty"`
}

// Inst is one decoded instruction.
type Inst struct {
	Offset    int          `json:"offset"`
	Bytes     []byte       `json:"-"`
	Hex       string       `json:"bytes"`    // "0xc1,0x04,0x0a,0x16" as llvm-mc prints encodings
	Name      string       `json:"name"`     // the model's mnemonic: "v_max_f32"
	Mnemonic  string       `json:"mnemonic"` // as LLVM prints it: "v_max_f32_e32"
	Encoding  string       `json:"encoding"` // format name: "VOP2"
	Opcode    int          `json:"opcode"`
	Fields    []FieldValue `json:"fields"`
	Operands  []string     `json:"operands"`
	Modifiers []string     `json:"modifiers,omitempty"` // "clamp", "mul:2", "glc"
	Extra     string       `json:"extra,omitempty"`     // "DPP", "SDWA", "literal"
	// Partial says the operands are not rendered (or only partly) for this
	// encoding; Fields are still complete.
	Partial bool   `json:"partial,omitempty"`
	Symbol  string `json:"symbol,omitempty"` // ELF symbol starting at this offset
	// Dual is the second (Y) operation of a VOPD/VOPD3 dual-issue word;
	// the Inst itself is the X operation.
	Dual *DualOp `json:"dual,omitempty"`
	// Traits are what the decoder decided about the operands (the
	// encoder's check reads them).
	Traits Traits `json:"-"`
}

// DualOp is the Y half of a dual-issue (VOPD) instruction.
type DualOp struct {
	Name      string   `json:"name"`
	Mnemonic  string   `json:"mnemonic"`
	Opcode    int      `json:"opcode"`
	Operands  []string `json:"operands"`
	Modifiers []string `json:"modifiers,omitempty"`
}

// Text is the instruction in LLVM assembler syntax; a dual-issue word is
// "X :: Y".
func (in Inst) Text() string {
	s := asmText(in.Mnemonic, in.Operands, in.Modifiers)
	if y := in.Dual; y != nil {
		s += dualSep + asmText(y.Mnemonic, y.Operands, y.Modifiers)
	}
	return s
}

// asmText writes "mnemonic op, op mod mod".
func asmText(mnemonic string, operands, modifiers []string) string {
	n := len(mnemonic)
	for _, o := range operands {
		n += len(o) + 2
	}
	for _, m := range modifiers {
		n += len(m) + 1
	}
	var b strings.Builder // one allocation: the encoder reads every candidate's text
	b.Grow(n)
	b.WriteString(mnemonic)
	for i, o := range operands {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		b.WriteString(o)
	}
	for _, m := range modifiers {
		b.WriteByte(' ')
		b.WriteString(m)
	}
	return b.String()
}

// Error is a decoding failure at a byte offset.
type Error struct {
	Offset int
	Msg    string
	// Cause, when set, is the error Msg says (a NotOnTargetError).
	Cause error
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d (0x%x): %s", e.Offset, e.Offset, e.Msg) }

func (e *Error) Unwrap() error { return e.Cause }

// Decoder decodes the machine code of one family. It is safe for concurrent
// use once built.
type Decoder struct {
	arch   isa.Architecture
	fam    *family
	groups []*group
	// byTop lists, for each value of bits [31:23] of the first dword, the
	// groups whose fixed bits agree with it, most specific first.
	byTop [512][]*group
	// hasShort / hasVOP3 record, per mnemonic, whether the instruction has a
	// 32-bit VOP1/VOP2/VOPC encoding and a 64-bit VOP3 one: LLVM then adds
	// _e32 / _e64 to tell them apart.
	hasShort map[string]bool
	hasVOP3  map[string]bool
	// dppL, sdwaL, sdwabL are the second-dword layouts (ext.go).
	dppL, sdwaL, sdwabL extLayout
	// The encoder's templates by mnemonic (template.go): tmplRefs, made
	// on first use, says where each name's encodings are; tmpl holds the
	// lists made so far, under tmplMu; tmplAlts records that the names
	// only the decoder prints were added.
	tmplOnce sync.Once
	tmplRefs map[string][]tmplRef
	tmplMu   sync.Mutex
	tmpl     map[string][]Template
	tmplAlts bool
	// target and absentOn: the gfx target ForTarget gave and the
	// instructions the model says it lacks (target.go); nil for the
	// whole family.
	target   string
	absentOn map[*isa.Instruction]bool
	// spelledOn: the name the target's llvm-mc gives an instruction the
	// model marks unsupported there under its own name but whose alias it
	// assembles into the same bytes (gfx904's v_fma_mix_f32 for Vega's
	// V_MAD_MIX_F32); nil when there is none (target.go).
	spelledOn map[*isa.Instruction]string
	// pairTmpl: the 4-dword instructions' templates (scaled.go).
	pairTmpl map[string][]PairTemplate
	// aliases: the verified other spellings on the target, made on first
	// use (alias.go).
	aliasOnce sync.Once
	aliases   map[string]string
}

// group is the formats that share the same fixed bits (VOP3A and VOP3B; VOP3P
// and VOP3P-MAI); the opcode tells them apart.
type group struct {
	mask, value uint32
	formats     []*format
}

type format struct {
	isa.Format
	kind     Kind
	op       *isa.Field
	opField  compiledField
	cf       [numFields]compiledField
	byOpcode map[int]*entry
	byOp     []*entry // byOpcode as a slice indexed by opcode
	words    int      // dwords in the fixed-width part
	// single is the one instruction of a format without an OP field
	// (EXP: LLVM's "exp").
	single *entry
	seg    segment // FLAT, GLOBAL or SCRATCH
	// dualX and dualY are the opcode tables of a VOPD/VOPD3 format's two
	// halves, indexed by OPX and OPY (vopd.go).
	dualX, dualY []*entry
	// reserved are the bits of each dword that no field of the guide's
	// layout covers: reserved, must be zero (llvm-mc's tables fix them at
	// 0 and reject a word with one set). See reservedBits.
	reserved [3]uint32
}

// reservedBits gives the bits of the first two dwords of fm that no field
// of its layout covers and llvm-mc does not decode past (llvmIgnoredBits)
// on generation gen of product line line. A third dword (a literal, an NSA address list, a
// 96-bit guide layout's trailing offset) is left alone.
func reservedBits(fm *format, gen int, line string) [3]uint32 {
	var covered [3]uint32
	for _, f := range fm.Fields {
		for _, r := range fieldRanges(f) {
			for b := r.LSB; b <= r.MSB && b < 96; b++ {
				covered[b/32] |= 1 << uint(b%32)
			}
		}
	}
	for _, b := range llvmIgnoredBits[ignoredKey{gen, line, fm.Name}] {
		covered[b/32] |= 1 << uint(b%32)
	}
	var out [3]uint32
	for i := 0; i < min(fm.words, 2); i++ {
		out[i] = ^covered[i]
	}
	return out
}

func (fm *format) lookup(op uint32) *entry {
	if int(op) < len(fm.byOp) {
		return fm.byOp[op]
	}
	return nil
}

// ready prepares an entry of fm on first use: the shape first, since
// which operands the printed operand list maps to depends on it
// (signatureOf). Dual-issue halves are prepared in New.
func (d *Decoder) ready(fm *format, en *entry) *entry {
	en.once.Do(func() {
		d.prepare(fm, en)
		en.sig = d.signatureOf(fm, en)
		en.inputMods = d.inputMods(fm, en)
		en.mods = modsOf(fm, en)
	})
	return en
}

type entry struct {
	name  string
	instr *isa.Instruction
	enc   isa.Encoding
	// once prepares the fields below on first use (ready): a command that
	// decodes one word prepares one entry, not the family's thousands.
	once sync.Once
	sig  signature
	// Precomputed per opcode so the hot path compares no strings.
	mnemonic string // as LLVM prints it in this format: "v_max_f32_e32"
	shape    shape  // which operand layout the instruction follows
	kconst   bool   // a VOP2 that always carries a literal (v_fmamk_f32)
	// interpMov and interpSrc2 shape the VOP3 interpolation forms:
	// v_interp_mov reads a parameter, not a VGPR; the f16 forms but
	// p1ll read a second VGPR.
	interpMov, interpSrc2 bool
	// vgprSrc0: a VOP1 whose source is VGPR-only in LLVM's syntax (vsrc).
	vgprSrc0 bool
	// wmma marks gfx12 WMMA/SWMMAC, whose op_sel bits are index_key and
	// matrix reuse hints, not operand halves; sparse is SWMMAC.
	wmma, sparse bool
	// fmtScaled: the f8f6f4 matrix instructions (CDNA 4 MFMA, CDNA 5
	// WMMA), whose A and B tuples are as wide as the formats the word
	// names (cbsz/blgp, matrix_a_fmt/matrix_b_fmt) make them; fmtFixed:
	// the f4-only WMMA, whose op_sel bits hold that fixed format and no
	// reuse hints.
	fmtScaled, fmtFixed bool
	// legacy16: v_mad_legacy_f16 and the other _legacy_f16 forms of GCN 5
	// and CDNA, which have no op_sel in LLVM.
	legacy16 bool
	// bitop3: V_BITOP3 reads OMOD, ABS and NEG as its BITOP3 immediate.
	bitop3 bool
	// laneCtl: the row-of-16 lane permutes keep FETCH_INACTIVE and
	// BOUND_CTRL in op_sel bits 0 and 1 (LLVM prints op_sel:[fi,bc]).
	laneCtl bool
	// opSelList: a VOP3 form with LLVM's op_sel operand though no operand
	// is 16-bit (the FP8/BF8 packs and stochastic-rounding conversions):
	// op_sel lists this many source bits and the destination bit.
	opSelList int
	// byteSel: where the RDNA 4 / CDNA 5 FP8 conversions keep byte_sel's
	// bits 0 and 1 among the op_sel bits (-1: no byte_sel).
	byteSel [2]int8
	// intDot: the integer dot products of 4- and 8-bit elements (no op_sel).
	intDot bool
	// packed16: the sources are packed 16-bit pairs (packed math, the
	// 16-bit dot products) of this element type ('f', 'h' bf16, 'i' or
	// 'b'; 0: not packed): literals follow LLVM's V2F16/V2BF16/V2INT16
	// rules.
	packed16  byte
	dataRegs  int    // memory: registers of the data operand
	baseBits  int    // SMEM: the size of the sbase pair or quad
	dsRegs    [3]int // DS: registers of vdst, data0, data1 the model gives (0: none)
	memOps    memOps // memory: which operands LLVM prints
	memFlags  memFlags
	mai       maiSizes
	syntaxOps []string
	// blgpNeg: the f64 MFMAs, whose BLGP bits are neg:[a,b,c] where the
	// ACC bits select AGPRs (CDNA 2+).
	blgpNeg bool
	// interpF16, interpP10: RDNA 3+ VINTERP operand halves; ldsParam: an
	// LDSDIR parameter load (attrN.c); thStore: a store's TH names;
	// typed: a typed buffer (tbuffer) whatever its format.
	interpF16, interpP10, ldsParam, thStore, typed bool
	// inputMods: a VOP3 instruction LLVM gives source modifiers (ABS,
	// NEG); see inputMods.
	inputMods bool
	// mods: which sources and output modifiers the entry's VOP3, DPP and
	// SDWA variants take, from the model's LLVM syntax (modaccept.go).
	mods entryMods
	// cacheBits: a cache-control buffer instruction that takes the GLC
	// bit though it prints none (CDNA 2's buffer_wbl2; shapes.tsv).
	cacheBits bool
	mimg      mimgInfo
	// negIgnored: a VOP3P instruction without neg modifiers whose NEG and
	// NEG_HI bits LLVM reads past (prints nothing for).
	negIgnored bool
	// pairs are the 4-dword instructions whose first word pair this
	// entry's word is (scaled.go).
	pairs []*pairEntry
	// prof is the VOP3P operand profile the rules give (profile.go), or nil.
	prof *opProfile
	// facts are what the rules table said (the entries tables print
	// which row decided what).
	facts *facts
}

// New builds a decoder for arch from its formats and instructions.
func New(arch isa.Architecture, instrs []isa.Instruction) (*Decoder, error) {
	fam, err := newFamily(arch.ID)
	if err != nil {
		return nil, err
	}
	d := &Decoder{arch: arch, fam: fam, hasShort: map[string]bool{}, hasVOP3: map[string]bool{}}
	byKey := map[[2]uint32]*group{}
	formats := map[string]*format{}
	for _, f := range arch.Formats {
		if f.Width > 96 {
			// Two word pairs (CDNA 5's VOP3PX2): not a word the first
			// dword identifies; its instructions are filed under their
			// first pair's entry (addPairs), their fixed fields past it.
			continue
		}
		var mask, value uint64
		fixed := false
		for _, fl := range f.Fields {
			if fl.Fixed == "" {
				continue
			}
			rs := fieldRanges(fl)
			if len(rs) != 1 {
				return nil, fmt.Errorf("decode: %s: fixed field %s is split; not supported", f.Name, fl.Name)
			}
			r := rs[0]
			v := strings.ReplaceAll(fl.Fixed, "_", "")
			n := len(v)
			if n == 0 || n > 32 || r.MSB >= 32 || r.MSB-n+1 < 0 {
				return nil, fmt.Errorf("decode: %s: fixed field %s %q does not fit bits [%d:%d] of the first dword", f.Name, fl.Name, fl.Fixed, r.MSB, r.LSB)
			}
			// The value's own length wins over a misprinted range; it is
			// aligned at the field's most significant bit.
			for i, c := range v {
				bit := uint(r.MSB - i)
				mask |= 1 << bit
				switch c {
				case '1':
					value |= 1 << bit
				case '0':
				default:
					return nil, fmt.Errorf("decode: %s: fixed field %s %q is not binary", f.Name, fl.Name, fl.Fixed)
				}
			}
			fixed = true
		}
		if !fixed {
			continue // a second dword (DPP, SDWA) or a layout without its own identity
		}
		fm := &format{Format: f, kind: kindOf(f.Name), byOpcode: map[int]*entry{}}
		for i := range fm.Fields {
			if strings.EqualFold(fm.Fields[i].Name, "OP") && fm.op == nil {
				fm.op = &fm.Fields[i]
				fm.opField = compileField(fm.Fields[i])
			}
		}
		fm.cf = compileFields(fm.Fields)
		if fm.op == nil && fm.kind == KindEXP {
			fm.single = &entry{name: "exp", mnemonic: "exp", enc: isa.Encoding{Name: f.Name, Format: f.Name, Opcode: -1}}
		}
		switch strings.ToUpper(f.Name) {
		case "GLOBAL", "VGLOBAL":
			fm.seg = segGlobal
		case "SCRATCH", "VSCRATCH":
			fm.seg = segScratch
		}
		if f.Width == 0 {
			fm.Width = 32
		}
		fm.words = max(1, min(3, (fm.Width+31)/32))
		fm.reserved = reservedBits(fm, d.fam.gen, d.fam.line)
		formats[f.Name] = fm
		key := [2]uint32{uint32(mask), uint32(value)}
		g := byKey[key]
		if g == nil {
			g = &group{mask: uint32(mask), value: uint32(value)}
			byKey[key] = g
			d.groups = append(d.groups, g)
		}
		g.formats = append(g.formats, fm)
	}
	if len(d.groups) == 0 {
		return nil, fmt.Errorf("decode: %s has no format with fixed ENCODING bits", arch.ID)
	}
	d.extLayouts(arch.Formats)
	// Most specific first: SOP1 (9 fixed bits) before SOPK (4) before SOP2 (2).
	sort.SliceStable(d.groups, func(i, j int) bool {
		return bits.OnesCount32(d.groups[i].mask) > bits.OnesCount32(d.groups[j].mask)
	})
	for top := range d.byTop {
		w := uint32(top) << 23
		for _, g := range d.groups {
			if w&g.mask&0xff800000 == g.value&0xff800000 {
				d.byTop[top] = append(d.byTop[top], g)
			}
		}
	}
	// A guide that lists a carry-out instruction's VOP3 opcode in its VOP3A
	// table (RDNA 1-2 v_add_co_ci_u32) still means the VOP3B layout, with
	// SDST at [14:8]: LLVM prints that operand.
	vop3bFor := map[*format]*format{}
	for _, g := range d.groups {
		var a, b *format
		for _, fm := range g.formats {
			switch fm.kind {
			case KindVOP3:
				a = fm
			case KindVOP3B:
				b = fm
			}
		}
		if a != nil && b != nil {
			vop3bFor[a] = b
		}
	}
	var pending []pendingPair
	for i := range instrs {
		in := &instrs[i]
		for _, e := range in.Encodings {
			fname := e.Format
			if fname == "" {
				fname = e.Name
			}
			if e.Width > 96 {
				pending = append(pending, pendingPair{in, e}) // two word pairs (scaled.go)
				continue
			}
			switch kindOf(fname) {
			case KindVOP1, KindVOP2, KindVOPC:
				d.hasShort[in.Name] = true
			case KindVOP3, KindVOP3B:
				d.hasVOP3[in.Name] = true
			}
			fm := formats[fname]
			if fm == nil || e.Opcode < 0 {
				continue
			}
			if fm.kind == KindVOPD || fm.kind == KindVOPD3 {
				fm.addDual(in, e)
				continue
			}
			if b := vop3bFor[fm]; b != nil && rules.has(fam.gen, fm.kind, in, in.Name, "vop3b") {
				fm = b
			}
			if _, taken := fm.byOpcode[e.Opcode]; taken {
				continue // first name wins; aliases are the model's business
			}
			fm.byOpcode[e.Opcode] = &entry{name: in.Name, instr: in, enc: e}
		}
	}
	d.addPromotions(formats)
	for _, g := range d.groups {
		for _, fm := range g.formats {
			for _, en := range append(append([]*entry(nil), fm.dualX...), fm.dualY...) {
				if en != nil {
					d.prepareDual(fm, en)
					en.sig = d.signatureOf(fm, en)
				}
			}
			maxOp := -1
			for op := range fm.byOpcode {
				maxOp = max(maxOp, op)
			}
			if maxOp >= 0 && maxOp < 1<<16 {
				fm.byOp = make([]*entry, maxOp+1)
				for op, en := range fm.byOpcode {
					fm.byOp[op] = en
				}
			}
		}
	}
	d.addPairs(formats, pending)
	return d, nil
}

// vop3Base gives, per generation, where the VOP3 opcodes of the 32-bit
// VALU encodings start: "VOP3 opcode = VOPC opcode, VOP2 opcode + 0x100,
// VOP1 opcode + 0x140" (GCN 5 / CDNA guides, VOP3 section) and 0x180 for
// VOP1 on RDNA 1-2.
var vop3Base = map[int][3]int{9: {0x140, 0x100, 0}, 10: {0x180, 0x100, 0}}

// addPromotions adds the VOP3 forms of VOP1/VOP2/VOPC instructions the
// older guides describe by that rule instead of listing them.
func (d *Decoder) addPromotions(formats map[string]*format) {
	base, ok := vop3Base[d.fam.gen]
	if !ok {
		return
	}
	var vop3a, vop3b *format
	for _, fm := range formats {
		switch fm.kind {
		case KindVOP3:
			vop3a = fm
		case KindVOP3B:
			vop3b = fm
		}
	}
	if vop3a == nil {
		return
	}
	for _, fm := range formats {
		var b int
		switch fm.kind {
		case KindVOP1:
			b = base[0]
		case KindVOP2:
			b = base[1]
		case KindVOPC:
			b = base[2]
		default:
			continue
		}
		for op, en := range fm.byOpcode {
			name := en.name
			if d.hasVOP3[name] || rules.has(d.fam.gen, fm.kind, en.instr, name, "no-promote") {
				continue
			}
			dst := vop3a
			if vop3b != nil && rules.has(d.fam.gen, fm.kind, en.instr, name, "vop3b") {
				dst = vop3b
			}
			if _, taken := vop3a.byOpcode[b+op]; taken {
				continue
			}
			if vop3b != nil {
				if _, taken := vop3b.byOpcode[b+op]; taken {
					continue
				}
			}
			dst.byOpcode[b+op] = &entry{name: name, instr: en.instr,
				enc: isa.Encoding{Name: dst.Name, Format: dst.Name, Width: dst.Width, Opcode: b + op}}
			d.hasVOP3[name] = true
		}
	}
}

// Arch returns the family the decoder was built for.
func (d *Decoder) Arch() isa.Architecture { return d.arch }

// Decode decodes the instruction at code[offset:]. n is its length in bytes.
// The Inst has every field of the format with its bits (for bit diagrams);
// AppendText is the allocation-free way to get only the text.
func (d *Decoder) Decode(code []byte, offset int) (Inst, int, error) {
	return d.decodeInst(code, offset, true)
}

// DecodeOperands is Decode without the fields and the llvm-mc byte list
// (Inst.Fields and Inst.Hex are empty): what the encoder reads back of
// each candidate it places, whose fields (a hundred bytes each) were most
// of the memory a file's encoding touched.
func (d *Decoder) DecodeOperands(code []byte, offset int) (Inst, int, error) {
	return d.decodeInst(code, offset, false)
}

// renderScratch is the text buffer and operand spans a decode renders
// into before its text is copied out. They escape (the renderer hands
// them on), so arrays on the stack were two allocations of every decode,
// and the encoder decodes each candidate it places: a third of the
// memory a 10,000-line file's encoding touched. They are pooled instead.
type renderScratch struct {
	buf   [128]byte
	spans [24]span
}

var scratchPool = sync.Pool{New: func() any { return new(renderScratch) }}

func (d *Decoder) decodeInst(code []byte, offset int, fields bool) (Inst, int, error) {
	var r renderer
	sc := scratchPool.Get().(*renderScratch)
	defer scratchPool.Put(sc)
	r.buf, r.spans = sc.buf[:0], &sc.spans
	n, err := d.decode(&r, code, offset)
	if err != nil {
		return Inst{}, 0, err
	}
	// The mnemonic and every operand are pieces of one string, and the
	// operand lists are sized once: the encoder decodes each candidate
	// it places, and these were most of its allocations.
	text := string(r.buf)
	in := Inst{Offset: offset, Name: r.en.name, Mnemonic: text[:r.mnEnd], Encoding: r.fm.Name,
		Opcode: r.en.enc.Opcode, Extra: r.extra, Partial: r.partial, Traits: d.traits(r.fm, r.en)}
	if fields {
		in.Fields = r.fieldValues()
	}
	if r.head != nil {
		in.Encoding = r.en.enc.Name
	}
	if r.enY != nil {
		in.Dual = &DualOp{Name: r.enY.name, Mnemonic: text[r.dualAt+len(dualSep) : r.dualMnEnd],
			Opcode: r.enY.enc.Opcode, Operands: []string{}}
	}
	pieces := r.spans[:r.nspans]
	if in.Dual == nil {
		nmods := 0
		for _, sp := range pieces {
			if sp.mod {
				nmods++
			}
		}
		in.Operands = make([]string, 0, len(pieces)-nmods)
		if nmods > 0 {
			in.Modifiers = make([]string, 0, nmods)
		}
	}
	for _, sp := range pieces {
		txt := text[sp.start:sp.end]
		ops, mods := &in.Operands, &in.Modifiers
		if in.Dual != nil && int(sp.start) >= r.dualAt {
			ops, mods = &in.Dual.Operands, &in.Dual.Modifiers
		}
		if sp.mod {
			*mods = append(*mods, txt)
		} else {
			*ops = append(*ops, txt)
		}
	}
	if in.Operands == nil {
		in.Operands = []string{}
	}
	in.Bytes = append([]byte(nil), code[offset:offset+n]...)
	if fields {
		in.Hex = asmtext.FormatBytes(in.Bytes)
	}
	return in, n, nil
}

// Brief is an instruction decoded to its text alone: what the encoder
// needs to read a candidate back and a listing without fields keeps.
type Brief struct {
	Text    string // as Inst.Text gives it
	Name    string // the model's mnemonic (Inst.Name)
	Partial bool   // Inst.Partial
}

// DecodeBrief decodes the instruction at code[offset:] as AppendText does,
// without the fields and operand lists Decode builds.
func (d *Decoder) DecodeBrief(code []byte, offset int) (Brief, int, error) {
	var r renderer
	sc := scratchPool.Get().(*renderScratch)
	defer scratchPool.Put(sc)
	r.buf = sc.buf[:0]
	n, err := d.decode(&r, code, offset)
	if err != nil {
		return Brief{}, 0, err
	}
	return Brief{Text: string(r.buf), Name: r.en.name, Partial: r.partial}, n, nil
}

// AppendText decodes the instruction at code[offset:] and appends its text
// in LLVM syntax (what Inst.Text returns) to dst. It allocates nothing when
// dst has room and the word decodes; n is the instruction's length in bytes.
func (d *Decoder) AppendText(dst []byte, code []byte, offset int) ([]byte, int, error) {
	var r renderer
	r.buf = dst
	base := len(dst)
	r.base = base
	n, err := d.decode(&r, code, offset)
	if err != nil {
		return dst[:base], 0, err
	}
	return r.buf, n, nil
}

// AppendTextBranch is AppendText that also says, as BranchOffset would,
// whether the instruction is a PC-relative branch and gives its SIMM16,
// from the one decode: a listing asks both of every word, and the second
// lookup was a tenth of its decoding.
func (d *Decoder) AppendTextBranch(dst []byte, code []byte, offset int) (text []byte, n int, simm int16, branch bool, err error) {
	var r renderer
	r.buf = dst
	base := len(dst)
	r.base = base
	n, err = d.decode(&r, code, offset)
	if err != nil {
		return dst[:base], 0, 0, false, err
	}
	// BranchOffset's rule: a one-word format's instruction of the branch
	// shapes, SIMM16 in its first word's low bits (not the tail of a
	// scaled MFMA's word pairs, which is no branch either).
	if r.head == nil && r.fm.words == 1 && (r.en.shape == shBranch || r.en.shape == shCallFork) {
		simm, branch = int16(r.raw[0]), true
	}
	return r.buf, n, simm, branch, nil
}

// decode finds the format and opcode of the word at code[offset:] and
// renders it into r.
func (d *Decoder) decode(r *renderer, code []byte, offset int) (int, error) {
	if offset < 0 || offset >= len(code) {
		return 0, &Error{Offset: offset, Msg: "offset outside the input"}
	}
	left := len(code) - offset
	if left < 4 {
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("truncated: %d byte(s) left, an instruction is at least 4", left)}
	}
	// Read up to three dwords (zero past the end) so that opcode bits in a
	// later dword (RDNA 1 MTBUF) can be read before the width is known.
	for i := 0; i < 3 && 4*i+4 <= left; i++ {
		r.raw[i] = binary.LittleEndian.Uint32(code[offset+4*i:])
	}
	w0 := r.raw[0]
	var fm *format
	var en *entry
	var g *group
	for _, cand := range d.byTop[w0>>23] {
		if w0&cand.mask != cand.value {
			continue
		}
		g = cand
		for _, f := range cand.formats {
			if f.op == nil {
				if f.single != nil {
					fm, en = f, f.single
					break
				}
				if f.dualX != nil || f.dualY != nil {
					if x, y := f.dual(&r.raw); x != nil && y != nil {
						fm, en, r.enY = f, x, y
						break
					}
				}
				continue
			}
			if e := f.lookup(f.opField.get(&r.raw)); e != nil {
				fm, en = f, d.ready(f, e)
				break
			}
		}
		break
	}
	if g == nil {
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x matches no encoding of %s", w0, d.arch.ID)}
	}
	if en == nil {
		f := g.formats[0]
		if f.dualX != nil || f.dualY != nil {
			return 0, &Error{Offset: offset, Msg: f.dualMiss(&r.raw)}
		}
		if f.op == nil {
			return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x is a %s instruction; %s is not supported yet", w0, f.Name, f.Name)}
		}
		names := make([]string, len(g.formats))
		for i, f := range g.formats {
			names[i] = f.Name
		}
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s has no instruction with opcode %d", w0, strings.Join(names, "/"), f.opField.get(&r.raw))}
	}
	width := fm.Width / 8
	if p := pairAt(en, code, offset+width); p != nil && !r.noPair {
		// The word pair after a Load-Scale word is its scaled MFMA's:
		// render that, with the first pair's scales.
		r.head, r.headRaw, r.headEn = fm, r.raw, en
		next := offset + width
		r.raw = [3]uint32{binary.LittleEndian.Uint32(code[next:]), binary.LittleEndian.Uint32(code[next+4:]), 0}
		fm, en = p.tail, d.ready(p.tail, p.en)
		width += fm.Width / 8
	}
	need := width
	if fm.kind == KindMIMG {
		// A guide's MIMG width may count the NSA dword; a word without
		// NSA is 8 bytes (renderMIMG checks the address list's own).
		need = min(need, 8)
	}
	if left < need {
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("truncated %s instruction: needs %d bytes, %d left", fm.Name, width, left)}
	}
	for i := fm.words; i < 3; i++ {
		r.raw[i] = 0
	}
	for i, m := range fm.reserved {
		if b := r.raw[i] & m; b != 0 {
			return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: reserved bit %d is set (no field of the %s layout covers it; must be zero)", w0, fm.Name, en.name, 32*i+bits.TrailingZeros32(b), fm.Name)}
		}
	}
	if err := d.notOnTarget(w0, fm, en, r.enY); err != nil {
		return 0, &Error{Offset: offset, Msg: err.Error(), Cause: err}
	}
	r.d, r.fm, r.en = d, fm, en
	extra, err := r.render(code, offset+width)
	if err != nil {
		return 0, &Error{Offset: offset, Msg: err.Error()}
	}
	if r.head != nil && r.en.wmma && r.invalid.fixedBits() {
		// LLVM 22 reads a CDNA 5 Load-Scale word alone when the WMMA
		// pair after it sets a bit its encoding fixes (an operand outside
		// its class it prints, flagged; CDNA 4's scaled MFMAs fail whole).
		*r = renderer{buf: r.buf[:r.base], base: r.base, spans: r.spans, noPair: true}
		return d.decode(r, code, offset)
	}
	switch r.invalid {
	case invalidReserved:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: operand code %d is reserved on %s", w0, fm.Name, en.name, r.invalidCode, d.arch.ID)}
	case invalidOpSel:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: op_sel bits are set, but the instruction has no op_sel", w0, fm.Name, en.name)}
	case invalidAlign:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: register tuple at v%d/a%d is misaligned: %s needs tuples at even registers", w0, fm.Name, en.name, r.invalidCode, r.invalidCode, d.arch.ID)}
	case invalidOMod:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: output modifier %d on an instruction without a float result", w0, fm.Name, en.name, r.invalidCode)}
	case invalidDst:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: destination code %d names a constant, not a register", w0, fm.Name, en.name, r.invalidCode)}
	case invalidClass:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: operand code %d is outside the operand's register class", w0, fm.Name, en.name, r.invalidCode)}
	case invalidUnused:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: field %s holds %d, but the instruction has no such operand or modifier (must be zero)", w0, fm.Name, en.name, fieldName(fm, r.invalidField), r.invalidCode)}
	case invalidSrcMod:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: source %d has a modifier %s's LLVM syntax does not give it", w0, fm.Name, en.name, r.invalidCode, r.variant())}
	case invalidClamp:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: clamp is set, but %s's LLVM syntax has no clamp", w0, fm.Name, en.name, r.variant())}
	case invalidVariant:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s has no %s form", w0, fm.Name, en.name, r.extra)}
	case invalidDPPCtrl:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: DPP_CTRL 0x%x is reserved on %s", w0, fm.Name, en.name, r.invalidCode, d.arch.ID)}
	case invalidSCC:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: the SCC cache bit (bit %d) is set, but LLVM 22 has no SCC form of this float atomic", w0, fm.Name, en.name, r.invalidCode)}
	case invalidNoLiteral:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: source code %d asks for a literal constant, which %s's %s encoding cannot carry", w0, fm.Name, en.name, r.invalidCode, d.arch.ID, fm.Name)}
	case invalidLo128:
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("0x%08x: %s %s: 16-bit operand v%d is above v127, which %s's 32-bit encodings cannot name", w0, fm.Name, en.name, r.invalidCode, d.arch.ID)}
	}
	if width+extra > left {
		// An image word without its 8-byte short form (MIMG layouts
		// rendered as the full table): the rest is not there.
		return 0, &Error{Offset: offset, Msg: fmt.Sprintf("truncated %s instruction: needs %d bytes, %d left", fm.Name, width+extra, left)}
	}
	return width + extra, nil
}

// BranchOffset reports whether the instruction at code[offset:] reads its
// SIMM16 (bits 15:0) as a PC-relative branch offset — an SOPP branch, an
// SOPK s_call_b64 or s_cbranch_i_fork (the shapes branch and call-fork) —
// and gives SIMM16. s_cbranch_g_fork and s_cbranch_join take registers and
// are no such branch.
func (d *Decoder) BranchOffset(code []byte, offset int) (int16, bool) {
	if offset < 0 || offset+4 > len(code) {
		return 0, false
	}
	var raw [3]uint32
	raw[0] = binary.LittleEndian.Uint32(code[offset:])
	for _, g := range d.byTop[raw[0]>>23] {
		if raw[0]&g.mask != g.value {
			continue
		}
		for _, f := range g.formats {
			if f.op == nil || f.words != 1 {
				continue
			}
			if e := f.lookup(f.opField.get(&raw)); e != nil {
				sh := d.ready(f, e).shape
				return int16(raw[0]), sh == shBranch || sh == shCallFork
			}
		}
		return 0, false
	}
	return 0, false
}

// DecodeAll decodes every instruction of code. Like llvm-mc, it reports an
// undecodable dword and goes on 4 bytes later.
func (d *Decoder) DecodeAll(code []byte) ([]Inst, []error) {
	var out []Inst
	var errs []error
	for off := 0; off < len(code); {
		in, n, err := d.Decode(code, off)
		if err != nil {
			errs = append(errs, err)
			off += 4
			continue
		}
		out = append(out, in)
		off += n
	}
	return out, errs
}

func fieldRanges(f isa.Field) []isa.BitRange {
	if len(f.Ranges) > 0 {
		return f.Ranges
	}
	return []isa.BitRange{{MSB: f.MSB, LSB: f.LSB}}
}

// smallBits are binString's answers for fields of up to 8 bits (most of
// a format's), made once: the encoder decodes every candidate it builds
// with its fields, and each field made its string anew.
var smallBits = func() (t [9][]string) {
	for n := 1; n < len(t); n++ {
		t[n] = make([]string, 1<<uint(n))
		for v := range t[n] {
			var buf [8]byte
			for i := 0; i < n; i++ {
				buf[n-1-i] = byte('0' + v>>uint(i)&1)
			}
			t[n][v] = string(buf[:n])
		}
	}
	return t
}()

func binString(v uint64, n int) string {
	if n <= 0 || n > 64 {
		return ""
	}
	if n < len(smallBits) && v < 1<<uint(n) {
		return smallBits[n][v]
	}
	var buf [64]byte
	for i := 0; i < n; i++ {
		buf[n-1-i] = byte('0' + v>>uint(i)&1)
	}
	return string(buf[:n])
}

package decode

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Template is one way to encode an instruction: its format with the fixed
// ENCODING bits and the opcode already placed, and what the decoder decided
// about its operands (so the encoder derives none of it from the name). The
// encoder fills the rest.
type Template struct {
	Name   string     // the mnemonic it was looked up by
	Model  string     // the model's mnemonic of the instruction
	Format isa.Format // bit layout
	Kind   Kind       // the format's rendering rule: KindVOP2, KindVOP3, KindSOP1, ...
	Opcode int
	Words  []uint32 // fixed bits and opcode set, every other bit zero
	Traits
}

// Traits are the decoder's decisions about an instruction's operands that
// the encoder needs.
type Traits struct {
	// MatrixFormats: a WMMA whose op_sel bits hold matrix_a_fmt and whose
	// op_sel_hi bits hold matrix_b_fmt (CDNA 5's f8f6f4), FP8 (0) unless
	// written; FixedOpSel: one whose op_sel bits are fixed, op_sel 0 and
	// op_sel_hi all ones (the f4-only WMMA). Neither has reuse hints.
	MatrixFormats, FixedOpSel bool
	// MatrixReuse: a GFX12.5 WMMA/SWMMAC, whose op_sel bits 13 and 14 are
	// matrix_a_reuse / matrix_b_reuse.
	MatrixReuse bool
	// Interp: a GCN 5 / RDNA 1-2 VOP3 interpolation ("v1, v2, attr0.x"):
	// the attribute in SRC0, the VGPR in SRC1, the high modifier.
	Interp bool
	// ExecDst: a GFX10+ VOP3 v_cmpx, which prints no destination; its
	// VDST holds EXEC_LO's code.
	ExecDst bool
	// OpSelHiDefault: op_sel_hi is all ones when not written (packed math;
	// not the mixed-precision FMAs or the matrix instructions, which keep
	// other controls in those bits).
	OpSelHiDefault bool
	// K is the type of the literal constant K (v_fmamk_f32: f32), its size
	// 0 where the instruction has none.
	K OperandType
	// KIndex is where K stands among the operands (madmk: 2, madak: 3),
	// -1 where there is none.
	KIndex int
	// SelectSGPR: a VOPD3 v_dual_cndmask_b32, whose third operand is an
	// SGPR select.
	SelectSGPR bool
	// SDWAPad: LLVM's SDWA default for the destination's unused bits is
	// UNUSED_PAD, not UNUSED_PRESERVE (the FP8 conversions to f32, whose
	// result is a whole dword).
	SDWAPad bool
	// LaneCtl: a row-of-16 lane permute, whose op_sel:[fi,bc] are OPSEL
	// bits 0 and 1, not source halves and a destination bit.
	LaneCtl bool
	// ByteSel: the op_sel bits of byte_sel's bits 0 and 1 (the RDNA 4 /
	// CDNA 5 FP8 conversions), -1 where the instruction has no byte_sel.
	ByteSel [2]int8
	// AbsInNegHi: a mixed-precision FMA (v_fma_mix*, v_mad_mix*), whose
	// |x| is its NEG_HI bit (VOP3P has no ABS field).
	AbsInNegHi bool
	// ScaleWord: a CDNA 5 Load-Scale word alone (v_wmma_ld_scale_paired_b32):
	// two scales in SRC0 and SRC1 and the ScaleModifiers.
	ScaleWord bool
}

// OperandType is an operand's data type: Kind 'f' float, 'h' bfloat16, 'i'
// integer, 'b' bits; Size in bits.
type OperandType struct {
	Kind byte
	Size int
}

// traits are the Traits of entry en in format fm.
func (d *Decoder) traits(fm *format, en *entry) Traits {
	t := Traits{MatrixFormats: en.wmma && en.fmtScaled, FixedOpSel: en.fmtFixed,
		MatrixReuse:    en.wmma && d.fam.matrixReuse,
		Interp:         en.shape == shInterpVOP3,
		ExecDst:        en.shape == shCmpxNoDst && fm.kind == KindVOP3,
		OpSelHiDefault: en.shape != shMix && en.shape != shMFMA && en.shape != shSparse,
		KIndex:         -1, SelectSGPR: en.shape == shDualMask, SDWAPad: en.facts != nil && en.facts.has("sdwa-pad"),
		LaneCtl: en.laneCtl, ByteSel: en.byteSel, AbsInNegHi: en.shape == shMix, ScaleWord: en.shape == shWmmaLdScale}
	switch en.shape {
	case shMadmk:
		t.KIndex = 2
	case shMadak:
		t.KIndex = 3
	}
	if t.KIndex >= 0 {
		t.K = OperandType{en.sig.dst.t, en.sig.dst.size}
	}
	return t
}

// MemoryFormat says whether a format is one of the memory layouts the
// encoder places operands in by reading back: LDS (DS, VDS), FLAT/GLOBAL/
// SCRATCH (and gfx12's V* forms) and untyped buffers (MUBUF, VBUFFER).
func MemoryFormat(name string) bool {
	switch kindOf(name) {
	case KindDS, KindFLAT, KindMUBUF:
		return true
	}
	return false
}

// Templates lists the encodings of a mnemonic, short (32-bit) ones first.
// The first call indexes every format's opcodes by name
// (indexTemplateRefs), so a lookup is a map read, not a scan of every
// opcode table; a name's list is made, and its entries prepared, on its
// first lookup. The slice is shared: callers must not modify it.
func (d *Decoder) Templates(name string) []Template {
	name = strings.ToLower(name)
	d.tmplOnce.Do(d.indexTemplateRefs)
	d.tmplMu.Lock()
	defer d.tmplMu.Unlock()
	if ts, ok := d.tmpl[name]; ok {
		return ts
	}
	if refs, ok := d.tmplRefs[name]; ok {
		var ts []Template
		for _, r := range refs {
			ts = append(ts, d.template(r, name))
		}
		sortTemplates(ts)
		d.tmpl[name] = ts
		return ts
	}
	if !d.tmplAlts {
		d.addAltTemplates()
		d.tmplAlts = true
	}
	return d.tmpl[name]
}

// tmplRef is where one encoding of a name is: opcode op of format fm in
// group g.
type tmplRef struct {
	g  *group
	fm *format
	op int
}

// indexTemplateRefs finds, for each instruction's own names (AMD's, and
// the one llvm-mc prints where it rejects AMD's: CDNA's v_mad_mix_f32 is
// v_fma_mix_f32 to it), where its encodings are. Nothing is prepared
// here: a file that uses a few hundred mnemonics prepares their entries,
// not the family's thousands.
func (d *Decoder) indexTemplateRefs() {
	d.tmplRefs = map[string][]tmplRef{}
	d.tmpl = map[string][]Template{}
	for _, g := range d.groups {
		for _, fm := range g.formats {
			if fm.op == nil {
				if fm.single != nil {
					// An export has no opcode: one instruction per format.
					t := Template{Model: fm.single.name, Format: fm.Format, Kind: fm.kind, Opcode: -1,
						Words: []uint32{g.value, 0}[:max(fm.Width/32, 1)]}
					for _, name := range []string{fm.single.name, expMnemonic(d.fam.gen)} {
						t.Name = name
						d.tmpl[name] = append(d.tmpl[name], t)
					}
				}
				continue
			}
			for _, op := range slices.Sorted(maps.Keys(fm.byOpcode)) {
				en := fm.byOpcode[op]
				r := tmplRef{g, fm, op}
				d.tmplRefs[en.name] = append(d.tmplRefs[en.name], r)
				if ln := llvmName(en.instr, en.name); ln != en.name {
					d.tmplRefs[ln] = append(d.tmplRefs[ln], r)
				}
			}
		}
	}
}

// template is the Template of r under name.
func (d *Decoder) template(r tmplRef, name string) Template {
	en := d.ready(r.fm, r.fm.byOpcode[r.op])
	words := make([]uint32, max(r.fm.Width/32, 1))
	words[0] = r.g.value
	SetField(words, *r.fm.op, uint64(r.op))
	if en.shape == shWmmaLdScale {
		r.fm.setScaleFixed(words)
	}
	return Template{Name: name, Model: en.name, Format: r.fm.Format, Kind: r.fm.kind, Opcode: r.op, Words: words,
		Traits: d.traits(r.fm, en)}
}

// addAltTemplates adds the mnemonic the decoder prints (v_accvgpr_write_b32
// for v_accvgpr_write, gfx908's v_mfma_f32_32x32x8f16) as a name of its
// instruction, where no instruction has it as its own name, which it never
// shadows. Knowing the printed names prepares every entry, so this waits
// for a name that is nobody's own.
func (d *Decoder) addAltTemplates() {
	var alts []string
	for _, g := range d.groups {
		for _, fm := range g.formats {
			if fm.op == nil {
				continue
			}
			for _, op := range slices.Sorted(maps.Keys(fm.byOpcode)) {
				en := d.ready(fm, fm.byOpcode[op])
				// The model's other aliases are left out: llvm-mc takes
				// some only on some targets (v_mfma_f32_32x32x8_f16 on
				// gfx942, not gfx90a).
				printed := strings.TrimSuffix(strings.TrimSuffix(en.mnemonic, "_e32"), "_e64")
				if printed == en.name || strings.Contains(printed, " ") {
					continue
				}
				if _, own := d.tmplRefs[printed]; own {
					continue
				}
				if _, seen := d.tmpl[printed]; !seen {
					alts = append(alts, printed)
				}
				d.tmpl[printed] = append(d.tmpl[printed], d.template(tmplRef{g, fm, op}, printed))
			}
		}
	}
	for _, n := range alts {
		sortTemplates(d.tmpl[n])
	}
}

// sortTemplates puts short encodings first: LLVM prefers them when the
// operands fit.
func sortTemplates(ts []Template) {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Format.Width < ts[j].Format.Width })
}

// SetField writes v into field f of words (ranges most significant first).
func SetField(words []uint32, f isa.Field, v uint64) { f.Put(words, v) }

// ScalarCode returns the operand code of a named register ("vcc_lo", "m0",
// "exec", "null") in this family.
func (d *Decoder) ScalarCode(name string) (int, bool) {
	name = strings.ToLower(name)
	if c, ok := d.fam.code64[name]; ok {
		return c, true
	}
	c, ok := d.fam.code32[name]
	return c, ok
}

// Gen is the family's encoding generation: 9 (GCN 5, CDNA), 10 (RDNA 1-2),
// 11 (RDNA 3), 12 (RDNA 4, CDNA 5).
func (d *Decoder) Gen() int { return d.fam.gen }

// DualTemplate is a dual-issue (VOPD/VOPD3) format with the opcodes of an
// X and a Y operation placed.
type DualTemplate struct {
	Format   isa.Format
	Kind     Kind // KindVOPD or KindVOPD3
	OpX, OpY int
	Words    []uint32
	// X and Y are what the decoder decided about each operation's operands.
	X, Y Traits
}

// DualTemplates lists the dual-issue encodings that pair x (as the X
// operation) with y (as Y), the 64-bit VOPD before the 96-bit VOPD3.
func (d *Decoder) DualTemplates(x, y string) []DualTemplate {
	x, y = strings.ToLower(x), strings.ToLower(y)
	var out []DualTemplate
	for _, g := range d.groups {
		for _, fm := range g.formats {
			if fm.kind != KindVOPD && fm.kind != KindVOPD3 {
				continue
			}
			opX, opY := -1, -1
			var enX, enY *entry
			for op, en := range fm.dualX {
				if en != nil && en.name == x && opX < 0 {
					opX, enX = op, en
				}
			}
			for op, en := range fm.dualY {
				if en != nil && en.name == y && opY < 0 {
					opY, enY = op, en
				}
			}
			if opX < 0 || opY < 0 {
				continue
			}
			words := make([]uint32, max(fm.Width/32, 1))
			words[0] = g.value
			for _, f := range fm.Fields {
				switch strings.ToUpper(f.Name) {
				case "OPX":
					SetField(words, f, uint64(opX))
				case "OPY":
					SetField(words, f, uint64(opY))
				}
			}
			out = append(out, DualTemplate{Format: fm.Format, Kind: fm.kind, OpX: opX, OpY: opY, Words: words,
				X: d.traits(fm, enX), Y: d.traits(fm, enY)})
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Format.Width < out[j-1].Format.Width; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

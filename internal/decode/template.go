package decode

import (
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Template is one way to encode an instruction: its format with the fixed
// ENCODING bits and the opcode already placed. The encoder fills the rest.
type Template struct {
	Name   string     // the mnemonic it was looked up by
	Model  string     // the model's mnemonic of the instruction
	Format isa.Format // bit layout
	Kind   string     // "VOP2", "VOP3", "VOP3B", "SOP1", ... (rendering rule)
	Opcode int
	Words  []uint32 // fixed bits and opcode set, every other bit zero
	// MatrixFormats: a WMMA whose op_sel bits hold matrix_a_fmt and whose
	// op_sel_hi bits hold matrix_b_fmt (CDNA 5's f8f6f4), FP8 (0) unless
	// written; FixedOpSel: one whose op_sel bits are fixed, op_sel 0 and
	// op_sel_hi all ones (the f4-only WMMA). Neither has reuse hints.
	MatrixFormats, FixedOpSel bool
}

var kindNames = map[kind]string{kSOP2: "SOP2", kSOPK: "SOPK", kSOP1: "SOP1", kSOPC: "SOPC", kSOPP: "SOPP",
	kSMEM: "SMEM", kVOP1: "VOP1", kVOP2: "VOP2", kVOPC: "VOPC", kVOP3: "VOP3", kVOP3B: "VOP3B", kVOP3P: "VOP3P", kMAI: "MAI"}

// MemoryFormat says whether a format is one of the memory layouts the
// encoder places operands in by reading back: LDS (DS, VDS), FLAT/GLOBAL/
// SCRATCH (and gfx12's V* forms) and untyped buffers (MUBUF, VBUFFER).
func MemoryFormat(name string) bool {
	switch kindOf(name) {
	case kDS, kFLAT, kMUBUF:
		return true
	}
	return false
}

// Templates lists the encodings of a mnemonic, short (32-bit) ones first.
// The first call indexes every format's opcodes by name (AMD's, and the one
// llvm-mc prints where it rejects AMD's: CDNA's v_mad_mix_f32 is
// v_fma_mix_f32 to it), so a lookup is one map read, not a scan of every
// opcode table. The slice is shared: callers must not modify it.
func (d *Decoder) Templates(name string) []Template {
	d.tmplOnce.Do(d.indexTemplates)
	return d.tmpl[strings.ToLower(name)]
}

func (d *Decoder) indexTemplates() {
	d.tmpl = map[string][]Template{}
	// The mnemonic the decoder prints (v_accvgpr_write_b32 for
	// v_accvgpr_write, gfx908's v_mfma_f32_32x32x8f16) finds an
	// instruction too, after every instruction's own names, which it never
	// shadows.
	type alt struct {
		name string
		t    Template
	}
	var alts []alt
	for _, g := range d.groups {
		for _, fm := range g.formats {
			if fm.op == nil {
				continue
			}
			ops := make([]int, 0, len(fm.byOpcode))
			for op := range fm.byOpcode {
				ops = append(ops, op)
			}
			sort.Ints(ops)
			for _, op := range ops {
				en := d.ready(fm, fm.byOpcode[op])
				words := make([]uint32, max(fm.Width/32, 1))
				words[0] = g.value
				SetField(words, *fm.op, uint64(op))
				names := []string{en.name}
				if ln := llvmName(en.instr, en.name); ln != en.name {
					names = append(names, ln)
				}
				t := Template{Model: en.name, Format: fm.Format, Kind: kindNames[fm.kind], Opcode: op, Words: words,
					MatrixFormats: en.wmma && en.fmtScaled, FixedOpSel: en.fmtFixed}
				for _, name := range names {
					t.Name = name
					d.tmpl[name] = append(d.tmpl[name], t)
				}
				// The model's other aliases are left out: llvm-mc takes
				// some only on some targets (v_mfma_f32_32x32x8_f16 on
				// gfx942, not gfx90a).
				if printed := strings.TrimSuffix(strings.TrimSuffix(en.mnemonic, "_e32"), "_e64"); printed != en.name && !strings.Contains(printed, " ") {
					t.Name = printed
					alts = append(alts, alt{printed, t})
				}
			}
		}
	}
	own := map[string]bool{}
	for n := range d.tmpl {
		own[n] = true
	}
	for _, a := range alts {
		if !own[a.name] {
			d.tmpl[a.name] = append(d.tmpl[a.name], a.t)
		}
	}
	// Short encodings first: LLVM prefers them when the operands fit.
	for _, ts := range d.tmpl {
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].Format.Width < ts[j].Format.Width })
	}
}

// SetField writes v into field f of words (ranges most significant first).
func SetField(words []uint32, f isa.Field, v uint64) { f.Put(words, v) }

// ScalarCode returns the operand code of a named register ("vcc_lo", "m0",
// "exec", "null") in this family.
func (d *Decoder) ScalarCode(name string) (int, bool) {
	name = strings.ToLower(name)
	for c, n := range d.fam.names64 {
		if n == name {
			return c, true
		}
	}
	for c, n := range d.fam.names32 {
		if n == name {
			return c, true
		}
	}
	return 0, false
}

// Gen is the family's encoding generation: 9 (GCN 5, CDNA), 10 (RDNA 1-2),
// 11 (RDNA 3), 12 (RDNA 4, CDNA 5).
func (d *Decoder) Gen() int { return d.fam.gen }

// DualTemplate is a dual-issue (VOPD/VOPD3) format with the opcodes of an
// X and a Y operation placed.
type DualTemplate struct {
	Format   isa.Format
	Kind     string // "VOPD" or "VOPD3"
	OpX, OpY int
	Words    []uint32
}

// DualTemplates lists the dual-issue encodings that pair x (as the X
// operation) with y (as Y), the 64-bit VOPD before the 96-bit VOPD3.
func (d *Decoder) DualTemplates(x, y string) []DualTemplate {
	x, y = strings.ToLower(x), strings.ToLower(y)
	var out []DualTemplate
	for _, g := range d.groups {
		for _, fm := range g.formats {
			if fm.kind != kVOPD && fm.kind != kVOPD3 {
				continue
			}
			opX, opY := -1, -1
			for op, en := range fm.dualX {
				if en != nil && en.name == x && opX < 0 {
					opX = op
				}
			}
			for op, en := range fm.dualY {
				if en != nil && en.name == y && opY < 0 {
					opY = op
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
			kind := "VOPD"
			if fm.kind == kVOPD3 {
				kind = "VOPD3"
			}
			out = append(out, DualTemplate{Format: fm.Format, Kind: kind, OpX: opX, OpY: opY, Words: words})
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Format.Width < out[j-1].Format.Width; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

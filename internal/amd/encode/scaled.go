package encode

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// encodePair assembles a 4-dword instruction (CDNA 4's scaled MFMAs,
// decode.PairTemplate): "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[4:11],
// v[12:19], a[0:3], v1, v2 op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:1". The
// last two operands and op_sel/op_sel_hi go to the first word pair (the
// scales: VGPRs only, as llvm-mc 22 assembles them; bit 2 of either list
// is not encoded), the rest is the wrapped instruction's word pair. The
// decoder's reading of the 16 bytes must give the line back.
func (e *Encoder) encodePair(ts []decode.PairTemplate, asm string) ([]byte, error) {
	if len(ts) > 0 && ts[0].WMMA {
		return e.encodeWMMAPair(ts, asm)
	}
	mn, rest, _ := strings.Cut(asm, " ")
	ops, mods := splitOperands(rest)
	if len(ops) < 2 {
		return nil, fmt.Errorf("%s: want the matrix operands, then the A and B scales", mn)
	}
	scales, ops := ops[len(ops)-2:], ops[:len(ops)-2]
	var sel [2]uint64 // op_sel, op_sel_hi
	var tailMods []string
	last := -1
	for _, m := range mods {
		key, val, _ := strings.Cut(m, ":")
		// llvm-mc 22 parses these in this order only, each once, and no
		// abid: the pair fixes it.
		i := slices.Index(pairModifiers, key)
		if i <= last {
			return nil, fmt.Errorf("%s: %s takes %s, in that order", m, mn, strings.Join(pairModifiers, ", "))
		}
		last = i
		if i >= 2 {
			if val != "0" { // the default, which the MFMA's encoder takes unwritten
				tailMods = append(tailMods, m)
			}
			continue
		}
		v, err := bitList(val, 0)
		if err != nil || strings.Count(val, ",") > 3 {
			return nil, fmt.Errorf("%s: want a list of one to four bits", m)
		}
		sel[i] = v & 3 // bit 2 is not encoded
	}
	var tried []string
	for _, t := range ts {
		head, err := e.scaleWords(t, scales, sel)
		if err != nil {
			return nil, err
		}
		tail, err := e.pairTail(t, ops, tailMods)
		if err != nil {
			tried = append(tried, err.Error())
			continue
		}
		b := append(head, tail...)
		in, n, err := e.d.DecodeOperands(b, 0)
		if err == nil && n == len(b) && samePairText(in.Text(), asm) {
			return b, nil
		}
		tried = append(tried, fmt.Sprintf("%s reads back as %q (%v)", t.Model, in.Text(), err))
	}
	return nil, fmt.Errorf("cannot encode %q: %s", asm, strings.Join(tried, "; "))
}

// pairTail encodes the second word pair of a two-pair instruction: the
// wrapped instruction t names, with ops and mods, and the fixed bits
// that mark it as the pair's second half.
func (e *Encoder) pairTail(t decode.PairTemplate, ops, mods []string) ([]byte, error) {
	tail, err := e.Encode(strings.Join(append([]string{t.Wrapped + " " + strings.Join(ops, ", ")}, mods...), " "))
	if err != nil || len(tail) != 8 {
		return nil, fmt.Errorf("%s: %v", t.Wrapped, err)
	}
	binary.LittleEndian.PutUint32(tail, binary.LittleEndian.Uint32(tail)|t.Fixed2)
	return tail, nil
}

// pairModifiers are a scaled MFMA's modifiers in the order llvm-mc 22
// parses them: the scales' byte selects, then the MFMA's formats.
var pairModifiers = []string{"op_sel", "op_sel_hi", "cbsz", "blgp"}

// scaleWords builds the first word pair: the scales' VGPRs in SRC0 and
// SRC1 and their byte selects in OPSEL and OPSEL_HI.
func (e *Encoder) scaleWords(t decode.PairTemplate, scales []string, sel [2]uint64) ([]byte, error) {
	words := []uint32{t.HeadWords[0], t.HeadWords[1]}
	set := fieldSetter(t.Head.Name, e.fieldsByName(t.Head), words)
	for i, s := range scales {
		p, err := e.parseOperand(s)
		if err != nil {
			return nil, err
		}
		if p.code < 256 || p.code > 511 || p.neg || p.abs || p.hi || strings.HasPrefix(s, "a") {
			return nil, fmt.Errorf("%q: a scale is a VGPR", s)
		}
		if err := set([]string{"SRC0", "SRC1"}[i], uint64(p.code)); err != nil {
			return nil, err
		}
	}
	for i, name := range []string{"OPSEL", "OPSEL_HI"} {
		if err := set(name, sel[i]); err != nil {
			return nil, err
		}
	}
	return wordBytes(make([]byte, 0, 16), words), nil
}

// samePairText compares a 4-dword instruction's decoding with the line:
// the same operands and modifiers, the scales' byte selects compared by
// the bits they encode (llvm-mc takes one to four entries and encodes
// the first two); a zero value is the default, written or not.
func samePairText(got, asm string) bool {
	split := func(s string) (string, []string) {
		mn, rest, _ := strings.Cut(normalize(s), " ")
		ops, mods := splitOperands(rest)
		var keep []string
		for _, m := range mods {
			m = strings.ReplaceAll(m, " ", "")
			key, val, _ := strings.Cut(m, ":")
			if val == "0" {
				continue // cbsz:0, blgp:0: the defaults
			}
			if slices.Index(pairModifiers, key) < 2 {
				v, err := bitList(val, 0)
				if err == nil && v&3 == 0 {
					continue
				}
				if err == nil {
					m = fmt.Sprintf("%s:[%d,%d,0]", key, v&1, v>>1&1)
				}
			}
			keep = append(keep, m)
		}
		return mn + " " + strings.Join(ops, ","), keep
	}
	a, am := split(got)
	b, bm := split(asm)
	return a == b && slices.Equal(am, bm)
}

// CDNA 5's scaled WMMAs (decode.PairTemplate with WMMA set):
// "v_wmma_scale_f32_16x16x128_f8f6f4 v[0:7], v[8:23], v[24:39], v[40:47],
// v1, v2 matrix_a_fmt:MATRIX_FMT_BF8 matrix_a_scale:MATRIX_SCALE_ROW1
// matrix_b_reuse neg_lo:[0,0,1]". The last two operands and the
// Load-Scale modifiers (decode.ScaleModifiers) go to the first word pair,
// the rest is the wrapped WMMA's line, which the encoder assembles and
// reads back on its own; the 16 bytes must read back as the instruction
// with the same operands and scale modifiers.

// encodeWMMAPair assembles asm with one of the templates ts.
func (e *Encoder) encodeWMMAPair(ts []decode.PairTemplate, asm string) ([]byte, error) {
	mn, rest, _ := strings.Cut(normalize(asm), " ")
	ops, mods := splitOperands(rest)
	if len(ops) < 3 {
		return nil, fmt.Errorf("%s: want the matrix operands, then the A and B scales", mn)
	}
	scales, ops := ops[len(ops)-2:], ops[:len(ops)-2]
	if err := inOrder(mn, mods, wmmaPairOrder()); err != nil {
		return nil, err
	}
	var tailMods []string
	for _, m := range mods {
		if _, ok := scaleModifier(m); !ok {
			tailMods = append(tailMods, m)
		}
	}
	var tried []string
	for _, t := range ts {
		words := []uint32{t.HeadWords[0], t.HeadWords[1]}
		if err := e.setScaleWord(t.Head, words, scales, mods); err != nil {
			return nil, err
		}
		tail, err := e.pairTail(t, ops, tailMods)
		if err != nil {
			tried = append(tried, err.Error())
			continue
		}
		b := append(wordBytes(make([]byte, 0, 16), words), tail...)
		in, n, err := e.d.DecodeOperands(b, 0)
		if err == nil && n == len(b) && in.Name == t.Model && sameScaleWord(in.Text(), asm, true) {
			return b, nil
		}
		tried = append(tried, fmt.Sprintf("%s reads back as %q (%v)", t.Model, in.Text(), err))
	}
	return nil, fmt.Errorf("cannot encode %q: %s", asm, strings.Join(tried, "; "))
}

// encodeScaleWord assembles a Load-Scale word alone (a template with
// ScaleWord): "v_wmma_ld_scale_paired_b32 v1, s2 matrix_b_reuse".
func (e *Encoder) encodeScaleWord(t decode.Template, asm string, ops, mods []string) ([]byte, error) {
	if len(ops) != 2 {
		return nil, fmt.Errorf("%s: want the A and B scales", t.Model)
	}
	words := slices.Clone(t.Words)
	var labels []string
	for _, sm := range decode.ScaleModifiers() {
		labels = append(labels, sm.Label)
	}
	if err := inOrder(t.Model, mods, labels); err != nil {
		return nil, err
	}
	if err := e.setScaleWord(t.Format, words, ops, mods); err != nil {
		return nil, err
	}
	b := wordBytes(make([]byte, 0, 8), words)
	in, n, err := e.d.DecodeOperands(b, 0)
	if err != nil || n != len(b) || !sameScaleWord(in.Text(), asm, false) {
		return nil, fmt.Errorf("cannot encode %q: reads back as %q (%v)", asm, in.Text(), err)
	}
	return b, nil
}

// setScaleWord sets, in the Load-Scale word words of layout f, the scales
// (SRC0, SRC1: registers or inline constants) and the scale modifiers
// among mods (others are left to the caller).
func (e *Encoder) setScaleWord(f isa.Format, words []uint32, scales, mods []string) error {
	set := fieldSetter(f.Name, e.fieldsByName(f), words)
	for i, s := range scales {
		p, err := e.parseOperand(s)
		if err != nil {
			return err
		}
		if p.hasLit || p.lit64 != 0 || p.neg || p.abs || p.hi || strings.HasPrefix(s, "a") {
			return fmt.Errorf("%q: a scale is a register or an inline constant", s)
		}
		if err := set([]string{"SRC0", "SRC1"}[i], uint64(p.code)); err != nil {
			return err
		}
	}
	fields := e.fieldsByName(f)
	for _, m := range mods {
		sm, ok := scaleModifier(m)
		if !ok {
			continue
		}
		v, err := scaleValue(sm, m)
		if err != nil {
			return err
		}
		fd, ok := fields[sm.Field]
		if !ok {
			return fmt.Errorf("format %s has no field %s", f.Name, sm.Field)
		}
		cur := fd.Get(words)
		mask := uint64(1)<<sm.Width - 1
		decode.SetField(words, fd, cur&^(mask<<sm.LSB)|v<<sm.LSB)
	}
	return nil
}

// scaleModifier is the Load-Scale modifier m ("matrix_a_scale:...",
// "matrix_b_reuse") spells, if any.
func scaleModifier(m string) (decode.ScaleModifier, bool) {
	key, _, _ := strings.Cut(m, ":")
	for _, sm := range decode.ScaleModifiers() {
		if strings.EqualFold(sm.Label, key) {
			return sm, true
		}
	}
	return decode.ScaleModifier{}, false
}

// wmmaPairOrder is the order llvm-mc 22 parses a scaled WMMA's modifiers
// in, each at most once: the WMMA's matrix formats, the Load-Scale
// modifiers, then the WMMA's neg_lo and neg_hi (the order it prints them).
func wmmaPairOrder() []string {
	out := []string{"matrix_a_fmt", "matrix_b_fmt"}
	for _, sm := range decode.ScaleModifiers() {
		out = append(out, sm.Label)
	}
	return append(out, "neg_lo", "neg_hi")
}

// inOrder checks that mods are among order's keys, in that order, each
// once.
func inOrder(mn string, mods, order []string) error {
	last := -1
	for _, m := range mods {
		key, _, _ := strings.Cut(m, ":")
		i := slices.IndexFunc(order, func(k string) bool { return strings.EqualFold(k, key) })
		if i <= last {
			return fmt.Errorf("%s: %s takes %s, in that order, each once", m, mn, strings.Join(order, ", "))
		}
		last = i
	}
	return nil
}

// scaleValue reads m's value as llvm-mc 22 does: a bare flag is 1; a
// named value is its name or a number below the names' count (llvm-mc
// rejects matrix_a_scale_fmt:3, which it prints for the bits).
func scaleValue(sm decode.ScaleModifier, m string) (uint64, error) {
	_, val, has := strings.Cut(m, ":")
	if sm.Names == nil {
		if has {
			return 0, fmt.Errorf("%s takes no value", sm.Label)
		}
		return 1, nil
	}
	if !has {
		return 0, fmt.Errorf("%s needs a value", sm.Label)
	}
	for i, n := range sm.Names {
		if strings.EqualFold(n, val) {
			return uint64(i), nil
		}
	}
	if v, err := strconv.ParseUint(val, 10, 8); err == nil && v < uint64(len(sm.Names)) {
		return v, nil
	}
	return 0, fmt.Errorf("invalid %s value %q", sm.Label, val)
}

// sameScaleWord compares a decoding with the line: the same mnemonic and
// operands, and the same Load-Scale modifier values (a zero value written
// or not); with paired, the other modifiers are the wrapped WMMA's,
// which its own encoding read back.
func sameScaleWord(got, asm string, paired bool) bool {
	split := func(s string) (string, map[string]uint64, []string, bool) {
		mn, rest, _ := strings.Cut(normalize(s), " ")
		ops, mods := splitOperands(rest)
		vals := map[string]uint64{}
		var other []string
		for _, m := range mods {
			sm, ok := scaleModifier(m)
			if !ok {
				other = append(other, m)
				continue
			}
			v, err := scaleValue(sm, m)
			if err != nil {
				return "", nil, nil, false
			}
			if v != 0 {
				vals[sm.Label] = v
			}
		}
		return mn + " " + strings.Join(ops, ","), vals, other, true
	}
	a, av, ao, ok1 := split(got)
	b, bv, bo, ok2 := split(asm)
	return ok1 && ok2 && a == b && maps.Equal(av, bv) && (paired || len(ao) == 0 && len(bo) == 0)
}

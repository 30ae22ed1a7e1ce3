package encode

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
)

// encodePair assembles a 4-dword instruction (CDNA 4's scaled MFMAs,
// decode.PairTemplate): "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[4:11],
// v[12:19], a[0:3], v1, v2 op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:1". The
// last two operands and op_sel/op_sel_hi go to the first word pair (the
// scales: VGPRs only, as llvm-mc 22 assembles them; bit 2 of either list
// is not encoded), the rest is the wrapped instruction's word pair. The
// decoder's reading of the 16 bytes must give the line back.
func (e *Encoder) encodePair(ts []decode.PairTemplate, asm string) ([]byte, error) {
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
		tail, err := e.Encode(strings.Join(append([]string{t.Wrapped + " " + strings.Join(ops, ", ")}, tailMods...), " "))
		if err != nil || len(tail) != 8 {
			tried = append(tried, fmt.Sprintf("%s: %v", t.Wrapped, err))
			continue
		}
		binary.LittleEndian.PutUint32(tail, binary.LittleEndian.Uint32(tail)|t.Fixed2)
		b := append(head, tail...)
		in, n, err := e.d.DecodeOperands(b, 0)
		if err == nil && n == len(b) && samePairText(in.Text(), asm) {
			return b, nil
		}
		tried = append(tried, fmt.Sprintf("%s reads back as %q (%v)", t.Model, in.Text(), err))
	}
	return nil, fmt.Errorf("cannot encode %q: %s", asm, strings.Join(tried, "; "))
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

package encode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
)

// dualHalf is one operation of a dual-issue instruction as written:
// "v_dual_fmaak_f32 v0, v1, v2, 0x3f800000".
type dualHalf struct {
	mn   string
	ops  []string
	mods []string
}

func parseDualHalf(s string) dualHalf {
	mn, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	ops, mods := splitOperands(rest)
	return dualHalf{mn: mn, ops: ops, mods: mods}
}

// encodeDual assembles "v_dual_X ... :: v_dual_Y ..." (VOPD, RDNA 3+ and
// CDNA 5, or CDNA 5's VOPD3), the 64-bit form when the operands allow it.
func (e *Encoder) encodeDual(asm string) ([]byte, error) {
	xs, ys, _ := strings.Cut(asm, "::")
	x, y := parseDualHalf(xs), parseDualHalf(ys)
	if x.mn == "" || y.mn == "" {
		return nil, errors.New("a dual-issue instruction is written X :: Y")
	}
	tmpls := e.d.DualTemplates(x.mn, y.mn)
	if len(tmpls) == 0 {
		return nil, fmt.Errorf("%s :: %s: %s has no dual-issue encoding with %s as X and %s as Y", x.mn, y.mn, e.d.Arch().ID, x.mn, y.mn)
	}
	var tried []string
	for _, t := range tmpls {
		want := e.dualText(x, t.X) + " :: " + e.dualText(y, t.Y)
		if err := e.dualBanks(t, x, y); err != nil {
			tried = append(tried, fmt.Sprintf("%s: %v", t.Kind, err))
			continue
		}
		b, err := e.fillDual(t, x, y)
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s: %v", t.Kind, err))
			continue
		}
		in, n, err := e.d.DecodeOperands(b, 0)
		if err != nil || n != len(b) {
			tried = append(tried, fmt.Sprintf("%s: the word does not decode: %v", t.Kind, err))
			continue
		}
		if got := normalize(in.Text()); got == want || canonNumbers(got) == canonNumbers(want) {
			return b, nil
		}
		tried = append(tried, fmt.Sprintf("%s gives %q", t.Kind, in.Text()))
	}
	return nil, fmt.Errorf("cannot encode %q: %s", asm, strings.Join(tried, "; "))
}

// dualBanks checks a dual-issue word's register-file ports as llvm-mc
// does: each source VGPR of X in another bank (register number mod 4)
// than Y's, and in a VOPD word the two destinations one even and one odd
// VGPR. A family with VOPD3 (CDNA 5) lets both halves read the same VGPR,
// and its VOPD3 words have no destination rule; from GFX12 two one-source
// halves are free of the source rule (llvm-mc-22 on gfx1100/1200/1250).
func (e *Encoder) dualBanks(t decode.DualTemplate, x, y dualHalf) error {
	if t.Kind != decode.KindVOPD && t.Kind != decode.KindVOPD3 {
		return nil
	}
	vgpr := func(ops []string, i int) (int, bool) {
		if i >= len(ops) {
			return 0, false
		}
		r := regOf(ops[i])
		if r.file != "v" || r.count != 1 {
			return 0, false
		}
		n, err := strconv.Atoi(strings.TrimLeft(strings.Trim(strings.TrimLeft(ops[i], "-"), "|"), "v"))
		return n, err == nil
	}
	if dx, ok := vgpr(x.ops, 0); ok && t.Kind == decode.KindVOPD {
		if dy, ok := vgpr(y.ops, 0); ok && dx%2 == dy%2 {
			return fmt.Errorf("v%d, v%d: the destinations of a dual-issue word must be one even and one odd VGPR", dx, dy)
		}
	}
	sameOK := e.hasFormatKind(decode.KindVOPD3)
	if e.d.Gen() >= 12 && len(x.ops) == 2 && len(y.ops) == 2 {
		// GFX12: two one-source halves (a pair of moves) read their
		// sources without the bank rule.
		return nil
	}
	for i, name := range []string{"src0", "src1", "src2"} {
		sx, okx := vgpr(x.ops, i+1)
		sy, oky := vgpr(y.ops, i+1)
		if okx && oky && sx%4 == sy%4 && !(sameOK && sx == sy) {
			return fmt.Errorf("v%d, v%d: the %s operands of a dual-issue pair must be in different VGPR banks (register number mod 4)", sx, sy, name)
		}
	}
	return nil
}

// hasFormatKind says whether the family has a format of kind k.
func (e *Encoder) hasFormatKind(k decode.Kind) bool {
	for _, f := range e.d.Arch().Formats {
		if decode.KindOf(f.Name) == k {
			return true
		}
	}
	return false
}

// dualText writes one operation as the decoder prints it: a K constant as
// the hex value placed in the code.
func (e *Encoder) dualText(h dualHalf, tr decode.Traits) string {
	ops := append([]string(nil), h.ops...)
	if i := tr.KIndex; i >= 0 && i < len(ops) {
		if k, _, err := kConstant(tr.K, ops[i], e.d.Gen()); err == nil {
			ops[i] = fmt.Sprintf("0x%x", k)
		}
	}
	s := h.mn
	if len(ops) > 0 {
		s += " " + strings.Join(ops, ", ")
	}
	if len(h.mods) > 0 {
		s += " " + strings.Join(h.mods, " ")
	}
	return normalize(s)
}

// fillDual places both operations' operands in template t.
func (e *Encoder) fillDual(t decode.DualTemplate, x, y dualHalf) ([]byte, error) {
	words := append([]uint32(nil), t.Words...)
	set := fieldSetter(t.Format.Name, e.fieldsByName(t.Format), words)
	three := t.Kind == decode.KindVOPD3
	var lit *uint32
	useLit := func(v uint32) error {
		if three {
			return errors.New("VOPD3 cannot carry a literal constant")
		}
		if lit != nil && *lit != v {
			return errors.New("the two operations would need two different literal constants")
		}
		lit = &v
		return nil
	}
	vgpr := func(text string) (int, error) {
		o, err := e.parseOperand(text)
		if err != nil {
			return 0, err
		}
		if o.code < 256 || o.neg || o.abs || o.hi {
			return 0, fmt.Errorf("%q: a plain VGPR is required here", text)
		}
		return o.code - 256, nil
	}
	var dstX int
	for side, h := range []dualHalf{x, y} {
		p, tr := "X", t.X
		if side == 1 {
			p, tr = "Y", t.Y
		}
		if len(h.ops) < 2 {
			return nil, fmt.Errorf("%s: needs a destination and a source", h.mn)
		}
		dst, err := vgpr(h.ops[0])
		if err != nil {
			return nil, err
		}
		switch {
		case side == 0:
			dstX = dst
			err = set("VDSTX", uint64(dst))
		case three:
			err = set("VDSTY", uint64(dst))
		case dst&1 == dstX&1:
			// VDSTY holds bits [7:1]; bit 0 is the opposite of VDSTX's.
			err = fmt.Errorf("VOPD destinations v%d and v%d must be one even and one odd", dstX, dst)
		default:
			err = set("VDSTY", uint64(dst>>1))
		}
		if err != nil {
			return nil, err
		}
		var neg uint64
		src := h.ops[1:]
		if k := tr.KIndex; k >= 0 {
			if len(h.ops) != 4 {
				return nil, fmt.Errorf("%s: needs vdst, src0, vsrc1 and K", h.mn)
			}
			kv, _, err := kConstant(tr.K, h.ops[k], e.d.Gen())
			if err != nil {
				return nil, err
			}
			if err := useLit(uint32(kv)); err != nil {
				return nil, err
			}
			src = []string{h.ops[1], h.ops[5-k]} // src0 and vsrc1
		}
		o, err := e.parseOperand(src[0])
		if err != nil {
			return nil, err
		}
		if o.abs || o.hi || o.neg && !three {
			return nil, fmt.Errorf("%q: VOPD sources take no modifiers", src[0])
		}
		if o.neg {
			neg |= 1
		}
		if o.hasLit {
			if err := useLit(o.lit); err != nil {
				return nil, err
			}
		}
		if err := set("SRC"+p+"0", uint64(o.code)); err != nil {
			return nil, err
		}
		for i, s := range src[1:] {
			if i == 1 && tr.SelectSGPR {
				// VOPD3 v_dual_cndmask_b32's select: VCC or any SGPR.
				c, err := e.parseOperand(s)
				if err != nil {
					return nil, err
				}
				if c.code >= 256 || c.neg || c.abs {
					return nil, fmt.Errorf("%q: the select must be an SGPR", s)
				}
				if err := set("VSRC"+p+"2", uint64(c.code)); err != nil {
					return nil, err
				}
				continue
			}
			isNeg := strings.HasPrefix(s, "-")
			if isNeg {
				if !three {
					return nil, fmt.Errorf("%q: VOPD sources take no modifiers", s)
				}
				neg |= 1 << uint(i+1)
				s = s[1:]
			}
			v, err := vgpr(s)
			if err != nil {
				return nil, err
			}
			if err := set(fmt.Sprintf("VSRC%s%d", p, i+1), uint64(v)); err != nil {
				return nil, err
			}
		}
		if neg != 0 {
			if err := set("NEG"+p, neg); err != nil {
				return nil, err
			}
		}
		for _, m := range h.mods {
			v, ok := strings.CutPrefix(m, "bitop3:")
			if !ok {
				return nil, fmt.Errorf("modifier %q is not supported on %s", m, h.mn)
			}
			n, err := strconv.ParseUint(v, 0, 8)
			if err != nil {
				return nil, fmt.Errorf("bitop3:%s: %v", v, err)
			}
			if err := set("VSRC"+p+"2", n); err != nil {
				return nil, err
			}
		}
	}
	b := make([]byte, 0, 4*len(words)+4)
	for _, w := range words {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	if lit != nil {
		b = binary.LittleEndian.AppendUint32(b, *lit)
	}
	return b, nil
}

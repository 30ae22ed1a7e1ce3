package encode

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// encodeMAI assembles the matrix (VOP3P-MAI) encoding: MFMA and SMFMAC
// ("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:1"), and
// v_accvgpr_read/write, whose AGPR operands the field codes hold as VGPRs
// do (256 + n). Which register file an operand is in is said by the ACC
// bits (A and B sources) and ACC_CD (destination and C, CDNA 2+; always
// AGPRs on CDNA 1); both settings are tried and the decoder's reading of
// the word decides, as for the memory encodings.
func (e *Encoder) encodeMAI(t decode.Template, asm string, ops, mods []string) ([]byte, error) {
	fields := map[string]isa.Field{}
	for _, f := range t.Format.Fields {
		fields[strings.ToUpper(f.Name)] = f
	}
	var order []string
	switch len(ops) {
	case 2:
		order = []string{"VDST", "SRC0"}
	case 4:
		order = []string{"VDST", "SRC0", "SRC1", "SRC2"}
	default:
		return nil, fmt.Errorf("%d operands; a matrix instruction takes 4 (or 2 for v_accvgpr_*)", len(ops))
	}
	words := append([]uint32(nil), t.Words...)
	set := func(name string, v uint64) error {
		f, ok := fields[name]
		if !ok {
			return fmt.Errorf("%s has no %s field", t.Format.Name, name)
		}
		if v >= 1<<uint(f.Width()) {
			return fmt.Errorf("%d does not fit %s", v, name)
		}
		f.Put(words, v)
		return nil
	}
	accAB := uint64(0)
	for i, o := range ops {
		name := order[i]
		p, err := e.parseOperand(o)
		if err != nil {
			return nil, err
		}
		if p.neg || p.abs || p.hi {
			return nil, fmt.Errorf("%q: matrix operands take no modifiers", o)
		}
		agpr := strings.HasPrefix(o, "a")
		if name == "VDST" {
			if p.code < 256 {
				return nil, fmt.Errorf("%q: the destination is a VGPR or AGPR", o)
			}
			p.code -= 256
		} else if agpr {
			switch name {
			case "SRC0":
				accAB |= 1
			case "SRC1":
				accAB |= 2
			}
		}
		if p.hasLit {
			return nil, fmt.Errorf("%q: matrix instructions take no literal", o)
		}
		if err := set(name, uint64(p.code)); err != nil {
			return nil, err
		}
	}
	printed := asm // asm as the decoder prints it: LLVM leaves out a zero cbsz, abid or blgp
	for _, m := range mods {
		key, val, ok := strings.Cut(m, ":")
		if !ok {
			return nil, fmt.Errorf("modifier %q is not supported on matrix instructions", m)
		}
		var v uint64
		switch key {
		case "cbsz", "abid", "blgp":
			n, err := strconv.ParseUint(val, 0, 8)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", m, err)
			}
			v = n
			if n == 0 {
				printed = strings.Replace(printed, " "+m, "", 1)
			}
		case "neg":
			// The f64 MFMAs of CDNA 2+ keep neg:[a,b,c] in the BLGP bits.
			bits, err := bitList(val, 3)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", m, err)
			}
			key, v = "blgp", bits
		default:
			return nil, fmt.Errorf("modifier %q is not supported on matrix instructions", m)
		}
		if err := set(strings.ToUpper(key), v); err != nil {
			return nil, err
		}
	}
	if accAB != 0 {
		if err := set("ACC", accAB); err != nil {
			return nil, err
		}
	}
	for _, cd := range []uint64{0, 1} {
		if _, ok := fields["ACC_CD"]; ok {
			fields["ACC_CD"].Put(words, cd)
		} else if cd == 1 {
			break
		}
		b := make([]byte, 0, 4*len(words))
		for _, w := range words {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
		if got, ok := e.readsBack(b, newReadBack(printed)); ok {
			return got, nil
		}
		// Another spelling of the same opcode (gfx908's
		// v_mfma_f32_32x32x8f16 on gfx942, which prints it
		// v_mfma_f32_32x32x8_f16).
		if in, n, err := e.d.DecodeOperands(b, 0); err == nil && n == len(b) && in.Name == t.Model && sameOperands(normalize(in.Text()), printed) {
			return b, nil
		}
	}
	return nil, fmt.Errorf("cannot encode %q with %s: no choice of register files reads back as written", asm, t.Format.Name)
}

// bitList reads "[1,0,1]" (most significant last, as LLVM writes op_sel,
// neg_lo and neg:); n > 0 wants exactly n bits.
func bitList(s string, n int) (uint64, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return 0, fmt.Errorf("want [x,y,z]")
	}
	parts := strings.Split(s[1:len(s)-1], ",")
	if n > 0 && len(parts) != n {
		return 0, fmt.Errorf("want %d bits", n)
	}
	var v uint64
	for i, p := range parts {
		switch strings.TrimSpace(p) {
		case "1":
			v |= 1 << uint(i)
		case "0":
		default:
			return 0, fmt.Errorf("%q is not 0 or 1", p)
		}
	}
	return v, nil
}

package encode

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
)

// A VALU instruction reads its scalar values (SGPRs, the special scalar
// registers, a literal) over the constant bus, which carries one value per
// instruction on GCN 5 and CDNA and two from GFX10 on (LLVM's
// getConstantBusLimit). The same register read twice is one value; inline
// constants and VGPRs do not use the bus. llvm-mc refuses a line over the
// limit ("invalid operand (violates constant bus restrictions)"); so does
// the encoder, naming the values.

// valuKinds are the encodings the limit applies to.
var valuKinds = map[decode.Kind]bool{
	decode.KindVOP1: true, decode.KindVOP2: true, decode.KindVOPC: true,
	decode.KindVOP3: true, decode.KindVOP3B: true, decode.KindVOP3P: true,
}

// sourceFields are the operand fields that may name a scalar value.
var sourceFields = []string{"SRC0", "SRC1", "SRC2"}

// Source operand codes (the 9-bit SRC fields) that are scalar values on the
// bus: SGPRs and the special scalar registers up to EXEC (null, 125 from
// GFX10 on, reads nothing), src_*_base/limit and pops_exiting_wave_id,
// vccz, execz, scc, and the literal.
func scalarCode(code uint64, gen int) bool {
	switch {
	case code <= 124, code == 126, code == 127:
		return true
	case code == 125:
		return gen < 10
	case code >= 235 && code <= 239, code >= 251 && code <= 253, code == 255:
		return true
	}
	return false
}

// constantBus checks in, the decoding of b (an encoding of a VALU line
// with template t), against the family's limit; nil when it is within it.
func (e *Encoder) constantBus(b []byte, in decode.Inst, t decode.Template) error {
	if !valuKinds[t.Kind] || !e.infoOK {
		return nil
	}
	info := e.info
	limit := info.ConstantBusLimit()
	seen := map[uint64]bool{}
	for _, v := range e.busSources(b, in, t) {
		if scalarCode(v, info.Gen) && (v != 0 || readsS0(sourceOperands(in.Operands, t.Kind))) {
			seen[v] = true
		}
	}
	// VOP2's carry-in and v_cndmask's mask: VCC read without a field
	// (the line's last operand).
	if t.Kind == decode.KindVOP2 && len(in.Operands) > 0 {
		if last := in.Operands[len(in.Operands)-1]; last == "vcc" || last == "vcc_lo" {
			seen[106] = true
		}
	}
	// A K constant (v_madak_f32's) is a literal on the bus too; a source
	// literal would be the same dword (code 255).
	if t.KIndex >= 0 {
		seen[255] = true
	}
	if len(seen) <= limit {
		return nil
	}
	var reads []string
	for _, op := range in.Operands[min(1, len(in.Operands)):] {
		if scalarText(op) {
			reads = append(reads, op)
		}
	}
	values := "one scalar value"
	if limit > 1 {
		values = fmt.Sprintf("%d scalar values", limit)
	}
	return fmt.Errorf("%s reads at most %s per VALU instruction (the constant bus); this line reads %d (%s)",
		info.Name, values, len(seen), strings.Join(reads, ", "))
}

// busSources are the values of the source fields (sourceFields) of in,
// the decoding of b, in the format's order: read from b with the fields of
// t's format when in was decoded with it (always, but for a word another
// format claims), else from a decoding with fields.
func (e *Encoder) busSources(b []byte, in decode.Inst, t decode.Template) []uint64 {
	var out []uint64
	if in.Encoding != t.Format.Name || len(b) > 32 {
		full, _, err := e.d.Decode(b, 0)
		if err != nil {
			return nil
		}
		for _, f := range full.Fields {
			if slices.Contains(sourceFields, f.Name) {
				out = append(out, f.Value)
			}
		}
		return out
	}
	var words [8]uint32
	for i := 0; i+4 <= len(b); i += 4 {
		words[i/4] = binary.LittleEndian.Uint32(b[i:])
	}
	for _, f := range t.Format.Fields {
		if slices.Contains(sourceFields, f.Name) {
			out = append(out, f.Get(words[:len(b)/4]))
		}
	}
	return out
}

// sourceOperands are a VALU line's operands after its destinations: the
// VOP3B carry-out SGPR (v_add_co_u32_e64 v1, s[0:1], ...) is written, not
// read.
func sourceOperands(ops []string, k decode.Kind) []string {
	n := 1
	if k == decode.KindVOP3B {
		n = 2
	}
	return ops[min(n, len(ops)):]
}

// readsS0 says whether a source operand (ops: the sources) names s0: the encoder leaves the
// source fields an instruction lacks (v_readlane's SRC2) at 0, s0's code.
func readsS0(ops []string) bool {
	for _, op := range ops {
		op = strings.TrimLeft(op, "-|")
		if op == "s0" || strings.HasPrefix(op, "s[0:") {
			return true
		}
	}
	return false
}

// scalarText says whether a printed source operand is a scalar value: an
// SGPR, a special scalar register or a literal (for the message only).
func scalarText(op string) bool {
	op = strings.TrimLeft(op, "-|")
	switch {
	case strings.HasPrefix(op, "s"), strings.HasPrefix(op, "ttmp"), strings.HasPrefix(op, "vcc"),
		strings.HasPrefix(op, "exec"), op == "m0", strings.HasPrefix(op, "flat_scratch"), strings.HasPrefix(op, "0x"):
		return !strings.HasPrefix(op, "sext")
	}
	return false
}

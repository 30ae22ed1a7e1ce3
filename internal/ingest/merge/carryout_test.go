package merge

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestCarryOutLayouts: a VOP3A encoding of an instruction whose operands
// write a vector and a scalar destination takes the family's VOP3B
// layout; a compare (scalar destination only), an instruction with one
// vector destination and a family without VOP3B keep theirs.
func TestCarryOutLayouts(t *testing.T) {
	field := func(name string, msb, lsb int) isa.Field { return isa.Field{Name: name, MSB: msb, LSB: lsb} }
	vop3a := isa.Format{Name: "VOP3A", Width: 64, Fields: []isa.Field{field("VDST", 7, 0), field("ABS", 10, 8), field("OPSEL", 14, 11),
		field("CLMP", 15, 15), field("OP", 25, 16), {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110100"}}}
	vop3b := isa.Format{Name: "VOP3B", Width: 64, Fields: []isa.Field{field("VDST", 7, 0), field("SDST", 14, 8),
		field("CLMP", 15, 15), field("OP", 25, 16), {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110100"}}}
	archs := []isa.Architecture{{ID: "famb", Formats: []isa.Format{vop3a, vop3b}}, {ID: "fama", Formats: []isa.Format{vop3a}}}
	op := func(name, typ string, out bool) isa.Operand {
		return isa.Operand{Name: name, OperandType: typ, Output: out, Input: !out}
	}
	carry := []isa.Operand{op("vdst", "vdst", true), op("vcc", "vcc", true), op("src0", "src", false), op("vsrc1", "vsrc", false)}
	mk := func(arch, name string, ops []isa.Operand) *isa.Instruction {
		e := isa.Encoding{Name: "VOP3A", Format: "VOP3A", Opcode: 0x119}
		encodingLayout(&e, vop3a, e.Opcode)
		return &isa.Instruction{Arch: arch, Name: name, Operands: ops, Encodings: []isa.Encoding{e}}
	}
	add := mk("famb", "v_add_x", carry)
	cmp := mk("famb", "v_cmp_x", []isa.Operand{op("vcc", "vcc", true), op("src0", "src", false), op("vsrc1", "vsrc", false)})
	mov := mk("famb", "v_mov_x", []isa.Operand{op("vdst", "vdst", true), op("src0", "src", false)})
	old := mk("fama", "v_add_x", carry)
	if n := CarryOutLayouts(archs, []*isa.Instruction{add, cmp, mov, old}); n != 1 {
		t.Errorf("%d encodings changed, want 1", n)
	}
	e := add.Encodings[0]
	if e.Format != "VOP3B" || e.Name != "VOP3B" || e.Identifier != mov.Encodings[0].Identifier {
		t.Errorf("carry-out encoding %s/%s identifier %s, want VOP3B with the same identifier %s", e.Name, e.Format, e.Identifier, mov.Encodings[0].Identifier)
	}
	var names []string
	for _, f := range e.Fields {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "SDST") || strings.Contains(got, "ABS") {
		t.Errorf("carry-out fields %s, want VOP3B's (SDST, no ABS)", got)
	}
	for _, in := range []*isa.Instruction{cmp, mov, old} {
		if in.Encodings[0].Format != "VOP3A" {
			t.Errorf("%s %s became %s", in.Arch, in.Name, in.Encodings[0].Format)
		}
	}
}

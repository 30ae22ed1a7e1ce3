package decode

import (
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// fixture12 is a hand-written gfx12-style family with the formats this
// round renders: interpolation, LDS direct loads, exports, and the
// 96-bit FLAT layout as the model has it (llvm-mc's: OP at [21:14] and
// IOFFSET, which package amdlayout puts where the guide's table does not).
// The opcode numbers are made up.
func fixture12() (isa.Architecture, []isa.Instruction) {
	a := isa.Architecture{ID: "rdna4", Formats: []isa.Format{
		{Name: "VINTERP", Width: 64, Fields: []isa.Field{
			{Name: "VDST", MSB: 7, LSB: 0}, {Name: "WAITEXP", MSB: 10, LSB: 8}, {Name: "OPSEL", MSB: 14, LSB: 11},
			{Name: "CM", MSB: 15, LSB: 15}, {Name: "OP", MSB: 20, LSB: 16}, {Name: "ENCODING", MSB: 31, LSB: 24, Fixed: "11001101"},
			{Name: "SRC0", MSB: 40, LSB: 32}, {Name: "SRC1", MSB: 49, LSB: 41}, {Name: "SRC2", MSB: 58, LSB: 50},
			{Name: "NEG", MSB: 63, LSB: 61}}},
		{Name: "VDSDIR", Width: 32, Fields: []isa.Field{
			{Name: "VDST", MSB: 7, LSB: 0}, {Name: "ATTR_CHAN", MSB: 9, LSB: 8}, {Name: "ATTR", MSB: 15, LSB: 10},
			{Name: "WAIT_VA", MSB: 19, LSB: 16}, {Name: "OP", MSB: 21, LSB: 20}, {Name: "WAIT_VMVSRC", MSB: 23, LSB: 23},
			{Name: "ENCODING", MSB: 31, LSB: 24, Fixed: "11001110"}}},
		{Name: "VEXPORT", Width: 64, Fields: []isa.Field{
			{Name: "EN", MSB: 3, LSB: 0}, {Name: "TARGET", MSB: 9, LSB: 4}, {Name: "DONE", MSB: 11, LSB: 11},
			{Name: "ROW", MSB: 13, LSB: 13}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "111110"},
			{Name: "VSRC0", MSB: 39, LSB: 32}, {Name: "VSRC1", MSB: 47, LSB: 40}, {Name: "VSRC2", MSB: 55, LSB: 48},
			{Name: "VSRC3", MSB: 63, LSB: 56}}},
		{Name: "VGLOBAL", Width: 96, Fields: []isa.Field{
			{Name: "SADDR", MSB: 6, LSB: 0}, {Name: "OP", MSB: 21, LSB: 14}, {Name: "ENCODING", MSB: 31, LSB: 24, Fixed: "11101110"},
			{Name: "VDST", MSB: 39, LSB: 32}, {Name: "SVE", MSB: 49, LSB: 49}, {Name: "SCOPE", MSB: 51, LSB: 50},
			{Name: "TH", MSB: 54, LSB: 52}, {Name: "VSRC", MSB: 62, LSB: 55}, {Name: "VADDR", MSB: 71, LSB: 64},
			{Name: "IOFFSET", MSB: 95, LSB: 72}}},
	}}
	ins := []isa.Instruction{
		{Name: "v_interp_p10_f32", Encodings: []isa.Encoding{{Format: "VINTERP", Opcode: 0}}},
		{Name: "ds_param_load", Encodings: []isa.Encoding{{Format: "VDSDIR", Opcode: 0}}},
		{Name: "ds_direct_load", Encodings: []isa.Encoding{{Format: "VDSDIR", Opcode: 1}}},
		{Name: "global_load_b64", Encodings: []isa.Encoding{{Format: "VGLOBAL", Opcode: 21}},
			Syntax: []isa.Syntax{{Operands: []string{"vdst", "vaddr", "saddr"}}}},
		{Name: "global_store_b32", Encodings: []isa.Encoding{{Format: "VGLOBAL", Opcode: 26}},
			Syntax: []isa.Syntax{{Operands: []string{"vaddr", "vsrc", "saddr"}}}},
	}
	return a, ins
}

func TestDecodeGfx12Formats(t *testing.T) {
	a, ins := fixture12()
	d, err := New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		code []byte
		want string
	}{
		// vdst 3, wait_exp 2, clamp; src0 v4, src1 s5, src2 -1.0 (code 243) negated.
		{"vinterp", words(0xcd000000|1<<15|2<<8|3, 256+4|(256+5)<<9|(256+6)<<18|4<<29), "v_interp_p10_f32 v3, v4, v5, -v6 clamp wait_exp:2"}, // llvm-mc-22: VINTERP sources are VGPRs
		{"param load", words(0xce000000 | 1<<23 | 5<<16 | 7<<10 | 2<<8 | 9), "ds_param_load v9, attr7.z wait_va_vdst:5 wait_vm_vsrc:1"},
		{"direct load", words(0xce000000 | 1<<20 | 2<<16 | 9), "ds_direct_load v9 wait_va_vdst:2 wait_vm_vsrc:0"},
		// target pos0 (12), done, sources 1 and 3 enabled.
		{"export", words(0xf8000000|1<<11|12<<4|0b1010, 1|2<<8|3<<16|4<<24), "export pos0 off, v2, off, v4 done"},
		{"export param", words(0xf8000000|40<<4|0b0001, 1), "export invalid_target_40 v1, off, off, off"},
		// OP 21 at [21:14]; saddr s[10:11]; vaddr v6; IOFFSET -8 at [95:72]; th 1 (NT).
		{"global load", words(0xee000000|21<<14|10, 2|1<<20, 6|0xfffff8<<8), "global_load_b64 v[2:3], v6, s[10:11] offset:-8 th:TH_LOAD_NT"},
		// saddr null (124): 64-bit VGPR address and "off".
		{"global store", words(0xee000000|26<<14|124, 7<<23, 4), "global_store_b32 v[4:5], v7, off"},
	} {
		in, _, err := d.Decode(tc.code, 0)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := in.Text(); got != tc.want || in.Partial {
			t.Errorf("%s: got %q (partial %v), want %q", tc.name, got, in.Partial, tc.want)
		}
	}
	// The field list is the model's layout.
	in, _, err := d.Decode(words(0xee000000|21<<14|10, 2, 6), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range in.Fields {
		if f.Name == "OP" && (f.MSB != 21 || f.LSB != 14 || f.Value != 21) {
			t.Errorf("OP field %+v, want [21:14] = 21", f)
		}
	}
}

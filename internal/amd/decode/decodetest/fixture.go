package decodetest

import "github.com/gpuisa/gpuisa/internal/isa"

// Fixture is a hand-written GCN-style family: VOP2, VOP1, SOP2, SOP1, SOPP
// and VOP3A layouts written from our reading of the bit layouts, with a few
// made-up-but-plausible opcode assignments.
func Fixture() (isa.Architecture, []isa.Instruction) {
	a := isa.Architecture{ID: "cdna4", Formats: []isa.Format{
		{Name: "VOP2", Width: 32, Fields: []isa.Field{
			{Name: "SRC0", MSB: 8, LSB: 0}, {Name: "VSRC1", MSB: 16, LSB: 9}, {Name: "VDST", MSB: 24, LSB: 17},
			{Name: "OP", MSB: 30, LSB: 25}, {Name: "ENCODING", MSB: 31, LSB: 31, Fixed: "0"}}},
		{Name: "VOP1", Width: 32, Fields: []isa.Field{
			{Name: "SRC0", MSB: 8, LSB: 0}, {Name: "OP", MSB: 16, LSB: 9}, {Name: "VDST", MSB: 24, LSB: 17},
			{Name: "ENCODING", MSB: 31, LSB: 25, Fixed: "0111111"}}},
		{Name: "SOP2", Width: 32, Fields: []isa.Field{
			{Name: "SSRC0", MSB: 7, LSB: 0}, {Name: "SSRC1", MSB: 15, LSB: 8}, {Name: "SDST", MSB: 22, LSB: 16},
			{Name: "OP", MSB: 29, LSB: 23}, {Name: "ENCODING", MSB: 31, LSB: 30, Fixed: "10"}}},
		{Name: "SOP1", Width: 32, Fields: []isa.Field{
			{Name: "SSRC0", MSB: 7, LSB: 0}, {Name: "OP", MSB: 15, LSB: 8}, {Name: "SDST", MSB: 22, LSB: 16},
			{Name: "ENCODING", MSB: 31, LSB: 23, Fixed: "10_1111101"}}},
		{Name: "SOPP", Width: 32, Fields: []isa.Field{
			{Name: "SIMM16", MSB: 15, LSB: 0}, {Name: "OP", MSB: 22, LSB: 16},
			{Name: "ENCODING", MSB: 31, LSB: 23, Fixed: "101111111"}}},
		{Name: "VOP3A", Width: 64, Fields: []isa.Field{
			{Name: "VDST", MSB: 7, LSB: 0}, {Name: "ABS", MSB: 10, LSB: 8}, {Name: "OPSEL", MSB: 14, LSB: 11},
			{Name: "CLMP", MSB: 15, LSB: 15}, {Name: "OP", MSB: 25, LSB: 16}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110100"},
			{Name: "SRC0", MSB: 40, LSB: 32}, {Name: "SRC1", MSB: 49, LSB: 41}, {Name: "SRC2", MSB: 58, LSB: 50},
			{Name: "OMOD", MSB: 60, LSB: 59}, {Name: "NEG", MSB: 63, LSB: 61}}},
		{Name: "DS", Width: 64, Fields: []isa.Field{
			{Name: "OP", MSB: 24, LSB: 17}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110110"}}},
		// The encoder does not do image instructions: MIMG tests its
		// "not supported yet" answer.
		{Name: "MIMG", Width: 64, Fields: []isa.Field{
			{Name: "OP", MSB: 24, LSB: 18}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "111100"}}},
	}}
	ins := []isa.Instruction{
		{Name: "v_max_f32", Encodings: []isa.Encoding{{Format: "VOP2", Opcode: 11}, {Format: "VOP3A", Opcode: 267}}},
		{Name: "v_add_f64", Encodings: []isa.Encoding{{Format: "VOP3A", Opcode: 640}}},
		{Name: "v_mov_b32", Encodings: []isa.Encoding{{Format: "VOP1", Opcode: 1}}},
		{Name: "s_add_u32", Encodings: []isa.Encoding{{Format: "SOP2", Opcode: 0}}},
		{Name: "s_and_b64", Encodings: []isa.Encoding{{Format: "SOP2", Opcode: 13}}},
		{Name: "s_mov_b64", Encodings: []isa.Encoding{{Format: "SOP1", Opcode: 1}}},
		{Name: "s_endpgm", Encodings: []isa.Encoding{{Format: "SOPP", Opcode: 1}}},
		{Name: "ds_nop", Encodings: []isa.Encoding{{Format: "DS", Opcode: 20}}},
		{Name: "image_load", Encodings: []isa.Encoding{{Format: "MIMG", Opcode: 0}}},
	}
	return a, ins
}

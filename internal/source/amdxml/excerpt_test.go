package amdxml

import (
	"strings"
	"testing"
)

// The expected values below were read off the excerpt by hand (and with a
// separate Python ElementTree script), not produced by this package.

func TestExcerptMetadata(t *testing.T) {
	s, err := ParseFile(excerptPath(t))
	if err != nil {
		t.Fatal(err)
	}
	d := s.Document
	if !strings.HasPrefix(d.Copyright, "Copyright (c) 2026") || d.License != "MIT" ||
		d.ReleaseDate != "2026-02-20" || d.SchemaVersion != "1.1.1" || d.Sensitivity == "" {
		t.Errorf("Document = %+v", d)
	}
	if s.ArchitectureName != "AMD CDNA 4" || s.ArchitectureID != 3 {
		t.Errorf("architecture = %q %d", s.ArchitectureName, s.ArchitectureID)
	}
	if id, ok := Family(s.ArchitectureName); !ok || id != "cdna4" {
		t.Errorf("Family(%q) = %q, %v", s.ArchitectureName, id, ok)
	}
	if len(s.DataFormats) != 0 {
		t.Errorf("DataFormats = %d, the excerpt has none", len(s.DataFormats))
	}
	var groups []string
	for _, g := range s.FunctionalGroups {
		if g.Description == "" {
			t.Errorf("group %s has no description", g.Name)
		}
		groups = append(groups, g.Name)
	}
	if got := strings.Join(groups, ","); got != "SALU,VALU" {
		t.Errorf("FunctionalGroups = %s", got)
	}
	var subs []string
	for _, g := range s.FunctionalSubgroups {
		subs = append(subs, g.Name)
	}
	if got := strings.Join(subs, ","); got != "FLOATING_POINT,MFMA" {
		t.Errorf("FunctionalSubgroups = %s", got)
	}
}

func TestExcerptEncodings(t *testing.T) {
	s, err := ParseFile(excerptPath(t))
	if err != nil {
		t.Fatal(err)
	}
	type field struct {
		name          string
		count, offset int
	}
	want := []struct {
		name             string
		line, order      int
		bits             int
		mask             uint64
		ids              int
		first, last      uint64
		condition        string
		fields           []field
		encodingBits, op uint64 // ENCODING field value, OP of the first identifier
	}{
		{"ENC_SOP1", 15, -1, 32, 0xff80ff00, 54, 0xbe800000, 0xbe803700,
			"INST.SOP1.SSRC0 != 255",
			[]field{{"ENCODING", 9, 23}, {"OP", 8, 8}, {"SDST", 7, 16}, {"SSRC0", 8, 0}}, 0x17d, 0},
		{"ENC_SOPC", 144, 0, 32, 0xffff0000, 20, 0xbf000000, 0xbf130000,
			"(INST.SOPC.SSRC0 != 255) && (INST.SOPC.SSRC1 != 255)",
			[]field{{"ENCODING", 9, 23}, {"OP", 7, 16}, {"SSRC0", 8, 0}, {"SSRC1", 8, 8}}, 0x17e, 0},
		{"ENC_VOP2", 260, 9, 32, 0xfe000000, 3, 0x16000000, 0x60000000,
			"INST.VOP2.SRC0 != 255",
			[]field{{"ENCODING", 1, 31}, {"OP", 6, 25}, {"SRC0", 9, 0}, {"VDST", 8, 17}, {"VSRC1", 8, 9}}, 0, 11},
	}
	if len(s.Encodings) != len(want) {
		t.Fatalf("%d encodings, want %d", len(s.Encodings), len(want))
	}
	for i, w := range want {
		e := s.Encodings[i]
		if e.Name != w.name || e.Line != w.line || e.Order != w.order || e.BitCount != w.bits {
			t.Errorf("encoding %d = %s line %d order %d bits %d, want %+v", i, e.Name, e.Line, e.Order, e.BitCount, w)
		}
		if e.IdentifierMask.Value != w.mask || e.IdentifierMask.Radix != 2 || len(e.IdentifierMask.Raw) != 32 {
			t.Errorf("%s mask = %+v, want %#x", e.Name, e.IdentifierMask, w.mask)
		}
		if len(e.Identifiers) != w.ids || e.Identifiers[0].Value != w.first || e.Identifiers[len(e.Identifiers)-1].Value != w.last {
			t.Errorf("%s identifiers: %d, first %#x, last %#x", e.Name, len(e.Identifiers), e.Identifiers[0].Value, e.Identifiers[len(e.Identifiers)-1].Value)
		}
		enc, _ := e.Field("ENCODING")
		op, _ := e.Field("OP")
		for _, id := range e.Identifiers {
			if id.Value&e.IdentifierMask.Value != id.Value || id.Wide {
				t.Errorf("%s identifier %s has bits outside the mask", e.Name, id.Raw)
			}
			if enc.Extract(id.Value) != w.encodingBits {
				t.Errorf("%s identifier %#x: ENCODING = %#x, want %#x", e.Name, id.Value, enc.Extract(id.Value), w.encodingBits)
			}
		}
		if got := op.Extract(e.Identifiers[0].Value); got != w.op {
			t.Errorf("%s first identifier OP = %d, want %d", e.Name, got, w.op)
		}
		if len(e.Conditions) != 1 || e.Conditions[0].Name != "default" || e.Conditions[0].Expression.String() != w.condition {
			t.Errorf("%s conditions = %+v, want default: %s", e.Name, e.Conditions, w.condition)
		}
		if e.Description == "" {
			t.Errorf("%s has no description", e.Name)
		}
		if len(e.Fields) != len(w.fields) {
			t.Errorf("%s has %d fields, want %d", e.Name, len(e.Fields), len(w.fields))
			continue
		}
		for j, wf := range w.fields {
			f := e.Fields[j]
			if f.Name != wf.name || f.IsConditional || len(f.Ranges) != 1 || f.Ranges[0].BitCount != wf.count ||
				f.Ranges[0].BitOffset != wf.offset || f.Ranges[0].ValueShift != 0 || f.Ranges[0].Padding != nil || f.Description == "" {
				t.Errorf("%s field %d = %+v, want %+v", e.Name, j, f, wf)
			}
		}
	}
	// SOP1's list skips opcodes 47 and 49 (0x2f, 0x31).
	sop1, _ := s.Encodings[0].Field("OP")
	seen := map[uint64]bool{}
	for _, id := range s.Encodings[0].Identifiers {
		seen[sop1.Extract(id.Value)] = true
	}
	for op := uint64(0); op < 56; op++ {
		if seen[op] == (op == 47 || op == 49) {
			t.Errorf("SOP1 opcode %d listed = %v", op, seen[op])
		}
	}
}

func TestExcerptInstructions(t *testing.T) {
	s, err := ParseFile(excerptPath(t))
	if err != nil {
		t.Fatal(err)
	}
	type form struct {
		encoding, condition string
		opcode              uint64
		src0, src0Type      string // the second operand, the one that differs between forms
	}
	forms := func(vop2, vop3 uint64) []form {
		return []form{
			{"ENC_VOP2", "default", vop2, "SRC0", "OPR_SRC"},
			{"VOP2_INST_LITERAL", "has_lit", vop2, "LITERAL", "OPR_SRC"},
			{"VOP2_VOP_DPP", "has_dpp", vop2, "VSRC0", "OPR_VGPR"},
			{"VOP2_VOP_SDWA", "has_sdwa", vop2, "VSRC0", "OPR_SRC_SIMPLE"},
			{"ENC_VOP3", "default", vop3, "SRC0", "OPR_SRC_NOLIT"},
		}
	}
	want := []struct {
		name, format string
		line, size   int
		forms        []form
	}{
		{"V_MAX_F32", "FMT_NUM_F32", 350, 32, forms(11, 267)},
		{"V_MAX_U32", "FMT_NUM_U32", 494, 32, forms(15, 271)},
		{"V_MAX_I16", "FMT_NUM_I16", 638, 16, forms(48, 304)},
	}
	if len(s.Instructions) != len(want) {
		t.Fatalf("%d instructions, want %d", len(s.Instructions), len(want))
	}
	vop2 := s.Encodings[2]
	op, _ := vop2.Field("OP")
	for i, w := range want {
		in := s.Instructions[i]
		if in.Name != w.name || in.Line != w.line || in.Flags != (Flags{}) || in.FunctionalGroup != "VALU" ||
			len(in.FunctionalSubgroups) != 1 || in.FunctionalSubgroups[0] != "NOT_ASSIGNED" || in.Aliases != nil ||
			!strings.Contains(in.Description, "maximum") {
			t.Errorf("instruction %d = %s line %d flags %+v group %s %v", i, in.Name, in.Line, in.Flags, in.FunctionalGroup, in.FunctionalSubgroups)
		}
		if len(in.Encodings) != len(w.forms) {
			t.Errorf("%s has %d encodings", in.Name, len(in.Encodings))
			continue
		}
		for j, wf := range w.forms {
			ie := in.Encodings[j]
			if ie.EncodingName != wf.encoding || ie.Condition != wf.condition || ie.Opcode.Value != wf.opcode || ie.Opcode.Radix != 10 {
				t.Errorf("%s form %d = %s %s %+v, want %+v", in.Name, j, ie.EncodingName, ie.Condition, ie.Opcode, wf)
			}
			src1Type := "OPR_VGPR"
			if wf.encoding == "VOP2_VOP_SDWA" || wf.encoding == "ENC_VOP3" {
				src1Type = "OPR_SRC_SIMPLE"
			}
			src1 := "VSRC1"
			if wf.encoding == "ENC_VOP3" {
				src1 = "SRC1"
			}
			wantOps := []Operand{
				{Order: 1, Output: true, IsBinaryMicrocodeRequired: true, FieldName: "VDST", DataFormat: w.format, OperandType: "OPR_VGPR", Size: w.size},
				{Order: 2, Input: true, IsBinaryMicrocodeRequired: true, FieldName: wf.src0, DataFormat: w.format, OperandType: wf.src0Type, Size: w.size},
				{Order: 3, Input: true, IsBinaryMicrocodeRequired: true, FieldName: src1, DataFormat: w.format, OperandType: src1Type, Size: w.size},
			}
			if len(ie.Operands) != 3 {
				t.Errorf("%s %s: %d operands", in.Name, ie.EncodingName, len(ie.Operands))
				continue
			}
			for k := range wantOps {
				if ie.Operands[k] != wantOps[k] {
					t.Errorf("%s %s operand %d = %+v, want %+v", in.Name, ie.EncodingName, k, ie.Operands[k], wantOps[k])
				}
			}
		}
		// The design's encoding check: the VOP2 opcode placed in OP rebuilds
		// an identifier AMD lists for ENC_VOP2.
		built := op.Insert(0, in.Encodings[0].Opcode.Value)
		found := false
		for _, id := range vop2.Identifiers {
			found = found || id.Value == built
		}
		if !found {
			t.Errorf("%s: opcode %d in OP gives %#x, not a listed identifier", in.Name, in.Encodings[0].Opcode.Value, built)
		}
	}
}

func TestExcerptOperandType(t *testing.T) {
	s, err := ParseFile(excerptPath(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.OperandTypes) != 1 {
		t.Fatalf("%d operand types", len(s.OperandTypes))
	}
	ot := s.OperandTypes[0]
	if ot.Name != "OPR_WAITCNT" || !ot.IsPartitioned || ot.Line != 784 || ot.PredefinedValues != nil || ot.Description == "" {
		t.Errorf("operand type = %s partitioned %v line %d", ot.Name, ot.IsPartitioned, ot.Line)
	}
	type rng struct{ count, offset, shift int }
	want := []struct {
		name   string
		ranges []rng
	}{
		{"EXP", []rng{{3, 4, 0}}},
		{"LGKM", []rng{{4, 8, 0}}},
		{"VM", []rng{{4, 0, 0}, {2, 14, 4}}},
	}
	if len(ot.Fields) != len(want) {
		t.Fatalf("%d fields", len(ot.Fields))
	}
	for i, w := range want {
		f := ot.Fields[i]
		if f.Name != w.name || len(f.Ranges) != len(w.ranges) {
			t.Errorf("field %d = %+v", i, f)
			continue
		}
		for j, r := range w.ranges {
			g := f.Ranges[j]
			if g.Order != j || g.BitCount != r.count || g.BitOffset != r.offset || g.ValueShift != r.shift {
				t.Errorf("%s range %d = %+v, want %+v", f.Name, j, g, r)
			}
		}
	}
	// vmcnt 0x3f: its low four bits sit at 0-3, its high two at 14-15.
	vm := ot.Fields[2]
	if got := vm.Insert(0, 0x3f); got != 0xc00f {
		t.Errorf("VM.Insert(0x3f) = %#x, want 0xc00f", got)
	}
	if got := vm.Extract(0xc00f); got != 0x3f {
		t.Errorf("VM.Extract(0xc00f) = %#x", got)
	}
}

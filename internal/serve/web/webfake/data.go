package webfake

import (
	"fmt"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The sample data below is written for this project to mimic the shape of the
// real database; opcodes follow the real assemblers where known, but the
// prose is our own.

func fixed(name string, msb, lsb int, bits string) isa.Field {
	return isa.Field{Name: name, MSB: msb, LSB: lsb, Fixed: bits}
}

func field(name string, msb, lsb int, desc string) isa.Field {
	return isa.Field{Name: name, MSB: msb, LSB: lsb, Description: desc}
}

var prov = isa.Prov{Source: isa.SourceGPUISA, File: "webfake/data.go"}

func vop2Fields() []isa.Field {
	return []isa.Field{
		fixed("ENCODING", 31, 31, "0"),
		field("OP", 30, 25, "opcode"),
		field("VDST", 24, 17, "destination vector register"),
		field("VSRC1", 16, 9, "second source, a vector register"),
		field("SRC0", 8, 0, "first source: register, constant or literal"),
	}
}

func vop3Fields(enc string, withOpsel bool) []isa.Field {
	fs := []isa.Field{
		fixed("ENCODING", 31, 26, enc),
		field("OP", 25, 16, "opcode"),
		field("CLAMP", 15, 15, "clamp the result"),
	}
	if withOpsel {
		fs = append(fs, field("OPSEL", 14, 11, "operand half selection"))
	}
	fs = append(fs,
		field("ABS", 10, 8, "absolute value of each source"),
		field("VDST", 7, 0, "destination vector register"),
		field("SRC0", 40, 32, "first source"),
		field("SRC1", 49, 41, "second source"),
		field("SRC2", 58, 50, "third source"),
		field("OMOD", 60, 59, "output modifier"),
		field("NEG", 63, 61, "negate each source"),
	)
	return fs
}

func sop1Fields() []isa.Field {
	return []isa.Field{
		fixed("ENCODING", 31, 23, "101111101"),
		field("SDST", 22, 16, "destination scalar register"),
		field("OP", 15, 8, "opcode"),
		field("SSRC0", 7, 0, "source scalar register or constant"),
	}
}

func sampleFormats(arch string) []isa.Format {
	vop3Name, vop3Enc, opsel := "VOP3A", "110100", false
	if arch == "rdna3" || arch == "rdna4" {
		vop3Name, vop3Enc, opsel = "VOP3", "110101", true
	}
	return []isa.Format{
		{Name: "SOP1", Width: 32, Description: "scalar, one source", Fields: sop1Fields(), IdentifierMask: "0xFF80FF00", Prov: prov},
		{Name: "VOP2", Width: 32, Description: "vector, two sources", Fields: vop2Fields(), IdentifierMask: "0xFE000000", Prov: prov},
		{Name: vop3Name, Width: 64, Description: "vector, up to three sources with modifiers", Fields: vop3Fields(vop3Enc, opsel), IdentifierMask: "0xFFFF0000", Prov: prov},
	}
}

func sampleDocument(arch string) isa.Document {
	if arch == "ptx" {
		return isa.Document{Source: isa.SourcePTXDoc, File: "sample/ptx", Title: "Sample PTX notes", Version: "9.1", Attribution: "sample text written for tests"}
	}
	return isa.Document{Source: isa.SourceAMDManual, File: "sample/" + arch, Title: "Sample " + arch + " notes", Version: "2026-01", Attribution: "sample text written for tests"}
}

// vopEnc builds the VOP2 or VOP3 encoding of an instruction with its identifier.
func vopEnc(arch, name string, opcode int) isa.Encoding {
	ops := []isa.Operand{
		{Name: "vdst", Order: 0, Output: true, DataFormat: "FMT_NUM_F32", OperandType: "OPR_VGPR", Size: 32, Prov: prov},
		{Name: "src0", Order: 1, Input: true, DataFormat: "FMT_NUM_F32", OperandType: "OPR_SRC", Size: 32, Prov: prov},
		{Name: "vsrc1", Order: 2, Input: true, DataFormat: "FMT_NUM_F32", OperandType: "OPR_VGPR", Size: 32, Prov: prov},
	}
	switch name {
	case "VOP2":
		return isa.Encoding{Name: "VOP2", Format: "VOP2", Width: 32, Opcode: opcode,
			Identifier: fmt.Sprintf("0x%08X", opcode<<25), Fields: vop2Fields(), Operands: ops, Prov: prov,
			IdentifierCheck: "sample identifier"}
	case "VOP3A":
		return isa.Encoding{Name: "VOP3A", Format: "VOP3A", Width: 64, Opcode: opcode,
			Identifier: fmt.Sprintf("0x%08X", 0xD0000000|opcode<<16), Fields: vop3Fields("110100", false), Operands: ops, Prov: prov}
	default: // VOP3 (RDNA)
		return isa.Encoding{Name: "VOP3", Format: "VOP3", Width: 64, Opcode: opcode,
			Identifier: fmt.Sprintf("0x%08X", 0xD4000000|opcode<<16), Fields: vop3Fields("110101", true), Operands: ops, Prov: prov}
	}
}

func allTargets(supported ...string) map[string]string {
	yes := map[string]bool{}
	for _, t := range supported {
		yes[t] = true
	}
	m := map[string]string{}
	for _, t := range isa.AllGFXTargets {
		if yes[t] {
			m[t] = "supported"
		} else {
			m[t] = "unsupported"
		}
	}
	return m
}

var maxConcept = isa.ConceptRef{
	ID: "max", Name: "Maximum", Relation: "equivalent with restrictions",
	Restrictions: []string{"NaN inputs are handled differently; check the semantics of both."},
	Members:      []isa.Member{{Arch: "ptx", Name: "max"}},
}

var maxOpcodes = map[string]map[string]int{
	"cdna4": {"VOP2": 11, "VOP3A": 267},
	"cdna3": {"VOP2": 11, "VOP3A": 267},
	"rdna3": {"VOP2": 16, "VOP3": 272},
	"rdna4": {"VOP2": 22, "VOP3": 278},
}

func vMaxF32(arch string) *isa.Instruction {
	in := &isa.Instruction{
		Arch: arch, Name: "v_max_f32", Vendor: isa.VendorAMD, Kind: isa.KindNative, Unit: "Vector",
		Category: "Vector Arithmetic", Section: "VOP2 Instructions",
		Summary:     "Pick the larger of two single-precision floats, per lane.",
		Description: "Writes to each active lane of VDST whichever of SRC0 and VSRC1 is greater. <p> Written by hand for tests & checks.",
		Semantics:   "// sample pseudocode written for tests\nif S0.f > S1.f then\n    D.f = S0.f   // <p>bigger</p> &amp; kept\nelse\n    D.f = S1.f\nendif",
		Aliases:     []isa.Alias{},
		Opcodes:     maxOpcodes,
		Concepts:    []isa.ConceptRef{maxConcept},
		Sources:     []isa.Prov{{Source: isa.SourceAMDManual, File: "sample/" + arch, Line: 120}, {Source: isa.SourceAMDXML, File: "sample.xml", Line: 42}},
		Flags:       []string{"is_vector"},
	}
	switch arch {
	case "cdna4", "cdna3":
		in.Encodings = []isa.Encoding{vopEnc(arch, "VOP2", 11), vopEnc(arch, "VOP3A", 267)}
		in.Encodings[0].IdentifierCheck = "Opcode 11 in OP rebuilds 0x16000000, an identifier AMD lists for this encoding"
		in.Targets = allTargets("gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c", "gfx940", "gfx942", "gfx950")
		in.TargetDetails = []isa.TargetResult{
			{Target: "gfx950", Status: "supported", Encoding: "[0x01,0x05,0x0a,0x16]", Printed: "v_max_f32_e32 v5, v1, v2"},
			{Target: "gfx1100", Status: "unsupported", Message: "instruction not supported on this GPU (sample)"},
		}
		in.Examples = []isa.Example{
			{Asm: "v_max_f32 v5, v1, v2", Source: "written for the sample store, checked shape only", Encoding: "[0x01,0x05,0x0a,0x16]", Target: "gfx950", Prov: prov},
			{Asm: "v_max_f32_e64 v5, -v1, |v2|", Source: "written for the sample store", Prov: prov},
		}
		in.Related = []isa.Related{
			{Arch: "rdna4", Name: "v_max_num_f32", Renamed: true},
			{Arch: "rdna3", Name: "v_max_f32"},
		}
		if arch == "cdna4" {
			in.Related = append(in.Related, isa.Related{Arch: "cdna3", Name: "v_max_f32", Same: true})
		} else {
			in.Related = append([]isa.Related{{Arch: "cdna4", Name: "v_max_f32", Same: true}}, in.Related...)
			// CDNA 3's sample borrows its description and shows RDNA 4's
			// spelling where only that one assembles.
			in.Related[1].Evidence = "sample evidence: llvm-mc prints v_max_num_f32 on gfx1200"
			in.DescriptionFrom = &isa.TextSource{Arch: "cdna4", Name: "v_max_f32", Prov: prov, Why: "pseudocode only"}
			// Sample numbers in the shape llvm-mca reports them (not its output).
			in.Cost = map[string]isa.Cost{
				"gfx942": {Asm: "v_max_f32 v5, v1, v2", UOps: 1, Latency: 1, RThroughput: 1, SideEffects: true, Unit: "HWVALU",
					Resources: []isa.CostResource{{Name: "HWVALU"}}, Opcode: "V_MAX_F32_e32_vi"},
				"gfx950": {Asm: "v_max_f32 v5, v1, v2", UOps: 1, Latency: 1, RThroughput: 1, SideEffects: true, Unit: "HWVALU",
					Resources: []isa.CostResource{{Name: "HWVALU"}}, Opcode: "V_MAX_F32_e32_vi"},
			}
			in.TargetDetails = append(in.TargetDetails, isa.TargetResult{Target: "gfx1200", Status: "unsupported",
				OtherSpelling: "v_max_num_f32", Encoding: "[0x01,0x05,0x0a,0x2c]", Printed: "v_max_num_f32_e32 v5, v1, v2"})
			in.Targets["gfx1200"] = "unsupported"
		}
		in.Conflicts = []isa.Conflict{{Fact: "unit", Values: []isa.ConflictValue{
			{Value: "Vector", Prov: isa.Prov{Source: isa.SourceAMDXML, File: "sample.xml", Line: 42}},
			{Value: "VALU", Prov: isa.Prov{Source: isa.SourceAMDManual, File: "sample/" + arch, Line: 120}},
		}, Note: "sample disagreement"}}
	case "rdna3":
		in.Encodings = []isa.Encoding{vopEnc(arch, "VOP2", 16), vopEnc(arch, "VOP3", 272)}
		in.Semantics = "// sample pseudocode written for tests (RDNA flavour)\nD.f = max(S0.f, S1.f)"
		in.Examples = []isa.Example{}
		in.Related = []isa.Related{
			{Arch: "rdna4", Name: "v_max_num_f32", Renamed: true},
			{Arch: "cdna4", Name: "v_max_f32"},
			{Arch: "cdna3", Name: "v_max_f32"},
		}
	}
	in.Operands = in.Encodings[0].Operands
	return in
}

func vMaxNumF32() *isa.Instruction {
	in := vMaxF32("rdna3")
	in.Arch, in.Name = "rdna4", "v_max_num_f32"
	in.Encodings = []isa.Encoding{vopEnc("rdna4", "VOP2", 22), vopEnc("rdna4", "VOP3", 278)}
	in.Aliases = []isa.Alias{{Name: "v_max_f32", Note: "the name used up to RDNA 3 (sample note)", Prov: prov}}
	in.Related = []isa.Related{
		{Arch: "rdna3", Name: "v_max_f32", Renamed: true},
		{Arch: "cdna4", Name: "v_max_f32", Renamed: true},
		{Arch: "cdna3", Name: "v_max_f32", Renamed: true},
	}
	in.Operands = in.Encodings[0].Operands
	return in
}

func simpleVector(arch, name, summary, desc string, vop2, vop3 int) *isa.Instruction {
	in := &isa.Instruction{
		Arch: arch, Name: name, Vendor: isa.VendorAMD, Kind: isa.KindNative, Unit: "Vector",
		Category: "Vector Arithmetic", Section: "VOP2 Instructions",
		Summary: summary, Description: desc,
		Semantics: "// sample\nD.f = f(S0.f, S1.f)",
		Aliases:   []isa.Alias{}, Examples: []isa.Example{}, Concepts: []isa.ConceptRef{},
		Sources: []isa.Prov{{Source: isa.SourceAMDManual, File: "sample/" + arch, Line: 7}},
	}
	vop3Name := "VOP3A"
	if arch == "rdna3" {
		vop3Name = "VOP3"
	}
	in.Opcodes = map[string]map[string]int{arch: {}}
	if vop2 >= 0 {
		in.Encodings = append(in.Encodings, vopEnc(arch, "VOP2", vop2))
		in.Opcodes[arch]["VOP2"] = vop2
	} else {
		in.Section = "VOP3 Instructions"
	}
	in.Encodings = append(in.Encodings, vopEnc(arch, vop3Name, vop3))
	in.Opcodes[arch][vop3Name] = vop3
	in.Operands = in.Encodings[0].Operands
	return in
}

func sMovB32(arch string) *isa.Instruction {
	ops := []isa.Operand{
		{Name: "sdst", Order: 0, Output: true, DataFormat: "FMT_NUM_B32", OperandType: "OPR_SREG", Size: 32, Prov: prov},
		{Name: "ssrc0", Order: 1, Input: true, DataFormat: "FMT_NUM_B32", OperandType: "OPR_SSRC", Size: 32, Prov: prov},
	}
	return &isa.Instruction{
		Arch: arch, Name: "s_mov_b32", Vendor: isa.VendorAMD, Kind: isa.KindNative, Unit: "Scalar",
		Category: "Scalar Move", Section: "SOP1 Instructions",
		Summary:     "Copy one 32-bit scalar value.",
		Description: "Copies SSRC0 into SDST.",
		Semantics:   "D.b32 = S0.b32",
		Aliases:     []isa.Alias{},
		Encodings: []isa.Encoding{{Name: "SOP1", Format: "SOP1", Width: 32, Opcode: 0, Identifier: "0xBE800000",
			Fields: sop1Fields(), Operands: ops, Prov: prov}},
		Operands: ops,
		Opcodes:  map[string]map[string]int{"cdna4": {"SOP1": 0}, "rdna3": {"SOP1": 0}},
		Examples: []isa.Example{{Asm: "s_mov_b32 s0, s1", Source: "written for the sample store", Prov: prov}},
		Concepts: []isa.ConceptRef{},
		Sources:  []isa.Prov{{Source: isa.SourceAMDManual, File: "sample/" + arch, Line: 3}},
	}
}

func ptxInstr(name, summary, desc string, forms []isa.Form, concepts []isa.ConceptRef) *isa.Instruction {
	return &isa.Instruction{
		Arch: "ptx", Name: name, Vendor: isa.VendorNVIDIA, Kind: isa.KindVirtual,
		Category: "Arithmetic", Section: "Floating-point and integer instructions", Entry: "instruction",
		Summary: summary, Description: desc,
		Semantics:  "d = " + name + "(a, b);   // sample",
		Aliases:    []isa.Alias{},
		Encodings:  []isa.Encoding{},
		Opcodes:    map[string]map[string]int{},
		Forms:      forms,
		PTXVersion: "1.0", MinTarget: "sm_20",
		PTXNotes: []string{"Sample note: some forms need a newer PTX version."},
		Syntax:   []isa.Syntax{{Text: name + ".type d, a, b;", Operands: []string{"d", "a", "b"}, Prov: prov}},
		Operands: []isa.Operand{
			{Name: "d", Order: 0, Output: true, Prov: prov},
			{Name: "a", Order: 1, Input: true, Prov: prov},
			{Name: "b", Order: 2, Input: true, Prov: prov},
		},
		Examples: []isa.Example{
			{Asm: name + ".f32 f1, f2, f3;", Source: "written for the sample store", Prov: prov},
			// A documentation example is a whole code block: its line
			// breaks end the // comments.
			{Asm: "// sample comment\n" + name + ".NaN.f32 f1, f2, f3;", Source: "written for the sample store", Prov: prov},
		},
		Concepts: concepts,
		Sources:  []isa.Prov{{Source: isa.SourcePTXDoc, File: "sample/ptx/" + name + ".md", Line: 1}},
	}
}

func ptxForms(name string) []isa.Form {
	return []isa.Form{
		{Syntax: name + ".atype d, a, b;", Types: []string{".u16", ".u32", ".u64", ".s16", ".s32", ".s64"}, Modifiers: []string{}, StateSpaces: []string{".reg"}, MinTarget: "sm_20", PTXVersion: "1.0", Description: "integer form", Prov: prov},
		{Syntax: name + "{.ftz}{.NaN}.f32 d, a, b;", Types: []string{".f32"}, Modifiers: []string{".ftz", ".NaN"}, StateSpaces: []string{".reg"}, MinTarget: "sm_20", PTXVersion: "1.0", Description: "single precision <with> & entities", Prov: prov},
		{Syntax: name + "{.ftz}{.NaN}.f16x2 d, a, b;", Types: []string{".f16x2", ".bf16x2"}, Modifiers: []string{".ftz", ".NaN"}, StateSpaces: []string{".reg"}, MinTarget: "sm_80", PTXVersion: "7.0", Description: "packed half precision", Prov: prov},
	}
}

// vMinF32 carries a repair note, as entries whose heading the PDF
// conversion lost do.
func vMinF32() *isa.Instruction {
	in := simpleVector("cdna4", "v_min_f32", "Pick the smaller of two single-precision floats.", "Writes the lesser source to VDST.", 10, 266)
	in.Repairs = []string{"Sample repair: the heading of this entry was rebuilt from the opcode table <not markup>."}
	return in
}

func sampleInstructions() []*isa.Instruction {
	maxPTXConcept := isa.ConceptRef{ID: "max", Name: "Maximum", Relation: "equivalent with restrictions",
		Restrictions: []string{"NaN inputs are handled differently."},
		Variants:     []string{".f32"}, Forms: []string{"v_max_f32 v0, v1, v2 // the sample's form"},
		Members: []isa.Member{{Arch: "cdna4", Name: "v_max_f32"}, {Arch: "rdna3", Name: "v_max_f32"}}}
	fma := func(arch string, op int) *isa.Instruction {
		in := simpleVector(arch, "v_fma_f32", "Fused multiply add of single-precision floats.",
			"Computes S0 * S1 + S2 with a single rounding step (fused multiply add).", -1, op)
		in.Operands = append(in.Operands, isa.Operand{Name: "src2", Order: 3, Input: true, DataFormat: "FMT_NUM_F32", OperandType: "OPR_SRC", Size: 32, Prov: prov})
		return in
	}
	ins := []*isa.Instruction{
		vMaxF32("cdna4"), vMaxF32("cdna3"), vMaxF32("rdna3"), vMaxNumF32(),
		vMinF32(),
		simpleVector("cdna4", "v_add_f32", "Add two single-precision floats.", "Writes SRC0 + VSRC1 to VDST.", 1, 257),
		fma("cdna4", 459), fma("rdna3", 531),
		sMovB32("cdna4"), sMovB32("rdna3"),
		ptxInstr("max", "Maximum of two values.", "Returns the larger of a and b. <p>Sample text</p> &amp; entities.", ptxForms("max"), []isa.ConceptRef{maxPTXConcept}),
		ptxInstr("min", "Minimum of two values.", "Returns the smaller of a and b.", ptxForms("min"), []isa.ConceptRef{}),
		ptxInstr("fma", "Fused multiply add.", "Computes a * b + c with one rounding (fused multiply add).", ptxForms("fma")[1:2], []isa.ConceptRef{}),
	}
	addSampleChecks(ins)
	return ins
}

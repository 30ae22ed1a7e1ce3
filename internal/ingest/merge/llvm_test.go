package merge

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

func TestLLVMBaseNames(t *testing.T) {
	for in, want := range map[string][]string{
		"v_max_f32":                        {"v_max_f32"},
		"v_max_f32_e64":                    {"v_max_f32"},
		"v_max_f32_e64_dpp":                {"v_max_f32"},
		"v_add_co_u32_sdwa":                {"v_add_co_u32"},
		"V_MOV_B32_DPP8":                   {"v_mov_b32"},
		"v_dual_max_num_f32_x_add_f32":     {"v_dual_max_num_f32", "v_dual_add_f32"},
		"v_dual_mov_b32":                   {"v_dual_mov_b32"},
		"s_load_dword":                     {"s_load_dword"},
		"_e64":                             {"_e64"}, // nothing left to strip to
		"buffer_load_format_d16_hi_x":      {"buffer_load_format_d16_hi_x"},
		"v_cmpx_class_f16_e32":             {"v_cmpx_class_f16"},
		"v_dual_fmaak_f32_x_mov_b32":       {"v_dual_fmaak_f32", "v_dual_mov_b32"},
		"v_dual_cndmask_b32_x_cndmask_b32": {"v_dual_cndmask_b32", "v_dual_cndmask_b32"},
	} {
		if got := LLVMBaseNames(in); !reflect.DeepEqual(got, want) {
			t.Errorf("LLVMBaseNames(%q) = %v, want %v", in, got, want)
		}
	}
}

// fixtureModel is a made-up family "rdna3" with three instructions, one
// with an alias, and a syntax page for it.
func fixtureModel() ([]*isa.Instruction, []llvmdoc.Page) {
	mk := func(arch, name string) *isa.Instruction {
		return &isa.Instruction{Arch: arch, Name: name, Vendor: isa.VendorAMD, Kind: isa.KindNative}
	}
	renamed := mk("rdna3", "v_frob_new_f32")
	renamed.Aliases = []isa.Alias{{Name: "v_frob_f32"}}
	insts := []*isa.Instruction{mk("rdna3", "v_twiddle_b32"), renamed, mk("rdna3", "s_lonely"),
		mk("rdna3", "v_dual_twiddle_b32"), mk("rdna3", "v_dual_mov_b32"), mk("rdna3", "v_dual_poke_b32"),
		{Arch: "ptx", Name: "v_twiddle_b32", Vendor: isa.VendorNVIDIA}}
	src := llvmdoc.Operand{Name: "src0", Kind: "src", Mods: []string{"m"}, Column: "SRC0"}
	dst := llvmdoc.Operand{Name: "vdst", Kind: "vdst", Column: "DST"}
	row := func(m string, line int, ops ...llvmdoc.Operand) llvmdoc.Syntax {
		return llvmdoc.Syntax{Mnemonic: m, Family: "GFX11", Section: "VOP1", Operands: ops, Line: line}
	}
	pages := []llvmdoc.Page{{GFX: "GFX11", File: "/usr/share/doc/llvm-22-doc/html/AMDGPU/AMDGPUAsmGFX11.html", Instructions: []llvmdoc.Syntax{
		row("v_twiddle_b32", 10, dst, src),
		row("v_twiddle_b32_e64", 11, dst, src),
		row("v_twiddle_b32_e64", 11, dst, src), // a duplicate row adds nothing
		row("v_frob_f32_sdwa", 12, dst, src),
		row("v_llvm_only_b32_e32", 13, dst),
		row("v_dual_twiddle_b32_x_mov_b32", 14, dst),
		row("v_dual_twiddle_b32_x_poke_b32", 15, dst),
	}}}
	return insts, pages
}

func TestAttachLLVMSyntax(t *testing.T) {
	insts, pages := fixtureModel()
	m := AttachLLVMSyntax(insts, pages, func(p string) string { return "AMDGPU/" + p[strings.LastIndex(p, "/")+1:] })
	rd := m["rdna3"]
	if rd == nil || m["rdna4"] != nil || m["ptx"] != nil {
		t.Fatalf("matches %v", m)
	}
	if !reflect.DeepEqual(rd.Pages, []string{"GFX11"}) {
		t.Errorf("pages %v", rd.Pages)
	}
	tw := insts[0]
	if len(tw.Syntax) != 2 || tw.Syntax[0].Text != "v_twiddle_b32 vdst, src0:m" || tw.Syntax[1].Text != "v_twiddle_b32_e64 vdst, src0:m" {
		t.Errorf("syntax %+v", tw.Syntax)
	}
	if p := tw.Syntax[0].Prov; p.Source != isa.SourceLLVMDoc || p.File != "AMDGPU/AMDGPUAsmGFX11.html" || p.Line != 10 {
		t.Errorf("prov %+v", p)
	}
	if len(rd.Rows["v_twiddle_b32"]) != 3 {
		t.Errorf("rows %d", len(rd.Rows["v_twiddle_b32"]))
	}
	// Matched through the alias.
	if len(insts[1].Syntax) != 1 || !strings.HasPrefix(insts[1].Syntax[0].Text, "v_frob_f32_sdwa") {
		t.Errorf("alias syntax %+v", insts[1].Syntax)
	}
	// A VOPD pair is attached to the half whose partner is the move; other
	// pairs only count as matches (no half is unmatched).
	if len(insts[3].Syntax) != 1 || len(insts[4].Syntax) != 0 || len(insts[5].Syntax) != 0 {
		t.Errorf("dual syntax %d %d %d", len(insts[3].Syntax), len(insts[4].Syntax), len(insts[5].Syntax))
	}
	if !reflect.DeepEqual(rd.UnmatchedLLVM, []string{"v_llvm_only_b32"}) {
		t.Errorf("unmatched LLVM %v", rd.UnmatchedLLVM)
	}
	if !reflect.DeepEqual(rd.UnmatchedAMD, []string{"s_lonely"}) {
		t.Errorf("unmatched AMD %v", rd.UnmatchedAMD)
	}
	if len(insts[6].Syntax) != 0 {
		t.Error("PTX instruction got AMD syntax")
	}
}

// vop2 is a made-up 32-bit layout: ENCODING bit 31 = 0, OP 30:25, with a gap
// at bit 24 inside the identifying bits and operands below.
func vopArch() *isa.Architecture {
	return &isa.Architecture{ID: "cdna1", Formats: []isa.Format{
		{Name: "VOPX", Width: 32, Fields: []isa.Field{
			{Name: "SRC0", MSB: 8, LSB: 0}, {Name: "VDST", MSB: 16, LSB: 9},
			{Name: "OP", MSB: 23, LSB: 18}, {Name: "ENCODING", MSB: 31, LSB: 25, Fixed: "0111111"},
		}},
		{Name: "VOPY", Width: 32, Fields: []isa.Field{
			{Name: "OP", MSB: 30, LSB: 25}, {Name: "ENCODING", MSB: 31, LSB: 31, Fixed: "1"},
		}},
	}}
}

func TestIdentifierMask(t *testing.T) {
	a := vopArch()
	m, ok := IdentifierMask(a.Formats[0])
	// ENCODING 31:25, gap 24 (above OP's low bit), OP 23:18; bit 17 is a gap
	// below the opcode and does not identify anything.
	if !ok || m != 0xFFFC0000 {
		t.Errorf("mask %#x %v", m, ok)
	}
	if _, ok := IdentifierMask(isa.Format{Name: "DPP16"}); ok {
		t.Error("a layout without fields has no mask")
	}
}

func TestCheckIdentifier(t *testing.T) {
	a := vopArch()
	in := &isa.Instruction{Arch: "cdna1", Name: "v_frob_b32", Encodings: []isa.Encoding{
		{Name: "VOPX", Format: "VOPX", Opcode: 5, Identifier: "0x7E140000", Prov: isa.Prov{Source: isa.SourceAMDManual, File: "g.md", Line: 7}},
	}}
	le := func(w uint32) []byte { return []byte{byte(w), byte(w >> 8), byte(w >> 16), byte(w >> 24)} }
	// Same identifier, different operands: agrees.
	if n, c := CheckIdentifier(a, in, le(0x7E1401FF), "gfx908", "v_frob_b32 v1, v2"); n != 1 || c != nil {
		t.Errorf("agreeing: %d %v", n, c)
	}
	// Bit 24 set: the gap the layout leaves.
	n, c := CheckIdentifier(a, in, le(0x7F140001), "gfx908", "v_frob_b32 v1, v2")
	if n != 1 || len(c) != 1 || c[0].Fact != "identifier in VOPX" || c[0].Values[0].Value != "0x7E140000" ||
		c[0].Values[1].Value != "0x7F140000" || !strings.Contains(c[0].Note, "0x01000000") {
		t.Fatalf("gap bit: %d %+v", n, c)
	}
	// Another format's word: nothing to compare.
	if n, c := CheckIdentifier(a, in, le(0x80000000), "gfx908", "x"); n != 0 || c != nil {
		t.Errorf("other format: %d %v", n, c)
	}
	if n, _ := CheckIdentifier(a, in, []byte{1, 2}, "gfx908", "x"); n != 0 {
		t.Error("short encoding compared")
	}
	ds := Disagreements([]*isa.Instruction{{Arch: "cdna1", Name: "v_frob_b32", Conflicts: c}})
	if len(ds) != 1 || ds[0].Format != "VOPX" || ds[0].AMD != "0x7E140000" || ds[0].Prov.Line != 7 {
		t.Errorf("disagreements %+v", ds)
	}
}

func TestApplyVerification(t *testing.T) {
	targets := []string{"gfx900", "gfx906", "gfx1200"}
	ok := func(printed string, enc ...byte) verify.Outcome {
		return verify.Outcome{Supported: true, Printed: printed, Encoding: enc}
	}
	bad := func(msg string) verify.Outcome { return verify.Outcome{Error: msg} }
	verdicts := map[string][]verify.Outcome{
		"v_max_f32 v1, v2, v3":     {ok("v_max_f32_e32 v1, v2, v3", 2, 7, 2, 0x16), bad("instruction not supported on this GPU"), ok("v_max_num_f32_e32 v1, v2, v3", 2, 7, 2, 0x2c)},
		"v_max_f32_e64 v1, v2, v3": {ok("v_max_f32_e64 v1, v2, v3", 1, 0, 0x0b, 0xd1, 2, 7, 2, 0), bad("instruction not supported on this GPU"), bad("invalid operand for instruction")},
		"v_max_f32":                {bad("too few operands for instruction"), bad("instruction not supported on this GPU"), bad("too few operands for instruction")},
	}
	in := &isa.Instruction{Arch: "vega", Name: "v_max_f32", Vendor: isa.VendorAMD}
	res := ApplyVerification(in, nil, Verification{
		Targets: targets, Unknown: []string{"gfx940"}, FamilyTargets: []string{"gfx900"},
		Candidates: []Candidate{
			{Asm: "v_max_f32 v1, v2, v3", Source: "built", Own: true},
			{Asm: "v_max_f32_e64 v1, v2, v3", Source: "built", Own: true},
			{Asm: "v_max_f32 v1, v2, v3", Source: "duplicate form", Own: false},
		},
		Probe:    "v_max_f32",
		Outcomes: func(asm string) ([]verify.Outcome, bool) { v, ok := verdicts[asm]; return v, ok },
		Version:  "LLVM 22",
	})
	if !res.Verified || res.Rejected {
		t.Fatalf("result %+v", res)
	}
	want := map[string]string{"gfx900": "supported", "gfx906": "unsupported", "gfx1200": "supported"}
	if !reflect.DeepEqual(in.Targets, want) {
		t.Errorf("targets %v", in.Targets)
	}
	// gfx906's standard rejection is implied by Targets and has no detail.
	if len(in.TargetDetails) != 3 || in.TargetDetails[0].Encoding != "0x02,0x07,0x02,0x16" ||
		in.TargetDetails[1].Target != "gfx1200" || in.TargetDetails[2].Status != StatusNotVerified {
		t.Errorf("details %+v", in.TargetDetails)
	}
	if len(in.Examples) != 2 || in.Examples[0].Target != "gfx900" || in.Examples[1].Asm != "v_max_f32_e64 v1, v2, v3" {
		t.Errorf("examples %+v", in.Examples)
	}
	if len(in.Aliases) != 1 || in.Aliases[0].Name != "v_max_num_f32" || in.Aliases[0].Prov.Source != isa.SourceLLVMMC ||
		!strings.Contains(in.Aliases[0].Note, "gfx1200") {
		t.Errorf("aliases %+v", in.Aliases)
	}

	// Rejected on the family's only target: a conflict with AMD's document.
	mix := &isa.Instruction{Arch: "cdna4", Name: "v_mad_mix_f32", Vendor: isa.VendorAMD,
		Sources: []isa.Prov{{Source: isa.SourceAMDManual, File: "cdna4.md", Line: 3}}}
	verdicts["v_mad_mix_f32 v0, v1, v2, v3"] = []verify.Outcome{ok("v_mad_mix_f32 v0, v1, v2, v3", 0, 0, 0xa0, 0xd3, 1, 5, 0xe, 4), bad("instruction not supported on this GPU"), bad("instruction not supported on this GPU")}
	verdicts["v_mad_mix_f32"] = []verify.Outcome{bad("too few operands for instruction"), bad("instruction not supported on this GPU"), bad("instruction not supported on this GPU")}
	res = ApplyVerification(mix, nil, Verification{
		Targets: targets, FamilyTargets: []string{"gfx906"},
		Candidates: []Candidate{{Asm: "v_mad_mix_f32 v0, v1, v2, v3", Own: true}}, Probe: "v_mad_mix_f32",
		Outcomes: func(asm string) ([]verify.Outcome, bool) { v, ok := verdicts[asm]; return v, ok },
	})
	if res.Verified || !res.Rejected || !strings.Contains(res.Reason, "gfx906") {
		t.Errorf("result %+v", res)
	}
	if len(mix.Examples) != 0 || mix.Targets["gfx900"] != "supported" || mix.Targets["gfx906"] != "unsupported" {
		t.Errorf("mix %+v %v", mix.Examples, mix.Targets)
	}
	if len(mix.Conflicts) != 1 || mix.Conflicts[0].Fact != FactAssemblerSupport || mix.Conflicts[0].Values[0].Prov.File != "cdna4.md" {
		t.Errorf("conflicts %+v", mix.Conflicts)
	}

	// Known by name, every example rejected: not verified, not rejected.
	odd := &isa.Instruction{Arch: "vega", Name: "v_odd", Vendor: isa.VendorAMD}
	verdicts["v_odd v1"] = []verify.Outcome{bad("invalid operand for instruction"), bad("invalid operand for instruction"), bad("invalid operand for instruction")}
	verdicts["v_odd"] = []verify.Outcome{bad("too few operands for instruction"), bad("too few operands for instruction"), bad("invalid instruction")}
	res = ApplyVerification(odd, nil, Verification{
		Targets: targets, FamilyTargets: []string{"gfx900"},
		Candidates: []Candidate{{Asm: "v_odd v1", Own: true}}, Probe: "v_odd",
		Outcomes: func(asm string) ([]verify.Outcome, bool) { v, ok := verdicts[asm]; return v, ok },
	})
	if res.Verified || res.Rejected || !strings.Contains(res.Reason, "invalid operand") {
		t.Errorf("odd %+v", res)
	}
	if odd.Targets["gfx900"] != "" || odd.Targets["gfx1200"] != "unsupported" || odd.TargetDetails[0].Status != StatusNotVerified {
		t.Errorf("odd targets %v %+v", odd.Targets, odd.TargetDetails)
	}
}

func TestNameRejected(t *testing.T) {
	for msg, want := range map[string]bool{
		"instruction not supported on this GPU":   true,
		"invalid instruction":                     true,
		"invalid instruction, did you mean: v_x?": true,
		"too few operands for instruction":        false,
		"invalid operand for instruction":         false,
		"":                                        false,
	} {
		if NameRejected(msg) != want {
			t.Errorf("NameRejected(%q) != %v", msg, want)
		}
	}
}

// Mnemonics come from upstream pages and encodings from llvm-mc: neither
// may panic the cross-checks.
func FuzzLLVMChecks(f *testing.F) {
	f.Add("v_dual_a_x_b", []byte{0x01, 0x40, 0x8e, 0xd3}, "0x7E140000", "0111111")
	f.Add("_e64_e32", []byte{}, "0x", "")
	f.Add("v_dual__x_", []byte{0xff, 0xff, 0xff, 0xff, 0}, "zz", "2")
	f.Fuzz(func(t *testing.T, mnemonic string, enc []byte, id, fixed string) {
		for _, n := range LLVMBaseNames(mnemonic) {
			if n == "" && mnemonic != "" {
				t.Errorf("empty base name of %q", mnemonic)
			}
		}
		a := vopArch()
		a.Formats[0].Fields[3].Fixed = fixed
		a.Formats[0].IdentifierMask = id
		in := &isa.Instruction{Name: mnemonic, Encodings: []isa.Encoding{{Format: "VOPX", Identifier: id}, {Format: "VOPY", Identifier: id}}}
		CheckIdentifier(a, in, enc, "gfx908", mnemonic)
	})
}

package ingest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// qualityFixture is a made-up model: family "vega" with four instructions (two
// verified, one rejected, one without syntax) and family "cdna5" with none
// verified.
func qualityFixture() qualityInput {
	mk := func(arch, name string) *isa.Instruction {
		return &isa.Instruction{Arch: arch, Name: name, Vendor: isa.VendorAMD}
	}
	a, b, c, d := mk("vega", "v_a"), mk("vega", "v_b"), mk("vega", "v_c"), mk("vega", "v_d")
	a.Syntax = []isa.Syntax{{GFX: "GFX9"}}
	b.Syntax = []isa.Syntax{{GFX: "GFX9"}}
	c.Syntax = []isa.Syntax{{GFX: "GFX9"}}
	b.Examples = []isa.Example{{Asm: "v_b v1", Prov: isa.Prov{Source: isa.SourceGPUISA}}}
	a.Examples = []isa.Example{{Asm: "v_a v1, v2", Source: merge.GeneratedProvenance + " (VOP1 opcode 1), accepted by llvm-mc 22 on gfx900",
		Prov: isa.Prov{Source: isa.SourceGPUISA}}}
	c.Examples = []isa.Example{{Asm: "v_llvm_c v1", Source: merge.GeneratedProvenance + " (VOP1 opcode 2)" + merge.SpelledNote + "v_llvm_c",
		Prov: isa.Prov{Source: isa.SourceGPUISA}}}
	a.Conflicts = []isa.Conflict{{Fact: merge.FactIdentifierPrefix + "VOP3P", Values: []isa.ConflictValue{
		{Value: "0xD3800000"}, {Value: "0xD3000000"}}, Note: "made up"}}
	b.Conflicts = []isa.Conflict{{Fact: merge.FactIdentifierPrefix + "VOP3P", Values: []isa.ConflictValue{
		{Value: "0xD3810000"}, {Value: "0xD3010000"}}}}
	e := mk("cdna5", "v_e")
	ptx := &isa.Instruction{Arch: "ptx", Name: "add", Vendor: isa.VendorNVIDIA}
	return qualityInput{
		Report: quality.Report{Verified: true, LLVMMC: "LLVM 22", Examples: "built", Targets: []string{"gfx900", "gfx1250"}},
		Archs: []isa.Architecture{
			{ID: "cdna5", Name: "CDNA 5", Vendor: isa.VendorAMD, Order: 6},
			{ID: "vega", Name: "Vega", Vendor: isa.VendorAMD, Order: 12},
			{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20},
		},
		Insts: []*isa.Instruction{d, c, b, a, e, ptx},
		Syntax: map[string]*merge.SyntaxMatch{
			"vega": {Arch: "vega", Pages: []string{"GFX9"}, UnmatchedAMD: []string{"v_d"}, UnmatchedLLVM: []string{"v_llvm1", "v_llvm2"}},
		},
		Results: map[*isa.Instruction]merge.Result{
			a: {Verified: true, Compared: 1}, b: {Verified: true, Compared: 1},
			c: {Rejected: true, Spelled: true, Reason: "llvm-mc rejects the name on gfx900: instruction not supported on this GPU"},
			d: {Reason: "no LLVM syntax or test example for this name, so nothing to assemble"},
			e: {Reason: "no LLVM syntax or test example for this name, so nothing to assemble"},
		},
		FamilyTargets: map[string][]string{"vega": {"gfx900"}, "cdna5": {"gfx1250"}},
		LLVMAccepted:  map[string]map[string]bool{"vega": {"v_llvm2": true}},
	}
}

func TestComputeQuality(t *testing.T) {
	r := computeQuality(qualityFixture())
	if len(r.Families) != 2 || r.Families[0].Arch != "cdna5" || r.Families[1].Arch != "vega" {
		t.Fatalf("families %+v", r.Families)
	}
	v := r.Families[1]
	if v.Instructions != 4 || v.WithSyntax != 3 || v.WithExample != 2 || v.Synthesized != 1 || v.Generated != 1 || v.Spelled != 1 ||
		v.Share != 75 || v.MeetsTarget || len(v.GeneratedExamples) != 1 || v.GeneratedExamples[0].Reason != "v_a v1, v2" ||
		!strings.Contains(v.Rejected[0].Reason, "shown in LLVM's spelling: v_llvm_c v1") {
		t.Errorf("vega counts %+v", v)
	}
	if v.Compared != 2 || len(v.Rejected) != 1 || v.Rejected[0].Name != "v_c" || len(v.Unverified) != 1 || v.Unverified[0].Name != "v_d" {
		t.Errorf("vega lists %+v", v)
	}
	if len(v.UnmatchedLLVM) != 2 || v.UnmatchedLLVM[0].Accepted || !v.UnmatchedLLVM[1].Accepted {
		t.Errorf("LLVM only %+v", v.UnmatchedLLVM)
	}
	if len(v.Disagreements) != 2 || len(v.DisagreementGroups) != 1 || v.DisagreementGroups[0].Bits != "0x00800000" || v.DisagreementGroups[0].Count != 2 {
		t.Errorf("disagreements %+v / %+v", v.Disagreements, v.DisagreementGroups)
	}
	if !strings.Contains(v.Explanation, "1 instructions are rejected") || !strings.Contains(v.Explanation, "1 have no LLVM syntax") {
		t.Errorf("explanation %q", v.Explanation)
	}
	c5 := r.Families[0]
	if c5.Share != 0 || !strings.Contains(c5.Explanation, "LLVM ships no syntax page for gfx1250") {
		t.Errorf("cdna5 %+v", c5)
	}
	// The JSON form keeps empty lists as lists, for consumers.
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"unmatched_amd":[]`)) || !bytes.Contains(raw, []byte(`"share":75`)) {
		t.Errorf("json %s", raw)
	}
}

func TestQualityNotVerifiedExplanation(t *testing.T) {
	in := qualityFixture()
	in.Report = quality.Report{Notes: []string{"llvm-mc not found"}}
	r := computeQuality(in)
	if r.Families[1].Explanation != "not verified: llvm-mc not found" {
		t.Errorf("explanation %q", r.Families[1].Explanation)
	}
}

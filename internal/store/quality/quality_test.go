package quality

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// fixture is a made-up model: family "vega" with four instructions (two
// verified, one rejected, one without syntax) and family "cdna5" with none
// verified.
func fixture() Input {
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
	return Input{
		Report: Report{Verified: true, LLVMMC: "LLVM 22", Examples: "built", Targets: []string{"gfx900", "gfx1250"}},
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

func TestCompute(t *testing.T) {
	r := Compute(fixture())
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

func TestGroupsWithVaryingBits(t *testing.T) {
	g := groups([]merge.Disagreement{
		{Format: "DS", AMD: "0xD8000000", LLVM: "0xD8040000"},
		{Format: "DS", AMD: "0xD8020000", LLVM: "0xD8080000"},
	})
	if len(g) != 1 || g[0].Count != 2 || !strings.HasPrefix(g[0].Bits, "2 different patterns") {
		t.Errorf("groups %+v", g)
	}
}

func TestNotVerifiedExplanation(t *testing.T) {
	in := fixture()
	in.Report = Report{Notes: []string{"llvm-mc not found"}}
	r := Compute(in)
	if r.Families[1].Explanation != "not verified: llvm-mc not found" {
		t.Errorf("explanation %q", r.Families[1].Explanation)
	}
}

func TestRender(t *testing.T) {
	r := Compute(fixture())
	rendered(t, "summary", WriteSummary, r, "Verified with LLVM 22 on 2 gfx targets.", "vega", "75.0% *", "* vega: 75.0% below the 98% target")
	rendered(t, "text", WriteText, r,
		"== Vega (vega) — targets gfx900; LLVM pages GFX9",
		"VOP3P, bits 0x00800000: 2 — v_a v_b",
		"v_c: llvm-mc rejects the name on gfx900",
		"Examples generated from llvm-mc's disassembly of AMD's encoding, accepted by llvm-mc (1):\n  v_a: v_a v1, v2",
		"AMD instructions no LLVM syntax row matches (1):\n  v_d",
		" accepted:\n  v_llvm2",
		"== CDNA 5 (cdna5) — targets gfx1250; LLVM pages none",
	)
	// A failing writer's error comes back.
	if err := WriteText(failWriter{}, r); err == nil {
		t.Error("write error lost")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errTest }

var errTest = &json.UnsupportedValueError{Str: "test"}

func TestWrap(t *testing.T) {
	names := []string{strings.Repeat("a", 60), strings.Repeat("b", 60), "c"}
	got := wrap(names)
	if got != "  "+names[0]+"\n  "+names[1]+" c" {
		t.Errorf("wrap %q", got)
	}
}

func TestRenderPTX(t *testing.T) {
	r := Compute(fixture())
	r.PTX = &PTXReport{
		Tools:    []string{"ptxas 1.2 (CUDA 1.2, sample): /x/ptxas", "nvdisasm 1.2: /x/nvdisasm"},
		Verified: true, Targets: []string{"sm_50", "sm_90a"}, DocVersion: "9.1",
		Forms: 3, FormsVerified: 2, FormsRejected: 1, ExampleStatements: 2, ExamplesAccepted: 1,
		TooStrict: []PTXFinding{{Mnemonic: "fma", Statement: "fma.rn.f16 d, a, b, c;", Fact: "minimum target", Doc: "sm_90", PTXAS: "sm_53",
			Prov: isa.Prov{Source: isa.SourcePTXDoc, File: "fma.md", Line: 12}}},
		Errata: []PTXFinding{{Mnemonic: "mad", Statement: "mad.f32 d,a,b,c", Message: "Rounding modifier required", Prov: isa.Prov{File: "mad.md", Line: 4}},
			{Mnemonic: "mma", Statement: "mma.x", Message: "Arguments mismatch", Context: true}},
		RejectedForms: []PTXFinding{{Mnemonic: "mov", Statement: "mov.f32 d, %tid.x;", Message: "Special register argument not allowed"}},
	}
	r.PTX.Run.Statements, r.PTX.Run.Processes = 7, 2
	sum := rendered(t, "summary", WriteSummary, r,
		"PTX: verified with ptxas 1.2 (CUDA 1.2, sample), nvdisasm 1.2 on 2 sm targets (sm_50 to sm_90a), grid at PTX ISA 9.1.",
		"PTX: 7 statements; 2 ptxas processes",
		"PTX forms: 3 documented, 2 verified, 1 rejected, 0 not verified",
		"PTX findings: documentation too strict 1; documentation too loose 0; example statements ptxas rejects (documentation errata) 2; forms ptxas rejects 1; not verified 0.",
	)
	if strings.Contains(sum, "/x/ptxas") {
		t.Errorf("the summary names the tool's path:\n%s", sum)
	}
	full := rendered(t, "text", WriteText, r,
		"== PTX: Documentation too strict (1)",
		"  fma: fma.rn.f16 d, a, b, c; — minimum target: documentation sm_90, ptxas sm_53 [fma.md:12]",
		"== PTX: Example statements ptxas rejects (documentation errata) (2)",
		"  mad: mad.f32 d,a,b,c — Rounding modifier required [mad.md:4]",
		"  mma: mma.x — Arguments mismatch (assembles without the example's own declarations)",
		"== PTX: Forms ptxas rejects (1)",
	)
	if strings.Contains(full, "Documentation too loose") {
		t.Error("an empty kind is listed")
	}

	r.PTX = &PTXReport{Notes: []string{"not verified by ptxas: ptxas not found"}}
	rendered(t, "summary of unverified PTX", WriteSummary, r, "PTX: not verified by ptxas.\nPTX note: not verified by ptxas: ptxas not found")
}

// rendered writes r with write and checks that the text holds every want;
// what names the text in failures.
func rendered(t *testing.T, what string, write func(io.Writer, Report) error, r Report, wants ...string) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range wants {
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s lacks %q:\n%s", what, want, b.String())
		}
	}
	return b.String()
}

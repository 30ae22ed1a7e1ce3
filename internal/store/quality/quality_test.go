package quality

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func TestGroupsWithVaryingBits(t *testing.T) {
	g := groups([]Disagreement{
		{Format: "DS", AMD: "0xD8000000", LLVM: "0xD8040000"},
		{Format: "DS", AMD: "0xD8020000", LLVM: "0xD8080000"},
	})
	if len(g) != 1 || g[0].Count != 2 || !strings.HasPrefix(g[0].Bits, "2 different patterns") {
		t.Errorf("groups %+v", g)
	}
}

func TestRender(t *testing.T) {
	r := fixtureReport(t)
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
	r := fixtureReport(t)
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
		"PTX findings: documentation too strict 1; documentation too loose 0; example statements ptxas rejects (documentation errata) 2; forms ptxas rejects 1; ptxas's facts beyond the documents 0; not verified 0.",
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

// fixtureReport is the report ingest computes from its made-up model
// (ingest's TestComputeQuality): family "vega" with four instructions (two
// verified, one rejected, one without syntax) and family "cdna5" with none
// verified.
func fixtureReport(t *testing.T) Report {
	t.Helper()
	var r Report
	if err := json.Unmarshal([]byte(fixtureJSON), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

const fixtureJSON = `{
	"llvm_mc": "LLVM 22",
	"verified": true,
	"examples": "built",
	"targets": [
		"gfx900",
		"gfx1250"
	],
	"run": {
		"lines": 0,
		"processes": 0,
		"assembled": 0,
		"cache_hits": 0
	},
	"lineage": {
		"links": 0,
		"refused": 0,
		"other_spellings": 0
	},
	"borrowed": 0,
	"families": [
		{
			"arch": "cdna5",
			"name": "CDNA 5",
			"targets": [
				"gfx1250"
			],
			"pages": null,
			"instructions": 1,
			"with_syntax": 0,
			"with_example": 0,
			"synthesized": 0,
			"generated": 0,
			"spelled": 0,
			"share": 0,
			"meets_target": false,
			"explanation": "0.0% below the 98% target: LLVM ships no syntax page for gfx1250, so examples are only those built from other families' pages that llvm-mc accepts here; 1 have no LLVM syntax row or test example anywhere, so nothing to assemble",
			"unmatched_amd": [],
			"unmatched_llvm": [],
			"rejected": [],
			"unverified": [
				{
					"name": "v_e",
					"reason": "no LLVM syntax or test example for this name, so nothing to assemble"
				}
			],
			"generated_examples": [],
			"amendments": [],
			"compared": 0,
			"disagreements": [],
			"corrected": []
		},
		{
			"arch": "vega",
			"name": "Vega",
			"targets": [
				"gfx900"
			],
			"pages": [
				"GFX9"
			],
			"instructions": 4,
			"with_syntax": 3,
			"with_example": 2,
			"synthesized": 1,
			"generated": 1,
			"spelled": 1,
			"share": 75,
			"meets_target": false,
			"explanation": "75.0% below the 98% target: 1 instructions are rejected by name on every target of the family; 1 have no LLVM syntax row or test example anywhere, so nothing to assemble",
			"unmatched_amd": [
				"v_d"
			],
			"unmatched_llvm": [
				{
					"name": "v_llvm1",
					"accepted": false
				},
				{
					"name": "v_llvm2",
					"accepted": true
				}
			],
			"rejected": [
				{
					"name": "v_c",
					"reason": "llvm-mc rejects the name on gfx900: instruction not supported on this GPU; shown in LLVM's spelling: v_llvm_c v1"
				}
			],
			"unverified": [
				{
					"name": "v_d",
					"reason": "no LLVM syntax or test example for this name, so nothing to assemble"
				}
			],
			"generated_examples": [
				{
					"name": "v_a",
					"reason": "v_a v1, v2"
				}
			],
			"amendments": [],
			"compared": 2,
			"disagreements": [
				{
					"Arch": "vega",
					"Name": "v_a",
					"Format": "VOP3P",
					"AMD": "0xD3800000",
					"LLVM": "0xD3000000",
					"Note": "made up",
					"Prov": {
						"source": ""
					}
				},
				{
					"Arch": "vega",
					"Name": "v_b",
					"Format": "VOP3P",
					"AMD": "0xD3810000",
					"LLVM": "0xD3010000",
					"Note": "",
					"Prov": {
						"source": ""
					}
				}
			],
			"disagreement_groups": [
				{
					"format": "VOP3P",
					"bits": "0x00800000",
					"count": 2,
					"names": [
						"v_a",
						"v_b"
					]
				}
			],
			"corrected": []
		}
	]
}`

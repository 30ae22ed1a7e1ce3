package webfake

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/costview"
	"github.com/gpuisa/gpuisa/internal/store/quality"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
)

// The named documents below mimic what `gpuisa build` stores beside the
// model ("concepts", "quality"). Their text is written for these tests.

// SampleConcepts is a two-file concept catalogue in the format of
// concepts/*.yaml: one theme with two concepts and a no-counterpart list.
var SampleConcepts = map[string]string{
	"concepts/minmax.yaml": `# Sample minimum and maximum. Written for the web tests.
concepts:
  - id: max
    name: Maximum
    description: >-
      The larger of two values in every lane; <sample> & escaped.
    ptx:
      - {mnemonic: max, variants: [.f32, .s32]}
    amd:
      - {mnemonic: v_max_f32, families: [cdna3, cdna4, rdna3]}
      - {mnemonic: v_max_num_f32, families: [rdna4], note: "the RDNA 4 name"}
    relations:
      - ptx: max
        amd: [v_max_f32, v_max_num_f32]
        relation: equivalent with restrictions
        variants: [.f32]
        restrictions:
          - "NaN handling: a sample restriction"
  - id: min-sample
    name: Minimum
    description: The smaller of two values, per lane (sample).
    ptx:
      - {mnemonic: min}
    amd:
      - {mnemonic: v_min_f32}
      - {mnemonic: v_max_f32, note: "negated operands, a made-up sequence"}
    relations:
      - {ptx: min, amd: v_min_f32, relation: equivalent}
      - ptx: min
        amd: v_max_f32
        relation: sequence
        sequence: ["v_max_f32 v0, -v1, -v2", "Negate the result afterwards"]
`,
	"concepts/no_counterpart.yaml": `# Sample list of PTX instructions without an AMD counterpart.
no_counterpart:
  - {mnemonic: pmevent, reason: "Sample reason: profiling events are raised outside the ISA."}
  - {mnemonic: fma, reason: "Sample reason written for the tests only."}
`,
}

// SampleQuality is a data-quality report in the shape of quality.Report.
func SampleQuality() quality.Report {
	return quality.Report{
		LLVMMC:         "Sample LLVM version 0.0",
		Verified:       true,
		Notes:          []string{"a sample note: <not markup> & kept as text"},
		ReaderProblems: []string{"sample: line 7: V_SAMPLE: heading lost in conversion <kept as text>"},
		SyntaxDocs:     "sample/llvm-docs",
		Examples:       "written for the sample store",
		Targets:        []string{"gfx950", "gfx1100"},
		Run:            quality.RunStats{Lines: 10, Processes: 2, Assembled: 20, CacheHits: 5},
		PTX:            SamplePTXReport(),
		Families: []quality.Family{
			{
				Arch: "cdna4", Name: "CDNA 4", Targets: []string{"gfx950"}, Pages: []string{"GFX940"},
				Instructions: 5, WithSyntax: 4, WithExample: 4, Synthesized: 1, Share: 80, MeetsTarget: false,
				Explanation:   "sample explanation of a low share",
				UnmatchedAMD:  []string{"v_fma_f32"},
				UnmatchedLLVM: []quality.LLVMOnly{{Name: "v_sample_only", Accepted: true}},
				Rejected:      []quality.Item{{Name: "v_add_f32", Reason: "sample rejection"}},
				Unverified:    []quality.Item{{Name: "s_mov_b32", Reason: "sample: no example"}},
				Compared:      3,
				Disagreements: []quality.Disagreement{{Arch: "cdna4", Name: "v_min_f32", Format: "VOP2",
					AMD: "0x14000000", LLVM: "0x15000000", Note: "sample disagreement",
					Prov: isa.Prov{Source: isa.SourceAMDManual, File: "sample/cdna4", Line: 77}}},
				DisagreementGroups: []quality.Group{{Format: "VOP2", Bits: "0x01000000", Count: 1, Names: []string{"v_min_f32"}}},
			},
			{
				Arch: "rdna3", Name: "RDNA 3", Targets: []string{"gfx1100"}, Pages: []string{"GFX11"},
				Instructions: 3, WithSyntax: 3, WithExample: 3, Share: 100, MeetsTarget: true,
				UnmatchedAMD: []string{}, UnmatchedLLVM: []quality.LLVMOnly{}, Rejected: []quality.Item{},
				Unverified: []quality.Item{}, Disagreements: []quality.Disagreement{},
			},
		},
	}
}

// SampleExtras are SampleConcepts and SampleQuality as the "concepts" and
// "quality" documents and the cost table of each AMD family of archs over
// ins, encoded as the build encodes them.
func SampleExtras(archs []isa.Architecture, ins []*isa.Instruction) map[string][]byte {
	cat, err := json.Marshal(SampleConcepts)
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	q, err := json.Marshal(SampleQuality())
	if err != nil {
		panic(err)
	}
	model, err := json.Marshal(samplePTXModel(ins))
	if err != nil {
		panic(err) // plain structs always marshal
	}
	out := map[string][]byte{store.KeyConcepts: cat, store.KeyQuality: q, store.KeyPTXModel: model}
	// The SASS reference, derived from the sample's made-up listings as
	// the build derives it from nvdisasm's.
	sassIdx := sassindex.Build(ins, sassindex.Provenance{Tools: []string{sampleTool, "nvdisasm 0.0-sample"},
		ToolOf: map[string]string{"sm_75": sampleTool, "sm_80": sampleTool, "sm_90": sampleTool}})
	if len(sassIdx.Opcodes) > 0 {
		if out[sassindex.Key], err = json.Marshal(sassIdx); err != nil {
			panic(err)
		}
	}
	// Each AMD family's cost table, as the build stores it.
	for _, a := range archs {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		var mine []*isa.Instruction
		for _, in := range ins {
			if in.Arch == a.ID {
				mine = append(mine, in)
			}
		}
		packed, err := costview.Pack(costview.Entries(mine))
		if err != nil {
			panic(err)
		}
		out[costview.ExtraKey(a.ID)] = packed
	}
	return out
}

// samplePTXModel is the PTX reader's model of the sample's PTX pages, as
// the build stores it for the checker: each instruction with its forms,
// their types and modifiers and the version and target each needs.
func samplePTXModel(ins []*isa.Instruction) []ptx.Instruction {
	var out []ptx.Instruction
	for _, in := range ins {
		if in.Kind != isa.KindVirtual {
			continue
		}
		m := ptx.Instruction{Name: in.Name, Kind: ptx.KindInstruction, Category: in.Category, Summary: in.Summary,
			PTXVersion: in.PTXVersion, MinTarget: in.MinTarget}
		for _, f := range in.Forms {
			pf := ptx.Form{Syntax: f.Syntax, Types: f.Types, Modifiers: f.Modifiers,
				PTXVersion: f.PTXVersion, MinTarget: f.MinTarget, Base: ptx.Option{PTXVersion: f.PTXVersion, MinTarget: f.MinTarget}}
			// A dotted word of the opcode that is none of the form's
			// types or modifiers is its type variable (".atype").
			opcode, _, _ := strings.Cut(f.Syntax, " ")
			for _, w := range strings.Split(opcode, ".")[1:] {
				w = "." + strings.Trim(w, "{}")
				if !slices.Contains(f.Types, w) && !slices.Contains(f.Modifiers, w) {
					pf.Variables = append(pf.Variables, ptx.Variable{Name: w, Choices: f.Types})
				}
			}
			m.Forms = append(m.Forms, pf)
		}
		out = append(out, m)
	}
	return out
}

// AddSampleMFMA adds three CDNA 3 matrix instructions to b (copies of its
// CDNA 3 v_max_f32 under MFMA names), with costs on gfx942 in the shape
// llvm-mca gives them (sample numbers: the model's passes on HWXDL), and
// rewrites b's counts and extras.
func AddSampleMFMA(b *store.Build) {
	var base *isa.Instruction
	for _, in := range b.Instructions {
		if in.Arch == "cdna3" && in.Name == "v_max_f32" {
			base = in
		}
	}
	if base == nil {
		panic("webfake: the sample has no CDNA 3 v_max_f32")
	}
	for _, m := range []struct {
		name, asm string
		passes    int
	}{
		{"v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", 8},
		{"v_mfma_f32_4x4x4_16b_f16", "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[0:1], v[2:3], a[0:3]", 2},
		{"v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]", 4},
	} {
		in := *base
		in.Name, in.Summary = m.name, "Sample matrix multiply."
		in.Cost = map[string]isa.Cost{"gfx942": {Asm: m.asm, UOps: 1, Latency: m.passes + 4, RThroughput: float64(m.passes), SideEffects: true,
			Unit: "HWXDL", Resources: []isa.CostResource{{Name: "HWXDL", Cycles: m.passes}}}}
		b.Instructions = append(b.Instructions, &in)
		b.Info.Counts["cdna3"]++
	}
	for i := range b.Archs {
		b.Archs[i].Count = b.Info.Counts[b.Archs[i].ID]
	}
	b.Extras = SampleExtras(b.Archs, b.Instructions)
}

package webfake

import (
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// The sample's NVIDIA assembler verdicts, in the shape internal/ingest
// records them: per-instruction and per-form target grids, a check per form
// and per optional part, a check per example statement with its SASS, and
// the quality report's PTX part. Every value and message is made up for the
// tests; none of it is ptxas output.

// SampleTargets are the sample's sm_ targets, oldest first.
var SampleTargets = []string{"sm_50", "sm_75", "sm_80", "sm_90", "sm_90a", "sm_100"}

const sampleTool = "ptxas 0.0-sample"

// grid says "supported" from the first target in from on (SampleTargets
// order), or only on the targets in only when from is "".
func grid(from string, only ...string) map[string]string {
	m := map[string]string{}
	on := false
	for _, t := range SampleTargets {
		if t == from {
			on = true
		}
		ok := on
		for _, o := range only {
			ok = ok || o == t
		}
		m[t] = "unsupported"
		if ok {
			m[t] = "supported"
		}
	}
	return m
}

func details(g map[string]string, printed, message string) []isa.TargetResult {
	var out []isa.TargetResult
	for _, t := range SampleTargets {
		r := isa.TargetResult{Target: t, Status: g[t]}
		if g[t] == "supported" {
			r.Printed = printed
		} else {
			r.Message = "Sample: not on .target '" + t + "' " + message
		}
		out = append(out, r)
	}
	return out
}

func sass(target string, lines ...string) isa.SASS {
	s := isa.SASS{Target: target, Lines: []isa.SASSLine{}}
	for _, l := range lines {
		s.Lines = append(s.Lines, isa.SASSLine{Text: l, Encoding: "0x0000000000000000 0x000fc00000000000", Control: "S01 y0"})
	}
	return s
}

func verified(stmt, version, target string, floor bool, ss ...isa.SASS) isa.PTXCheck {
	return isa.PTXCheck{Statement: stmt, Status: isa.PTXVerified, PTXVersion: version, MinTarget: target, Floor: floor, Tool: sampleTool, SASS: ss}
}

// addSampleChecks gives max every kind of verdict, leaves min without any
// (as a build without ptxas would) and makes fma an sm_90a-only
// instruction.
func addSampleChecks(ins []*isa.Instruction) {
	for _, in := range ins {
		switch {
		case in.Arch == "ptx" && in.Name == "max":
			maxChecks(in)
		case in.Arch == "ptx" && in.Name == "fma":
			g := grid("", "sm_90a")
			in.Targets, in.TargetDetails = g, details(g, "fma.f32 d, a, b;", "<sample reason>")
			f := &in.Forms[0]
			f.Targets = g
			chk := verified("fma.f32 d, a, b;", "8.0", "sm_90a", false)
			f.Check = &chk
			f.MinTarget, f.PTXVersion, f.DocMinTarget, f.DocPTXVersion = "sm_90a", "8.0", "sm_20", "1.0"
			in.MinTarget, in.PTXVersion = "sm_90a", "8.0"
			f.ModifierChecks = []isa.ModifierCheck{}
		}
	}
}

func maxChecks(in *isa.Instruction) {
	all := grid("sm_50")
	in.Targets, in.TargetDetails = all, details(all, "max.u16 d, a, b;", "")

	integer := &in.Forms[0]
	integer.Targets = all
	intChk := verified("max.u16 d, a, b;", "4.0", "sm_50", true,
		sass("sm_75", "IMNMX.U32 R1, R2, R3, !PT"), sass("sm_80", "IMNMX.U32 R1, R2, R3, !PT"))
	integer.Check = &intChk
	integer.ModifierChecks = []isa.ModifierCheck{}

	single := &in.Forms[1]
	single.Targets = all
	f32Chk := verified("max.f32 d, a, b;", "4.0", "sm_50", true,
		sass("sm_75", "FMNMX R1, R2, R3, !PT"), sass("sm_90", "FMNMX R1, R2, R3, !PT"))
	single.Check = &f32Chk
	single.ModifierChecks = []isa.ModifierCheck{
		{Modifier: ".ftz", Check: verified("max.ftz.f32 d, a, b;", "4.0", "sm_50", true)},
		{Modifier: ".NaN", Check: verified("max.NaN.f32 d, a, b;", "7.0", "sm_80", true), Raises: true},
	}

	half := &in.Forms[2]
	half.Targets = grid("sm_75")
	halfChk := verified("max.f16x2 d, a, b;", "6.5", "sm_75", false)
	half.Check = &halfChk
	// ptxas accepts less than the sample document asks for: its values
	// are the form's, the document's kept beside.
	half.MinTarget, half.PTXVersion, half.DocMinTarget, half.DocPTXVersion = "sm_75", "6.5", "sm_80", "7.0"
	half.ModifierChecks = []isa.ModifierCheck{
		{Modifier: ".ftz", Check: isa.PTXCheck{Statement: "max.ftz.f16x2 d, a, b;", Status: isa.PTXRejected,
			Message: "Sample: modifier '.ftz' <not markup> is not allowed here"}},
		{Modifier: ".NaN", Check: verified("max.NaN.f16x2 d, a, b;", "6.5", "sm_75", false)},
	}
	in.Conflicts = append(in.Conflicts, isa.Conflict{Fact: "PTX ISA version / minimum target of " + half.Syntax,
		Values: []isa.ConflictValue{{Value: "7.0 / sm_80", Prov: prov}, {Value: "6.5 / sm_75 (max.f16x2 d, a, b;)", Prov: isa.Prov{Source: isa.SourcePTXAS}}},
		Note:   "ptxas's values are shown as the form's requirements"})

	in.Examples[0].Checks = []isa.PTXCheck{verified("max.f32 f1, f2, f3", "4.0", "sm_50", true,
		sass("sm_75", "FMNMX R1, R2, R3, !PT"), sass("sm_80", "FMNMX R1, R2, R3, !PT"), sass("sm_90"))}
	in.Examples[1].Checks = []isa.PTXCheck{verified("max.NaN.f32 f1, f2, f3", "7.0", "sm_80", true,
		sass("sm_80", "FMNMX.NAN R1, R2, R3, !PT"))}
	in.Examples = append(in.Examples,
		isa.Example{Asm: ".reg .f32 f<2>;\nmax.f32 f0, f1;\nmax.bogus.f32 f0, f1, f1;", Source: "written for the sample store", Prov: prov,
			Checks: []isa.PTXCheck{
				{Statement: "max.f32 f0, f1", Status: isa.PTXVerified, PTXVersion: "4.0", MinTarget: "sm_50", Floor: true, Tool: sampleTool,
					Message: "ptxas rejects it with the example's declarations (Sample: <two operands>); it assembles without them"},
				{Statement: "max.bogus.f32 f0, f1, f1", Status: isa.PTXRejected, Message: "Sample: unknown modifier '.bogus' <b>not bold</b>"},
			}})
}

// SamplePTXReport is the quality report's PTX part: one finding of each
// kind.
func SamplePTXReport() *quality.PTXReport {
	r := &quality.PTXReport{
		Tools:    []string{sampleTool + " (sample CUDA): /sample/bin/ptxas", "nvdisasm 0.0-sample: /sample/bin/nvdisasm"},
		Verified: true, Targets: SampleTargets, DocVersion: "9.1", FloorTarget: "sm_50", FloorVersion: "4.0",
		Forms: 7, FormsVerified: 4, FormsRejected: 0, FormsNotVerified: 3, FormsCorrected: 2,
		ExampleStatements: 4, ExamplesAccepted: 2,
	}
	r.Run.Statements, r.Run.Processes, r.Run.Assembled, r.Run.CacheHits, r.Run.Searched = 20, 4, 120, 10, 1
	src := isa.Prov{Source: isa.SourcePTXDoc, File: "sample/ptx/max.md", Line: 3}
	r.TooStrict = append(r.TooStrict, quality.PTXFinding{Mnemonic: "max", Statement: "max.f16x2 d, a, b;", Fact: "minimum target", Doc: "sm_80", PTXAS: "sm_75",
		Message: "minimum target: the documentation says sm_80, ptxas accepts sm_75", Prov: src})
	r.TooLoose = append(r.TooLoose, quality.PTXFinding{Mnemonic: "fma", Statement: "fma.f32 d, a, b;", Fact: "minimum target", Doc: "sm_20", PTXAS: "sm_90a",
		Message: "minimum target: the documentation says sm_20, ptxas accepts sm_90a", Prov: src})
	r.Errata = append(r.Errata,
		quality.PTXFinding{Mnemonic: "max", Statement: "max.bogus.f32 f0, f1, f1", Message: "Sample: unknown modifier '.bogus' <b>not bold</b>", Prov: src},
		quality.PTXFinding{Mnemonic: "max", Statement: "max.f32 f0, f1", Message: "Sample: <two operands>", Context: true, Prov: src})
	r.RejectedForms = []quality.PTXFinding{}
	r.BeyondDocuments = append(r.BeyondDocuments, quality.PTXFinding{Mnemonic: "max", Statement: "max.bf16.bf16 d, a, b;", Fact: "syntax",
		Doc: ".type list has no .bf16.bf16", PTXAS: "assembles max.bf16.bf16 (ptxas 0.0-sample, from PTX ISA 7.8 on sm_90); judged on max.bf16.bf16 d, a, b;", Prov: src})
	r.NotVerified = append(r.NotVerified, quality.PTXFinding{Mnemonic: "min", Statement: "min.f32 d, a, b;", Message: "Sample: not run", Prov: src})
	return r
}

package verify

import (
	"context"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

// allExamples builds one example per syntax row of every installed page.
func allExamples(b *testing.B) []Input {
	b.Helper()
	dir := llvmdoc.DocDir()
	if dir == "" {
		b.Skip("LLVM's AMDGPU syntax pages are not installed (apt-get install llvm-22-doc)")
	}
	pages, err := llvmdoc.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var in []Input
	for _, p := range pages {
		for _, s := range p.Instructions {
			if asm, ok := llvmdoc.BuildExample(s); ok {
				in = append(in, Input{Asm: asm})
			}
		}
	}
	return in
}

// BenchmarkVerifyAllCold assembles every example on every target with an
// empty cache (run with -benchtime=1x: one iteration is the whole job).
func BenchmarkVerifyAllCold(b *testing.B) {
	needLLVMMC(b)
	inputs := allExamples(b)
	targets := isa.AllGFXTargets // what the build verifies on
	var res Results
	for b.Loop() {
		var err error
		res, err = Run(context.Background(), inputs, targets, Options{CacheDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
	}
	report(b, res, len(inputs))
}

// BenchmarkVerifyAllWarm is the same job with every answer cached.
func BenchmarkVerifyAllWarm(b *testing.B) {
	needLLVMMC(b)
	inputs := allExamples(b)
	targets := isa.AllGFXTargets // what the build verifies on
	dir := b.TempDir()
	if _, err := Run(context.Background(), inputs, targets, Options{CacheDir: dir}); err != nil {
		b.Fatal(err)
	}
	var res Results
	for b.Loop() {
		var err error
		res, err = Run(context.Background(), inputs, targets, Options{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
	}
	if res.Processes != 0 {
		b.Errorf("warm run started %d llvm-mc processes", res.Processes)
	}
	report(b, res, len(inputs))
}

func report(b *testing.B, res Results, inputs int) {
	supported := 0
	for _, row := range res.Outcomes {
		for _, o := range row {
			if o.Supported {
				supported++
			}
		}
	}
	b.ReportMetric(float64(inputs), "examples")
	b.ReportMetric(float64(len(res.Targets)), "targets")
	b.ReportMetric(float64(res.Processes), "llvm-mc")
	b.ReportMetric(float64(supported), "supported")
}

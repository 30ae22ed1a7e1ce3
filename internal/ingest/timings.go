package ingest

import (
	"os"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxbench"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

// applyTimings reads a results file of `gpuisa ptx bench` (opts.Timings,
// else $GPUISA_TIMINGS) and gives each PTX instruction its measurements;
// no file is no measurement. The file is generated data and never part of
// the repository.
func applyTimings(opts Options, model []ptx.Instruction, insts []*isa.Instruction) (*isa.Document, error) {
	path := opts.Timings
	if path == "" {
		path = os.Getenv("GPUISA_TIMINGS")
	}
	if path == "" {
		return nil, nil
	}
	res, err := ptxbench.Load(path)
	if err != nil {
		return nil, &errs.Error{Kind: errs.KindUpstream, Msg: "PTX timings", Err: err}
	}
	checker := ptx.NewChecker(model)
	byName := map[string]*isa.Instruction{}
	for _, in := range insts {
		byName[in.Name] = in
	}
	for _, e := range res.Entries {
		r := checker.Check(e.Statement)
		in := byName[r.Mnemonic]
		if in == nil {
			continue
		}
		in.Measured = append(in.Measured, isa.Measurement{Statement: e.Statement, GPU: res.GPU, Target: res.Target,
			Driver: res.Driver, CUDA: res.CUDA, Date: res.Date, LatencyCycles: e.LatencyCycles, ThroughputCycles: e.ThroughputCycles})
	}
	return &isa.Document{Source: isa.SourceGPUISA, File: path, Title: "PTX timings measured on " + res.GPU + " (" + res.Target + ")",
		Version:     "driver " + res.Driver + ", CUDA " + res.CUDA + ", " + res.Date,
		Attribution: "measured by gpuisa ptx bench (one warp, %clock64)", License: "generated data"}, nil
}

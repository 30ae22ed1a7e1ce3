package ingest

import (
	"encoding/json"
	"fmt"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
)

// sassIndex derives the SASS reference (issue 31) from the listings the
// ptxas pass attached to the PTX pages, with the tools that made them:
// nil when no listing was made (no nvdisasm, or ptxas not run), so a
// database without one has no /sass pages rather than empty ones.
func sassIndex(tools *ptxas.Tools, insts []*isa.Instruction) ([]byte, error) {
	if tools == nil || tools.NVDisasm == "" {
		return nil, nil
	}
	prov := sassindex.Provenance{ToolOf: map[string]string{}}
	for _, t := range tools.PTXAS {
		prov.Tools = append(prov.Tools, fmt.Sprintf("ptxas %s (CUDA %s, %s to %s)", t.Version, t.Release, t.Targets[0], t.Targets[len(t.Targets)-1]))
	}
	prov.Tools = append(prov.Tools, "nvdisasm "+tools.NVDisasmVersion)
	x := sassindex.Build(insts, prov)
	if len(x.Opcodes) == 0 {
		return nil, nil
	}
	for _, target := range x.Targets {
		if t, ok := tools.ToolFor(target); ok {
			x.Provenance.ToolOf[target] = "ptxas " + t.Version
		}
	}
	return json.Marshal(x)
}

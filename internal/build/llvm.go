package build

import (
	"context"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// applyLLVM attaches LLVM's syntax, examples and llvm-mc verification to the
// AMD instructions. (Being written: see the LLVM integration work.)
func applyLLVM(ctx context.Context, opts Options, archs []isa.Architecture, insts []*isa.Instruction, prog Progress) ([]isa.Document, map[string][]byte, []string, error) {
	return nil, nil, nil, nil
}

//go:build debug

package ptxas

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
)

var keepSeq atomic.Int64

// keepBatch writes every batch ptxas reads, with its messages, into
// $GPUISA_PTXAS_KEEP (a debugging aid of the debug build: go build -tags
// debug ./cmd/gpuisa).
func keepBatch(target, src string, messages []byte) {
	keep := os.Getenv("GPUISA_PTXAS_KEEP")
	if keep == "" {
		return
	}
	n := keepSeq.Add(1)
	_ = os.WriteFile(filepath.Join(keep, fmt.Sprintf("batch-%d-%s.ptx", n, target)), []byte(src), 0o644)
	_ = os.WriteFile(filepath.Join(keep, fmt.Sprintf("batch-%d-%s.txt", n, target)), messages, 0o644)
}

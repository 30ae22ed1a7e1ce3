//go:build !debug

package ptxas

// keepBatch keeps a batch and ptxas's messages for debugging; only the
// debug build (keep_debug.go, -tags debug) does.
func keepBatch(target, src string, messages []byte) {}

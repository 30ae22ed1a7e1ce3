//go:build !linux

package cli

// hugeHeap is Linux's transparent huge page advice; elsewhere the heap
// is left as the runtime maps it.
func hugeHeap(size int) {}

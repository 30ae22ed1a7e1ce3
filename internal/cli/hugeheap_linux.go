package cli

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugeHeap backs the heap a one-shot command is about to fill with
// transparent huge pages where the kernel leaves them to the program's
// advice (THP "madvise", the common default): a block of size bytes is
// allocated, advised MADV_HUGEPAGE and released by a collection, and the
// runtime hands its pages out again for the objects that follow. With the
// collector off every object lands on fresh memory, and faulting it in 4
// KB at a time was a quarter of a 10,000-line encode's CPU (9,800 faults,
// 2,700 with the advice) and of a 200,000-word decode's. Advice only: on
// a kernel without THP, or with it always on, nothing changes but the one
// early collection of a small heap.
func hugeHeap(size int) {
	const huge = 2 << 20
	b := make([]byte, size) // fresh from the OS: untouched, so not faulted in
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + huge - 1) &^ (huge - 1)
	end := (p + uintptr(size)) &^ (huge - 1)
	if end > beg {
		syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, syscall.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

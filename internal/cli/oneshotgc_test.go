package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// oneShotGC turns the collector off up to oneShotHeap, and its first
// collection turns it back on at 400% with the memory limit it found, so
// a large input runs in bounded memory.
func TestOneShotGCRestoresCollector(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(1 << 40)
	defer func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()
	oneShotGC()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GC percent after oneShotGC = %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != oneShotHeap {
		t.Fatalf("memory limit after oneShotGC = %d, want %d", l, oneShotHeap)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC() // the finalizer runs after a collection, on its own goroutine
		time.Sleep(10 * time.Millisecond)
		if debug.SetMemoryLimit(-1) == 1<<40 {
			if p := debug.SetGCPercent(400); p != 400 {
				t.Fatalf("GC percent after the first collection = %d, want 400", p)
			}
			return
		}
	}
	t.Fatal("the first collection did not restore the collector")
}

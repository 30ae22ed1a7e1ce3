package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// oneShotGC turns the collector off up to oneShotHeap, and its first
// collection turns it back on at 400% with the memory limit it found, so
// a large input runs in bounded memory; steadyGC ends it at once, and the
// finalizer then pending changes nothing.
func TestOneShotGCRestoresCollector(t *testing.T) {
	steadyGC(100) // what earlier commands of this process left pending
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(1 << 40)
	defer func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()
	smallHeapOrSkip(t)
	oneShotGC()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GC percent after oneShotGC = %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != oneShotHeap {
		t.Fatalf("memory limit after oneShotGC = %d, want %d", l, oneShotHeap)
	}
	restored := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !restored; {
		runtime.GC() // the finalizer runs after a collection, on its own goroutine
		time.Sleep(10 * time.Millisecond)
		restored = debug.SetMemoryLimit(-1) == 1<<40
	}
	if !restored {
		t.Fatal("the first collection did not restore the memory limit")
	}
	if p := debug.SetGCPercent(400); p != 400 {
		t.Fatalf("GC percent after the first collection = %d, want 400", p)
	}

	oneShotGC()
	steadyGC(100)
	if l := debug.SetMemoryLimit(-1); l != 1<<40 {
		t.Fatalf("memory limit after steadyGC = %d, want %d", l, int64(1<<40))
	}
	for i := 0; i < 5; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Fatalf("GC percent after steadyGC and collections = %d, want 100", p)
	}
}

// largeInput's collection (hugeHeap's) is not the one that turns the
// collector back on: after it, a one-shot command still runs with the
// collector off and the memory limit oneShotGC set.
func TestLargeInputKeepsCollectorOff(t *testing.T) {
	steadyGC(100)
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(1 << 40)
	defer func() {
		steadyGC(100)
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()
	smallHeapOrSkip(t)
	oneShotGC()
	largeInput(1 << 20)
	time.Sleep(50 * time.Millisecond) // the first sentinel's finalizer has run by now
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GC percent after largeInput = %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != oneShotHeap {
		t.Fatalf("memory limit after largeInput = %d, want %d", l, oneShotHeap)
	}
}

// Outside a one-shot command (the collector on), largeInput leaves the
// collector as it is.
func TestLargeInputOutsideOneShot(t *testing.T) {
	steadyGC(100)
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	if !largeInput(1 << 20) {
		t.Fatal("largeInput(1 MB) = false, want true (a large input)")
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Fatalf("GC percent after largeInput outside a one-shot command = %d, want 100", p)
	}
}

// smallHeapOrSkip collects, and skips the test when what earlier tests of
// this process keep live (a real database's tables) is over half of
// oneShotHeap: oneShotGC's limit would then collect at once, and its
// finalizer restore the collector before the test looks.
func smallHeapOrSkip(t *testing.T) {
	t.Helper()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > oneShotHeap/2 {
		t.Skipf("%d MB live from earlier tests of this process, over half of oneShotHeap: run this test alone (-run 'OneShotGC|LargeInput')", ms.HeapAlloc>>20)
	}
}

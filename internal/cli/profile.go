package cli

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"time"
)

// startProfiles starts a CPU profile into cpuFile and a heap profile into
// memFile ("" skips either) and returns the function that ends both: the
// build's steps are measured where they spend, not guessed. The heap
// profile is taken near the largest in-use heap (sampled every 100 ms and
// retaken when it grew by 5%: each profile costs a stop of the world),
// since peak RSS is what a build is held to, not the heap at its end.
func startProfiles(cpuFile, memFile string) (stop func() error, err error) {
	var cpu *os.File
	if cpuFile != "" {
		if cpu, err = os.Create(cpuFile); err != nil {
			return nil, fmt.Errorf("cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("cpuprofile: %w", err)
		}
	}
	done := make(chan struct{})
	peak := make(chan []byte, 1)
	if memFile != "" {
		go samplePeakHeap(done, peak)
	}
	return func() error {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				return fmt.Errorf("cpuprofile: %w", err)
			}
		}
		if memFile == "" {
			return nil
		}
		close(done)
		if err := os.WriteFile(memFile, <-peak, 0o644); err != nil {
			return fmt.Errorf("memprofile: %w", err)
		}
		return nil
	}, nil
}

// samplePeakHeap keeps the heap profile of the largest in-use heap seen
// (within 5%) until done is closed, then sends it on out.
func samplePeakHeap(done <-chan struct{}, out chan<- []byte) {
	var best uint64
	var prof bytes.Buffer
	take := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse <= best+best/20 && prof.Len() > 0 {
			return
		}
		best = ms.HeapInuse
		prof.Reset()
		_ = pprof.Lookup("heap").WriteTo(&prof, 0)
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			take()
			out <- prof.Bytes()
			return
		case <-tick.C:
			take()
		}
	}
}

// buildMemoryLimit is the soft limit on the Go heap a build runs under
// unless $GOMEMLIMIT sets one: by default the collector lets the heap grow
// to twice what is live, and a warm build's live heap peaks near 850 MB
// (the model beside ptxas's loaded caches), which made a 1.8 GB peak RSS.
// Under the limit the collector runs more often as the heap nears it, at
// no measurable CPU cost for a warm build (its heap is mostly long-lived
// and allocates little in the phases near the limit); where more than the
// limit is live it is exceeded, not enforced.
const buildMemoryLimit = 900 << 20

// limitBuildMemory sets buildMemoryLimit when $GOMEMLIMIT does not say
// otherwise.
func limitBuildMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(buildMemoryLimit)
	}
}

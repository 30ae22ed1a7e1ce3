package cli

import (
	"runtime"
	"testing"
)

// TestOneProcWhenBusy: on a machine whose load reaches its CPUs a
// one-shot command runs on one P, on an idle one (or where the load is
// unknown) on all; the setting is undone after it, and $GOMAXPROCS is left
// alone whatever the load.
func TestOneProcWhenBusy(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	if before == 1 {
		runtime.GOMAXPROCS(2)
		defer runtime.GOMAXPROCS(1)
		before = 2
	}
	defer func(f func() (float64, bool)) { machineLoad = f }(machineLoad)
	cpus := float64(runtime.NumCPU())
	for _, c := range []struct {
		name string
		load float64
		ok   bool
		want int
	}{
		{"busy", cpus, true, 1},
		{"overloaded", 2*cpus + 1, true, 1},
		{"idle", cpus - 0.5, true, before},
		{"unknown", 0, false, before},
	} {
		machineLoad = func() (float64, bool) { return c.load, c.ok }
		restore := oneProcWhenBusy()
		if got := runtime.GOMAXPROCS(0); got != c.want {
			t.Errorf("%s (load %.1f on %.0f CPUs): GOMAXPROCS %d during the command, want %d", c.name, c.load, cpus, got, c.want)
		}
		restore()
		if got := runtime.GOMAXPROCS(0); got != before {
			t.Errorf("%s: GOMAXPROCS %d after the command, %d before", c.name, got, before)
		}
	}
	machineLoad = func() (float64, bool) { return 2*cpus + 1, true }
	t.Setenv("GOMAXPROCS", "2")
	restore := oneProcWhenBusy()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("with $GOMAXPROCS set on a busy machine: GOMAXPROCS %d during the command, %d before", got, before)
	}
	restore()
}

// TestRunnableOthersReads: where the platform says how many tasks are
// runnable it reads as a number that is no less than zero.
func TestRunnableOthersReads(t *testing.T) {
	load, ok := runnableOthers()
	if runtime.GOOS == "linux" && !ok {
		t.Fatal("no runnable count read from /proc/loadavg")
	}
	if ok && load < 0 {
		t.Errorf("load average %v", load)
	}
}

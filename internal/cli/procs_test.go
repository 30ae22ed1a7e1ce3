package cli

import (
	"runtime"
	"testing"
)

// TestOneProcWhenBusyRestores: whatever the load, the command's setting
// is undone after it, and $GOMAXPROCS is left alone.
func TestOneProcWhenBusyRestores(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	restore := oneProcWhenBusy()
	during := runtime.GOMAXPROCS(0)
	load, ok := loadAverage()
	if busy := ok && load >= float64(runtime.NumCPU()) && before > 1; busy != (during == 1 && before > 1) {
		t.Errorf("load %.2f on %d CPUs: GOMAXPROCS %d during the command (was %d)", load, runtime.NumCPU(), during, before)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS %d after the command, %d before", got, before)
	}
	t.Setenv("GOMAXPROCS", "2")
	restore = oneProcWhenBusy()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("with $GOMAXPROCS set: GOMAXPROCS %d during the command, %d before", got, before)
	}
	restore()
}

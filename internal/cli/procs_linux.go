package cli

import (
	"os"
	"strconv"
	"strings"
)

// runnableOthers is how many other tasks are runnable now: /proc/loadavg's
// fourth field ("running/total") counts the runnable tasks, this one
// included. The one-minute average lags by a minute or more: after a
// burst (a build, a test run) it still said busy on an idle machine and
// a decode ran on one core for nothing. ok is false where it cannot be
// read.
func runnableOthers() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return 0, false
	}
	running, _, _ := strings.Cut(f[3], "/")
	n, err := strconv.Atoi(running)
	if err != nil || n < 1 {
		return 0, false
	}
	return float64(n - 1), true
}

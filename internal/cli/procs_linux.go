package cli

import (
	"os"
	"strconv"
	"strings"
)

// loadAverage is the machine's load over the last minute (/proc/loadavg);
// ok is false where it cannot be read.
func loadAverage() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f, _, _ := strings.Cut(string(b), " ")
	v, err := strconv.ParseFloat(f, 64)
	return v, err == nil
}

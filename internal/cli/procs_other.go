//go:build !linux

package cli

// loadAverage is Linux's; elsewhere the load is not known.
func loadAverage() (float64, bool) { return 0, false }

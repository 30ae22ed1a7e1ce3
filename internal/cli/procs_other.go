//go:build !linux

package cli

// runnableOthers is Linux's; elsewhere the load is not known.
func runnableOthers() (float64, bool) { return 0, false }

// Package toolpath finds an external tool (llvm-mc, llvm-mca, opt) the way
// every oracle package does: the environment variable naming it first, then
// each of its names on PATH, so the places tried can be reported alike.
package toolpath

import (
	"os"
	"os/exec"
)

// Find returns the path of the tool: $env when set and found, else the
// first of names found on PATH. With no path it returns the places tried
// ("$GPUISA_OPT=/x", "opt-22", "opt").
func Find(env string, names ...string) (path string, tried []string) {
	tried = []string{}
	if p := os.Getenv(env); p != "" {
		if path, err := exec.LookPath(p); err == nil {
			return path, nil
		}
		tried = append(tried, "$"+env+"="+p)
	}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
		tried = append(tried, name)
	}
	return "", tried
}

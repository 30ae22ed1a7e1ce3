package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// LLVM14Only makes PATH hold LLVM 14's tools alone (Debian's image ships
// them in /usr/lib/llvm-14/bin), each behind a wrapper that appends its
// command line to log, and clears the variables that name tools directly,
// so a test sees what a machine without llvm-22 sees. It skips loudly when
// LLVM 14 is not installed.
func LLVM14Only(tb testing.TB, tools ...string) (dir, log string) {
	tb.Helper()
	const bin = "/usr/lib/llvm-14/bin"
	dir = tb.TempDir()
	log = filepath.Join(dir, "calls.log")
	for _, name := range tools {
		real := filepath.Join(bin, name)
		if _, err := os.Stat(real); err != nil {
			tb.Skipf("SKIP: LLVM 14 not installed (%s missing; apt-get install llvm-14): the old-LLVM checks did not run", real)
		}
		script := "#!/bin/sh\necho \"" + name + " $*\" >> " + log + "\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	for _, env := range []string{"GPUISA_LLVM_MC", "GPUISA_LLVM_MCA", "GPUISA_OPT"} {
		tb.Setenv(env, "")
	}
	// The wrappers' shell is named by its path: the PATH holds them alone.
	tb.Setenv("PATH", dir)
	return dir, log
}

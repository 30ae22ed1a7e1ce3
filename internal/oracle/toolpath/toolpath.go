// Package toolpath finds an external tool (llvm-mc, llvm-mca, opt) the way
// every oracle package does: the environment variable naming it first, then
// each of its names on PATH, so the places tried can be reported alike.
package toolpath

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
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

// FindLLVM is Find for an LLVM tool: its path, or notFound (the caller's
// sentinel error) wrapped with the places tried and how to get one.
func FindLLVM(notFound error, env string, names ...string) (string, error) {
	path, tried := Find(env, names...)
	if path != "" {
		return path, nil
	}
	return "", fmt.Errorf("%w (tried %s); install llvm-22 or set %s", notFound, strings.Join(tried, ", "), env)
}

var llvmVersionRe = regexp.MustCompile(`LLVM version \S+`)

// LLVMVersion runs an LLVM tool (llvm-mc, llvm-mca, opt) with --version and
// returns its version line ("Debian LLVM version 22.1.8"). The answer is
// kept per executable (path, size, modification time): a build asks it of
// the same opt once per family, and a tool installed or replaced while the
// process runs is asked again.
func LLVMVersion(ctx context.Context, path string) (string, error) {
	key := ""
	if st, err := os.Stat(path); err == nil {
		key = fmt.Sprintf("%s\x00%d\x00%d", path, st.Size(), st.ModTime().UnixNano())
		if v, ok := versions.Load(key); ok {
			return v.(string), nil
		}
	}
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if llvmVersionRe.MatchString(l) {
			v := strings.TrimSpace(l)
			if key != "" {
				versions.Store(key, v)
			}
			return v, nil
		}
	}
	return "", fmt.Errorf("%s --version printed no LLVM version", path)
}

// versions are LLVMVersion's answers by executable.
var versions sync.Map

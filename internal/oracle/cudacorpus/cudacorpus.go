// Package cudacorpus is the PTX checker's corpus of real compiler output:
// CUDA kernels the project writes (kernels/*.cu: warp intrinsics, atomics,
// half/bf16/fp8, wmma/mma, cp.async, bulk copies, mbarrier, clusters,
// special registers, inline PTX ...) compiled by NVIDIA's nvcc for each
// target it supports, and mutations of that PTX (a .target or .version
// lowered, .sync or .aligned dropped, a type changed, an operand dropped,
// a state space changed) for ptxas to judge. The PTX is generated when
// asked for and cached under the user cache directory, keyed by nvcc's
// version, the target and the kernel's hash; none of it is committed.
package cudacorpus

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

// Kernel is one CUDA source file of the corpus.
type Kernel struct {
	Name   string // "warp_shuffle.cu"
	Source string
}

// Kernels lists the corpus's CUDA files by name.
func Kernels() []Kernel {
	ents, _ := fs.ReadDir(kernelFS, "kernels")
	out := make([]Kernel, 0, len(ents))
	for _, e := range ents {
		b, err := kernelFS.ReadFile(path.Join("kernels", e.Name()))
		if err == nil {
			out = append(out, Kernel{Name: e.Name(), Source: string(b)})
		}
	}
	return out
}

// NVCC is one nvcc and what it compiles for.
type NVCC struct {
	Path    string
	Version string   // "13.5.37"
	Targets []string // "sm_75" ... from --list-gpu-arch
}

var (
	nvccVersionRe = regexp.MustCompile(`release [\d.]+, V([\d.]+)`)
	computeRe     = regexp.MustCompile(`^compute_(\d+[af]?)$`)
)

// Probe asks nvcc for its version and targets.
func Probe(ctx context.Context, nvcc string) (*NVCC, error) {
	out, err := exec.CommandContext(ctx, nvcc, "--version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %v: %s", nvcc, err, out)
	}
	m := nvccVersionRe.FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("%s --version: no release in %q", nvcc, out)
	}
	n := &NVCC{Path: nvcc, Version: string(m[1])}
	out, err = exec.CommandContext(ctx, nvcc, "--list-gpu-arch").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s --list-gpu-arch: %v: %s", nvcc, err, out)
	}
	for _, f := range strings.Fields(string(out)) {
		if m := computeRe.FindStringSubmatch(f); m != nil {
			n.Targets = append(n.Targets, "sm_"+m[1])
		}
	}
	sort.Slice(n.Targets, func(i, j int) bool { return targetNum(n.Targets[i]) < targetNum(n.Targets[j]) })
	return n, nil
}

func targetNum(t string) int {
	n := 0
	for _, c := range strings.TrimPrefix(t, "sm_") {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// CacheDir is where Compile keeps nvcc's output for this nvcc.
func (n *NVCC) CacheDir(cacheDir string) string {
	return filepath.Join(cacheDir, "cuda-corpus", "nvcc-"+n.Version)
}

// Compile returns the PTX nvcc writes for the kernel and target, from the
// cache when it has it. A compile error names the kernel and target.
func (n *NVCC) Compile(ctx context.Context, cacheDir string, k Kernel, target string) (string, error) {
	sum := sha256.Sum256([]byte(k.Source))
	dir := filepath.Join(n.CacheDir(cacheDir), target)
	out := filepath.Join(dir, strings.TrimSuffix(k.Name, ".cu")+"-"+hex.EncodeToString(sum[:8])+".ptx")
	if b, err := os.ReadFile(out); err == nil {
		return string(b), nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, k.Name)
	if err := os.WriteFile(src, []byte(k.Source), 0o644); err != nil {
		return "", err
	}
	ptxFile := filepath.Join(tmp, "out.ptx")
	cmd := exec.CommandContext(ctx, n.Path, "-ptx", "-arch="+target, "-o", ptxFile, src)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("nvcc -arch=%s %s: %v: %s", target, k.Name, err, strings.TrimSpace(string(msg)))
	}
	b, err := os.ReadFile(ptxFile)
	if err != nil {
		return "", err
	}
	if err := os.Rename(ptxFile, out); err != nil {
		return "", err
	}
	return string(b), nil
}

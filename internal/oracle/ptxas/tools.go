// Package ptxas runs NVIDIA's PTX assembler as gpuisa's oracle for PTX, as
// internal/oracle/verify runs llvm-mc for AMD: it finds (or installs) ptxas from
// NVIDIA's CUDA wheels, assembles many small kernels in one ptxas process
// per (ptxas, PTX ISA version, target), maps ptxas's messages back to the
// kernel they belong to by line, and keeps the answers in a file cache keyed
// by (tool version, PTX version, target, kernel text) so a rebuild only
// assembles what changed. nvdisasm turns the cubins into SASS (sass.go).
//
// Two ptxas releases are used side by side: CUDA 13 compiles for sm_75 and
// newer, CUDA 12.9 still compiles for sm_50-sm_72, which CUDA 13 dropped.
// Each target is assembled by the newest ptxas that knows it.
package ptxas

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Pinned wheels: the exact releases `gpuisa tools install` puts into the
// cache's virtual environment. Their versions are recorded in every
// database built with them.
var Wheels = []Wheel{
	{Package: "nvidia-cuda-nvcc", Version: "13.5.37", Binary: "nvidia/cu13/bin/ptxas"},
	{Package: "nvidia-cuda-nvcc-cu12", Version: "12.9.86", Binary: "nvidia/cuda_nvcc/bin/ptxas"},
	{Package: "nvidia-cuda-nvdisasm", Version: "13.5.37", Binary: "nvidia/cu13/bin/nvdisasm"},
	{Package: "nvidia-cuda-cuobjdump", Version: "13.5.37", Binary: "nvidia/cu13/bin/cuobjdump"},
	// Headers only (cuda.h): the microbenchmarks' host program is checked
	// against them (internal/oracle/ptxbench).
	{Package: "nvidia-cuda-runtime", Version: "13.5.37", Binary: "nvidia/cu13/include/cuda.h"},
	// nvcc's front end (cicc), its CUDA C++ headers (crt) and the C++
	// library headers (cccl): nvcc (in nvidia-cuda-nvcc) compiles the
	// project's CUDA kernels to PTX, the checker's corpus (NVCC).
	{Package: "nvidia-nvvm", Version: "13.5.37", Binary: "nvidia/cu13/nvvm/bin/cicc"},
	{Package: "nvidia-cuda-crt", Version: "13.5.37", Binary: "nvidia/cu13/include/crt/host_defines.h"},
	{Package: "nvidia-cuda-cccl", Version: "13.3.5.0.6", Binary: "nvidia/cu13/include/cccl/cuda/std/version"},
}

// Wheel is one pinned package from the Python package index.
type Wheel struct {
	Package, Version string
	Binary           string // the tool inside site-packages
}

// Tool is one ptxas binary and what it can do.
type Tool struct {
	Path    string `json:"path"`
	Release string `json:"release"` // "13.5"
	// Version is the build version ptxas prints ("13.5.37"); it keys the
	// result cache together with the target.
	Version string   `json:"version"`
	Targets []string `json:"targets"` // real targets it compiles for: sm_75 ... sm_121f
	MaxPTX  string   `json:"max_ptx"` // the newest .version it accepts ("9.5")
}

// Tools is the set of NVIDIA tools found.
type Tools struct {
	PTXAS            []Tool `json:"ptxas"` // newest release first
	NVDisasm         string `json:"nvdisasm,omitempty"`
	NVDisasmVersion  string `json:"nvdisasm_version,omitempty"`
	CuObjdump        string `json:"cuobjdump,omitempty"`
	CuObjdumpVersion string `json:"cuobjdump_version,omitempty"`
	// Tried says where tools were looked for, for "not found" messages.
	Tried []string `json:"-"`
}

// ErrNotFound is returned (wrapped) when no ptxas can be found; callers say
// "not verified by ptxas" rather than failing.
var ErrNotFound = errors.New("ptxas not found")

// FindOptions says where to look first.
type FindOptions struct {
	// PTXAS are explicit ptxas paths (--ptxas); when empty, $GPUISA_PTXAS
	// (a list separated by the OS path-list separator), then the cache's
	// virtual environment, then PATH.
	PTXAS    []string
	NVDisasm string // --nvdisasm; else $GPUISA_NVDISASM, the venv, PATH
	CacheDir string // gpuisa's cache directory (where the venv lives)
}

// VenvDir is where `gpuisa tools install` creates the virtual environment.
func VenvDir(cacheDir string) string { return filepath.Join(cacheDir, "nvidia-venv") }

// DefaultCacheDir is gpuisa's directory in the user cache directory.
func DefaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gpuisa")
	}
	return ""
}

// sitePackages lists the venv's site-packages folders.
func sitePackages(cacheDir string) []string {
	if cacheDir == "" {
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(VenvDir(cacheDir), "lib", "python3*", "site-packages"))
	return m
}

// Find locates ptxas (both releases where present), nvdisasm and cuobjdump
// and asks each ptxas what it supports. It fails with ErrNotFound only
// when no ptxas at all is found.
func Find(ctx context.Context, opts FindOptions) (*Tools, error) {
	t := &Tools{}
	var paths []string
	addPath := func(p string) {
		if p == "" {
			return
		}
		if abs, err := exec.LookPath(p); err == nil {
			for _, q := range paths {
				if q == abs {
					return
				}
			}
			paths = append(paths, abs)
		} else {
			t.Tried = append(t.Tried, p)
		}
	}
	explicit := opts.PTXAS
	if len(explicit) == 0 {
		if env := os.Getenv("GPUISA_PTXAS"); env != "" {
			explicit = filepath.SplitList(env)
		}
	}
	for _, p := range explicit {
		addPath(p)
	}
	if len(explicit) == 0 {
		for _, sp := range sitePackages(opts.CacheDir) {
			for _, w := range Wheels {
				if strings.HasSuffix(w.Binary, "/ptxas") {
					addPath(filepath.Join(sp, filepath.FromSlash(w.Binary)))
				}
			}
		}
		if p, err := exec.LookPath("ptxas"); err == nil {
			addPath(p)
		} else {
			t.Tried = append(t.Tried, "ptxas on PATH")
		}
		if len(sitePackages(opts.CacheDir)) == 0 && opts.CacheDir != "" {
			t.Tried = append(t.Tried, VenvDir(opts.CacheDir))
		}
	}
	for _, p := range paths {
		tool, err := probe(ctx, p)
		if err != nil {
			t.Tried = append(t.Tried, p+" ("+err.Error()+")")
			continue
		}
		dup := false
		for _, have := range t.PTXAS {
			dup = dup || have.Version == tool.Version
		}
		if !dup {
			t.PTXAS = append(t.PTXAS, tool)
		}
	}
	sort.SliceStable(t.PTXAS, func(i, j int) bool { return ptxorder.CompareVersions(t.PTXAS[i].Version, t.PTXAS[j].Version) > 0 })
	t.NVDisasm, t.NVDisasmVersion = findAux(ctx, "nvdisasm", opts.NVDisasm, "GPUISA_NVDISASM", opts.CacheDir)
	t.CuObjdump, t.CuObjdumpVersion = findAux(ctx, "cuobjdump", "", "GPUISA_CUOBJDUMP", opts.CacheDir)
	if len(t.PTXAS) == 0 {
		return t, &NotFoundError{Tried: t.Tried}
	}
	return t, nil
}

// NotFoundError says where ptxas was looked for.
type NotFoundError struct{ Tried []string }

func (e *NotFoundError) Error() string {
	return "ptxas not found (tried " + strings.Join(e.Tried, ", ") +
		"); run `gpuisa tools install` or set GPUISA_PTXAS"
}

// Unwrap lets errors.Is(err, ErrNotFound) match.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// findAux finds nvdisasm or cuobjdump: the flag, the environment variable,
// the cache's venv, PATH; it returns "" when none is usable.
func findAux(ctx context.Context, name, flag, env, cacheDir string) (string, string) {
	cands := []string{flag, os.Getenv(env)}
	for _, sp := range sitePackages(cacheDir) {
		cands = append(cands, filepath.Join(sp, "nvidia", "cu13", "bin", name))
	}
	cands = append(cands, name)
	for _, c := range cands {
		if c == "" {
			continue
		}
		p, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		if v, err := toolVersion(ctx, p); err == nil {
			return p, v
		}
	}
	return "", ""
}

var (
	buildVersionRe = lazyre.New(`release (\d+\.\d+), V(\d+\.\d+\.\d+)`)
	allowedRe      = lazyre.New(`'(sm_\d+[af]?)'`)
	currentPTXRe   = lazyre.New(`current version is '(\d+\.\d+)'`)
)

// toolVersion reads "Cuda compilation tools, release 13.5, V13.5.37".
func toolVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	m := buildVersionRe.FindStringSubmatch(string(out))
	if m == nil {
		return "", fmt.Errorf("%s --version printed no CUDA release", path)
	}
	return m[2], nil
}

var probes sync.Map // path -> Tool

// probe asks one ptxas for its version, its targets and its newest PTX ISA.
func probe(ctx context.Context, path string) (Tool, error) {
	if v, ok := probes.Load(path); ok {
		return v.(Tool), nil
	}
	version, err := toolVersion(ctx, path)
	if err != nil {
		return Tool{}, err
	}
	tool := Tool{Path: path, Version: version}
	if m := buildVersionRe.FindStringSubmatch("release " + release(version) + ", V" + version); m != nil {
		tool.Release = m[1]
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	help, _ := exec.CommandContext(cctx, path, "--help").CombinedOutput()
	// The --gpu-name entry lists every target; it ends at the next option.
	h := string(help)
	if i := strings.Index(h, "--gpu-name"); i >= 0 {
		h = h[i:]
		if j := strings.Index(h[1:], "\n--"); j >= 0 {
			h = h[:j+1]
		}
	}
	seen := map[string]bool{}
	for _, m := range allowedRe.FindAllStringSubmatch(h, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			tool.Targets = append(tool.Targets, m[1])
		}
	}
	ptxorder.SortTargets(tool.Targets)
	if len(tool.Targets) == 0 {
		return Tool{}, fmt.Errorf("%s --help lists no sm_ targets", path)
	}
	// An impossible .version makes ptxas name its newest one.
	var stderr bytes.Buffer
	cmd := exec.CommandContext(cctx, path, "-arch="+tool.Targets[0], "--input-as-string", ".version 99.9\n.target "+tool.Targets[0]+"\n", "-o", os.DevNull)
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	_ = cmd.Run()
	if m := currentPTXRe.FindStringSubmatch(stderr.String()); m != nil {
		tool.MaxPTX = m[1]
	} else {
		return Tool{}, fmt.Errorf("%s did not name its newest PTX ISA version: %s", path, strings.TrimSpace(stderr.String()))
	}
	probes.Store(path, tool)
	return tool, nil
}

func release(version string) string {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return version
	}
	return parts[0] + "." + parts[1]
}

// ToolFor returns the newest ptxas that compiles for target.
func (t *Tools) ToolFor(target string) (Tool, bool) {
	for _, tool := range t.PTXAS {
		for _, x := range tool.Targets {
			if x == target {
				return tool, true
			}
		}
	}
	return Tool{}, false
}

// Targets returns every target some ptxas compiles for, oldest first.
func (t *Tools) Targets() []string {
	seen := map[string]bool{}
	var out []string
	for _, tool := range t.PTXAS {
		for _, x := range tool.Targets {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	ptxorder.SortTargets(out)
	return out
}

// Describe says which tools were found, in one line per tool, for build
// logs and the database's document list.
func (t *Tools) Describe() []string {
	var out []string
	for _, tool := range t.PTXAS {
		out = append(out, fmt.Sprintf("ptxas %s (CUDA %s, PTX ISA up to %s, %s-%s): %s", tool.Version, tool.Release, tool.MaxPTX, tool.Targets[0], tool.Targets[len(tool.Targets)-1], tool.Path))
	}
	if t.NVDisasm != "" {
		out = append(out, "nvdisasm "+t.NVDisasmVersion+": "+t.NVDisasm)
	}
	if t.CuObjdump != "" {
		out = append(out, "cuobjdump "+t.CuObjdumpVersion+": "+t.CuObjdump)
	}
	return out
}

// Install creates the virtual environment in cacheDir and installs the
// pinned wheels into it with pip, writing pip's progress to log. It needs
// python3 with venv and a reachable package index.
func Install(ctx context.Context, cacheDir string, log io.Writer) error {
	if cacheDir == "" {
		return errors.New("ptxas: no cache directory to install into")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		return errors.New("ptxas: python3 not found; install NVIDIA's wheels by hand and set GPUISA_PTXAS")
	}
	venv := VenvDir(cacheDir)
	if _, err := os.Stat(filepath.Join(venv, "bin", "python")); err != nil {
		if err := os.MkdirAll(cacheDir, 0o755); err != nil {
			return err
		}
		cmd := exec.CommandContext(ctx, python, "-m", "venv", venv)
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("ptxas: python3 -m venv %s: %w", venv, err)
		}
	}
	// --no-deps: the tools are self-contained binaries; their declared
	// dependencies (runtime, NVVM) are not needed to assemble PTX. Short
	// retries keep a build on a closed machine from hanging on pip.
	args := []string{"-m", "pip", "install", "--disable-pip-version-check", "--no-deps", "--quiet", "--retries", "1", "--timeout", "20"}
	for _, w := range Wheels {
		args = append(args, w.Package+"=="+w.Version)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(venv, "bin", "python"), args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("ptxas: pip install into %s: %w", venv, err)
	}
	return nil
}

// NVCC returns nvcc of the cache's virtual environment when its front end
// (cicc) and headers are installed beside it ("" otherwise).
func NVCC(cacheDir string) string {
	for _, sp := range sitePackages(cacheDir) {
		nvcc := filepath.Join(sp, "nvidia", "cu13", "bin", "nvcc")
		ok := fileExists(nvcc)
		for _, w := range Wheels {
			if w.Package == "nvidia-nvvm" || w.Package == "nvidia-cuda-crt" {
				ok = ok && fileExists(filepath.Join(sp, filepath.FromSlash(w.Binary)))
			}
		}
		if ok {
			return nvcc
		}
	}
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// CUDAInclude returns the folder holding cuda.h in the cache's virtual
// environment ("" when the runtime wheel is not installed).
func CUDAInclude(cacheDir string) string {
	for _, sp := range sitePackages(cacheDir) {
		d := filepath.Join(sp, "nvidia", "cu13", "include")
		if _, err := os.Stat(filepath.Join(d, "cuda.h")); err == nil {
			return d
		}
	}
	return ""
}

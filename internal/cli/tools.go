package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/oracle/llvmcap"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
)

// ptxasFlags are the flags every command that runs NVIDIA's tools takes.
type ptxasFlags struct {
	ptxas    []string
	nvdisasm string
	cache    string
}

func (f *ptxasFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&f.ptxas, "ptxas", nil, "ptxas binaries to use (default $GPUISA_PTXAS, else the cache's venv, else PATH)")
	cmd.Flags().StringVar(&f.nvdisasm, "nvdisasm", "", "nvdisasm binary (default $GPUISA_NVDISASM, else the cache's venv, else PATH)")
}

func (f *ptxasFlags) options() ptxas.FindOptions {
	dir := f.cache
	if dir == "" {
		dir = ptxas.DefaultCacheDir()
	}
	return ptxas.FindOptions{PTXAS: f.ptxas, NVDisasm: f.nvdisasm, CacheDir: dir}
}

func newToolsCmd(e *env) *cobra.Command {
	var flags ptxasFlags
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Show the oracle tools gpuisa found, their versions and what each covers; `tools install` installs them",
		Long: `Tools lists the machine oracles gpuisa checks its facts with, where it found each,
its version and what it covers: for AMD Debian's llvm-22 (llvm-mc: the gfx targets it
knows; llvm-mca: the cost model; opt: the constant folding the pseudocode is held to;
llc and llvm-objdump: the tests' listings) and llvm-22-doc (LLVM's syntax pages); for
PTX NVIDIA's ptxas (CUDA 13 for sm_75 and newer, CUDA 12.9 for sm_50-sm_72), nvdisasm
and cuobjdump, and nvcc with its front end (cicc) and headers, which compiles the PTX
checker's corpus of CUDA kernels. An older LLVM is named with what it cannot check (the families whose
targets llvm-mc does not know), and every missing tool with the command that fixes it.

  gpuisa tools install   installs llvm-22 and llvm-22-doc with apt-get when they are
                         missing and it runs as root (else prints the command), then
                         creates a Python virtual environment in gpuisa's cache
                         directory and installs the pinned NVIDIA wheels into it
                         (needs python3 and the Python package index).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, t := range llvmcap.Survey(cmd.Context()) {
				fmt.Fprintln(e.stdout, t.Line())
			}
			tools, err := ptxas.Find(cmd.Context(), flags.options())
			if err != nil && !errors.Is(err, ptxas.ErrNotFound) {
				return err
			}
			if err != nil {
				fmt.Fprintf(e.stdout, "ptxas: not found: %v; PTX forms and examples not verified; to install: gpuisa tools install\n", err)
				return nil
			}
			for _, line := range tools.Describe() {
				fmt.Fprintln(e.stdout, line)
			}
			if tools.NVDisasm == "" {
				fmt.Fprintln(e.stdout, "nvdisasm: not found: no SASS listings; to install: gpuisa tools install")
			}
			if tools.CuObjdump == "" {
				fmt.Fprintln(e.stdout, "cuobjdump: not found; to install: gpuisa tools install")
			}
			if p := ptxas.NVCC(flags.options().CacheDir); p != "" {
				fmt.Fprintln(e.stdout, "nvcc: "+p)
			} else {
				fmt.Fprintln(e.stdout, "nvcc: not found (the PTX checker's CUDA corpus needs it; `gpuisa tools install`)")
			}
			return nil
		},
	}
	flags.register(cmd)
	cmd.Flags().StringVar(&flags.cache, "cache", "", "gpuisa's cache directory (default: the user cache directory/gpuisa)")
	install := &cobra.Command{
		Use:   "install",
		Short: "Install the pinned NVIDIA wheels (ptxas, nvdisasm, cuobjdump) into the cache's virtual environment",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir := flags.cache
			if dir == "" {
				dir = ptxas.DefaultCacheDir()
			}
			installLLVM(cmd.Context(), e.stderr)
			for _, w := range ptxas.Wheels {
				fmt.Fprintf(e.stderr, "installing %s==%s into %s\n", w.Package, w.Version, ptxas.VenvDir(dir))
			}
			if err := ptxas.Install(cmd.Context(), dir, e.stderr); err != nil {
				return err
			}
			tools, err := ptxas.Find(cmd.Context(), ptxas.FindOptions{CacheDir: dir})
			if err != nil {
				return err
			}
			for _, line := range tools.Describe() {
				fmt.Fprintln(e.stdout, line)
			}
			return nil
		},
	}
	install.Flags().StringVar(&flags.cache, "cache", "", "gpuisa's cache directory (default: the user cache directory/gpuisa)")
	cmd.AddCommand(install)
	return cmd
}

// installLLVM installs llvm-22 and llvm-22-doc when missing and it may,
// else prints the command; a failure is reported, not returned, so the
// NVIDIA wheels are installed anyway.
func installLLVM(ctx context.Context, log io.Writer) {
	missing := llvmcap.Missing()
	if len(missing) == 0 {
		return
	}
	what := strings.Join(missing, " and ")
	if ok, why := llvmcap.CanInstall(); !ok {
		fmt.Fprintf(log, "%s not installed (%s): to install: %s\n", what, why, llvmcap.InstallCommand)
		return
	}
	fmt.Fprintf(log, "installing %s with apt-get\n", what)
	if err := llvmcap.Install(ctx, missing, log); err != nil {
		fmt.Fprintf(log, "installing %s failed: %v\n", what, err)
	}
}

package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
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
		Short: "Show the oracle tools gpuisa found (llvm-mc, ptxas, nvdisasm); `tools install` installs NVIDIA's",
		Long: `Tools lists the machine oracles gpuisa checks its facts with and where it found them:
llvm-mc-22 (Debian's llvm-22) for AMD, and NVIDIA's ptxas (CUDA 13 for sm_75 and newer,
CUDA 12.9 for sm_50-sm_72), nvdisasm and cuobjdump for PTX, and nvcc with its front
end (cicc) and headers, which compiles the PTX checker's corpus of CUDA kernels.

  gpuisa tools install   creates a Python virtual environment in gpuisa's cache
                         directory and installs the pinned NVIDIA wheels into it
                         (needs python3 and the Python package index).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if p, err := verify.FindLLVMMC(); err == nil {
				v, _ := verify.Version(cmd.Context(), p)
				fmt.Fprintf(e.stdout, "llvm-mc: %s (%s)\n", p, v)
			} else {
				fmt.Fprintf(e.stdout, "llvm-mc: not found: %v\n", err)
			}
			tools, err := ptxas.Find(cmd.Context(), flags.options())
			if err != nil && !errors.Is(err, ptxas.ErrNotFound) {
				return err
			}
			if err != nil {
				fmt.Fprintf(e.stdout, "ptxas: not found: %v\n", err)
				return nil
			}
			for _, line := range tools.Describe() {
				fmt.Fprintln(e.stdout, line)
			}
			if tools.NVDisasm == "" {
				fmt.Fprintln(e.stdout, "nvdisasm: not found (SASS listings need it; `gpuisa tools install`)")
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

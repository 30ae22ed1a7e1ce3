package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/semgpu"
	"github.com/gpuisa/gpuisa/internal/ptx/semptx"
)

func newSemGPUCmd(e *env) *cobra.Command {
	var flags ptxasFlags
	var out string
	var random int
	cmd := &cobra.Command{
		Use:   "semgpu --out DIR",
		Short: "Write the PTX kernels that check gpuisa's PTX models on an NVIDIA GPU, and their host program",
		Long: `Semgpu writes, for every PTX instruction gpuisa models from NVIDIA's Semantics and
Description (the PTX side of the concepts' differences by evaluation: max, min, add, sub,
mul, fma, setp, shl, shr, ...), a kernel that applies it to the special-value corpus
(signed zeros, infinities, quiet and signalling NaNs, subnormals, extremes, rounding
boundaries, random values), and a CUDA host program that runs them and prints a results
file. ptxas checks every kernel (sm_90); those it rejects are left out and named.

On the GPU machine:  cd DIR && nvcc -o semgpu semgpu.cu -lcuda && ./semgpu sem.ptx > results.tsv
Then:                gpuisa build --sem-results DIR/results.tsv
/quality then says where the hardware and the models differ. The results are generated
data: do not commit them.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return errs.Invalid("semgpu: --out DIR is required")
			}
			b, err := semgpu.Generate(semptx.Models(), semgpu.Options{Random: random})
			if err != nil {
				return err
			}
			tools, err := ptxas.Find(cmd.Context(), flags.options())
			if err != nil {
				return errs.Invalid("%v", err)
			}
			var units []ptxas.Unit
			for _, k := range b.Kernels {
				units = append(units, ptxas.Unit{Entry: k.EntryText()})
			}
			s := ptxas.NewSession(tools, flags.options().CacheDir)
			res, err := s.Assemble(cmd.Context(), semgpu.Version, semgpu.Target, units)
			if err != nil {
				return err
			}
			keep := make([]bool, len(res))
			for i, o := range res {
				keep[i] = o.OK
				if !o.OK {
					fmt.Fprintf(e.stderr, "skipped: %s: ptxas rejects its kernel: %s\n", b.Kernels[i].Stmt, o.Message())
				}
			}
			kept := b.Keep(keep)
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			for name, text := range map[string]string{"sem.ptx": kept.Module, "semgpu.cu": kept.Host} {
				if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
					return err
				}
			}
			n := 0
			for _, k := range kept.Kernels {
				n += len(k.Inputs)
			}
			fmt.Fprintf(e.stdout, "wrote %s and %s: %d kernels, %d cases (PTX ISA %s, %s)\n", filepath.Join(out, "sem.ptx"),
				filepath.Join(out, "semgpu.cu"), len(kept.Kernels), n, semgpu.Version, semgpu.Target)
			fmt.Fprintf(e.stdout, "on the GPU: cd %s && nvcc -o semgpu semgpu.cu -lcuda && ./semgpu sem.ptx > results.tsv\n", out)
			fmt.Fprintf(e.stdout, "then:       gpuisa build --sem-results %s\n", filepath.Join(out, "results.tsv"))
			return nil
		},
	}
	flags.register(cmd)
	cmd.Flags().StringVar(&out, "out", "", "directory to write sem.ptx and semgpu.cu into")
	cmd.Flags().IntVar(&random, "random", 0, "random cases per instruction beside the special values (default 200)")
	return cmd
}

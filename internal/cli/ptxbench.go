package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxbench"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
)

func init() { ptxSubcommands = append(ptxSubcommands, newPTXBenchCmd) }

func newPTXBenchCmd(e *env) *cobra.Command {
	var flags ptxasFlags
	var out, target, version string
	cmd := &cobra.Command{
		Use:   "bench --out DIR [--target sm_90] ['STATEMENT;' ...]",
		Short: "Write microbenchmarks that time PTX instructions on an NVIDIA GPU (latency and throughput per warp)",
		Long: `Bench writes, for each statement (default: ` + fmt.Sprint(len(ptxbench.DefaultStatements)) + ` arithmetic, logic and special-function
forms), a latency kernel (a chain of ` + fmt.Sprint(ptxbench.Chain) + ` dependent instructions) and a throughput kernel (` + fmt.Sprint(ptxbench.Streams) + `
independent chains), timed with %clock64 on one warp, and a CUDA host program that runs
them and prints a results file. ptxas checks every kernel, and nvdisasm that the compiler
kept the chain (a statement whose chain it folds, such as and.b32 r, r, b repeated, is left
out and named).

On the GPU machine:  cd DIR && nvcc -o bench bench.cu -lcuda && ./bench > results.json
Then:                gpuisa build --timings DIR/results.json
The results are generated data: do not commit them.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return errs.Invalid("ptx bench: --out DIR is required")
			}
			instrs, err := e.ptxModel(cmd.Context())
			if err != nil {
				return err
			}
			tools, err := ptxas.Find(cmd.Context(), flags.options())
			if err != nil {
				return errs.Invalid("%v", err)
			}
			stmts := args
			if len(stmts) == 0 {
				stmts = ptxbench.DefaultStatements
			}
			h := ptxharness.NewHarness(instrs)
			s := ptxas.NewSession(tools, flags.options().CacheDir)
			defer s.Release() // keeps what ptxas said for the next run
			var benches []ptxbench.Bench
			var units []ptxas.Unit
			for _, st := range stmts {
				b, err := ptxbench.Make(h, st, version, target)
				if err != nil {
					fmt.Fprintf(e.stderr, "skipped: %v\n", err)
					continue
				}
				benches = append(benches, b)
				units = append(units, ptxbench.Unit(b.Latency), ptxbench.Unit(b.Throughput))
			}
			res, err := s.Assemble(cmd.Context(), version, target, units)
			if err != nil {
				return err
			}
			var lat []ptxas.Unit
			var ok []ptxbench.Bench
			for i, b := range benches {
				if m := res[2*i].Message() + res[2*i+1].Message(); m != "" {
					fmt.Fprintf(e.stderr, "skipped: %s: ptxas rejects its kernel: %s\n", b.Statement, m)
					continue
				}
				ok = append(ok, b)
				lat = append(lat, units[2*i])
			}
			kept := ok
			if tools.NVDisasm != "" {
				ls, err := s.Disassemble(cmd.Context(), version, target, lat)
				if err != nil {
					return err
				}
				kept = nil
				for i, l := range ls {
					if n := ptxbench.Unrolled(l.Lines); n < ptxbench.Chain {
						fmt.Fprintf(e.stderr, "skipped: %s: the compiler folds its %d-instruction chain to %d instructions\n", ok[i].Statement, ptxbench.Chain, n)
						continue
					}
					kept = append(kept, ok[i])
				}
			}
			if err := os.MkdirAll(filepath.Join(out, "kernels"), 0o755); err != nil {
				return err
			}
			for i, b := range kept {
				base := filepath.Join(out, "kernels", fmt.Sprintf("%02d", i))
				if err := os.WriteFile(base+"-lat.ptx", []byte(b.Latency), 0o644); err != nil {
					return err
				}
				if err := os.WriteFile(base+"-tput.ptx", []byte(b.Throughput), 0o644); err != nil {
					return err
				}
			}
			if err := os.WriteFile(filepath.Join(out, "bench.cu"), []byte(ptxbench.HostProgram(kept)), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote %d benchmarks for %s to %s: cd %s && nvcc -o bench bench.cu -lcuda && ./bench > results.json\n",
				len(kept), target, out, out)
			return nil
		},
	}
	flags.register(cmd)
	cmd.Flags().StringVar(&out, "out", "", "directory to write the kernels and the host program to")
	cmd.Flags().StringVar(&target, "target", "sm_90", "sm_ target of the GPU that will run them")
	cmd.Flags().StringVar(&version, "ptx-version", "8.0", "PTX ISA version of the kernels")
	return cmd
}

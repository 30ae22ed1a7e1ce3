package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

func newVerifyCmd(e *env) *cobra.Command {
	var opts ingest.Options
	var quiet, full bool
	cmd := &cobra.Command{
		Use:   "verify [--sources DIR] [--cache DIR] [--llvm-doc DIR] [--llvm-project DIR]",
		Short: "Assemble every example with llvm-mc and every PTX form and example with ptxas, and print a summary",
		Long: `Verify reads the AMD sources and LLVM's syntax pages, builds an example for every AMD
instruction (verbatim from LLVM's MC tests with --llvm-project, else from the documented
syntax), assembles all of them with llvm-mc (one process per gfx target; results cached
by llvm-mc version, target and line in --cache, default the user cache directory) and
prints the per-family summary of the quality report. Then it assembles every documented
PTX form, its optional modifiers and NVIDIA's example statements with ptxas on every sm_
target (--no-ptxas skips that) and summarises what ptxas said. It does not write the
database; gpuisa build runs the same verification.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			prog := e.progress(quiet)
			archs, insts, _, err := ingest.LoadAMD(cmd.Context(), opts.Sources, prog)
			if err != nil {
				return err
			}
			res, err := ingest.ApplyLLVM(cmd.Context(), opts, archs, insts, prog)
			if err != nil {
				return err
			}
			if !quiet {
				for _, p := range res.Problems {
					fmt.Fprintln(e.stderr, "note: "+p)
				}
			}
			if full {
				if err := quality.WriteText(e.stdout, res.Report); err != nil {
					return err
				}
			} else if err := quality.WriteSummary(e.stdout, res.Report); err != nil {
				return err
			}
			if opts.NoPTXAS {
				return nil
			}
			ptxRep, err := ingest.VerifyPTX(cmd.Context(), opts, prog)
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout)
			return quality.WritePTXSummary(e.stdout, ptxRep)
		},
	}
	cmd.Flags().StringVar(&opts.Sources, "sources", "", "upstream sources directory")
	cmd.Flags().StringVar(&opts.CacheDir, "cache", "", "llvm-mc result cache (default: the user cache directory/gpuisa)")
	cmd.Flags().StringVar(&opts.LLVMDocDir, "llvm-doc", "", "LLVM's html documentation folder (default: the llvm-NN-doc package's)")
	cmd.Flags().StringVar(&opts.LLVMProject, "llvm-project", "", "an llvm-project checkout whose MC tests give verbatim examples")
	cmd.Flags().BoolVar(&opts.NoPTXAS, "no-ptxas", false, "skip the PTX verification with ptxas")
	cmd.Flags().BoolVar(&opts.NoInstall, "no-install", false, "do not install NVIDIA's wheels when no ptxas is found")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print only the summary")
	cmd.Flags().BoolVar(&full, "full", false, "print the whole quality report, not only the summary")
	return cmd
}

package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

func newQualityCmd(e *env) *cobra.Command {
	var asJSON, summary bool
	cmd := &cobra.Command{
		Use:   "quality [--json] [--summary]",
		Short: "Print the data-quality report stored by the last build",
		Long: `Quality prints the data-quality report the build stored in the database: per AMD
family, how many instructions LLVM's syntax pages describe, how many have an example
llvm-mc accepted on one of the family's targets (the share; the target is 90%), what
matches nothing on either side (AMD only, LLVM only), what AMD documents that llvm-mc
rejects on every target of the family, and every disagreement between llvm-mc's
encodings and AMD's identifiers.

For PTX it prints what NVIDIA's assembler said about the documentation: the ptxas
and nvdisasm versions, the run, how many documented forms and example statements
ptxas accepts, and, kind by kind, where the two disagree — the documentation asks
for more than ptxas needs (too strict), allows less than ptxas accepts (too loose),
NVIDIA's own example statements ptxas rejects (errata) — then the forms ptxas
rejects and the statements that could not be verified, each with both values or
ptxas's message and the documentation file and line.

--summary prints only the counts and the per-family table; --json the whole report
(its "ptx" object holds the PTX findings).`,
		Args: cobra.NoArgs,
		RunE: e.withDB(func(cmd *cobra.Command, _ []string, db *store.DB) error {
			raw, err := db.Extra(cmd.Context(), store.KeyQuality)
			if err != nil {
				return err
			}
			var rep quality.Report
			if err := json.Unmarshal(raw, &rep); err != nil {
				return fmt.Errorf("quality report in %s: %w", e.dbPath, err)
			}
			switch {
			case asJSON:
				return e.writeJSON(rep)
			case summary:
				return quality.WriteSummary(e.stdout, rep)
			}
			return quality.WriteText(e.stdout, rep)
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&summary, "summary", false, "print only the per-family table")
	return cmd
}

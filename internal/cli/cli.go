// Package cli implements gpuisa's subcommands (build, serve, archs, list,
// show, search and the tools) over the build pipeline and the store; the
// main package only calls Main.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/store"
)

// env carries the streams a command writes to, so tests can run commands
// in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	dbPath         string
}

// Main runs gpuisa with args and returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A hidden hook: GPUISA_CPUPROFILE (and GPUISA_MEMPROFILE) profile any
	// command as a whole process, the way its users run it; build has its
	// own flags for the same.
	if cpu, mem := os.Getenv("GPUISA_CPUPROFILE"), os.Getenv("GPUISA_MEMPROFILE"); cpu != "" || mem != "" {
		if stopProf, err := startProfiles(cpu, mem); err == nil {
			defer stopProf()
		}
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRoot(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	var code exitCode
	if errors.As(err, &code) {
		return int(code)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gpuisa: "+oneLine(err))
		if errs.KindOf(err) == errs.KindOther && isUsageError(err) {
			return 2
		}
		return errs.ExitCode(err)
	}
	return 0
}

// exitCode lets a command choose its status after printing its own output
// (the PTX checker: 1 when an instruction is invalid).
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// oneLine renders an error with its suggestions on one line.
func oneLine(err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if s := errs.SuggestionsOf(err); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, ", ") + "?)"
	}
	return msg
}

// isUsageError recognises cobra's flag and argument errors, which are bad
// input like any other (exit 2).
func isUsageError(err error) bool {
	m := err.Error()
	for _, p := range []string{"unknown flag", "unknown shorthand", "unknown command", "accepts ", "requires ", "invalid argument", "flag needs", "bad flag"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "gpuisa",
		Short: "GPU instruction-set reference for AMD GPUs and NVIDIA PTX",
		Long: `gpuisa is a cross-vendor GPU instruction-set reference: every AMD GPU
instruction (RDNA 1-4, CDNA 1-5, Vega) and every NVIDIA PTX instruction with
its encoding, operands, semantics, examples and target compatibility, built from
the vendors' own documents into one SQLite database.

Start with:  gpuisa build && gpuisa serve`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.PersistentFlags().StringVar(&e.dbPath, "db", defaultDB(), "database file (default $GPUISA_DB, else ./gpuisa.db; for lsp, else the gpuisa.db beside the executable)")
	root.AddCommand(
		newBuildCmd(e), newServeCmd(e), newArchsCmd(e), newListCmd(e), newShowCmd(e), newSearchCmd(e),
		newConceptsCmd(e), newPortCmd(e), newCostCmd(e), newDiffCmd(e), newEvalCmd(e), newExportCmd(e),
		newDecodeCmd(e), newEncodeCmd(e), newExplainCmd(e), newLSPCmd(e), newPTXCmd(e),
		newQualityCmd(e), newSemGPUCmd(e), newToolsCmd(e), newVerifyCmd(e),
	)
	return root
}

func defaultDB() string {
	if p := os.Getenv("GPUISA_DB"); p != "" {
		return p
	}
	return "gpuisa.db"
}

func (e *env) open() (*store.DB, error) {
	return store.Open(e.dbPath)
}

// withDB makes fn a command's RunE that opens the database first and
// closes it when fn returns.
func (e *env) withDB(fn func(cmd *cobra.Command, args []string, db *store.DB) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		db, err := e.open()
		if err != nil {
			return err
		}
		defer db.Close()
		return fn(cmd, args, db)
	}
}

func (e *env) writeJSON(v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

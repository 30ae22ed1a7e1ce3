package cli

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/serve/lsp"
)

func newLSPCmd(e *env) *cobra.Command {
	var opts lsp.Options
	var stdio bool
	cmd := &cobra.Command{
		Use:   "lsp [--db FILE] [--target gfx942] [--verify]",
		Short: "Language server for AMDGPU assembly and PTX (LSP over stdio)",
		Long: `Lsp speaks the Language Server Protocol on standard input and output for AMDGPU
assembly (.s, .asm, .gcn, .amdgcn) and PTX (.ptx): hover on mnemonics, PTX modifiers,
registers and modifiers; completion of the mnemonics the file's target accepts, PTX
modifiers and registers; signature help; diagnostics (unknown mnemonics, instructions
llvm-mc rejects on the target with the spelling it takes, PTX the checker rejects or that
needs a newer .version/.target); go to definition and references of labels and PTX
registers; document symbols; a code action that writes the spelling the target accepts.

An AMDGPU file's target is its .amdgcn_target, else the client's gpuisa.target setting
(or --target), else a "; gpuisa: target=gfx1100" comment. With gpuisa.verify (or
--verify) llvm-mc or ptxas also runs on the file in the background. Client settings
arrive as initializationOptions or workspace/didChangeConfiguration:
{"gpuisa": {"target": "gfx942", "verify": false, "url": "http://localhost:8080"}}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A missing database is not an exit: the server starts and
			// says so to the editor (an exit shows only as "client quit").
			opts.DB = e.dbPath
			if !cmd.Flags().Changed("db") && os.Getenv("GPUISA_DB") == "" {
				opts.DB = editorDB(e.dbPath)
			}
			opts.Log = e.stderr
			opts.In, opts.Out = e.stdin, e.stdout
			return lsp.Run(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Target, "target", "", "gfx target for AMDGPU files that name none (the client's gpuisa.target overrides it)")
	cmd.Flags().BoolVar(&opts.Verify, "verify", false, "run llvm-mc / ptxas on open files in the background")
	cmd.Flags().StringVar(&opts.URL, "url", "", "where gpuisa's pages are served, for hover links (default http://localhost:8080)")
	cmd.Flags().BoolVar(&stdio, "stdio", true, "speak on standard input and output (the only transport; editors pass it)")
	return cmd
}

// editorDB is the database an editor's server reads when none is named:
// ./gpuisa.db in the editor's working folder, else the gpuisa.db beside
// the executable, which is where the README's `go build -o gpuisa` and
// `gpuisa build` put the two in a checkout (editors start the server in
// the user's project, not there).
func editorDB(def string) string {
	if _, err := os.Stat(def); err == nil {
		return def
	}
	exe, err := os.Executable()
	if err != nil {
		return def
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	beside := filepath.Join(filepath.Dir(exe), "gpuisa.db")
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return def
}

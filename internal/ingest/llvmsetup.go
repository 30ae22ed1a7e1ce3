package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/oracle/llvmcap"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// ensureLLVM installs Debian's llvm-22 and llvm-22-doc when the build
// would miss them and may install (root, apt-get, no --no-install), saying
// so in one line; else it names the command that does. Installing is
// bounded (llvmcap.InstallTimeout) and its failure does not fail the
// build: it goes on with the LLVM it finds, whose gaps the report names.
func ensureLLVM(ctx context.Context, opts Options, log io.Writer) {
	missing := llvmcap.Missing()
	if opts.LLVMDocDir != "" || os.Getenv("GPUISA_LLVM_DOC") != "" {
		missing = slices.DeleteFunc(missing, func(p string) bool { return p == llvmcap.Packages[1] })
	}
	if opts.NoVerify || os.Getenv("GPUISA_LLVM_MC") != "" {
		missing = slices.DeleteFunc(missing, func(p string) bool { return p == llvmcap.Packages[0] })
	}
	if dir := llvmcap.OffPath(); dir != "" && os.Getenv("GPUISA_LLVM_MC") == "" && !opts.NoVerify {
		fmt.Fprintf(log, "llvm-22 is installed in %s but llvm-mc-22 is not on PATH: put %s first on PATH, or set GPUISA_LLVM_MC=%s/llvm-mc (and GPUISA_LLVM_MCA, GPUISA_OPT)\n", dir, dir, dir)
	}
	if len(missing) == 0 {
		return
	}
	what := strings.Join(missing, " and ")
	if opts.NoInstall {
		fmt.Fprintf(log, "%s not installed (--no-install): going on with the LLVM found; to install: %s\n", what, llvmcap.InstallCommand)
		return
	}
	if ok, why := llvmcap.CanInstall(); !ok {
		fmt.Fprintf(log, "%s not installed (%s, so the build does not install them): going on with the LLVM found; to install: %s\n", what, why, llvmcap.InstallCommand)
		return
	}
	fmt.Fprintf(log, "%s not installed: installing with apt-get (--no-install skips this)\n", what)
	var out bytes.Buffer
	if err := llvmcap.Install(ctx, missing, &out); err != nil {
		fmt.Fprintf(log, "installing %s failed: %v%s; going on with the LLVM found\n", what, err, lastLine(out.String()))
	}
}

// lastLine is ": " and the last non-empty line of s, or "".
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return ": " + l
	}
	return ""
}

// logGaps prints once what the LLVM found could not check, with the fix.
func logGaps(log io.Writer, rep *quality.Report) {
	for _, g := range rep.OracleGaps() {
		fmt.Fprintf(log, "%s (%s): %s\n", g.Tool, g.Step, g)
	}
}

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxoracle"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/spf13/cobra"
)

// maxStatement bounds one instruction given on the command line.
const maxStatement = 4096

// liveEngine finds NVIDIA's tools (never installing them) and sets up an
// engine over the database's PTX model.
func liveEngine(ctx context.Context, instrs []ptx.Instruction, flags ptxasFlags) (*ptxoracle.Engine, error) {
	tools, err := ptxas.Find(ctx, flags.options())
	if err != nil {
		if errors.Is(err, ptxas.ErrNotFound) {
			return nil, errs.Invalid("%v", err)
		}
		return nil, err
	}
	s := ptxas.NewSession(tools, flags.options().CacheDir)
	s.ParseOnly = true
	return ptxoracle.New(ctx, s, ptxharness.NewHarness(instrs), ptxoracle.Options{})
}

// runPTXASCheck is `ptx check --ptxas`: ptxas's verdict beside the
// checker's, on the file as written or on one instruction.
func runPTXASCheck(ctx context.Context, e *env, instrs []ptx.Instruction, args, targets []string) (int, error) {
	eng, err := liveEngine(ctx, instrs, ptxasFlags{})
	if eng != nil {
		defer eng.Session.Release() // keeps what ptxas said for the next run
	}
	if err != nil {
		return 2, err
	}
	if len(args) != 1 {
		return 2, nil
	}
	if st, err := os.Stat(args[0]); err == nil && !st.IsDir() {
		return checkFileWithPTXAS(ctx, e, eng, instrs, args[0], targets)
	}
	if len(args[0]) > maxStatement {
		return 2, errs.Invalid("ptx check: the instruction is %d bytes; at most %d", len(args[0]), maxStatement)
	}
	vs, err := eng.Check(ctx, []ptxoracle.Item{{Stmt: ptx.Statement{Text: args[0]}}})
	if err != nil {
		return 2, err
	}
	v := vs[0]
	fmt.Fprintf(e.stdout, "ptxas: %s\n", describeVerdict(v, targets))
	if v.Status == ptxoracle.Accepted {
		return 0, nil
	}
	return 1, nil
}

// describeVerdict says in one line what ptxas said about a statement.
func describeVerdict(v ptxoracle.Verdict, targets []string) string {
	switch v.Status {
	case ptxoracle.NotVerified:
		return "not verified: " + v.Message
	case ptxoracle.Rejected:
		return "rejected on every target: " + v.Message
	}
	target, version, floor := v.MinTarget()
	s := fmt.Sprintf("accepted from %s with PTX ISA %s", target, version)
	if floor {
		s += " (the oldest version that target allows; older ones cannot be tested)"
	}
	var no []string
	for _, t := range v.Targets {
		if len(targets) > 0 && !slices.Contains(targets, t.Target) {
			continue
		}
		if !t.OK && ptxorder.TargetNumber(t.Target) >= ptxorder.TargetNumber(target) {
			no = append(no, t.Target)
		}
	}
	if len(targets) > 0 {
		var yes []string
		for _, t := range v.Targets {
			if slices.Contains(targets, t.Target) && t.OK {
				yes = append(yes, t.Target)
			}
		}
		s = fmt.Sprintf("%s; on %s: accepted on %s", s, strings.Join(targets, ", "), orNone(yes))
	}
	if len(no) > 0 {
		s += "; rejected on " + strings.Join(no, ", ")
	}
	return s
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// checkFileWithPTXAS assembles a whole file for each target and prints
// every line where ptxas and the checker disagree.
func checkFileWithPTXAS(ctx context.Context, e *env, eng *ptxoracle.Engine, instrs []ptx.Instruction, path string, targets []string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 2, err
	}
	rep := ptx.NewChecker(instrs).CheckSource(path, string(data))
	if len(targets) == 0 && rep.Target != "" {
		targets = []string{rep.Target}
	}
	if len(targets) == 0 {
		targets = []string{"sm_90"}
	}
	code := 0
	for _, tg := range targets {
		// The checker rejects a line on tg when it is invalid or needs a
		// newer target.
		checkerInvalid := map[int]string{}
		for _, r := range rep.Results {
			switch {
			case !r.Valid:
				checkerInvalid[r.Line] = r.Reason
			case r.MinTarget != "" && !r.Allows(tg):
				checkerInvalid[r.Line] = "needs " + r.MinTarget
			}
		}
		msgs, err := eng.Session.AssembleModule(ctx, tg, string(data))
		if err != nil {
			return 2, err
		}
		errLines := map[int]string{}
		nerr := 0
		for _, m := range msgs {
			if m.Severity == "warning" {
				continue
			}
			nerr++
			if _, ok := errLines[m.Line]; !ok {
				errLines[m.Line] = m.Message
			}
			if m.Line == 0 {
				fmt.Fprintf(e.stdout, "ptxas %s: %s\n", tg, m.Message)
			}
		}
		if nerr == 0 {
			fmt.Fprintf(e.stdout, "ptxas %s: the file assembles\n", tg)
		} else {
			code = 1
			fmt.Fprintf(e.stdout, "ptxas %s: %d errors\n", tg, nerr)
		}
		for _, r := range rep.Results {
			pmsg, pBad := errLines[r.Line]
			cmsg, cBad := checkerInvalid[r.Line]
			switch {
			case pBad && cBad:
				fmt.Fprintf(e.stdout, "%s:%d: ptxas %s and the checker reject: %s: %s (checker: %s)\n", path, r.Line, tg, r.Text, pmsg, cmsg)
			case pBad:
				fmt.Fprintf(e.stdout, "%s:%d: ptxas %s rejects, the checker accepts: %s: %s\n", path, r.Line, tg, r.Text, pmsg)
			case cBad:
				fmt.Fprintf(e.stdout, "%s:%d: the checker rejects, ptxas %s accepts: %s: %s\n", path, r.Line, tg, r.Text, cmsg)
			}
		}
		for line, msg := range errLines {
			if line > 0 && !lineChecked(rep, line) {
				fmt.Fprintf(e.stdout, "%s:%d: ptxas %s: %s\n", path, line, tg, msg)
			}
		}
	}
	return code, nil
}

func lineChecked(rep ptx.FileReport, line int) bool {
	for _, r := range rep.Results {
		if r.Line == line {
			return true
		}
	}
	return false
}

func newPTXSASSCmd(e *env) *cobra.Command {
	var flags ptxasFlags
	var targets []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sass 'INSTRUCTION;' [--target sm_90,...] [--json]",
		Short: "Show the SASS ptxas generates for one PTX instruction on each target",
		Long: `Sass puts the instruction into a small kernel (its registers declared, inputs loaded,
results stored), has NVIDIA's ptxas compile it for each target and prints, from nvdisasm's
listing, the instructions the statement itself became — the kernel's own loads and stores
taken out — with the control information of each (stall cycles, yield bit, barriers).

Targets default to one per GPU generation: ` + strings.Join(ptxoracle.SASSTargets, ", ") + `.
Needs ptxas and nvdisasm (gpuisa tools install). Exit status 1 when ptxas rejects the
instruction on every target asked for.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if len(args[0]) > maxStatement {
				return errs.Invalid("ptx sass: the instruction is %d bytes; at most %d", len(args[0]), maxStatement)
			}
			instrs, err := e.ptxModel(ctx)
			if err != nil {
				return err
			}
			eng, err := liveEngine(ctx, instrs, flags)
			if eng != nil {
				defer eng.Session.Release() // keeps what ptxas said for the next run
			}
			if err != nil {
				return err
			}
			if eng.Session.Tools.NVDisasm == "" {
				return errs.Invalid("nvdisasm not found: run `gpuisa tools install` or pass --nvdisasm")
			}
			if len(targets) == 0 {
				targets = ptxoracle.SASSTargets
			}
			vs, err := eng.Check(ctx, []ptxoracle.Item{{Stmt: ptx.Statement{Text: args[0]}}})
			if err != nil {
				return err
			}
			v := vs[0]
			if v.Status != ptxoracle.Accepted {
				fmt.Fprintf(e.stdout, "ptxas: %s\n", describeVerdict(v, nil))
				return exitCode(1)
			}
			sass, err := eng.SASS(ctx, vs, map[int]bool{0: true}, targets, nil)
			if err != nil {
				return err
			}
			byTarget := map[string]isa.SASS{}
			for _, s := range sass[0] {
				byTarget[s.Target] = s
			}
			type row struct {
				Target  string         `json:"target"`
				Status  string         `json:"status"`
				Message string         `json:"message,omitempty"`
				Lines   []isa.SASSLine `json:"lines"`
			}
			var rows []row
			listed := false
			for _, tg := range targets {
				r := row{Target: tg, Status: "unsupported", Lines: []isa.SASSLine{}}
				for _, t := range v.Targets {
					if t.Target == tg {
						r.Message = t.Message
						if t.OK {
							r.Status, r.Message = "supported", ""
						}
					}
				}
				if s, ok := byTarget[tg]; ok {
					r.Lines = s.Lines
					listed = true
				}
				rows = append(rows, r)
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(map[string]any{"statement": v.Stmt.Text, "targets": rows}); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(e.stdout, "%s\n", v.Stmt.Text)
				for _, r := range rows {
					if r.Status != "supported" {
						fmt.Fprintf(e.stdout, "%s: not supported: %s\n", r.Target, r.Message)
						continue
					}
					fmt.Fprintf(e.stdout, "%s:\n", r.Target)
					for _, l := range r.Lines {
						fmt.Fprintf(e.stdout, "    %-52s // %s\n", l.Text, l.Control)
					}
					if len(r.Lines) == 0 {
						fmt.Fprintln(e.stdout, "    (no instruction of its own: the compiler folded it into the kernel's loads and stores)")
					}
				}
			}
			if !listed {
				return exitCode(1)
			}
			return nil
		},
	}
	flags.register(cmd)
	cmd.Flags().StringSliceVar(&targets, "target", nil, "sm_ targets (default: one per GPU generation)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/spf13/cobra"
)

func newPTXCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ptx",
		Short: "PTX tools (check, sass)",
	}
	check := &cobra.Command{
		Use:   "check 'INSTRUCTION;' | FILE.ptx [--target sm_XX] [--ptxas] [--json]",
		Short: "Check PTX against NVIDIA's documented forms",
		Long: `Check validates PTX against the syntax forms of NVIDIA's PTX ISA documentation.

With an instruction ('max.NaN.f32 d, a, b;') it says whether a documented form accepts
it — or why not: unknown mnemonic, unknown modifier, a modifier not allowed with this
type, the wrong number of operands — and for valid ones the minimum PTX ISA version and
sm_ target it needs. With a .ptx file it checks every instruction and reports the
overall minimum .version/.target and the lines that raise it. A statement is judged
where it is assembled: with the file's .version and .target, or the targets of
--target, a statement that needs a later target or version ("needs sm_80; the file's
.target is sm_75"), or whose form that target and version no longer support (shfl
without .sync on sm_70 and later from PTX ISA 6.4), is invalid. Special registers
count with their own version, target and type. A file whose .version is newer than
the documents says so, and statements the documents do not know are not judged.

The rules come from the documentation, corrected by ptxas's verdicts on every form and
modifier where the database was built with ptxas. With --ptxas the real assembler also
runs, on the file as written or on the instruction in a small kernel, for the targets
of --target (default: the file's .target, or every target ptxas knows), and both
verdicts are reported.

Exit status: 0 when every instruction is valid, 1 when one is not, 2 on unusable input.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := takeDBFlag(e, args)
			if err != nil {
				return err
			}
			live, targets := false, []string(nil)
			var rest []string
			for i := 0; i < len(args); i++ {
				a := args[i]
				switch {
				case a == "-h" || a == "--help":
					return cmd.Help()
				case a == "--ptxas":
					live = true
				case a == "--target" && i+1 < len(args):
					targets = append(targets, strings.Split(args[i+1], ",")...)
					i++
				case strings.HasPrefix(a, "--target="):
					targets = append(targets, strings.Split(strings.TrimPrefix(a, "--target="), ",")...)
				default:
					rest = append(rest, a)
				}
			}
			instrs, err := e.ptxModel(cmd.Context())
			if err != nil {
				return err
			}
			code := ptx.RunCheck(rest, e.stdout, e.stderr, instrs, targets...)
			if live && code != 2 {
				liveCode, err := runPTXASCheck(cmd.Context(), e, instrs, rest, targets)
				if err != nil {
					return err
				}
				code = max(code, liveCode)
			}
			if code != 0 {
				return exitCode(code)
			}
			return nil
		},
	}
	// RunE parses the flags itself (they may come anywhere, and an
	// instruction's operands may look like flags); they are declared here
	// so that --help lists every one in cobra's one Flags section.
	check.Flags().StringSlice("target", nil, "judge as assembled for these targets, sm_XX[,sm_YY] (in place of the file's .target);\na statement that needs a later target is invalid there")
	check.Flags().Bool("ptxas", false, "also run NVIDIA's ptxas on the input and report its verdict")
	check.Flags().Bool("json", false, "write the report as JSON")
	cmd.AddCommand(check, newPTXSASSCmd(e))
	for _, sub := range ptxSubcommands {
		cmd.AddCommand(sub(e))
	}
	return cmd
}

// ptxSubcommands are registered by other files of this package.
var ptxSubcommands []func(*env) *cobra.Command

// ptxModel reads the checker's model from the database.
func (e *env) ptxModel(ctx context.Context) ([]ptx.Instruction, error) {
	db, err := e.open()
	if err != nil {
		return nil, err
	}
	defer db.Close()
	raw, err := db.Extra(ctx, store.KeyPTXModel)
	if err != nil {
		return nil, err
	}
	var instrs []ptx.Instruction
	if err := json.Unmarshal(raw, &instrs); err != nil {
		return nil, fmt.Errorf("PTX model in %s: %w", e.dbPath, err)
	}
	return instrs, nil
}

// takeDBFlag removes --db FILE / --db=FILE from args of a command that parses
// its own flags.
func takeDBFlag(e *env, args []string) ([]string, error) {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--db":
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag needs an argument: --db")
			}
			e.dbPath = args[i+1]
			i++
		case strings.HasPrefix(a, "--db="):
			e.dbPath = strings.TrimPrefix(a, "--db=")
		default:
			out = append(out, a)
		}
	}
	return out, nil
}

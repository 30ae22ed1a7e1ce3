package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/build"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

func init() { extraCommands = append(extraCommands, newPTXCmd) }

func newPTXCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ptx",
		Short: "PTX tools (check)",
	}
	check := &cobra.Command{
		Use:   "check 'INSTRUCTION;' | FILE.ptx [--json]",
		Short: "Check PTX against NVIDIA's documented forms",
		Long: `Check validates PTX against the syntax forms of NVIDIA's PTX ISA documentation.

With an instruction ('max.NaN.f32 d, a, b;') it says whether a documented form accepts
it — or why not: unknown mnemonic, unknown modifier, a modifier not allowed with this
type, the wrong number of operands — and for valid ones the minimum PTX ISA version and
sm_ target it needs. With a .ptx file it checks every instruction and reports the
overall minimum .version/.target, the lines that raise it, and a warning where the
file's own .version/.target is too low.

Exit status: 0 when every instruction is valid, 1 when one is not, 2 on unusable input.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := takeDBFlag(e, args)
			if err != nil {
				return err
			}
			for _, a := range args {
				if a == "-h" || a == "--help" {
					return cmd.Help()
				}
			}
			db, err := e.open()
			if err != nil {
				return err
			}
			defer db.Close()
			raw, err := db.Extra(cmd.Context(), build.ExtraPTXModel)
			if err != nil {
				return err
			}
			var instrs []ptx.Instruction
			if err := json.Unmarshal(raw, &instrs); err != nil {
				return fmt.Errorf("PTX model in %s: %w", e.dbPath, err)
			}
			if code := ptx.RunCheck(args, e.stdout, e.stderr, instrs); code != 0 {
				return exitCode(code)
			}
			return nil
		},
	}
	cmd.AddCommand(check)
	return cmd
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

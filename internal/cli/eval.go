package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// SemLibrary is a family's pseudocode read from the database as the
// evaluator asks for it (a callee only when called). Names must match
// exactly: a rename (v_max_f32 in RDNA 4 is v_max_num_f32) is not the
// instruction the pseudocode calls.
func SemLibrary(ctx context.Context, db store.Reader, arch string) *sem.Library {
	return sem.NewLibraryFunc(arch, func(name string) (string, bool) {
		in, err := db.Instruction(ctx, arch, name)
		if err != nil || in.Name != name || in.Semantics == "" {
			return "", false
		}
		return in.Semantics, true
	})
}

func newEvalCmd(e *env) *cobra.Command {
	var (
		srcs               [4][]string
		execMask, round    string
		denorm, scc, vcc   string
		m0                 string
		wave, omod         int
		noIEEE, clamp, jsn bool
		trace              bool
		absList, negList   []int
		opSel, opSelHi     uint64
	)
	cmd := &cobra.Command{
		Use:   "eval ARCH MNEMONIC --s0 VALUE [--s1 VALUE] [--s2 VALUE] [--s3 VALUE] [--trace] [--json]",
		Short: "Run an AMD instruction's pseudocode on inputs: what it returns, per lane, with every assignment",
		Long: `Eval runs the instruction's pseudocode from AMD's guide (every family: RDNA 1-4, CDNA 1-5, Vega) on
the given source values and prints the destinations, the wave-wide state it changed
(SCC, VCC, EXEC, TRAPSTS) and, with --trace, every assignment in order.

A value is hex (0x7fc00000: the raw bits), binary (0b101), a decimal integer, or for a
float source a decimal number (rounded to nearest even) or inf, -inf, -0, nan, -nan, snan,
nan:0xPAYLOAD, snan:0xPAYLOAD, max, -max, min (smallest normal), denorm (smallest
subnormal). Every source the pseudocode reads needs a value, and so do SCC, VCC and M0
when it reads them (--scc, --vcc, --m0); a source it does not read is refused. A comma list gives one value per lane (the last repeats); lanes run are
those given, or --exec. A matrix operation (MFMA, WMMA) runs its formula D = A * B + C
over whole matrices: --s0 is A, --s1 B, --s2 C, each one value for every element or all
of them row by row; --neg 0 or 1 makes an iu8/iu4 A or B signed. The mode is a compute kernel's: IEEE mode on, round to nearest
even, subnormals kept, unless --no-ieee, --round, --denorm flush say otherwise.

The pseudocode is evaluated as written: where the guide's text is wrong the result is
the text's (gpuisa quality lists where it disagrees with LLVM's constant folding).
Instructions that touch memory, or whose text is prose, are not executable and say why.`,
		Args: cobra.ExactArgs(2),
		RunE: e.withDB(func(cmd *cobra.Command, args []string, db *store.DB) error {
			ctx := cmd.Context()
			arch, name, err := db.Resolve(ctx, args[0], args[1])
			if err != nil {
				return err
			}
			doc, err := db.Instruction(ctx, arch, name)
			if err != nil {
				return err
			}
			if doc.Vendor != isa.VendorAMD {
				return errs.Invalid("eval: %s is a PTX instruction; eval runs AMD's pseudocode", doc.Name)
			}
			if doc.Semantics == "" {
				return errs.Invalid("eval: %s (%s) has no pseudocode in its guide", doc.Name, arch)
			}
			in := SemLibrary(ctx, db, arch).Get(doc.Name)
			req := sem.Request{Sources: map[string][]string{}, Exec: execMask, Wave: wave, Round: round, Denorm: denorm,
				SCC: scc, VCC: vcc, M0: m0, Trace: trace}
			for i, vs := range srcs {
				if len(vs) > 0 {
					req.Sources[fmt.Sprintf("S%d", i)] = vs
				}
			}
			if noIEEE {
				off := false
				req.IEEE = &off
			}
			for _, i := range absList {
				if i < 0 || i > 2 {
					return errs.Invalid("eval: --abs %d: sources 0, 1, 2", i)
				}
				req.Mods.Abs[i] = true
			}
			for _, i := range negList {
				if i < 0 || i > 2 {
					return errs.Invalid("eval: --neg %d: sources 0, 1, 2", i)
				}
				req.Mods.Neg[i] = true
			}
			req.Mods.Clamp, req.Mods.OMod, req.Mods.OpSel, req.Mods.OpSelHi = clamp, omod, opSel, opSelHi
			resp, err := sem.Evaluate(in, req)
			if err != nil {
				var ie *sem.InputError
				if errors.As(err, &ie) || errors.Is(err, sem.ErrNotExecutable) {
					return errs.Invalid("eval: %v", err)
				}
				return err
			}
			if jsn {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(resp)
			}
			printEval(e, resp)
			return nil
		}),
	}
	f := cmd.Flags()
	for i := range srcs {
		f.StringSliceVar(&srcs[i], fmt.Sprintf("s%d", i), nil, fmt.Sprintf("value of S%d (a comma list: one per lane)", i))
	}
	f.StringVar(&execMask, "exec", "", "lanes that run, hex (default: the lanes given)")
	f.IntVar(&wave, "wave", 0, "wave size, 32 or 64 (default: the family's)")
	f.BoolVar(&noIEEE, "no-ieee", false, "run with MODE.IEEE clear")
	f.StringVar(&round, "round", "", "rounding: nearest-even, toward-zero, up, down")
	f.StringVar(&denorm, "denorm", "", "subnormals: keep or flush")
	f.StringVar(&scc, "scc", "", "SCC before the instruction, 0 or 1 (needed when the pseudocode reads it)")
	f.StringVar(&vcc, "vcc", "", "VCC before the instruction, hex (needed when the pseudocode reads it)")
	f.StringVar(&m0, "m0", "", "M0 before the instruction (needed when the pseudocode reads it)")
	f.IntSliceVar(&absList, "abs", nil, "|x| on these sources (VOP3 abs)")
	f.IntSliceVar(&negList, "neg", nil, "-x on these sources (VOP3 neg)")
	f.BoolVar(&clamp, "clamp", false, "clamp the result to [0, 1]")
	f.IntVar(&omod, "omod", 0, "output modifier: 1 (*2), 2 (*4), 3 (/2)")
	f.Uint64Var(&opSel, "op-sel", 0, "OPSEL bits, as the pseudocode reads them")
	f.Uint64Var(&opSelHi, "op-sel-hi", 0, "OPSEL_HI bits, as the pseudocode reads them")
	f.BoolVar(&trace, "trace", false, "print every assignment")
	f.BoolVar(&jsn, "json", false, "print JSON")
	return cmd
}

func printEval(e *env, r *sem.Response) {
	fmt.Fprintf(e.stdout, "%s (%s): %s\n", r.Name, r.Arch, r.Mode)
	if m := r.Matrix; m != nil {
		printMatrix(e, m)
		return
	}
	for _, l := range r.Lanes {
		var in, out []string
		for _, o := range l.Inputs {
			in = append(in, fmt.Sprintf("%s = %s", o.Name, describeOutput(o)))
		}
		for _, o := range l.Outputs {
			out = append(out, fmt.Sprintf("%s = %s", o.Name, describeOutput(o)))
		}
		if len(out) == 0 {
			out = []string{"no destination written"}
		}
		prefix := ""
		if len(r.Lanes) > 1 || l.Lane != 0 {
			prefix = fmt.Sprintf("lane %d: ", l.Lane)
		}
		fmt.Fprintf(e.stdout, "%s%s  ->  %s\n", prefix, strings.Join(in, ", "), strings.Join(out, ", "))
	}
	for _, o := range r.Wave {
		fmt.Fprintf(e.stdout, "%s = %s (one bit per lane)\n", o.Name, o.Value)
	}
	for _, c := range r.Changes {
		fmt.Fprintln(e.stdout, c)
	}
	if len(r.Trace) > 0 {
		fmt.Fprintln(e.stdout, "trace:")
		for _, s := range r.Trace {
			fmt.Fprintf(e.stdout, "  lane %d, line %d: %s = %s\n", s.Lane, s.Line, s.Target, s.Value)
		}
		if r.Truncated {
			fmt.Fprintln(e.stdout, "  (trace cut)")
		}
	}
}

// printMatrix prints a matrix operation's D row by row.
func printMatrix(e *env, m *sem.MatrixResult) {
	fmt.Fprintf(e.stdout, "%s\n%s\n", m.Formula, strings.Join(m.Inputs, "; "))
	fmt.Fprintf(e.stdout, "D (%dx%d %s), row by row:\n", m.Rows, m.Cols, m.Type)
	for r := 0; r < m.Rows; r++ {
		fmt.Fprintf(e.stdout, "  %s\n", strings.Join(m.Values[r*m.Cols:(r+1)*m.Cols], " "))
	}
	fmt.Fprintf(e.stdout, "(%s)\n", m.Note)
}

func describeOutput(o sem.Output) string {
	if o.Value == o.Bits {
		return fmt.Sprintf("%s %s", o.Value, o.Type)
	}
	return fmt.Sprintf("%s (%s) %s", o.Value, o.Bits, o.Type)
}

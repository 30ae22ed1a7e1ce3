package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/costview"
)

func newCostCmd(e *env) *cobra.Command {
	var asJSON, peaks bool
	var targets []string
	var q costview.Query
	cmd := &cobra.Command{
		Use:   "cost ARCH [MNEMONIC] [--target gfx942,...] [--unit XDL] [--dtype fp16] [--sort latency|work] [--peaks] [--json]",
		Short: "LLVM's scheduling model of an AMD instruction: latency, throughput and unit per target",
		Long: `Cost prints what LLVM's AMDGPU scheduling model (llvm-mca -instruction-tables=full, run
over the instruction's verified example at build time) says about it on each gfx target
where it assembles: micro-ops, latency and reciprocal throughput in the model's units, whether it may
load, store or has side effects, the hardware resources it occupies and for how long
(HWXDL[8]: the matrix unit for 8 of the guides' passes, 32 clock cycles) and LLVM's opcode name.
These are the compiler's model, not measurements.

With only ARCH, cost lists the family's instructions on one target (--target, default
the family's first modelled target), filtered by a unit they use (--unit XDL, VALU,
VMEM, LGKM, SALU, Branch, TransVALU...) and sorted (--sort latency|throughput|uops|name;
numbers largest first unless --asc): "the slowest VALU instructions on gfx942" is
  gpuisa cost cdna3 --target gfx942 --unit VALU --sort latency --limit 20

For a matrix instruction (MFMA, SMFMAC, WMMA) cost also gives its work in the units
people compare: the model's passes, cycles = passes x the family's cycles per pass (4 on
CDNA, the guides' PASS), work per instruction (2*M*N*K*blocks FLOPs, integer ops for
integer types) and per cycle per SIMD and per CU (4 SIMDs). --dtype keeps one data type
and --sort work ranks by work per cycle:
  gpuisa cost cdna3 --unit XDL --dtype fp16 --sort work
--peaks holds the family's Instinct products' published dense peaks against
CUs x peak clock x the fastest instruction's work per cycle per CU.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: e.withDB(func(cmd *cobra.Command, args []string, db *store.DB) error {
			if len(args) == 1 {
				if len(targets) > 1 {
					return errs.Invalid("cost: a family listing is for one target; got --target %s", strings.Join(targets, ","))
				}
				if len(targets) == 1 {
					q.Target = targets[0]
				}
				if peaks {
					return e.costPeaks(cmd, db, args[0], asJSON)
				}
				return e.costTable(cmd, db, args[0], q, asJSON)
			}
			arch, name, err := db.Resolve(cmd.Context(), args[0], args[1])
			if err != nil {
				return err
			}
			in, err := db.Instruction(cmd.Context(), arch, name)
			if err != nil {
				return err
			}
			if in.Vendor != isa.VendorAMD {
				return errs.Invalid("cost: %s is a %s instruction; LLVM's scheduling model covers AMD targets (PTX timing comes from measurements, not a model)", in.Name, in.Vendor)
			}
			costs := map[string]isa.Cost{}
			work := map[string]*costview.Work{}
			for t, c := range in.Cost {
				if len(targets) == 0 || slices.Contains(targets, t) {
					costs[t] = c
					if w, ok := costview.WorkOf(isa.ArchInfoFor(in.Arch), in.Name, c); ok {
						work[t] = w
					}
				}
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				out := map[string]any{"arch": in.Arch, "name": in.Name, "cost": costs,
					"source": "LLVM's scheduling model (llvm-mca): the compiler's model, not a measurement"}
				if len(work) > 0 {
					out["work"] = work
				}
				return enc.Encode(out)
			}
			if len(costs) == 0 {
				fmt.Fprintf(e.stdout, "%s (%s): no cost recorded: the database was built without llvm-mca, or no example of it assembles on these targets\n", in.Name, in.Arch)
				return nil
			}
			fmt.Fprintf(e.stdout, "%s (%s): LLVM's scheduling model (llvm-mca), the compiler's model, not a measurement\n", in.Name, in.Arch)
			ts := slices.Sorted(maps.Keys(costs))
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "target\tunit\tlatency\trthroughput\tuops\tflags\tresources\tLLVM opcode")
			for _, t := range ts {
				c := costs[t]
				fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%d\t%s\t%s\t%s\n", t, c.Unit, c.Latency, c.RThroughput, c.UOps, costFlags(c), costview.Resources(c), c.Opcode)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "modelled line: %s\n", costs[ts[0]].Asm)
			return e.printWork(ts, work, formatWork(in, costs))
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&peaks, "peaks", false, "family listing: the family's products' published peaks against the model's")
	cmd.Flags().StringVar(&q.DType, "dtype", "", "family listing: only matrix instructions of this data type (fp16, bf16, fp8, int8, fp64, ...)")
	cmd.Flags().StringSliceVar(&targets, "target", nil, "only these gfx targets (one for a family listing)")
	cmd.Flags().StringVar(&q.Unit, "unit", "", "family listing: only instructions using this unit (XDL, VALU, VMEM, ...)")
	cmd.Flags().StringVar(&q.Sort, "sort", "name", "family listing: "+strings.Join(costview.Sorts, ", ")+" (work: per cycle per CU; ops: per instruction)")
	cmd.Flags().BoolVar(&q.Ascending, "asc", false, "family listing: smallest numbers first")
	cmd.Flags().IntVar(&q.Limit, "limit", 0, "family listing: at most this many rows (0: all)")
	return cmd
}

// costTable lists a family's instructions on one target, ranked by q.
func (e *env) costTable(cmd *cobra.Command, db *store.DB, archID string, q costview.Query, asJSON bool) error {
	ctx := cmd.Context()
	arch, err := db.Arch(ctx, archID)
	if err != nil {
		return err
	}
	if arch.Vendor != isa.VendorAMD {
		return errs.Invalid("cost: %s is not an AMD family; LLVM's scheduling model covers AMD targets", arch.ID)
	}
	entries, err := costview.Load(ctx, db, arch.ID)
	if err != nil {
		return err
	}
	t, err := costview.Build(arch, entries, q)
	if err != nil {
		return errs.Invalid("cost: %v", err)
	}
	if asJSON {
		type row struct {
			Name string         `json:"name"`
			Cost isa.Cost       `json:"cost"`
			Work *costview.Work `json:"work,omitempty"`
		}
		rows := make([]row, 0, len(t.Rows))
		for _, r := range t.Rows {
			rows = append(rows, row{r.Name, r.Cost, r.Work})
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"arch": t.Arch, "target": t.Target, "total": t.Total, "rows": rows,
			"source": "LLVM's scheduling model (llvm-mca): the compiler's model, not a measurement"})
	}
	if t.Target == "" {
		fmt.Fprintf(e.stdout, "%s: no cost recorded: the database was built without llvm-mca\n", arch.ID)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s on %s: %d instructions, LLVM's scheduling model (llvm-mca), the compiler's model, not a measurement\n", arch.Name, t.Target, t.Total)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	head := "instruction\tunit\tlatency\trthroughput\tuops\tflags\tresources"
	if t.HasWork {
		head += "\tdtype\tshape\tpasses\tcycles\twork/instr\twork/cycle/SIMD\twork/cycle/CU"
	}
	fmt.Fprintln(tw, head)
	for _, r := range t.Rows {
		c := r.Cost
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%d\t%s\t%s", r.Name, c.Unit, c.Latency, c.RThroughput, c.UOps, costFlags(c), costview.Resources(c))
		if t.HasWork {
			fmt.Fprint(tw, "\t"+workColumns(r.Work))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(t.Rows) < t.Total {
		fmt.Fprintf(e.stdout, "(%d more; --limit 0 shows all)\n", t.Total-len(t.Rows))
	}
	return nil
}

// costFlags prints costview.Flags as one word per flag, "-" for none.
func costFlags(c isa.Cost) string {
	f := costview.Flags(c)
	if len(f) == 0 {
		return "-"
	}
	return strings.ReplaceAll(strings.Join(f, ","), " ", "-")
}

// workColumns prints a row's work columns, "-" where it has none.
func workColumns(w *costview.Work) string {
	if w == nil {
		return "-\t-\t-\t-\t-\t-\t-"
	}
	dt := string(w.DType)
	if w.Sparse {
		dt += "(sparse)"
	}
	cyc := func(v string) string {
		if w.Cycles == 0 {
			return "-"
		}
		return v
	}
	return fmt.Sprintf("%s\t%s\t%s\t%s\t%d %s\t%s\t%s", dt, strings.ReplaceAll(w.Shape(), " ", ""), cyc(fmt.Sprint(w.Passes)), cyc(fmt.Sprint(w.Cycles)),
		w.Ops, w.Unit(), cyc(fmt.Sprintf("%g", w.PerCycleSIMD)), cyc(fmt.Sprintf("%g", w.PerCycleCU)))
}

// printWork prints a matrix instruction's work per target, nothing for
// other instructions.
func (e *env) printWork(targets []string, work map[string]*costview.Work, formats map[string][]*costview.Work) error {
	if len(work) == 0 {
		return nil
	}
	fmt.Fprintln(e.stdout, "work (2*M*N*K*blocks; cycles = the model's passes x the family's cycles per pass):")
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "target\tdtype\tshape\tpasses\tcycles\twork/instr\twork/cycle/SIMD\twork/cycle/CU")
	for _, t := range targets {
		if w := work[t]; w != nil {
			fmt.Fprintf(tw, "%s\t%s\n", t, workColumns(w))
		}
		for _, w := range formats[t] {
			// The same instruction with other operand formats (cbsz/blgp).
			fmt.Fprintf(tw, "%s\t%s\n", t, workColumns(w))
		}
	}
	return tw.Flush()
}

// formatWork is the work of each target's other modelled operand formats
// (isa.Cost.Formats: an F8F6F4 instruction's FP6 and FP4).
func formatWork(in *isa.Instruction, costs map[string]isa.Cost) map[string][]*costview.Work {
	out := map[string][]*costview.Work{}
	for t, c := range costs {
		for _, f := range costview.FormatsOf(isa.ArchInfoFor(in.Arch), in.Name, c) {
			if f.Work != nil {
				out[t] = append(out[t], f.Work)
			}
		}
	}
	return out
}

// costPeaks prints the family's Instinct products' published dense peaks
// against the rates the model implies.
func (e *env) costPeaks(cmd *cobra.Command, db *store.DB, archID string, asJSON bool) error {
	arch, err := db.Arch(cmd.Context(), archID)
	if err != nil {
		return err
	}
	var mine []isa.InstinctProduct
	for _, p := range isa.InstinctProducts {
		if id, _ := isa.ArchForTarget(p.Target); id == arch.ID {
			mine = append(mine, p)
		}
	}
	if len(mine) == 0 {
		return errs.Invalid("cost --peaks: %s runs no Instinct product with published peaks", arch.ID)
	}
	checks := costview.CheckPeaks(mine, func(a string) ([]costview.Entry, error) { return costview.Load(cmd.Context(), db, a) })
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(checks)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "product\ttarget\tdtype\tpublished\timplied\tdiff\tverdict\tby")
	for _, c := range checks {
		verdict, by := "agrees", fmt.Sprintf("%s (%d passes, %g/cycle/CU)", c.Instruction, c.Passes, c.PerCU)
		switch {
		case c.Implied == 0:
			verdict, by = "not checked", c.Note
		case !c.Agrees:
			verdict = "DISAGREES"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%.1f\t%+.1f%%\t%s\t%s\n", c.Product, c.Target, c.DType, c.Published, c.Implied, c.DiffPct, verdict, by)
	}
	return tw.Flush()
}

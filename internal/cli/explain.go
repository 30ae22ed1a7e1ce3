package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/amd/codecache"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/serve/explain"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

func newExplainCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "explain [--arch ARCH|--target GFX] [--also GFX,...] [--fields|--json] (FILE | - | HEXWORDS...)",
		Short: "Explain machine code, a listing or a PTX file line by line",
		Long: `Explain prints the listing gpuisa decode prints — for a code object, a pasted
llvm-objdump / llvm-mc / Compiler Explorer / RGA listing, hex words or a .s file — with
each line annotated: the unit that executes it (VALU, SALU, VMEM, SMEM, LDS, FLAT, XDL,
WMMA, ...), the wait counters it increments on the family (vmcnt, lgkmcnt, expcnt,
vscnt; loadcnt, storecnt, dscnt, kmcnt on gfx12), whether llvm-mc assembles it on the
file's target (and on every --also target), its PTX counterpart and the guide's
summary. Each kernel ends with a summary: the instruction mix by unit, the MFMA/WMMA
instructions used, the wait counters, the instructions another target does not support,
and a cost estimate from LLVM's scheduling model (latencies summed by unit, the
XDL/VALU/VMEM mix; a model, not a measurement).

A .ptx file (or PTX text) is explained with each statement's minimum PTX ISA version
and sm_ target (as gpuisa ptx check gives them) and its AMD counterparts (as gpuisa port
gives them, for --arch/--target or any family).

` + fmt.Sprintf(`Explain takes at most %d instructions at a time (each is held with its notes until
the listing is written); gpuisa decode lists machine code of any size.`, explain.MaxInstructions) + `
Exit status: 0, 1 when some bytes did not decode, 2 on unusable input.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if ptxArgs(args) {
				return e.explainPTX(cmd.Context(), args)
			}
			return e.runListing(cmd.Context(), "explain", args, e.explainListing)
		},
	}
}

// explainListing annotates l and writes it.
func (e *env) explainListing(ctx context.Context, cache *codecache.Cache, l *listing.Listing, f listingFlags) error {
	ns, err := cache.Notes(ctx, l.Arch)
	if err != nil {
		return err
	}
	var also []string
	for _, t := range strings.Split(f.also, ",") {
		if t = strings.ToLower(strings.TrimSpace(t)); t == "" {
			continue
		}
		if info, ok := isa.LookupArch(t); !ok || info.Vendor != isa.VendorAMD || !strings.HasPrefix(t, "gfx") {
			return errs.NotFound(nil, "--also %s: not a gfx target (gfx1100, gfx942, ...)", t)
		}
		also = append(also, t)
	}
	x := explain.Explain(l, ns, explain.Options{Also: also})
	if f.json {
		return explain.WriteJSON(e.stdout, x)
	}
	return explain.WriteText(e.stdout, x, f.fields)
}

// ptxArgs says whether explain was given PTX: a .ptx file, or text with
// .version/.target directives.
func ptxArgs(args []string) bool {
	for _, a := range args {
		if strings.HasSuffix(strings.ToLower(a), ".ptx") {
			return true
		}
	}
	return false
}

// explainPTX explains a PTX file: ptx check's requirements and port's
// counterparts per statement.
func (e *env) explainPTX(ctx context.Context, args []string) error {
	args, err := takeDBFlag(e, args)
	if err != nil {
		return err
	}
	var file, to string
	asJSON := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--json":
			asJSON = true
		case (a == "--arch" || a == "--target" || a == "--to") && i+1 < len(args):
			to = args[i+1]
			i++
		case strings.HasPrefix(a, "--arch=") || strings.HasPrefix(a, "--target="):
			_, to, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-") && a != "-":
			return errs.Invalid("explain: unknown flag %s for a PTX file", a)
		default:
			if file != "" {
				return errs.Invalid("explain: one PTX file at a time")
			}
			file = a
		}
	}
	raw, err := e.readInput([]string{file})
	if err != nil {
		return err
	}
	instrs, err := e.ptxModel(ctx)
	if err != nil {
		return err
	}
	check := ptx.NewChecker(instrs).CheckSource(file, string(raw))
	if len(check.Results) == 0 {
		return errs.Invalid("%s: no PTX statement found", file)
	}
	db, err := e.open()
	if err != nil {
		return err
	}
	defer db.Close()
	cat, ix, err := loadCatalogue(ctx, db)
	if err != nil {
		return err
	}
	target := concepts.Target{Resolver: ix}
	how := "Counterparts from the concept catalogue, not checked against a target (pass --arch to check them)."
	portTo := ""
	if to != "" {
		info, ok := isa.LookupArch(to)
		if !ok || info.Vendor != isa.VendorAMD {
			return errs.NotFound(isa.AMDArchIDs(), "unknown AMD family or target %q", to)
		}
		gfx := info.Targets
		if t := strings.ToLower(to); strings.HasPrefix(t, "gfx") {
			gfx = []string{t}
		}
		target.Arch, target.GFX, portTo = info.ID, gfx, to
	}
	port, err := concepts.PortReader(cat, bytes.NewReader(raw), target)
	if err != nil {
		return errs.Invalid("%v", err)
	}
	if to != "" {
		verdicts, v := portVerdicts(ctx, db, cat, target.Arch, target.GFX, membersOf(port))
		how = v
		if verdicts != nil {
			target.Verdicts = verdicts
			if port, err = concepts.PortReader(cat, bytes.NewReader(raw), target); err != nil {
				return errs.Invalid("%v", err)
			}
		}
	}
	x := explain.ExplainPTX(check, port, portTo, how)
	if asJSON {
		err = explain.WritePTXJSON(e.stdout, x)
	} else {
		err = explain.WritePTXText(e.stdout, x)
	}
	if err != nil {
		return err
	}
	if x.Invalid > 0 {
		return exitCode(1)
	}
	return nil
}

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// loadCatalogue reads the concept catalogue stored in the database and an
// index of the database's instruction names.
func loadCatalogue(ctx context.Context, db *store.DB) (*concepts.Catalogue, *concepts.NameIndex, error) {
	cat, _, err := store.LoadCatalogue(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	ix := concepts.NewNameIndex(nil)
	archs, err := db.Archs(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range archs {
		list, err := db.List(ctx, a.ID)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range list {
			ix.Add(a.ID, s.Name)
		}
	}
	return cat, ix, nil
}

// openCatalogue opens the database and loads its concept catalogue.
func (e *env) openCatalogue(ctx context.Context) (*concepts.Catalogue, *concepts.NameIndex, func(), error) {
	db, err := e.open()
	if err != nil {
		return nil, nil, nil, err
	}
	cat, ix, err := loadCatalogue(ctx, db)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	return cat, ix, func() { db.Close() }, nil
}

// conceptJSON is the catalogue as `gpuisa concepts --json` prints it.
type conceptJSON struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	PTX         []memberJSON   `json:"ptx"`
	AMD         []memberJSON   `json:"amd"`
	Relations   []relationJSON `json:"relations"`
	File        string         `json:"file"`
	Line        int            `json:"line"`
}

type memberJSON struct {
	Mnemonic string   `json:"mnemonic"`
	Variants []string `json:"variants,omitempty"`
	Families []string `json:"families,omitempty"` // AMD: families the member exists in
	Note     string   `json:"note,omitempty"`
}

type relationJSON struct {
	PTX          string   `json:"ptx"`
	AMD          string   `json:"amd"`
	Relation     string   `json:"relation"`
	Variants     []string `json:"variants,omitempty"`
	Requires     []string `json:"requires,omitempty"`
	Except       []string `json:"except,omitempty"`
	Families     []string `json:"families,omitempty"` // where the relation holds, when not everywhere the member applies
	Restrictions []string `json:"restrictions,omitempty"`
	Forms        []string `json:"forms,omitempty"`
	Sequence     []string `json:"sequence,omitempty"`
}

type noCounterpartJSON struct {
	Mnemonic string `json:"mnemonic"`
	Reason   string `json:"reason"`
}

// ConceptsJSON converts the catalogue for JSON output; AMD members list the
// families that really have them.
func conceptsJSON(cat *concepts.Catalogue, ix *concepts.NameIndex) ([]conceptJSON, []noCounterpartJSON) {
	var out []conceptJSON
	for _, k := range cat.Concepts {
		c := conceptJSON{ID: k.ID, Name: k.Name, Description: k.Description, File: k.Pos.File, Line: k.Pos.Line,
			PTX: []memberJSON{}, AMD: []memberJSON{}, Relations: []relationJSON{}}
		for _, m := range k.PTX {
			c.PTX = append(c.PTX, memberJSON{Mnemonic: m.Mnemonic, Variants: m.Variants, Note: m.Note})
		}
		for _, m := range k.AMD {
			fams := ix.AMDArchs(m.Mnemonic)
			if len(m.Families) > 0 {
				fams = m.Families
			}
			c.AMD = append(c.AMD, memberJSON{Mnemonic: m.Mnemonic, Families: fams, Note: m.Note})
		}
		for _, r := range k.Relations {
			c.Relations = append(c.Relations, relationJSON{PTX: r.PTX, AMD: r.AMD, Relation: string(r.Kind),
				Variants: r.Variants, Requires: r.Requires, Except: r.Except, Families: r.Families,
				Restrictions: r.Restrictions, Forms: r.Forms, Sequence: r.SequenceText()})
		}
		out = append(out, c)
	}
	var none []noCounterpartJSON
	for _, n := range cat.NoCounterpart {
		none = append(none, noCounterpartJSON{Mnemonic: n.Mnemonic, Reason: n.Reason})
	}
	return out, none
}

func newConceptsCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "concepts [ID] [--json]",
		Short: "The cross-vendor concept catalogue (AMD <-> PTX)",
		Long: `Concepts lists the catalogue that links PTX instructions to AMD instructions:
per concept its members on each side and, per PTX–AMD pair, the relation (equivalent,
equivalent with restrictions, partial, sequence) and the restrictions to watch. With an
ID it prints one concept. "gpuisa concepts suggest" lists candidate members and the
instructions no concept covers yet, for curators.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cat, ix, closeDB, err := e.openCatalogue(cmd.Context())
			if err != nil {
				return err
			}
			defer closeDB()
			all, none := conceptsJSON(cat, ix)
			if len(args) == 1 {
				for _, c := range all {
					if c.ID == args[0] {
						if asJSON {
							return e.writeJSON(c)
						}
						printConcept(e.stdout, c)
						return nil
					}
				}
				var ids []string
				for _, c := range all {
					ids = append(ids, c.ID)
				}
				return errs.NotFound(closest(args[0], ids), "no concept %q", args[0])
			}
			if asJSON {
				return e.writeJSON(map[string]any{"concepts": all, "no_counterpart": none})
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tPTX\tAMD")
			for _, c := range all {
				var p, a []string
				for _, m := range c.PTX {
					p = append(p, m.Mnemonic)
				}
				for _, m := range c.AMD {
					a = append(a, m.Mnemonic)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Name, truncate(strings.Join(p, " "), 30), truncate(strings.Join(a, " "), 60))
			}
			tw.Flush()
			fmt.Fprintf(e.stdout, "\n%d concepts; %d PTX mnemonics have no AMD counterpart (gpuisa concepts --json lists them with reasons)\n", len(all), len(none))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	suggest := &cobra.Command{
		Use:   "suggest [--json]",
		Short: "Propose concept members and list instructions in no concept",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat, ix, closeDB, err := e.openCatalogue(cmd.Context())
			if err != nil {
				return err
			}
			defer closeDB()
			s := concepts.Suggest(cat, ix, ix.AMDNames(), ix.PTXMnemonics())
			if asJSON {
				return e.writeJSON(s)
			}
			fmt.Fprintf(e.stdout, "Candidate members (%d):\n", len(s.Candidates))
			for _, c := range s.Candidates {
				fmt.Fprintf(e.stdout, "  %-28s + %-28s (like %s; %s)\n", c.ConceptID, c.Mnemonic, c.From, strings.Join(c.Archs, " "))
			}
			fmt.Fprintf(e.stdout, "\nPTX mnemonics in no concept (%d): %s\n", len(s.UncoveredPTX), strings.Join(s.UncoveredPTX, " "))
			fmt.Fprintf(e.stdout, "AMD instructions in no concept: %d\n", len(s.UncoveredAMD))
			for _, u := range s.UncoveredAMD {
				fmt.Fprintf(e.stdout, "  %-36s %s\n", u.Mnemonic, strings.Join(u.Archs, " "))
			}
			return nil
		},
	}
	suggest.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(suggest)
	return cmd
}

func printConcept(w io.Writer, c conceptJSON) {
	fmt.Fprintf(w, "%s (%s)\n%s\n\n", c.Name, c.ID, c.Description)
	for _, r := range c.Relations {
		fmt.Fprintf(w, "  %-20s %-30s %s\n", r.PTX, r.AMD, r.Relation)
		for _, x := range r.Restrictions {
			fmt.Fprintf(w, "      - %s\n", x)
		}
		for _, x := range r.Forms {
			fmt.Fprintf(w, "      e.g. %s\n", x)
		}
		for _, x := range r.Sequence {
			fmt.Fprintf(w, "      | %s\n", x)
		}
		if len(r.Families) > 0 {
			fmt.Fprintf(w, "      on %s only\n", strings.Join(r.Families, " "))
		}
	}
	fmt.Fprintf(w, "\n(from %s:%d)\n", c.File, c.Line)
}

func closest(s string, ids []string) []string {
	var out []string
	for _, id := range ids {
		if strings.Contains(id, s) || strings.Contains(s, id) {
			out = append(out, id)
		}
		if len(out) == 3 {
			break
		}
	}
	return out
}

func newPortCmd(e *env) *cobra.Command {
	var to string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "port 'PTX INSTRUCTION;' | FILE.ptx --to ARCH|GFX [--json]",
		Short: "Name the AMD counterparts of PTX instructions",
		Long: `Port looks up each PTX instruction in the concept catalogue and prints its AMD
counterpart(s) on the target family with the relation and the restrictions to
watch, or "no counterpart" with the reason. With a file it goes line by line and
ends with a summary.

Every AMD instruction it proposes (a counterpart, an example form, each step of a
sequence) is held to the LLVM assembler on the target's gfx targets (all of a
family's, or the one gfx target named with --to): what llvm-mc rejects there is
dropped and said so, and another counterpart or sequence takes its place where
the catalogue has one. The verdicts come from the database when the build ran
llvm-mc; otherwise port runs llvm-mc itself, and without it says "not verified".
Exit status 0, or 2 on unusable input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			info, ok := isa.LookupArch(to)
			if !ok || info.Vendor != isa.VendorAMD {
				return errs.NotFound(closest(strings.ToLower(to), isa.AMDArchIDs()), "unknown AMD architecture %q for --to", to)
			}
			gfx := info.Targets
			if t := strings.ToLower(strings.TrimSpace(to)); strings.HasPrefix(t, "gfx") {
				gfx = []string{t}
			}
			db, err := e.open()
			if err != nil {
				return err
			}
			defer db.Close()
			cat, ix, err := loadCatalogue(cmd.Context(), db)
			if err != nil {
				return err
			}
			target := concepts.Target{Arch: info.ID, GFX: gfx, Resolver: ix}
			portAll := func() (*concepts.PortReport, error) {
				if st, err := os.Stat(args[0]); err == nil && !st.IsDir() {
					rep, err := concepts.PortFile(cat, args[0], target)
					if err != nil {
						return nil, errs.Invalid("%v", err)
					}
					return rep, nil
				}
				res := concepts.Port(cat, args[0], target)
				return &concepts.PortReport{Arch: info.ID, Targets: append([]string{}, gfx...), Results: []concepts.PortResult{res}}, nil
			}
			// A first pass names the AMD members in play; their verdicts
			// come from the database, or from llvm-mc run now.
			rep, err := portAll()
			if err != nil {
				return err
			}
			verdicts, how := portVerdicts(cmd.Context(), db, cat, info.ID, gfx, membersOf(rep))
			if verdicts != nil {
				target.Verdicts = verdicts
				if rep, err = portAll(); err != nil {
					return err
				}
			}
			rep.Verified = verdicts != nil
			rep.Verification = how
			annotateEvaluated(cmd.Context(), db, rep)
			if asJSON {
				return e.writeJSON(rep)
			}
			fmt.Fprintf(e.stdout, "%s\n\n", how)
			for _, r := range rep.Results {
				printPort(e.stdout, r, len(rep.Results) > 1)
			}
			if len(rep.Results) > 1 || rep.Summary.Instructions > 0 {
				s := rep.Summary
				fmt.Fprintf(e.stdout, "\n%d instructions for %s: %d with a counterpart, %d with no counterpart, %d gaps on this family, %d unknown\n",
					s.Instructions, info.ID, s.Ported, s.NoCounterpart, s.Gaps, s.Unknown)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "target AMD family or gfx target (cdna3, rdna3, gfx942, ...)")
	cmd.MarkFlagRequired("to")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// membersOf lists the AMD instructions a port report offers, by name.
func membersOf(rep *concepts.PortReport) []string {
	set := map[string]bool{}
	add := func(o *concepts.Outcome) {
		for _, c := range o.Counterparts {
			set[c.AMD] = true
		}
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		add(&r.Outcome)
		if r.Predication != nil {
			add(r.Predication)
		}
		for j := range r.Registers {
			add(&r.Registers[j].Outcome)
		}
	}
	out := slices.Sorted(maps.Keys(set))
	return out
}

// portVerdicts returns the assembler's verdicts for what port proposes on
// family's gfx targets, and a sentence saying where they come from: the
// database's, when its build ran llvm-mc; else llvm-mc run now on the
// catalogue's lines and on one example of each member from its page; else
// nil ("not verified").
func portVerdicts(ctx context.Context, db *store.DB, cat *concepts.Catalogue, family string, gfx, members []string) (concepts.Verdicts, string) {
	targets := strings.Join(gfx, " ")
	if raw, err := db.Extra(ctx, store.KeyConceptVerdicts); err == nil {
		var v concepts.VerdictTable
		if err := json.Unmarshal(raw, &v); err == nil {
			return &v, fmt.Sprintf("Checked against the LLVM assembler on %s (%s, when the database was built).", targets, v.Assembler)
		}
	}
	llvmMC, err := verify.FindLLVMMC()
	if err != nil {
		return nil, "Not verified: this database holds no assembler verdicts and " + err.Error() + "."
	}
	probes := map[string]string{}
	for _, m := range members {
		in, err := db.Instruction(ctx, family, m)
		if err != nil || len(in.Examples) == 0 {
			continue
		}
		probes[m] = in.Examples[0].Asm
	}
	cacheDir := ""
	if d, err := os.UserCacheDir(); err == nil {
		cacheDir = filepath.Join(d, "gpuisa")
	}
	v, err := concepts.AssembleProposals(ctx, cat, gfx, map[string]map[string]string{family: probes}, llvmMC, cacheDir)
	if err != nil {
		return nil, "Not verified: " + err.Error() + "."
	}
	return v, fmt.Sprintf("Checked against the LLVM assembler on %s (%s, run now).", targets, v.Assembler)
}

func printPort(w io.Writer, r concepts.PortResult, withLine bool) {
	prefix := ""
	if withLine {
		prefix = fmt.Sprintf("%4d: ", r.Line)
	}
	fmt.Fprintf(w, "%s%s\n", prefix, r.Text)
	pad := strings.Repeat(" ", len(prefix)+2)
	printOutcome(w, pad, r.Outcome)
	for _, reg := range r.Registers {
		fmt.Fprintf(w, "%s%s:\n", pad, reg.Name)
		printOutcome(w, pad+"  ", reg.Outcome)
	}
}

func printOutcome(w io.Writer, pad string, o concepts.Outcome) {
	switch {
	case len(o.Counterparts) > 0:
		for _, c := range o.Counterparts {
			fmt.Fprintf(w, "%s-> %s  (%s; %s)\n", pad, c.AMD, c.Relation, c.ConceptName)
			for _, x := range c.Restrictions {
				fmt.Fprintf(w, "%s     watch: %s\n", pad, x)
			}
			for _, x := range c.Evaluated {
				fmt.Fprintf(w, "%s     evaluated: %s\n", pad, x)
			}
			for _, x := range c.Forms {
				fmt.Fprintf(w, "%s     e.g. %s\n", pad, x)
			}
			for _, x := range c.Sequence {
				fmt.Fprintf(w, "%s     | %s\n", pad, x)
			}
			if len(c.MissingOnArch) > 0 {
				fmt.Fprintf(w, "%s     note: not on this family as named: %s\n", pad, strings.Join(c.MissingOnArch, ", "))
			}
			printChecks(w, pad+"     ", c.Checks)
		}
	case o.NoCounterpart != "":
		fmt.Fprintf(w, "%s-> no counterpart: %s\n", pad, o.NoCounterpart)
	case o.Gap != "":
		fmt.Fprintf(w, "%s-> no counterpart on this family: %s\n", pad, o.Gap)
	default:
		fmt.Fprintf(w, "%s-> unknown to the concept catalogue\n", pad)
	}
	for _, d := range o.Dropped {
		var where []string
		for _, chk := range d.Rejected {
			where = append(where, chk.Target)
		}
		fmt.Fprintf(w, "%s   dropped %s (%s): llvm-mc rejects it on %s", pad, d.AMD, d.ConceptID, strings.Join(where, " "))
		if len(d.Rejected) > 0 && len(d.Rejected[0].Rejected) > 0 {
			x := d.Rejected[0].Rejected[0]
			fmt.Fprintf(w, ": %s (%s)", x.Line, firstLine(x.Message))
		}
		fmt.Fprintln(w)
	}
}

// printChecks says, per gfx target, whether the counterpart assembles,
// grouping targets with the same verdict.
func printChecks(w io.Writer, pad string, checks []concepts.TargetCheck) {
	byStatus := map[string][]string{}
	var order []string
	for _, c := range checks {
		if byStatus[c.Status] == nil {
			order = append(order, c.Status)
		}
		byStatus[c.Status] = append(byStatus[c.Status], c.Target)
	}
	for _, st := range order {
		fmt.Fprintf(w, "%s%s on %s\n", pad, st, strings.Join(byStatus[st], " "))
	}
	for _, c := range checks {
		if len(c.Sequence) > 0 {
			fmt.Fprintf(w, "%son %s:\n", pad, c.Target)
			for _, x := range c.Sequence {
				fmt.Fprintf(w, "%s  | %s\n", pad, x)
			}
		}
		for _, x := range c.Rejected {
			fmt.Fprintf(w, "%s%s rejects %s (%s)\n", pad, c.Target, x.Line, firstLine(x.Message))
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

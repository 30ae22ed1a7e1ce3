package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

func newDiffCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "diff A B [--json]",
		Short: "What changed between two generations: AMD families, PTX ISA versions or sm_ targets",
		Long: `Diff says what B has that A lacks and what changed between them.

Two AMD families (gpuisa diff rdna3 rdna4; gfx targets and products such as mi300x are
accepted): instructions added and removed, renamed (each with its evidence: gpuisa's rename
link, an LLVM alias, the same encoding and opcode, or the same pseudocode), opcode, format,
operand, semantics (a word diff) and target-support changes, and the formats whose bit
layout changed. Added and removed never count a rename.

Two PTX ISA versions (gpuisa diff ptx:7.8 ptx:8.0): the mnemonics, forms and modifiers the
newer version introduced, with NVIDIA's release notes. Two sm_ targets (gpuisa diff sm_80
sm_90): what becomes available, by ptxas's target grid where ptxas verified a form, else the
documentation's minimum target; a target without a suffix stands for its generation
(sm_90 with sm_90a), and each row names the targets that accept it.`,
		Args: cobra.ExactArgs(2),
		RunE: e.withDB(func(cmd *cobra.Command, args []string, db *store.DB) error {
			r, err := famdiff.NewFacts(db).Compare(cmd.Context(), args[0], args[1])
			if err != nil {
				return err
			}
			if asJSON {
				return e.writeJSON(r)
			}
			return printDiff(e.stdout, r)
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printDiff(w io.Writer, r *famdiff.Result) error {
	bw := bufio.NewWriter(w) // keeps the first write error
	c := r.Counts
	fmt.Fprintf(bw, "%s -> %s: %d added, %d removed", r.From.Name, r.To.Name, c.Added, c.Removed)
	if r.Kind == famdiff.KindFamilies {
		fmt.Fprintf(bw, ", %d renamed, %d changed (%d opcode, %d encoding, %d operand, %d semantics, %d target), %d unchanged, %d formats",
			c.Renamed, c.Changed, c.Opcodes, c.Encodings, c.Operands, c.Semantics, c.Targets, c.Unchanged, c.Formats)
	}
	fmt.Fprintf(bw, "\n")
	items := func(title, mark string, list []famdiff.Item) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n%s (%d)\n", title, len(list))
		cat := "\x00"
		for _, it := range list {
			if it.Category != cat {
				cat = it.Category
				fmt.Fprintf(bw, "  %s\n", nonEmpty(cat, "Uncategorized"))
			}
			fmt.Fprintf(bw, "    %s %s\n", mark, itemText(it))
		}
	}
	items("Added", "+", r.Added)
	items("Removed", "-", r.Removed)
	if len(r.Renamed) > 0 {
		fmt.Fprintf(bw, "\nRenamed (%d)\n", len(r.Renamed))
		for _, rn := range r.Renamed {
			fmt.Fprintf(bw, "    %s -> %s\n", rn.From, rn.To)
			for _, ev := range rn.Evidence {
				fmt.Fprintf(bw, "        %s: %s\n", ev.Kind, ev.Text)
			}
		}
	}
	if len(r.Changed) > 0 {
		fmt.Fprintf(bw, "\nChanged (%d)\n", len(r.Changed))
		for _, ch := range r.Changed {
			name := ch.To
			if ch.Renamed {
				name = ch.From + " -> " + ch.To
			}
			fmt.Fprintf(bw, "    %s\n", name)
			for _, ec := range ch.Encodings {
				fmt.Fprintf(bw, "        %s: %s\n", ec.Kind, arrow(ec.From, ec.To))
			}
			for _, oc := range ch.Operands {
				fmt.Fprintf(bw, "        operand %s %s: %s\n", oc.Operand, oc.Kind, arrow(oc.From, oc.To))
			}
			if len(ch.Semantics) > 0 {
				fmt.Fprintf(bw, "        semantics: %s\n", wordsText(ch.Semantics))
			}
			if t := ch.Targets; t != nil {
				fmt.Fprintf(bw, "        targets: %s -> %s\n", targetsText(t.From, t.FromOf), targetsText(t.To, t.ToOf))
			}
		}
	}
	if len(r.Formats) > 0 {
		fmt.Fprintf(bw, "\nFormats (%d)\n", len(r.Formats))
		for _, f := range r.Formats {
			switch f.Kind {
			case famdiff.ChangeAdded:
				fmt.Fprintf(bw, "    + %s (%d bits)\n", f.To, f.ToWidth)
			case famdiff.ChangeRemoved:
				fmt.Fprintf(bw, "    - %s (%d bits)\n", f.From, f.FromWidth)
			default:
				fmt.Fprintf(bw, "    %s (%d bits) -> %s (%d bits)", f.From, f.FromWidth, f.To, f.ToWidth)
				if f.Instructions > 0 {
					fmt.Fprintf(bw, ", %d instructions", f.Instructions)
				}
				fmt.Fprintf(bw, "\n")
				for _, fc := range f.Fields {
					fmt.Fprintf(bw, "        %s %s: %s\n", fc.Field, fc.Kind, arrow(fc.From, fc.To))
				}
			}
		}
	}
	for _, rel := range r.Releases {
		fmt.Fprintf(bw, "\nPTX ISA %s", rel.Version)
		if rel.CUDA != "" {
			fmt.Fprintf(bw, " (%s)", rel.CUDA)
		}
		if len(rel.Targets) > 0 {
			fmt.Fprintf(bw, ", introduced %s", strings.Join(rel.Targets, ", "))
		}
		fmt.Fprintf(bw, " — NVIDIA's release notes:\n")
		for _, n := range rel.Notes {
			fmt.Fprintf(bw, "    - %s\n", strings.ReplaceAll(n, "\n", " "))
		}
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(bw, "\n")
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "note: %s\n", n)
		}
	}
	return bw.Flush()
}

func itemText(it famdiff.Item) string {
	s := it.Name
	switch it.Level {
	case "form":
		s = it.Syntax
	case "modifier":
		s = it.Name + " " + it.Modifier + "  (in " + it.Syntax + ")"
	}
	var req []string
	if it.PTXVersion != "" {
		req = append(req, "PTX "+it.PTXVersion)
	}
	if it.MinTarget != "" {
		req = append(req, it.MinTarget)
	}
	if len(it.Targets) > 0 {
		req = append(req, "on "+strings.Join(it.Targets, ", "))
	}
	if it.Source != "" {
		req = append(req, it.Source)
	}
	if len(req) > 0 {
		s += "  [" + strings.Join(req, "; ") + "]"
	}
	return s
}

func arrow(from, to string) string {
	switch {
	case from == "":
		return to
	case to == "":
		return from
	}
	return from + " -> " + to
}

func wordsText(ws []famdiff.Word) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		t := strings.ReplaceAll(w.Text, "\n", " ")
		switch w.Op {
		case "-":
			b.WriteString("[-" + t + "-]")
		case "+":
			b.WriteString("{+" + t + "+}")
		default:
			if len(t) > 60 {
				t = t[:28] + " … " + t[len(t)-28:]
			}
			b.WriteString(t)
		}
	}
	return b.String()
}

func targetsText(ts []string, of int) string {
	switch {
	case len(ts) == 0:
		return "none of its targets"
	case len(ts) == of:
		return fmt.Sprintf("all %d targets", of)
	}
	return strings.Join(ts, ", ") + fmt.Sprintf(" (of %d)", of)
}

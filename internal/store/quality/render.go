package quality

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteSummary writes the per-family table: instructions, syntax, verified
// examples, share, unmatched both ways, rejections and disagreements.
func WriteSummary(w io.Writer, r Report) error {
	ew := &errWriter{w: w}
	switch {
	case r.Verified:
		ew.printf("Verified with %s on %d gfx targets", r.LLVMMC, len(r.Targets))
		if len(r.UnknownTargets) > 0 {
			ew.printf(" (%s unknown to it)", strings.Join(r.UnknownTargets, ", "))
		}
		ew.printf(".\n")
		ew.printf("%d distinct lines; %d llvm-mc processes, %d assembled, %d from the cache.\n",
			r.Run.Lines, r.Run.Processes, r.Run.Assembled, r.Run.CacheHits)
	default:
		ew.printf("Not verified with llvm-mc.\n")
	}
	for _, n := range r.Notes {
		ew.printf("Note: %s\n", n)
	}
	for _, g := range r.OracleGaps() {
		ew.printf("Not checked (%s, %s): %s\n", g.Tool, g.Step, g)
	}
	ew.printf("Examples: %s.\n", r.Examples)
	if r.PTX != nil {
		writePTXSummary(ew, r.PTX)
	}
	if r.Sem != nil {
		writeSemSummary(ew, r.Sem)
	}
	ew.printf("\n")
	if ew.err != nil {
		return ew.err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "family\tinstructions\twith syntax\tverified example\t(synthesized)\t(generated)\tLLVM spelling\tshare\tAMD only\tLLVM only\trejected\tdisagreements\tcorrected\t")
	for _, f := range r.Families {
		mark := ""
		if !f.MeetsTarget {
			mark = " *"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f%%%s\t%d\t%d\t%d\t%d\t%d\t\n", f.Arch, f.Instructions, f.WithSyntax,
			f.WithExample, f.Synthesized, f.Generated, f.Spelled, f.Share, mark, len(f.UnmatchedAMD), len(f.UnmatchedLLVM), len(f.Rejected), len(f.Disagreements), len(f.Corrected))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, f := range r.Families {
		if f.Explanation != "" {
			ew.printf("* %s: %s\n", f.Arch, f.Explanation)
		}
	}
	if n := r.CorrectedTotal(); n > 0 {
		ew.printf("corrected: %d facts of the documents (AMD's guides, LLVM's syntax pages) that llvm-mc contradicts are shown as llvm-mc has them, the document's value beside them.\n", n)
	}
	return ew.err
}

// WriteText writes the summary and then, per family, every list in full.
func WriteText(w io.Writer, r Report) error {
	if err := WriteSummary(w, r); err != nil {
		return err
	}
	ew := &errWriter{w: w}
	if len(r.ReaderProblems) > 0 {
		ew.printf("\nWhat the readers could not recover from the upstream documents (%d):\n", len(r.ReaderProblems))
		for _, p := range r.ReaderProblems {
			ew.printf("  %s\n", p)
		}
	}
	if r.PTX != nil {
		writePTXFindings(ew, r.PTX)
	}
	if r.Sem != nil {
		writeSemFindings(ew, r.Sem)
	}
	for _, f := range r.Families {
		ew.printf("\n== %s (%s) — targets %s; LLVM pages %s\n", f.Name, f.Arch, orNone(strings.Join(f.Targets, " ")), orNone(strings.Join(f.Pages, " ")))
		ew.printf("%d of %d instructions have an example llvm-mc accepted on a %s target (%d of them only with operands gpuisa synthesized, %d written by llvm-mc's disassembly of AMD's encoding), %d more one in LLVM's spelling: %.1f%%; %d encodings compared with AMD's identifiers.\n",
			f.WithExample, f.Instructions, f.Name, f.Synthesized, f.Generated, f.Spelled, f.Share, f.Compared)
		if len(f.DisagreementGroups) > 0 {
			ew.printf("Identifier disagreements (llvm-mc vs AMD), by format and differing bits:\n")
			for _, g := range f.DisagreementGroups {
				ew.printf("  %s, bits %s: %d — %s\n", g.Format, g.Bits, g.Count, strings.Join(g.Names, " "))
			}
			for _, d := range f.Disagreements {
				ew.printf("  %s: %s\n", d.Name, d.Note)
			}
		}
		if len(f.Corrected) > 0 {
			ew.printf("Corrected by the assembler (%d): the page shows llvm-mc's value, the document's as the documented variant:\n", len(f.Corrected))
			for _, g := range f.CorrectedGroups {
				ew.printf("  %s: %d\n", g.Key, g.Count)
			}
			for _, c := range f.Corrected {
				ew.printf("  %s, %s: %s %s, llvm-mc %s\n", c.Name, c.Fact, c.Prov.Source, c.Document, c.Shown)
			}
		}
		ew.items("AMD documents, llvm-mc rejects on every "+f.Name+" target", f.Rejected)
		if len(f.Amendments) > 0 {
			counts := f.AmendmentCounts()
			var parts []string
			for _, k := range AmendmentKinds {
				if counts[k] > 0 {
					parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
				}
			}
			ew.printf("Linked, filled in or moved back by gpuisa (%s):\n", strings.Join(parts, ", "))
			for _, c := range f.Amendments {
				ew.printf("  %s [%s]: %s\n", c.Name, c.Kind, c.Note)
			}
		}
		ew.items("Examples generated from llvm-mc's disassembly of AMD's encoding, accepted by llvm-mc", f.GeneratedExamples)
		ew.items("No verified example", f.Unverified)
		if len(f.UnmatchedAMD) > 0 {
			ew.printf("AMD instructions no LLVM syntax row matches (%d):\n%s\n", len(f.UnmatchedAMD), wrap(f.UnmatchedAMD))
		}
		if len(f.UnmatchedLLVM) > 0 {
			var acc, rest []string
			for _, n := range f.UnmatchedLLVM {
				if n.Accepted {
					acc = append(acc, n.Name)
				} else {
					rest = append(rest, n.Name)
				}
			}
			ew.printf("LLVM documents, AMD does not (%d; %d of them accepted by llvm-mc on a %s target):\n", len(f.UnmatchedLLVM), len(acc), f.Name)
			if len(acc) > 0 {
				ew.printf(" accepted:\n%s\n", wrap(acc))
			}
			if len(rest) > 0 {
				ew.printf(" not accepted (or not verified):\n%s\n", wrap(rest))
			}
		}
	}
	return ew.err
}

// writePTXSummary writes what ptxas said about the PTX documentation in
// a few lines: tools, run, forms, examples and the count of each finding.
func writePTXSummary(ew *errWriter, p *PTXReport) {
	if !p.Verified {
		ew.printf("PTX: not verified by ptxas.\n")
		for _, n := range p.Notes {
			ew.printf("PTX note: %s\n", n)
		}
		return
	}
	targets := ""
	if len(p.Targets) > 0 {
		targets = fmt.Sprintf(" on %d sm targets (%s to %s)", len(p.Targets), p.Targets[0], p.Targets[len(p.Targets)-1])
	}
	var tools []string
	for _, t := range p.Tools {
		tools = append(tools, ToolName(t))
	}
	ew.printf("PTX: verified with %s%s, grid at PTX ISA %s.\n", strings.Join(tools, ", "), targets, orNone(p.DocVersion))
	ew.printf("PTX: %d statements; %d ptxas processes, %d assembled, %d from the cache; %d needed another operand typing.\n",
		p.Run.Statements, p.Run.Processes, p.Run.Assembled, p.Run.CacheHits, p.Run.Searched)
	ew.printf("PTX forms: %d documented, %d verified, %d rejected, %d not verified; %d show ptxas's requirements instead of the documentation's.\n",
		p.Forms, p.FormsVerified, p.FormsRejected, p.FormsNotVerified, p.FormsCorrected)
	ew.printf("PTX example statements: %d, %d accepted in their documented context.\n", p.ExampleStatements, p.ExamplesAccepted)
	var parts []string
	for _, k := range p.FindingKinds() {
		parts = append(parts, fmt.Sprintf("%s %d", strings.ToLower(k.Title), len(k.Findings)))
	}
	ew.printf("PTX findings: %s.\n", strings.Join(parts, "; "))
	for _, n := range p.Notes {
		ew.printf("PTX note: %s\n", n)
	}
}

// ToolName drops the path from a tool's description ("ptxas 13.5.37
// (CUDA 13.5, ...): /path/ptxas").
func ToolName(desc string) string {
	name, _, _ := strings.Cut(desc, ": ")
	return name
}

// writePTXFindings lists every PTX finding, kind by kind: the statement,
// both values where two sources disagree, ptxas's message and where the
// documentation says it.
func writePTXFindings(ew *errWriter, p *PTXReport) {
	for _, k := range p.FindingKinds() {
		if len(k.Findings) == 0 {
			continue
		}
		ew.printf("\n== PTX: %s (%d) — %s\n", k.Title, len(k.Findings), k.Intro)
		for _, f := range k.Findings {
			ew.printf("  %s: %s", f.Mnemonic, f.Statement)
			if f.Fact != "" {
				ew.printf(" — %s: documentation %s, ptxas %s", f.Fact, orNone(f.Doc), orNone(f.PTXAS))
			} else if f.Message != "" {
				ew.printf(" — %s", f.Message)
			}
			if f.Context {
				ew.printf(" (assembles without the example's own declarations)")
			}
			if f.Prov.File != "" {
				ew.printf(" [%s:%d]", f.Prov.File, f.Prov.Line)
			}
			ew.printf("\n")
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// wrap lays names out in indented lines of about 100 columns.
func wrap(names []string) string {
	var b strings.Builder
	col := 0
	for _, n := range names {
		if col > 0 && col+len(n)+1 > 100 {
			b.WriteString("\n")
			col = 0
		}
		if col == 0 {
			b.WriteString("  ")
			col = 2
		} else {
			b.WriteString(" ")
			col++
		}
		b.WriteString(n)
		col += len(n)
	}
	return b.String()
}

type errWriter struct {
	w   io.Writer
	err error
}

// items prints title with the count of list, then each instruction with
// its reason; nothing for an empty list.
func (e *errWriter) items(title string, list []Item) {
	if len(list) == 0 {
		return
	}
	e.printf("%s (%d):\n", title, len(list))
	for _, it := range list {
		e.printf("  %s: %s\n", it.Name, it.Reason)
	}
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

package quality

import (
	"strconv"
	"strings"
)

// SemReport is what evaluating the guides' pseudocode found: per family
// how much of it parses, runs and was checked against LLVM's constant
// folding; the oracle's numbers per instruction group with the tolerated
// differences and their reasons; and the cross-vendor differences found by
// evaluation, with the hand-written restrictions they contradict.
type SemReport struct {
	Opt   string   `json:"opt,omitempty"` // opt's version line, "" when the oracle did not run
	Notes []string `json:"notes,omitempty"`
	// Gap is set when the opt found cannot fold as the check expects.
	Gap *OracleGap `json:"gap,omitempty"`
	// Families are the families whose pseudocode the evaluator reads, in
	// either notation (RDNA 1-4, CDNA 1-5, Vega, Vega 7nm).
	Families []SemFamily `json:"families"`
	// Groups are the oracle's numbers per instruction group.
	Groups []SemGroup `json:"groups"`
	// Checked are the instructions compared with LLVM, one row each.
	Checked []SemChecked `json:"checked"`
	// Tolerated are the allowed differences by reason.
	Tolerated []SemTolerated `json:"tolerated"`
	// Findings are differences no row of the table allows (to be fixed
	// in gpuisa or listed with a reason).
	Findings []SemFinding `json:"findings"`
	// Pairs counts the concept relations evaluated on both sides, and
	// Differing those where some input gives different results.
	Pairs     int `json:"pairs"`
	Differing int `json:"differing"`
	// Contradictions are the catalogue's claims evaluation does not bear out.
	Contradictions []SemContradiction `json:"contradictions"`
	// Hardware is the PTX models held to a GPU's results (gpuisa semgpu
	// run on a lent GPU); nil without a results file.
	Hardware *SemHardware `json:"hardware,omitempty"`
}

// SemHardware is the PTX models against what a GPU returned.
type SemHardware struct {
	File       string   `json:"file"`
	GPU        string   `json:"gpu"`
	Target     string   `json:"target"`
	Statements int      `json:"statements"`
	Cases      int      `json:"cases"`
	Agree      int      `json:"agree"`
	Mismatches []string `json:"mismatches"` // "max.f32 d, a, b; (0x7fa00000,0x3f800000): model 0x3f800000, GPU 0x7fffffff"
	Missing    []string `json:"missing"`
}

// SemFamily is one family's coverage.
type SemFamily struct {
	Arch       string  `json:"arch"`
	Pages      int     `json:"pages"`      // instructions with pseudocode
	Parsed     int     `json:"parsed"`     // parsed by the grammar
	Executable int     `json:"executable"` // parsed and using only what the evaluator models
	Checked    int     `json:"checked"`    // executable and compared with LLVM on folded inputs
	ParsedPct  float64 `json:"parsed_pct"`
	ExecPct    float64 `json:"exec_pct"`
	// Why counts the first reason pages are not executable, by reason.
	Why []Count `json:"why"`
}

// SemGroup is the oracle's numbers for one instruction group.
type SemGroup struct {
	Group        string `json:"group"`
	Instructions int    `json:"instructions"`
	Cases        int    `json:"cases"`
	Folded       int    `json:"folded"`
	Agree        int    `json:"agree"`
	Tolerated    int    `json:"tolerated"`
	Differ       int    `json:"differ"`
}

// SemChecked is one instruction compared with LLVM.
type SemChecked struct {
	Arch      string `json:"arch"`
	Name      string `json:"name"`
	Group     string `json:"group"`
	Folded    int    `json:"folded"`
	Agree     int    `json:"agree"`
	Tolerated int    `json:"tolerated"`
	Differ    int    `json:"differ"`
}

// SemTolerated is one reason with how many differences it allows where.
type SemTolerated struct {
	Reason       string   `json:"reason"`
	Count        int      `json:"count"`
	Instructions []string `json:"instructions"` // "rdna4 v_rndne_f32"
	Example      string   `json:"example"`
}

// SemFinding is an untolerated difference.
type SemFinding struct {
	Arch    string `json:"arch"`
	Name    string `json:"name"`
	Differ  int    `json:"differ"`
	Example string `json:"example"`
}

// SemContradiction is a relation or restriction evaluation contradicts.
type SemContradiction struct {
	Concept string `json:"concept"`
	PTX     string `json:"ptx"` // "max.f32"
	Arch    string `json:"arch"`
	AMD     string `json:"amd"`
	Claim   string `json:"claim"`
	Finding string `json:"finding"`
	Known   string `json:"known,omitempty"` // a defect of the guide's pseudocode the oracle found too
}

// writeSemSummary writes the evaluation's lines of the summary.
func writeSemSummary(ew *errWriter, s *SemReport) {
	for _, f := range s.Families {
		ew.printf("Pseudocode %-8s %4d pages: %4d parsed (%.1f%%), %4d executable (%.1f%%), %3d checked against LLVM\n",
			f.Arch, f.Pages, f.Parsed, f.ParsedPct, f.Executable, f.ExecPct, f.Checked)
	}
	if s.Opt == "" {
		ew.printf("Pseudocode: not checked against LLVM's constant folding.\n")
	} else {
		var parts []string
		for _, g := range s.Groups {
			parts = append(parts, strings.TrimSpace(g.Group)+" "+strconv.Itoa(g.Agree)+"/"+strconv.Itoa(g.Folded))
		}
		ew.printf("Pseudocode vs LLVM (%s): agree/folded per group: %s; %d tolerated reasons, %d findings.\n",
			s.Opt, strings.Join(parts, ", "), len(s.Tolerated), len(s.Findings))
	}
	ew.printf("Concepts by evaluation: %d AMD-PTX pairs evaluated, %d differ on some input, %d contradictions with the catalogue.\n",
		s.Pairs, s.Differing, len(s.Contradictions))
	if h := s.Hardware; h != nil {
		ew.printf("PTX models on %s (%s, %s): %d statements, %d of %d cases agree.\n", h.GPU, h.Target, h.File, h.Statements, h.Agree, h.Cases)
	}
	for _, n := range s.Notes {
		ew.printf("Pseudocode note: %s\n", n)
	}
}

// writeSemFindings lists the tolerated reasons, findings and contradictions.
func writeSemFindings(ew *errWriter, s *SemReport) {
	if len(s.Tolerated) > 0 {
		ew.printf("\n== Pseudocode vs LLVM: tolerated differences (%d reasons)\n", len(s.Tolerated))
		for _, t := range s.Tolerated {
			ew.printf("  %d: %s\n     on %s; e.g. %s\n", t.Count, t.Reason, strings.Join(t.Instructions, ", "), t.Example)
		}
	}
	if len(s.Findings) > 0 {
		ew.printf("\n== Pseudocode vs LLVM: differences no reason allows (%d)\n", len(s.Findings))
		for _, f := range s.Findings {
			ew.printf("  %s %s: %d, e.g. %s\n", f.Arch, f.Name, f.Differ, f.Example)
		}
	}
	if h := s.Hardware; h != nil && len(h.Mismatches) > 0 {
		ew.printf("\n== PTX models against %s (%d)\n", h.GPU, len(h.Mismatches))
		for _, m := range h.Mismatches {
			ew.printf("  %s\n", m)
		}
	}
	if len(s.Contradictions) > 0 {
		ew.printf("\n== Concept catalogue claims contradicted by evaluation (%d)\n", len(s.Contradictions))
		for _, c := range s.Contradictions {
			ew.printf("  %s: %s vs %s %s: %q — %s\n", c.Concept, c.PTX, c.Arch, c.AMD, c.Claim, c.Finding)
			if c.Known != "" {
				ew.printf("     (the guide's pseudocode is at fault: %s)\n", c.Known)
			}
		}
	}
}

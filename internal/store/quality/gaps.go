package quality

import "strings"

// OracleGap is what the build could not check because the oracle it found
// cannot (an older LLVM than the facts need, or none): which tool, what
// step, the families and targets left unverified, why, and the command
// that fixes it. /quality, /about and the build log show each once.
type OracleGap struct {
	Tool     string   `json:"tool"`               // "llvm-mc"
	Version  string   `json:"version,omitempty"`  // its version line, "" when none was found
	Step     string   `json:"step"`               // what was not checked: "target compatibility"
	Families []string `json:"families,omitempty"` // names of the families left unverified, wholly or on some targets
	Targets  []string `json:"targets,omitempty"`  // gfx targets left unverified
	Text     string   `json:"text"`               // one line: "RDNA 4, CDNA 4: not verified: llvm-mc 14.0.6 does not know gfx1200, ..."
	Fix      string   `json:"fix,omitempty"`      // the command that fixes it
}

// String is the gap's line with its fix.
func (g OracleGap) String() string {
	if g.Fix == "" {
		return g.Text
	}
	return g.Text + "; to fix: " + g.Fix
}

// OracleGaps are every gap of the report: the assembler's, the cost
// model's and the semantics check's, in that order.
func (r *Report) OracleGaps() []OracleGap {
	out := append([]OracleGap(nil), r.Gaps...)
	if r.Cost != nil && r.Cost.Gap != nil {
		out = append(out, *r.Cost.Gap)
	}
	if r.Sem != nil && r.Sem.Gap != nil {
		out = append(out, *r.Sem.Gap)
	}
	return out
}

// StepTargets is the step of a gap that leaves families' target
// compatibility unverified.
const StepTargets = "target compatibility"

// UnverifiedFamilies are the names of the families whose targets some
// gap leaves unverified, each once, in the order the gaps name them.
func (r *Report) UnverifiedFamilies() string {
	seen := map[string]bool{}
	var out []string
	for _, g := range r.Gaps {
		if g.Step != StepTargets {
			continue
		}
		for _, f := range g.Families {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return strings.Join(out, ", ")
}

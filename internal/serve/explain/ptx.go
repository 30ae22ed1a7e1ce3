package explain

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// PTXLine is one PTX statement explained: the checker's minimum PTX ISA
// version and target (ptx check) and the catalogue's AMD counterparts
// (port).
type PTXLine struct {
	Line        int      `json:"line"`
	Text        string   `json:"text"`
	Valid       bool     `json:"valid"`
	Reason      string   `json:"reason,omitempty"`
	PTXVersion  string   `json:"ptx_version,omitempty"`
	MinTarget   string   `json:"min_target,omitempty"`
	Verified    string   `json:"verified,omitempty"` // "ptxas" when the database holds ptxas's verdict
	AMD         []string `json:"amd"`                // "v_max_f32 (equivalent with restrictions)"
	NoAMD       string   `json:"no_amd,omitempty"`   // why there is none
	Page        string   `json:"page,omitempty"`     // /ptx/MNEMONIC
	Unsupported bool     `json:"-"`
}

// PTXExplanation is a PTX file explained.
type PTXExplanation struct {
	File         string    `json:"file"`
	Version      string    `json:"version,omitempty"` // the file's .version
	Target       string    `json:"target,omitempty"`  // the file's .target
	NeedsVersion string    `json:"needs_version,omitempty"`
	NeedsTarget  string    `json:"needs_target,omitempty"`
	Warnings     []string  `json:"warnings"`
	PortTo       string    `json:"port_to"` // the AMD family counterparts are for ("" any)
	Verification string    `json:"verification,omitempty"`
	Lines        []PTXLine `json:"lines"`
	Valid        int       `json:"valid"`
	Invalid      int       `json:"invalid"`
	Ported       int       `json:"ported"`
}

// ExplainPTX joins the checker's report and the port report line by line.
func ExplainPTX(check ptx.FileReport, port *concepts.PortReport, portTo, verification string) *PTXExplanation {
	x := &PTXExplanation{File: check.File, Version: check.Version, Target: check.Target, NeedsVersion: check.NeedsVersion, NeedsTarget: check.NeedsTarget,
		Warnings: append([]string{}, check.Warnings...), PortTo: portTo, Verification: verification, Lines: []PTXLine{}, Valid: check.Valid, Invalid: check.Invalid}
	byLine := map[int]*concepts.PortResult{}
	if port != nil {
		for i := range port.Results {
			byLine[port.Results[i].Line] = &port.Results[i]
		}
	}
	for _, r := range check.Results {
		l := PTXLine{Line: r.Line, Text: r.Text, Valid: r.Valid, Reason: r.Reason, PTXVersion: r.PTXVersion, MinTarget: r.MinTarget, Verified: r.Verified, AMD: []string{}}
		if r.Mnemonic != "" {
			l.Page = "/ptx/" + strings.SplitN(r.Mnemonic, ".", 2)[0]
		}
		if p := byLine[r.Line]; p != nil {
			seen := map[string]bool{}
			for _, c := range p.Counterparts {
				s := c.AMD + " (" + string(c.Relation) + ")"
				if !seen[s] {
					seen[s] = true
					l.AMD = append(l.AMD, s)
				}
			}
			switch {
			case len(l.AMD) > 0:
				x.Ported++
			case p.NoCounterpart != "":
				l.NoAMD = p.NoCounterpart
			case p.Gap != "":
				l.NoAMD = p.Gap
			case p.Unknown:
				l.NoAMD = "not in the concept catalogue"
			}
		}
		x.Lines = append(x.Lines, l)
	}
	sort.SliceStable(x.Lines, func(i, j int) bool { return x.Lines[i].Line < x.Lines[j].Line })
	return x
}

// WritePTXText writes the explained PTX: one line per statement, then the
// file's requirements.
func WritePTXText(w io.Writer, x *PTXExplanation) error {
	bw := bufio.NewWriter(w)
	head := x.File
	if x.Version != "" || x.Target != "" {
		head += fmt.Sprintf(" (.version %s, .target %s)", orDash(x.Version), orDash(x.Target))
	}
	to := x.PortTo
	if to == "" {
		to = "any AMD family"
	}
	fmt.Fprintf(bw, "// PTX %s: counterparts for %s\n", head, to)
	if x.Verification != "" {
		fmt.Fprintf(bw, "// %s\n", x.Verification)
	}
	for _, l := range x.Lines {
		text := l.Text
		if len(text) > 56 {
			text = text[:53] + "..."
		}
		var parts []string
		if !l.Valid {
			parts = append(parts, "INVALID: "+l.Reason)
		} else {
			req := "PTX " + orDash(l.PTXVersion) + ", " + orDash(l.MinTarget)
			if l.Verified != "" {
				req += " (" + l.Verified + ")"
			}
			parts = append(parts, req)
		}
		switch {
		case len(l.AMD) > 0:
			parts = append(parts, "AMD: "+strings.Join(l.AMD, "; "))
		case l.NoAMD != "":
			parts = append(parts, "no AMD counterpart: "+l.NoAMD)
		}
		fmt.Fprintf(bw, "%5d: %-56s // %s\n", l.Line, text, strings.Join(parts, " · "))
	}
	fmt.Fprintf(bw, "\n// %d valid, %d invalid; needs PTX ISA %s and %s; %d of %d statements have an AMD counterpart\n",
		x.Valid, x.Invalid, orDash(x.NeedsVersion), orDash(x.NeedsTarget), x.Ported, len(x.Lines))
	for _, warn := range x.Warnings {
		fmt.Fprintf(bw, "// warning: %s\n", warn)
	}
	return bw.Flush()
}

// WritePTXJSON writes the explained PTX as JSON.
func WritePTXJSON(w io.Writer, x *PTXExplanation) error { return writeJSON(w, x) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/serve/explain"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// /explain explains PTX as gpuisa explain FILE.ptx does (the same
// package): each statement with the minimum PTX ISA version and sm_
// target the checker finds, and its AMD counterparts from the concept
// catalogue, for the family or target chosen on the form (else any),
// checked with the assembler verdicts the database holds.

// ptxExplainView is a PTX explanation laid out for the page.
type ptxExplainView struct {
	X     *explain.PTXExplanation
	Lines []ptxExplainLine
	// PortName is the family or target the counterparts are for, in
	// words ("any AMD family").
	PortName string
}

type ptxExplainLine struct {
	explain.PTXLine
	Req string // "PTX ISA 7.0, sm_80"
	AMD []link // each counterpart, linked to its page where the family has it
}

// nameIndexOf is which instructions each served family has, built once.
func (s *server) nameIndexOf(ctx context.Context) (*concepts.NameIndex, error) {
	s.nameIndexOnce.Do(func() {
		ix := concepts.NewNameIndex(nil)
		for _, a := range s.archs {
			list, err := s.list(ctx, a.ID)
			if err != nil {
				s.nameIndexErr = err
				return
			}
			for _, sum := range list {
				ix.Add(a.ID, sum.Name)
			}
		}
		s.nameIndex = ix
	})
	return s.nameIndex, s.nameIndexErr
}

// explainPTXText explains raw as PTX, the counterparts for to (an AMD
// family id or gfx target; "" for any family).
func (s *server) explainPTXText(ctx context.Context, raw []byte, to string) (*ptxExplainView, error) {
	c, err := s.ptxChecker()
	if err != nil {
		return nil, err
	}
	check := c.CheckSource("PTX", string(raw))
	if len(check.Results) == 0 {
		return nil, errs.Invalid("no PTX statement found: paste PTX statements or a .ptx file (with its .version and .target lines)")
	}
	cd, err := s.conceptCatalogue()
	if err != nil {
		return nil, err
	}
	ix, err := s.nameIndexOf(ctx)
	if err != nil {
		return nil, err
	}
	target := concepts.Target{Resolver: ix}
	v := &ptxExplainView{PortName: "any AMD family"}
	how := "Counterparts from the concept catalogue, not checked against a target: choose a family or target above to check them."
	if to = strings.TrimSpace(to); to != "" {
		info, ok := isa.LookupArch(to)
		if !ok || info.Vendor != isa.VendorAMD {
			return nil, errs.NotFound(isa.AMDArchIDs(), "unknown AMD family or target %q", to)
		}
		gfx := info.Targets
		if t := strings.ToLower(to); strings.HasPrefix(t, "gfx") {
			gfx = []string{t}
		}
		target.Arch, target.GFX = info.ID, gfx
		v.PortName = info.Name
		if t := strings.ToLower(to); strings.HasPrefix(t, "gfx") {
			v.PortName = t + " (" + info.Name + ")"
		}
		how = "Not verified: this database holds no assembler verdicts for the catalogue's proposals."
		if verdicts := s.conceptVerdicts(ctx); verdicts != nil {
			target.Verdicts = verdicts
			how = fmt.Sprintf("Checked against the LLVM assembler on %s (%s, when the database was built).", strings.Join(gfx, " "), verdicts.Assembler)
		}
	}
	port, err := concepts.PortReader(cd.cat, bytes.NewReader(raw), target)
	if err != nil {
		return nil, errs.Invalid("%v", err)
	}
	portTo := ""
	if target.Arch != "" {
		portTo = to
	}
	v.X = explain.ExplainPTX(check, port, portTo, how)
	for _, l := range v.X.Lines {
		row := ptxExplainLine{PTXLine: l, Req: "PTX ISA " + orDash(l.PTXVersion) + ", " + orDash(l.MinTarget)}
		for _, a := range l.AMD {
			lk := link{Text: a}
			name, _, _ := strings.Cut(a, " ")
			switch {
			case target.Arch != "" && s.hasInstruction(target.Arch, name):
				lk.URL = instrURL(target.Arch, name)
			case target.Arch == "":
				// No family chosen: the instruction across the families.
				lk.URL = "/compare/" + url.PathEscape(name)
			}
			row.AMD = append(row.AMD, lk)
		}
		v.Lines = append(v.Lines, row)
	}
	return v, nil
}

// conceptVerdicts are the assembler's verdicts on the catalogue's
// proposals the build stored; nil when it stored none.
func (s *server) conceptVerdicts(ctx context.Context) *concepts.VerdictTable {
	raw, err := s.store.Extra(ctx, store.KeyConceptVerdicts)
	if err != nil {
		return nil
	}
	var v concepts.VerdictTable
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return &v
}

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/costview"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// The data-quality report (package quality) is stored by the build as JSON;
// the summary page shows one row per family and each family's page every
// list in full, with instruction names linked where the family has a page.

func (s *server) qualityReport() (*quality.Report, error) {
	s.qualityOnce.Do(func() {
		raw, err := s.store.Extra(context.Background(), store.KeyQuality)
		if err != nil {
			if errs.KindOf(err) == errs.KindNotFound {
				err = errs.NotFound(nil, "this database was built without the data-quality report")
			}
			s.qualityErr = err
			return
		}
		var rep quality.Report
		if err := json.Unmarshal(raw, &rep); err != nil {
			s.qualityErr = fmt.Errorf("web: reading the stored quality report: %w", err)
			return
		}
		s.quality = &rep
	})
	return s.quality, s.qualityErr
}

// ptxTargets are the sm_ targets ptxas assembled every PTX statement
// for, from the stored report; none when ptxas did not run (or the
// database has no report).
func (s *server) ptxTargets() []string {
	rep, err := s.qualityReport()
	if err != nil || rep.PTX == nil {
		return nil
	}
	return rep.PTX.Targets
}

type qualityView struct {
	R        *quality.Report
	Target   float64
	Families []qualityFamilyRow
	PTX      *ptxQualityView
	Peaks    peaksView
}

// peaksView is every Instinct product's published peaks against the rates
// LLVM's scheduling model implies, the disagreements (beyond 1%, and the
// peaks no modelled instruction could check) apart.
type peaksView struct {
	All, Disagree []costview.PeakCheck
	Checked       int // checks with an implied rate
}

func (s *server) peaksView(ctx context.Context) peaksView {
	v := peaksView{All: s.allPeaks(ctx)}
	v.Disagree = costview.Disagreements(v.All)
	for _, c := range v.All {
		if c.Implied > 0 {
			v.Checked++
		}
	}
	return v
}

// ptxQualityView is the PTX part of the report: on /quality each kind of
// finding with its first rows, on /quality/ptx every row.
type ptxQualityView struct {
	P     *quality.PTXReport
	Tools []string
	Kinds []ptxKindView
}

type ptxKindView struct {
	ID, Title, Intro string
	Count            int
	Rows             []ptxFindingRow
	More             int // rows left to /quality/ptx
}

type ptxFindingRow struct {
	Name                                         link
	Statement, Fact, Doc, PTXAS, Message, Source string
	// Where is the short form of Source: the file's name and the line.
	Where   string
	Context bool
}

// ptxSummaryRows is how many findings of each kind /quality shows.
const ptxSummaryRows = 5

func (s *server) ptxQuality(p *quality.PTXReport, limit int) *ptxQualityView {
	v := &ptxQualityView{P: p}
	for _, t := range p.Tools {
		v.Tools = append(v.Tools, quality.ToolName(t))
	}
	for _, k := range p.FindingKinds() {
		kv := ptxKindView{ID: k.ID, Title: k.Title, Intro: k.Intro, Count: len(k.Findings)}
		for i, f := range k.Findings {
			if limit > 0 && i >= limit {
				kv.More = len(k.Findings) - limit
				break
			}
			l := link{Text: f.Mnemonic}
			if s.hasInstruction("ptx", f.Mnemonic) {
				l.URL = instrURL("ptx", f.Mnemonic)
			}
			kv.Rows = append(kv.Rows, ptxFindingRow{Name: l, Statement: f.Statement, Fact: f.Fact, Doc: f.Doc, PTXAS: f.PTXAS,
				Message: f.Message, Context: f.Context, Source: provText(f.Prov), Where: shortProv(f.Prov)})
		}
		v.Kinds = append(v.Kinds, kv)
	}
	return v
}

// shortProv is a provenance's file name and line, for tables where the
// whole path would not fit.
func shortProv(p isa.Prov) string {
	if p.File == "" {
		return p.Source
	}
	name := p.File[strings.LastIndex(p.File, "/")+1:]
	if p.Line > 0 {
		name += fmt.Sprintf(":%d", p.Line)
	}
	return name
}

// toQualityIndex points a quality page's error suggestions at /quality.
func toQualityIndex(string) string { return "/quality" }

func (s *server) handleQualityPTX(w http.ResponseWriter, r *http.Request, rep *quality.Report) {
	if rep.PTX == nil {
		s.storeError(w, r, errs.NotFound(nil, "the quality report of this database has no PTX part"), toQualityIndex)
		return
	}
	s.render(w, r, http.StatusOK, "quality-ptx", page{Title: "Data quality · PTX",
		Description: "What NVIDIA's assembler says about NVIDIA's PTX documentation.", Data: s.ptxQuality(rep.PTX, 0)})
}

type qualityFamilyRow struct {
	quality.Family
	URL, ArchURL string
}

func (s *server) handleQuality(w http.ResponseWriter, r *http.Request) {
	rep, err := s.qualityReport()
	if err != nil {
		s.storeError(w, r, err, toQualityIndex)
		return
	}
	v := qualityView{R: rep, Target: quality.ShareTarget, Peaks: s.peaksView(r.Context())}
	if rep.PTX != nil {
		v.PTX = s.ptxQuality(rep.PTX, ptxSummaryRows)
	}
	for _, f := range rep.Families {
		v.Families = append(v.Families, qualityFamilyRow{Family: f, URL: "/quality/" + f.Arch, ArchURL: archURL(f.Arch)})
	}
	s.render(w, r, http.StatusOK, "quality", page{Title: "Data quality",
		Description: "How much of what AMD documents LLVM describes and assembles, per family.", Data: v})
}

type qualityFamilyView struct {
	F             quality.Family
	Target        float64
	Unmatched     []link
	Rejected      []link // Note: the reason
	Unverified    []link
	Generated     []link // Note: the example
	Amendments    []amendmentGroup
	Disagreements []disagreementRow
	Corrected     []correctedRow
}

// correctedRow is one fact of the guide that the assembler corrected.
type correctedRow struct {
	Name                  link
	Fact, Document, Shown string
	Note, Source          string
}

// amendmentGroup is one kind of amendment with its instructions.
type amendmentGroup struct {
	Kind  string
	Items []link // Note: how
}

type disagreementRow struct {
	Name         link
	Format       string
	AMD, LLVM    string
	Note, Source string
}

func (s *server) handleQualityFamily(w http.ResponseWriter, r *http.Request) {
	rep, err := s.qualityReport()
	if err != nil {
		s.storeError(w, r, err, toQualityIndex)
		return
	}
	want := r.PathValue("arch")
	if a, err := s.lookupArch(r.Context(), want); err == nil {
		want = a.ID
	}
	if want == "ptx" {
		if r.URL.Path != "/quality/ptx" {
			http.Redirect(w, r, "/quality/ptx", http.StatusMovedPermanently)
			return
		}
		s.handleQualityPTX(w, r, rep)
		return
	}
	var fam *quality.Family
	var ids []string
	for i := range rep.Families {
		ids = append(ids, rep.Families[i].Arch)
		if rep.Families[i].Arch == want {
			fam = &rep.Families[i]
		}
	}
	if fam == nil {
		s.storeError(w, r, errs.NotFound(ids, "the quality report has no family %q", r.PathValue("arch")),
			func(id string) string { return "/quality/" + id })
		return
	}
	if r.URL.Path != "/quality/"+fam.Arch {
		http.Redirect(w, r, "/quality/"+fam.Arch, http.StatusMovedPermanently)
		return
	}
	v := qualityFamilyView{F: *fam, Target: quality.ShareTarget}
	name := func(n, note string) link {
		l := link{Text: n, Note: note}
		if s.hasInstruction(fam.Arch, n) {
			l.URL = instrURL(fam.Arch, n)
		}
		return l
	}
	for _, n := range fam.UnmatchedAMD {
		v.Unmatched = append(v.Unmatched, name(n, ""))
	}
	for _, it := range fam.Rejected {
		v.Rejected = append(v.Rejected, name(it.Name, it.Reason))
	}
	for _, it := range fam.Unverified {
		v.Unverified = append(v.Unverified, name(it.Name, it.Reason))
	}
	for _, it := range fam.GeneratedExamples {
		v.Generated = append(v.Generated, name(it.Name, it.Reason))
	}
	for _, kind := range quality.AmendmentKinds {
		g := amendmentGroup{Kind: kind}
		for _, c := range fam.Amendments {
			if c.Kind == kind {
				g.Items = append(g.Items, name(c.Name, c.Note))
			}
		}
		if len(g.Items) > 0 {
			v.Amendments = append(v.Amendments, g)
		}
	}
	for _, d := range fam.Disagreements {
		v.Disagreements = append(v.Disagreements, disagreementRow{Name: name(d.Name, ""), Format: d.Format,
			AMD: d.AMD, LLVM: d.LLVM, Note: d.Note, Source: provText(d.Prov)})
	}
	for _, c := range fam.Corrected {
		v.Corrected = append(v.Corrected, correctedRow{Name: name(c.Name, ""), Fact: c.Fact, Document: c.Document,
			Shown: c.Shown, Note: c.Note, Source: provText(c.Prov)})
	}
	s.render(w, r, http.StatusOK, "quality-family", page{Title: "Data quality · " + fam.Name,
		Description: fmt.Sprintf("Data-quality report for %s.", fam.Name), Data: v})
}

// provText writes a provenance as "source file:line".
func provText(p isa.Prov) string {
	s := p.Source
	if p.File != "" {
		s += " " + p.File
		if p.Line > 0 {
			s += fmt.Sprintf(":%d", p.Line)
		}
	}
	return s
}

package web

import (
	"context"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// diffRoutes registers the generation pages: family diffs, the PTX
// version and target history.
func (s *server) diffRoutes() {
	s.index("/diff", s.handleDiffIndex)
	s.mux.HandleFunc("GET /diff/{a}/{b}", s.handleDiff)
	s.mux.HandleFunc("GET /diff/{a}/{b}/{kind}", s.handleDiffPart)
	s.mux.HandleFunc("GET /diff/{a}/{b}/{kind}/{page}", s.handleDiffPart)
	s.mux.HandleFunc("GET /ptx/versions", s.handlePTXHistory)
	s.mux.HandleFunc("GET /ptx/versions/{v}", s.handlePTXVersion)
	s.mux.HandleFunc("GET /ptx/targets", s.handlePTXHistory)
	s.mux.HandleFunc("GET /ptx/targets/{t}", s.handlePTXTarget)
}

func diffURL(a, b string) string { return "/diff/" + url.PathEscape(a) + "/" + url.PathEscape(b) }

func ptxVersionURL(v string) string { return "/ptx/versions/" + url.PathEscape(v) }

func ptxTargetURL(t string) string { return "/ptx/targets/" + url.PathEscape(t) }

// diffView is what the diff template shows for any kind of diff.
type diffView struct {
	R *famdiff.Result
	// Heading and Intro say what is compared; FromURL and ToURL are the
	// sides' own pages.
	Heading, Intro string
	FromURL, ToURL string
	SwapURL        string
	Families       []isa.Architecture // the picker's choices (AMD)
	Renamed        []renameRow
	Added, Removed []itemGroup
	Changed        []changeGroup
	Formats        []formatRow
	Releases       []releaseView
	IsFamilies     bool
	TargetsIntro   []targetIntro // PTX target pages: the PTX version each target came with
	Prev, Next     link          // neighbouring versions or targets (PTX pages)
	APIURL         string        // the same diff as JSON, "" when it has no API address
	// Summary is the table the page opens with; the parts say which
	// lists have pages of their own. Part is the list a page of one
	// list shows.
	Summary                                          []summaryRow
	RenamedPart, AddedPart, RemovedPart, ChangedPart *diffPart
	Part                                             *diffPart
	URL                                              string // the diff's summary page
}

type renameRow struct {
	From, To, FromURL, ToURL, Category string
	Evidence                           []famdiff.Evidence
	ID                                 string // the first of its category on the page: the category's anchor
}

type itemGroup struct {
	Category, ID string
	Items        []itemRow
}

type itemRow struct {
	famdiff.Item
	Text, URL string
}

type changeGroup struct {
	Category, ID string
	Rows         []changeRow
}

type changeRow struct {
	famdiff.Change
	FromURL, ToURL string
	// Words is the word diff as HTML (<del>, <ins>), escaped here: a page
	// of a thousand changed instructions renders ten times faster than
	// through a template range per word.
	Words      template.HTML
	TargetText string
}

type formatRow struct {
	famdiff.FormatChange
	Title string
}

type releaseView struct {
	isa.PTXRelease
	URL         string
	Notes       []template.HTML
	TargetLinks []link
}

func newReleaseView(rel isa.PTXRelease) releaseView {
	rv := releaseView{PTXRelease: rel, URL: ptxVersionURL(rel.Version)}
	for _, n := range rel.Notes {
		rv.Notes = append(rv.Notes, markdownHTML(n))
	}
	for _, t := range rel.Targets {
		rv.TargetLinks = append(rv.TargetLinks, link{Text: t, URL: ptxTargetURL(t)})
	}
	return rv
}

type targetIntro struct {
	Target, URL, Version, VersionURL string
}

func (p ptxFacts) intro(t string) targetIntro {
	ti := targetIntro{Target: t, URL: ptxTargetURL(t), Version: p.IntroducedIn(t)}
	if ti.Version != "" {
		ti.VersionURL = ptxVersionURL(ti.Version)
	}
	return ti
}

// ptxFacts adds the page helpers to the PTX facts.
type ptxFacts struct{ *famdiff.PTX }

func (s *server) handleDiffIndex(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if a, b := q.Get("a"), q.Get("b"); a != "" && b != "" {
		http.Redirect(w, r, diffURL(a, b), http.StatusSeeOther)
		return
	}
	v := diffIndexView{Families: s.amdFamilies()}
	for _, l := range famdiff.Lines {
		for i := 1; i < len(l.Families); i++ {
			a, b := l.Families[i-1], l.Families[i]
			if s.hasFamily(a) && s.hasFamily(b) {
				v.Pairs = append(v.Pairs, link{Text: archName(a) + " → " + archName(b), URL: diffURL(a, b), Note: l.Name})
			}
		}
	}
	if p, err := s.diffFacts().PTX(r.Context()); err == nil {
		v.PTX = len(p.Instructions) > 0
	}
	s.render(w, r, http.StatusOK, "diffindex", page{Title: "What changed between generations",
		Description: "Family-to-family diffs of AMD's ISAs and the PTX ISA's version and target history.", Data: v})
}

type diffIndexView struct {
	Families []isa.Architecture
	Pairs    []link
	PTX      bool
}

func (s *server) amdFamilies() []isa.Architecture {
	return s.archsWhere(func(a isa.Architecture) bool { return a.Vendor == isa.VendorAMD })
}

// archsWhere lists the served families keep accepts, in the served order.
func (s *server) archsWhere(keep func(isa.Architecture) bool) []isa.Architecture {
	var out []isa.Architecture
	for _, a := range s.archs {
		if keep(a) {
			out = append(out, a)
		}
	}
	return out
}

func (s *server) hasFamily(id string) bool {
	for _, a := range s.archs {
		if a.ID == id {
			return true
		}
	}
	return false
}

func (s *server) handleDiff(w http.ResponseWriter, r *http.Request) {
	a, b := r.PathValue("a"), r.PathValue("b")
	res, err := s.diffFacts().Compare(r.Context(), a, b)
	if err != nil {
		s.storeError(w, r, err, func(sg string) string { return diffURL(sg, b) })
		return
	}
	if want := diffURL(res.From.ID, res.To.ID); want != r.URL.EscapedPath() && res.Kind == famdiff.KindFamilies {
		http.Redirect(w, r, want, http.StatusMovedPermanently)
		return
	}
	v := s.diffView(res)
	v.Heading = res.From.Name + " → " + res.To.Name
	switch res.Kind {
	case famdiff.KindFamilies:
		v.Intro = fmt.Sprintf("What %s has that %s lacks, what it renamed and what changed in the instructions both have.", res.To.Name, res.From.Name)
	case famdiff.KindPTXVersions:
		v.Intro = fmt.Sprintf("The PTX mnemonics, forms and modifiers %s has that %s lacks.", res.To.Name, res.From.Name)
	case famdiff.KindPTXTargets:
		v.Intro = fmt.Sprintf("The PTX mnemonics, forms and modifiers available on %s that %s lacks.", res.To.Name, res.From.Name)
	}
	s.render(w, r, http.StatusOK, "diff", page{Title: "Diff " + res.From.Name + " → " + res.To.Name, Description: v.Intro, Data: v})
}

// diffView is a diff's summary page: the summary table, the renames and
// formats, and each list that fits the page (the others have pages of
// their own).
func (s *server) diffView(res *famdiff.Result) diffView {
	v := s.diffBase(res)
	parts := make([]*diffPart, len(diffPartKinds))
	for i, k := range diffPartKinds {
		cats, costs := partRows(res, k.ID)
		parts[i] = newDiffPart(res, k, cats, costs)
	}
	v.RenamedPart, v.AddedPart, v.RemovedPart, v.ChangedPart = parts[0], parts[1], parts[2], parts[3]
	if !v.RenamedPart.Paged {
		v.Renamed = renameRows(res, res.Renamed)
	}
	if !v.AddedPart.Paged {
		v.Added = groupItems(res.Added, res.To.Arch, "added")
	}
	if !v.RemovedPart.Paged {
		v.Removed = groupItems(res.Removed, res.From.Arch, "removed")
	}
	if !v.ChangedPart.Paged {
		v.Changed = changeGroups(res, res.Changed)
	}
	v.Summary = summaryRows(&v)
	return v
}

// diffPartView is page n of one of the diff's lists.
func (s *server) diffPartView(res *famdiff.Result, k diffPartKind, n int) diffView {
	v := s.diffBase(res)
	cats, costs := partRows(res, k.ID)
	p := newDiffPart(res, k, cats, costs)
	p.Page = n
	v.Part = p
	if n < 1 || n > p.PageCount {
		return v
	}
	if n > 1 {
		p.Prev = partURL(res, k.ID, n-1)
	}
	if n < p.PageCount {
		p.Next = partURL(res, k.ID, n+1)
	}
	lo, hi := p.rows(n)
	switch k.ID {
	case "renamed":
		v.Renamed = renameRows(res, res.Renamed[lo:hi])
	case "added":
		v.Added = groupItems(res.Added[lo:hi], res.To.Arch, k.ID)
	case "removed":
		v.Removed = groupItems(res.Removed[lo:hi], res.From.Arch, k.ID)
	default:
		v.Changed = changeGroups(res, res.Changed[lo:hi])
	}
	return v
}

// partRows are the categories and estimated bytes of the rows of the
// diff's list kind.
func partRows(res *famdiff.Result, kind string) (cats []string, costs []int) {
	switch kind {
	case "renamed":
		for _, rn := range res.Renamed {
			cats, costs = append(cats, rn.Category), append(costs, renameCost(rn))
		}
		return cats, costs
	case "added":
		return itemCats(res.Added), itemCosts(res.Added)
	case "removed":
		return itemCats(res.Removed), itemCosts(res.Removed)
	}
	return changeCats(res.Changed), changeCosts(res.Changed)
}

// renameRows are renames with links to both sides' pages.
func renameRows(res *famdiff.Result, rns []famdiff.Rename) []renameRow {
	var out []renameRow
	ids := map[string]bool{}
	for _, rn := range rns {
		row := renameRow{From: rn.From, To: rn.To, Category: rn.Category, Evidence: rn.Evidence,
			FromURL: instrURL(res.From.Arch, rn.From), ToURL: instrURL(res.To.Arch, rn.To)}
		if id := "renamed-" + slug(orUncategorized(rn.Category)); !ids[id] {
			ids[id], row.ID = true, id
		}
		out = append(out, row)
	}
	return out
}

func itemCats(items []famdiff.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Category
	}
	return out
}

func itemCosts(items []famdiff.Item) []int {
	out := make([]int, len(items))
	for i, it := range items {
		out[i] = itemCost(it)
	}
	return out
}

func changeCosts(cs []famdiff.Change) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = changeCost(c, len(wordsHTML(c.Semantics)))
	}
	return out
}

func changeCats(cs []famdiff.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Category
	}
	return out
}

// diffBase is what every page of a diff shows: its sides and formats,
// with links to both sides' pages.
func (s *server) diffBase(res *famdiff.Result) diffView {
	v := diffView{R: res, IsFamilies: res.Kind == famdiff.KindFamilies, SwapURL: diffURL(res.To.ID, res.From.ID)}
	if res.From.ID != "" {
		v.URL = diffURL(res.From.ID, res.To.ID)
	}
	if v.IsFamilies {
		v.FromURL, v.ToURL = archURL(res.From.Arch), archURL(res.To.Arch)
		v.Families = s.amdFamilies()
	}
	for _, f := range res.Formats {
		row := formatRow{FormatChange: f}
		switch f.Kind {
		case famdiff.ChangeAdded:
			row.Title = fmt.Sprintf("%s (%d bits): only in %s", f.To, f.ToWidth, res.To.Name)
		case famdiff.ChangeRemoved:
			row.Title = fmt.Sprintf("%s (%d bits): only in %s", f.From, f.FromWidth, res.From.Name)
		case famdiff.ChangeRenamed:
			row.Title = fmt.Sprintf("%s (%d bits) became %s (%d bits)", f.From, f.FromWidth, f.To, f.ToWidth)
		default:
			row.Title = fmt.Sprintf("%s (%d bits)", f.From, f.FromWidth)
			if f.FromWidth != f.ToWidth {
				row.Title += fmt.Sprintf(" → %d bits", f.ToWidth)
			}
		}
		v.Formats = append(v.Formats, row)
	}
	for _, rel := range res.Releases {
		v.Releases = append(v.Releases, newReleaseView(rel))
	}
	if res.From.ID != "" {
		v.APIURL = "/api/v1/diff/" + url.PathEscape(res.From.ID) + "/" + url.PathEscape(res.To.ID)
	}
	return v
}

// changeGroups lays changed rows out by category.
func changeGroups(res *famdiff.Result, cs []famdiff.Change) []changeGroup {
	var out []changeGroup
	for _, c := range cs {
		row := changeRow{Change: c, FromURL: instrURL(res.From.Arch, c.From), ToURL: instrURL(res.To.Arch, c.To), Words: wordsHTML(c.Semantics)}
		if t := c.Targets; t != nil {
			row.TargetText = supportText(res.From.Name, t.From, t.FromOf) + " → " + supportText(res.To.Name, t.To, t.ToOf)
		}
		if n := len(out); n == 0 || out[n-1].Category != orUncategorized(c.Category) {
			cat := orUncategorized(c.Category)
			out = append(out, changeGroup{Category: cat, ID: "changed-" + slug(cat)})
		}
		g := &out[len(out)-1]
		g.Rows = append(g.Rows, row)
	}
	return out
}

func orUncategorized(c string) string {
	if c == "" {
		return "Uncategorized"
	}
	return c
}

func groupItems(items []famdiff.Item, arch, kind string) []itemGroup {
	var out []itemGroup
	for _, it := range items {
		row := itemRow{Item: it, Text: it.Name, URL: instrURL(arch, it.Name)}
		switch it.Level {
		case "form":
			row.Text = it.Syntax
		case "modifier":
			row.Text = it.Modifier
		}
		if n := len(out); n == 0 || out[n-1].Category != orUncategorized(it.Category) {
			cat := orUncategorized(it.Category)
			out = append(out, itemGroup{Category: cat, ID: kind + "-" + slug(cat)})
		}
		out[len(out)-1].Items = append(out[len(out)-1].Items, row)
	}
	return out
}

// wordsHTML renders a word diff, the unchanged runs shortened to a few
// words of context on each side of a change.
func wordsHTML(ws []famdiff.Word) template.HTML {
	if len(ws) == 0 {
		return ""
	}
	const keep = 6
	var b strings.Builder
	for i, w := range ws {
		t := w.Text
		if w.Op == "=" {
			parts := strings.Split(t, " ")
			switch {
			case i == 0 && len(parts) > keep:
				t = "… " + strings.Join(parts[len(parts)-keep:], " ")
			case i == len(ws)-1 && len(parts) > keep:
				t = strings.Join(parts[:keep], " ") + " …"
			case i > 0 && i < len(ws)-1 && len(parts) > 2*keep:
				t = strings.Join(parts[:keep], " ") + " … " + strings.Join(parts[len(parts)-keep:], " ")
			}
		}
		switch w.Op {
		case "-":
			b.WriteString("<del>" + html.EscapeString(t) + "</del> ")
		case "+":
			b.WriteString("<ins>" + html.EscapeString(t) + "</ins> ")
		default:
			b.WriteString("<span>" + html.EscapeString(t) + "</span> ")
		}
	}
	return template.HTML(b.String())
}

func supportText(family string, ts []string, of int) string {
	switch {
	case len(ts) == 0:
		return family + ": none of its targets"
	case len(ts) == of:
		return fmt.Sprintf("%s: all %d targets", family, of)
	}
	return fmt.Sprintf("%s: %s (of %d)", family, strings.Join(ts, ", "), of)
}

// --- PTX history ---

type ptxHistoryView struct {
	Versions []ptxVersionRow
	Targets  []targetIntro
	Grid     bool // ptxas was run: target pages use its grid
}

type ptxVersionRow struct {
	Version, URL, CUDA string
	Targets            []string
	Notes              int
}

func (s *server) handlePTXHistory(w http.ResponseWriter, r *http.Request) {
	p, err := s.diffFacts().PTX(r.Context())
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	v := ptxHistoryView{Grid: len(p.Grid) > 0}
	for i := len(p.Releases) - 1; i >= 0; i-- {
		rel := p.Releases[i]
		v.Versions = append(v.Versions, ptxVersionRow{Version: rel.Version, URL: ptxVersionURL(rel.Version), CUDA: rel.CUDA, Targets: rel.Targets, Notes: len(rel.Notes)})
	}
	ts := p.Targets()
	for i := len(ts) - 1; i >= 0; i-- {
		v.Targets = append(v.Targets, ptxFacts{p}.intro(ts[i]))
	}
	s.render(w, r, http.StatusOK, "ptxhistory", page{Title: "PTX ISA versions and targets", ScopeID: "ptx", ScopeName: "PTX",
		Description: "Every PTX ISA version with what it introduced, and every sm_ target with what becomes available on it.", Data: v})
}

// ptxStep loads the PTX history and resolves the step a version or target
// page names (path value key) with resolve; any other spelling of it is
// redirected to its page (url). ok is false when it has answered.
func (s *server) ptxStep(w http.ResponseWriter, r *http.Request, key string, resolve func(*famdiff.PTX, string) (string, error), url func(string) string) (p *famdiff.PTX, step string, ok bool) {
	p, err := s.diffFacts().PTX(r.Context())
	if err != nil {
		s.storeError(w, r, err, archURL)
		return nil, "", false
	}
	step, err = resolve(p, r.PathValue(key))
	if err != nil {
		s.storeError(w, r, err, url)
		return nil, "", false
	}
	if want := url(step); want != r.URL.EscapedPath() {
		http.Redirect(w, r, want, http.StatusMovedPermanently)
		return nil, "", false
	}
	return p, step, true
}

func (s *server) handlePTXVersion(w http.ResponseWriter, r *http.Request) {
	p, v, ok := s.ptxStep(w, r, "v", (*famdiff.PTX).ResolveVersion, ptxVersionURL)
	if !ok {
		return
	}
	prev, next := p.PreviousVersion(v), p.NextVersion(v)
	res, err := p.VersionDiff(prev, v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	dv := s.diffView(res)
	dv.Heading = "PTX ISA " + v
	if prev != "" {
		dv.Intro = fmt.Sprintf("What PTX ISA %s introduced over %s: mnemonics, forms and modifiers, with NVIDIA's release notes.", v, prev)
		dv.Prev = link{Text: "PTX ISA " + prev, URL: ptxVersionURL(prev)}
	} else {
		dv.Intro = "The oldest PTX ISA version in NVIDIA's release history."
	}
	if next != "" {
		dv.Next = link{Text: "PTX ISA " + next, URL: ptxVersionURL(next)}
	}
	if rel, ok := p.Release(v); ok && len(dv.Releases) == 0 {
		dv.Releases = []releaseView{newReleaseView(rel)}
	}
	s.render(w, r, http.StatusOK, "diff", page{Title: "PTX ISA " + v + ": what it introduced", ScopeID: "ptx", ScopeName: "PTX", Description: dv.Intro, Data: dv})
}

func (s *server) handlePTXTarget(w http.ResponseWriter, r *http.Request) {
	p, t, ok := s.ptxStep(w, r, "t", (*famdiff.PTX).ResolveTarget, ptxTargetURL)
	if !ok {
		return
	}
	prev := p.PreviousTarget(t)
	res, err := p.TargetDiff(prev, t)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	dv := s.diffView(res)
	dv.Heading = t
	if prev != "" {
		dv.Intro = fmt.Sprintf("What becomes available on %s compared with %s, from ptxas's target grid where ptxas verified a form, else the documentation's minimum target.", res.To.Name, res.From.Name)
		dv.Prev = link{Text: prev, URL: ptxTargetURL(prev)}
	} else {
		dv.Intro = "The oldest target gpuisa knows."
	}
	if n := p.NextTarget(t); n != "" {
		dv.Next = link{Text: n, URL: ptxTargetURL(n)}
	}
	for _, k := range p.Generation(t) {
		dv.TargetsIntro = append(dv.TargetsIntro, ptxFacts{p}.intro(k))
	}
	s.render(w, r, http.StatusOK, "diff", page{Title: t + ": what becomes available", ScopeID: "ptx", ScopeName: "PTX", Description: dv.Intro, Data: dv})
}

// --- family pages and instruction pages ---

// familyNovelty says which instructions of a family its previous
// generation lacks or spelled differently; ok is false for the first of a
// line or when the diff cannot be made.
func (s *server) familyNovelty(ctx context.Context, arch string) (famdiff.Novelty, bool) {
	// The previous generation this database has (a build may lack one).
	prev := famdiff.Previous(arch)
	for prev != "" && !s.hasFamily(prev) {
		prev = famdiff.Previous(prev)
	}
	if prev == "" {
		return famdiff.Novelty{}, false
	}
	n, err := s.diffFacts().Novelty(ctx, prev, arch)
	if err != nil {
		if errs.HTTPStatus(err) == http.StatusInternalServerError {
			s.log.Warn("family diff", "from", prev, "to", arch, "err", err)
		}
		return famdiff.Novelty{}, false
	}
	return n, true
}

// generationsView is the "first and last appears in" section of an AMD
// instruction page, with the products behind its family's targets.
type generationsView struct {
	Spans      []spanView
	Processors []isa.Processor
	Arch       string
}

type spanView struct {
	famdiff.Span
	FirstURL, LastURL, FirstArch, LastArch string
	// NextArch names the line's next family after Last when the
	// instruction is gone there, with the diff between them.
	NextArch, DiffURL string
}

func (s *server) generationsOf(in *isa.Instruction, a isa.Architecture) *generationsView {
	g := &generationsView{Processors: a.Processors, Arch: a.ID}
	for _, sp := range famdiff.Spans(in) {
		v := spanView{Span: sp, FirstURL: instrURL(sp.First, sp.FirstName), LastURL: instrURL(sp.Last, sp.LastName),
			FirstArch: archName(sp.First), LastArch: archName(sp.Last)}
		if !sp.StillNewest {
			if n := famdiff.Next(sp.Last); n != "" && s.hasFamily(n) {
				v.NextArch, v.DiffURL = archName(n), diffURL(sp.Last, n)
			}
		}
		g.Spans = append(g.Spans, v)
	}
	return g
}

// noveltyView is the "new in this family" badge and filter of a family
// index: what the previous generation of the line lacks or spelled
// differently.
type noveltyView struct {
	Previous, PreviousName string
	Marks                  map[string]string // name -> "new" | "renamed from X"
	New, Renamed           int
	Only                   bool   // the list shows the marked instructions alone (?new=1)
	OnlyURL, AllURL        string // the filter's two states
	DiffURL                string
}

// noveltyView returns the family's novelty against its previous
// generation, nil for the first family of a line (or PTX).
func (s *server) noveltyView(r *http.Request, a isa.Architecture) *noveltyView {
	if a.Vendor != isa.VendorAMD {
		return nil
	}
	n, ok := s.familyNovelty(r.Context(), a.ID)
	if !ok {
		return nil
	}
	v := &noveltyView{Previous: n.Previous, PreviousName: archName(n.Previous), Marks: map[string]string{},
		Only: r.URL.Query().Get("new") == "1", OnlyURL: archURL(a.ID) + "?new=1#family-list", AllURL: archURL(a.ID) + "#family-list",
		DiffURL: diffURL(n.Previous, a.ID)}
	for name := range n.New {
		v.Marks[name] = "new"
		v.New++
	}
	for name, old := range n.Renamed {
		v.Marks[name] = "renamed from " + old
		v.Renamed++
	}
	return v
}

// filter keeps the marked instructions when the page asks for them alone.
func (v *noveltyView) filter(list []isa.Summary) []isa.Summary {
	if v == nil || !v.Only {
		return list
	}
	var out []isa.Summary
	for _, sum := range list {
		if v.Marks[sum.Name] != "" {
			out = append(out, sum)
		}
	}
	return out
}

// targetHit is a target a search's words name as a product.
type targetHit struct {
	isa.ProcessorMatch
	ArchName, ArchURL string
	// TargetURL is the target's own page where it has one (an sm_
	// target's history page), else "".
	TargetURL string
	Products  []string
	// FromLLVM: an AMD target, from LLVM's processor table (else an sm_
	// target, from NVIDIA's release notes and compute-capability table).
	FromLLVM bool
}

// targetHits are the targets a query names through the processor tables
// ("MI300X" is gfx942 in CDNA 3).
func (s *server) targetHits(q string) []targetHit {
	return s.targetHitsOf(s.processors.Match(q))
}

// nearTargets are the targets a name close to q leads to ("mi300":
// gfx942, the MI300X's and MI300A's), when q itself names none.
func (s *server) nearTargets(q string) []targetHit {
	return s.targetHitsOf(s.processors.Near(q, 4))
}

func (s *server) targetHitsOf(ms []isa.ProcessorMatch) []targetHit {
	var out []targetHit
	for _, m := range ms {
		h := targetHit{ProcessorMatch: m, ArchName: archName(m.Arch), ArchURL: archURL(m.Arch)}
		for _, a := range s.archs {
			for _, p := range a.Processors {
				if a.ID == m.Arch && p.Target == m.Target {
					h.Products, h.FromLLVM = isa.ProductsOf(a, p), a.Vendor == isa.VendorAMD
					if a.Kind == isa.KindVirtual {
						h.TargetURL = ptxTargetURL(p.Target)
					}
				}
			}
		}
		out = append(out, h)
	}
	return out
}

// targetLinks are targetHits and nearTargets of name as links, for a
// not-found page's "did you mean": each target's own page, else its
// family's.
func (s *server) targetLinks(name string) []link {
	hits := s.targetHits(name)
	if len(hits) == 0 {
		hits = s.nearTargets(name)
	}
	var out []link
	for _, h := range hits {
		l := link{Text: h.Target, URL: h.TargetURL, Note: h.ArchName}
		if l.URL == "" {
			l.URL = h.ArchURL
		}
		if len(h.Products) > 0 {
			l.Note += ": " + strings.Join(h.Products[:min(3, len(h.Products))], ", ")
		}
		out = append(out, l)
	}
	return out
}

// generationURLs are the generation pages a static export holds: the diff
// of each family with the one before it in its line (page and JSON), and
// the PTX history with every version and target.
func (s *server) generationURLs(ctx context.Context) (pages, docs []string) {
	pages = append(pages, "/diff")
	for _, l := range famdiff.Lines {
		for i := 1; i < len(l.Families); i++ {
			a, b := l.Families[i-1], l.Families[i]
			if s.hasFamily(a) && s.hasFamily(b) {
				pages = append(pages, diffURL(a, b))
				docs = append(docs, "/api/v1"+diffURL(a, b))
				if res, err := s.diffFacts().Compare(ctx, a, b); err == nil {
					pages = append(pages, s.partURLs(res)...)
				}
			}
		}
	}
	p, err := s.diffFacts().PTX(ctx)
	if err != nil || len(p.Instructions) == 0 {
		return pages, docs
	}
	pages = append(pages, "/ptx/versions", "/ptx/targets")
	for _, v := range p.Versions() {
		pages = append(pages, ptxVersionURL(v))
		if res, err := p.VersionDiff(p.PreviousVersion(v), v); err == nil {
			pages = append(pages, s.partURLs(res)...)
		}
	}
	for _, t := range p.Targets() {
		pages = append(pages, ptxTargetURL(t))
		if res, err := p.TargetDiff(p.PreviousTarget(t), t); err == nil {
			pages = append(pages, s.partURLs(res)...)
		}
	}
	return pages, docs
}

package web

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// The pages people start from: the home page (search, then what people
// come to do, then the families), the about page (where every fact comes
// from), the family indexes and their category pages.

// --- home and about ---

type homeView struct {
	AMD, PTX []familyCard
	Total    int
}

type familyCard struct {
	isa.Architecture
	Products []string
}

func (s *server) handleHome(w http.ResponseWriter, r *http.Request) {
	var v homeView
	for _, a := range s.archs {
		v.Total += a.Count
		card := familyCard{Architecture: a, Products: familyProducts(a, 4)}
		if a.Vendor == isa.VendorAMD {
			v.AMD = append(v.AMD, card)
		} else {
			v.PTX = append(v.PTX, card)
		}
	}
	s.render(w, r, http.StatusOK, "home", page{Title: "GPU instruction set reference", OwnSearch: true,
		Description: "AMD GPU native ISAs and NVIDIA PTX, one page per instruction.", Data: v})
}

// familyProducts names up to n products built on the family's targets,
// from LLVM's processor table (the family's Processors), without the
// vendor's name: the home page's cards help a reader find their GPU.
func familyProducts(a isa.Architecture, n int) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range a.Processors {
		for _, name := range p.Products {
			name = strings.TrimPrefix(name, "AMD ")
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			if len(out) < n {
				out = append(out, name)
			}
		}
	}
	return out
}

type aboutView struct {
	Archs []isa.Architecture
	Docs  []isa.Document
	Total int
	// Gaps are what the build's oracles could not check (the quality
	// report's), with the fix.
	Gaps []quality.OracleGap
	// Provisional is what the database has not verified yet;
	// Verification is the background passes' progress (nil: none runs).
	Provisional  string
	Verification *Verification
}

// handleAbout is kept like every page, except while this serve's background
// verification runs: then it shows the progress as of the request.
func (s *server) handleAbout(w http.ResponseWriter, r *http.Request) {
	v := aboutView{Archs: s.archs, Docs: s.info.Documents, Provisional: s.info.Provisional, Verification: s.verification()}
	if rep, err := s.qualityReport(); err == nil {
		v.Gaps = rep.OracleGaps()
	}
	for _, a := range s.archs {
		v.Total += a.Count
	}
	p := page{Title: "About this reference",
		Description: "The vendors' documents and tools every page of gpuisa is built from.", Data: v}
	if v.Verification != nil && v.Verification.Running {
		s.renderUnkept(w, r, "about", p)
		return
	}
	s.render(w, r, http.StatusOK, "about", p)
}

// --- family index and category pages ---

type familyView struct {
	Arch  isa.Architecture
	Count int
	// Categories merge spellings that differ only by case.
	Categories []categoryView
	Units      []string
	Formats    []string
	// Compact: the index lists names only (a large family); each
	// category's page has the summaries.
	Compact    bool
	HasFormats bool
	// APIURL is the family's list as JSON, which the filter reads.
	APIURL string
	// Novelty marks what the previous generation of the line lacks.
	Novelty *noveltyView
	// CostURL ranks an AMD family by LLVM's scheduling model.
	CostURL string
	// History links the pages of what changed over the family's
	// generations: for PTX, its versions and targets.
	History []link
}

type categoryView struct {
	Name, ID, URL, Unit string
	Count               int
	Formats             []string
	Items               []isa.Summary
}

// compactAbove: a family with more instructions lists names only on its
// index, so the first screen is small (RDNA 4 has over 1,200).
const compactAbove = 400

// categoryURL is the page of one category of a family.
func categoryURL(arch, cat string) string {
	if arch == "ptx" {
		return "/ptx/category/" + url.PathEscape(slug(cat))
	}
	return "/amdgpu/" + url.PathEscape(arch) + "/category/" + url.PathEscape(slug(cat))
}

// familyCategories groups a family's list by category, spellings that
// differ only by case merged under the most common one.
func familyCategories(arch string, list []isa.Summary, units map[string]string) []categoryView {
	type bucket struct {
		items    []isa.Summary
		spelling map[string]int
		order    []string
	}
	buckets := map[string]*bucket{}
	var keys []string
	for _, sum := range list {
		cat := strings.TrimSpace(sum.Category)
		if cat == "" {
			cat = "Uncategorized"
		}
		k := strings.ToLower(cat)
		b, ok := buckets[k]
		if !ok {
			b = &bucket{spelling: map[string]int{}}
			buckets[k] = b
			keys = append(keys, k)
		}
		if b.spelling[cat] == 0 {
			b.order = append(b.order, cat)
		}
		b.spelling[cat]++
		b.items = append(b.items, sum)
	}
	slices.Sort(keys)
	var out []categoryView
	for _, k := range keys {
		b := buckets[k]
		name := b.order[0]
		for _, sp := range b.order {
			if b.spelling[sp] > b.spelling[name] {
				name = sp
			}
		}
		cv := categoryView{Name: name, ID: "cat-" + slug(name), URL: categoryURL(arch, name), Count: len(b.items), Items: b.items}
		formats := map[string]bool{}
		unitCount := map[string]int{}
		for _, it := range b.items {
			for _, f := range it.Formats {
				formats[f] = true
			}
			if u := units[it.Name]; u != "" {
				unitCount[u]++
			}
		}
		cv.Formats = sortedKeys(formats)
		// A category's unit is its instructions' (one in every category
		// gpuisa derives; "mixed" where LLVM-only ones differ).
		switch len(unitCount) {
		case 0:
		case 1:
			for u := range unitCount {
				cv.Unit = u
			}
		default:
			cv.Unit = "mixed"
		}
		out = append(out, cv)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (s *server) handleFamily(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), r.PathValue("arch"))
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	if archURL(a.ID) != r.URL.Path {
		http.Redirect(w, r, archURL(a.ID), http.StatusMovedPermanently)
		return
	}
	s.renderFamily(w, r, a)
}

func (s *server) handlePTXIndex(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), "ptx")
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	s.renderFamily(w, r, a)
}

func (s *server) lookupArch(ctx context.Context, id string) (isa.Architecture, error) {
	for _, a := range s.archs { // the common case: a canonical id
		if a.ID == id {
			return a, nil
		}
	}
	if info, ok := isa.LookupArch(id); ok {
		for _, a := range s.archs {
			if a.ID == info.ID {
				return a, nil
			}
		}
	}
	return s.store.Arch(ctx, id)
}

// familyUnits maps a native family's instructions to their units, from
// the annotation notes the shared codec cache loads once per family; nil
// for PTX (whose entries are instructions, directives and special
// registers, its categories say) and when the notes cannot be read.
func (s *server) familyUnits(a isa.Architecture) map[string]string {
	if a.Kind != isa.KindNative {
		return nil
	}
	ns, err := s.codecs.Notes(context.Background(), a.ID)
	if err != nil {
		s.log.Error("loading notes", "arch", a.ID, "err", err)
		return nil
	}
	units := make(map[string]string, len(ns.Notes))
	for _, n := range ns.Notes {
		units[n.Name] = n.Unit
	}
	return units
}

func (s *server) renderFamily(w http.ResponseWriter, r *http.Request, a isa.Architecture) {
	list, err := s.list(r.Context(), a.ID)
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	v := familyView{Arch: a, Count: len(list), Compact: len(list) > compactAbove,
		APIURL: "/api/v1/archs/" + url.PathEscape(a.ID) + "/instructions", Novelty: s.noveltyView(r, a)}
	list = v.Novelty.filter(list)
	if a.Vendor == isa.VendorAMD {
		v.CostURL = costTableURL(a.ID)
	}
	if a.Kind == isa.KindVirtual {
		v.History = []link{{Text: "PTX ISA versions and sm_ targets", URL: "/ptx/versions", Note: "what each version and target introduced, with NVIDIA's release notes"},
			{Text: "compare any two", URL: "/diff#ptx", Note: "versions or targets"}}
	}
	v.Categories = familyCategories(a.ID, list, s.familyUnits(a))
	units, formats := map[string]bool{}, map[string]bool{}
	for _, c := range v.Categories {
		if c.Unit != "" {
			units[c.Unit] = true
		}
		for _, f := range c.Formats {
			formats[f] = true
		}
	}
	v.Units, v.Formats = sortedKeys(units), sortedKeys(formats)
	v.HasFormats = len(v.Formats) > 0
	title := a.Name + " instructions"
	s.render(w, r, http.StatusOK, "family", page{Title: title, ScopeID: a.ID, ScopeName: a.Name,
		Description: fmt.Sprintf("%d %s instructions by category and encoding.", len(list), a.Name), Data: v})
}

type categoryPageView struct {
	Arch       isa.Architecture
	C          categoryView
	HasFormats bool
	// Encodings group the category's instructions by their first format.
	Encodings []encodingGroup
	Others    []categoryView // the family's other categories, for moving on
	// Novelty marks what the previous generation of the line lacks.
	Novelty *noveltyView
}

type encodingGroup struct {
	Format string
	Items  []isa.Summary
}

// byFirstFormat groups summaries by their first format, in format order.
func byFirstFormat(items []isa.Summary) []encodingGroup {
	groups := map[string][]isa.Summary{}
	for _, it := range items {
		f := "—"
		if len(it.Formats) > 0 {
			f = it.Formats[0]
		}
		groups[f] = append(groups[f], it)
	}
	var out []encodingGroup
	for _, f := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, encodingGroup{Format: f, Items: groups[f]})
	}
	return out
}

func (s *server) handleCategory(w http.ResponseWriter, r *http.Request) {
	archID := r.PathValue("arch")
	if archID == "" {
		archID = "ptx"
	}
	a, err := s.lookupArch(r.Context(), archID)
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	list, err := s.list(r.Context(), a.ID)
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	cats := familyCategories(a.ID, list, s.familyUnits(a))
	want := strings.ToLower(r.PathValue("cat"))
	for _, c := range cats {
		if slug(c.Name) != want {
			continue
		}
		if c.URL != r.URL.EscapedPath() {
			http.Redirect(w, r, c.URL, http.StatusMovedPermanently)
			return
		}
		v := categoryPageView{Arch: a, C: c, HasFormats: len(c.Formats) > 0, Novelty: s.noveltyView(r, a)}
		if v.HasFormats {
			v.Encodings = byFirstFormat(c.Items)
		} else {
			v.Encodings = []encodingGroup{{Items: c.Items}}
		}
		for _, o := range cats {
			if o.ID != c.ID {
				o.Items = nil
				v.Others = append(v.Others, o)
			}
		}
		s.render(w, r, http.StatusOK, "category", page{Title: c.Name + " · " + a.Name, ScopeID: a.ID, ScopeName: a.Name,
			Description: fmt.Sprintf("%d %s instructions in %s.", c.Count, a.Name, c.Name), Data: v})
		return
	}
	var names []string
	for _, c := range cats {
		names = append(names, slug(c.Name))
	}
	s.storeError(w, r, errs.NotFound(closeIDs(want, names, 5), "%s has no category %q", a.Name, r.PathValue("cat")),
		func(sg string) string { return categoryURL(a.ID, sg) })
}

// familyPageURLs lists the pages a family has beside its index and
// instruction pages: its categories' and, for PTX, each instruction's
// forms and SASS pages (for the static export).
func familyPageURLs(a isa.Architecture, list []isa.Summary) []string {
	var out []string
	for _, c := range familyCategories(a.ID, list, nil) {
		out = append(out, c.URL)
	}
	if a.Kind == isa.KindVirtual {
		for _, in := range list {
			out = append(out, instrURL(a.ID, in.Name)+"/forms", instrURL(a.ID, in.Name)+"/sass")
		}
	}
	return out
}

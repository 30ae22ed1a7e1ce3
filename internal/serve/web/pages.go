package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

//go:embed templates static
var assets embed.FS

// pageTemplates holds one template set per page, each a clone of the layout.
type pageTemplates struct {
	byName map[string]*template.Template
}

func parseTemplates(static map[string]*staticFile) (*pageTemplates, error) {
	funcs := template.FuncMap{
		"markdown":    markdownHTML,
		"mdinline":    markdownInline,
		"summary":     summaryHTML,
		"plain":       plainSummary,
		"famSlug":     famSlug,
		"provBeside":  provBeside,
		"familyNames": func() string { return familyNamesAttr },
		"static": func(name string) string {
			if f, ok := static[name]; ok {
				return "/static/" + name + "?v=" + strings.Trim(f.etag, `"`)
			}
			return "/static/" + name
		},
		"instrURL":      instrURL,
		"sassLine":      sassLineHTML,
		"archURL":       archURL,
		"costTableURL":  costTableURL,
		"costResources": resourceText,
		"costFlags":     flagText,
		"num":           numText,
		"pct":           func(f float64) string { return fmt.Sprintf("%+.1f%%", f) },
		"archName":      archName,
		"join":          strings.Join,
		"hexInt":        func(n int) string { return fmt.Sprintf("0x%X", n) },
		"binary": func(n, width int) string {
			b := strconv.FormatUint(uint64(n), 2)
			if len(b) < width {
				b = strings.Repeat("0", width-len(b)) + b
			}
			return b
		},
		"rw": func(o isa.Operand) string {
			switch {
			case o.Input && o.Output:
				return "read, written"
			case o.Output:
				return "written"
			case o.Input:
				return "read"
			}
			return "—"
		},
		"bitRange": isa.Field.BitsText,
		"add":      func(a, b int) int { return a + b },
		"sub":      func(a, b int) int { return a - b },
		"half":     func(a int) int { return a / 2 },
		"lower":    strings.ToLower,
		// multiline: PTX examples are whole code blocks whose line breaks
		// (and // comments) must survive on the page.
		"multiline": func(s string) bool { return strings.Contains(s, "\n") },
		"anyEncoding": func(exs []isa.Example) bool {
			for _, e := range exs {
				if e.Encoding != "" {
					return true
				}
			}
			return false
		},
	}
	base, err := template.New("layout").Funcs(funcs).ParseFS(assets, "templates/layout.tmpl", "templates/partial-*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("web: parsing layout: %w", err)
	}
	pages, err := fs.Glob(assets, "templates/*.tmpl")
	if err != nil {
		return nil, err
	}
	pt := &pageTemplates{byName: map[string]*template.Template{}}
	for _, p := range pages {
		name := strings.TrimSuffix(strings.TrimPrefix(p, "templates/"), ".tmpl")
		if name == "layout" || strings.HasPrefix(name, "partial-") {
			continue
		}
		t, err := template.Must(base.Clone()).ParseFS(assets, p)
		if err != nil {
			return nil, fmt.Errorf("web: parsing %s: %w", p, err)
		}
		pt.byName[name] = t
	}
	return pt, nil
}

// provBeside writes where a fact comes from, as "source file:line"; a
// long upstream path the page's Sources already name is cut to its last
// element ("ptx-doc …/97113_max.md:32"), so it is not repeated in full row
// after row.
func provBeside(p isa.Prov, sources []isa.Prov) string {
	file := p.File
	if len(file) > 48 {
		for _, src := range sources {
			if src.File == file {
				file = "…/" + path.Base(file)
				break
			}
		}
	}
	s := p.Source
	if file != "" {
		s += " " + file
		if p.Line > 0 {
			s += fmt.Sprintf(":%d", p.Line)
		}
	}
	return s
}

// instrURL is the permalink of an instruction page.
func instrURL(arch, name string) string {
	if arch == "ptx" {
		return "/ptx/" + url.PathEscape(name)
	}
	return "/amdgpu/" + url.PathEscape(arch) + "/" + url.PathEscape(name)
}

func archURL(arch string) string {
	if arch == "ptx" {
		return "/ptx"
	}
	return "/amdgpu/" + url.PathEscape(arch)
}

// archNames maps family ids to display names. It is built once because
// isa.LookupArch builds a strings.Replacer on every call, which dominated
// page rendering when called per gfx target.
var archNames = func() map[string]string {
	m := map[string]string{}
	for _, a := range isa.Archs() {
		m[a.ID] = a.Name
	}
	return m
}()

// familyNamesAttr lists every family's display name for the search
// script's labels: "rdna4:RDNA 4|...|ptx:PTX".
var familyNamesAttr = func() string {
	var parts []string
	for _, a := range isa.Archs() {
		parts = append(parts, a.ID+":"+a.Name)
	}
	return strings.Join(parts, "|")
}()

func archName(id string) string {
	if n, ok := archNames[id]; ok {
		return n
	}
	if a, ok := isa.LookupArch(id); ok {
		return a.Name
	}
	return id
}

// page is what every template receives.
type page struct {
	Title       string
	Description string
	Query       string // the search box's value
	// ScopeID and ScopeName are the family being browsed: the header's
	// search starts in it.
	ScopeID, ScopeName string
	// OwnSearch: the page's content holds the search box (the home page),
	// so the header has none.
	OwnSearch bool
	Build     isa.BuildInfo
	Data      any
}

// htmlType is the Content-Type of every page.
const htmlType = "text/html; charset=utf-8"

// render executes a page template into memory and sends it; a 200 page is
// kept (see answer) and not rendered again.
func (s *server) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	body, ok := s.execute(w, r, name, p)
	if !ok {
		return
	}
	if status == http.StatusOK {
		s.sendOK(w, r, htmlType, body)
		return
	}
	s.send(w, r, response{status: status, contentType: htmlType, body: body})
}

// renderUnkept sends a 200 page that changes while the database does not
// (no-store, never kept).
func (s *server) renderUnkept(w http.ResponseWriter, r *http.Request, name string, p page) {
	if body, ok := s.execute(w, r, name, p); ok {
		s.send(w, r, response{status: http.StatusOK, contentType: htmlType, body: body})
	}
}

// execute renders page template name, answering 500 when it cannot.
func (s *server) execute(w http.ResponseWriter, r *http.Request, name string, p page) ([]byte, bool) {
	t, ok := s.pages.byName[name]
	if !ok {
		s.fail(w, r, fmt.Errorf("web: no template %q", name))
		return nil, false
	}
	p.Build = s.info
	buf := renderBuffers.Get().(*bytes.Buffer)
	defer putRenderBuffer(buf)
	if err := t.ExecuteTemplate(buf, "layout", p); err != nil {
		s.fail(w, r, fmt.Errorf("web: rendering %s: %w", name, err))
		return nil, false
	}
	return bytes.Clone(buf.Bytes()), true
}

// renderBuffers are the buffers pages render into: a page grows its buffer
// by doubling from nothing, so a 60 KB page allocated twice its size and
// copied itself a dozen times; a reused buffer has the room already and
// the page is copied out once, at its size.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putRenderBuffer(b *bytes.Buffer) {
	if b.Cap() > 1<<20 {
		return // an outsized page: let it go rather than hold its megabytes
	}
	b.Reset()
	renderBuffers.Put(b)
}

// fail answers an unexpected error with a plain 500 and logs it.
func (s *server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if databaseDamaged(err) {
		s.log.Error("database unreadable", "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", "5")
		s.send(w, r, response{status: http.StatusServiceUnavailable, contentType: "text/plain; charset=utf-8",
			body: []byte(damagedMessage + "\n")})
		return
	}
	s.log.Error("internal error", "path", r.URL.Path, "err", err)
	s.send(w, r, response{status: http.StatusInternalServerError, contentType: "text/plain; charset=utf-8",
		body: []byte("internal error\n")})
}

// damagedMessage answers a request the database file could not serve.
const damagedMessage = "The database file could not be read (it was damaged or changed under the server); try again shortly."

// databaseDamaged says whether err is SQLite finding its file damaged,
// not a database or unreadable (SQLITE_CORRUPT, SQLITE_NOTADB,
// SQLITE_IOERR): the file was rewritten in place under the server. That
// is the server's state, not a bug: 503, not 500.
func databaseDamaged(err error) bool {
	var c interface{ Code() int }
	if !errors.As(err, &c) {
		return false
	}
	switch c.Code() & 0xff { // extended codes keep the primary in the low byte
	case 10, 11, 26:
		return true
	}
	return false
}

// notFoundView is the data of the 404 page.
type notFoundView struct {
	Message     string
	Suggestions []link
}

type link struct {
	Text, URL, Note string
}

// storeError renders a store error: 404 with suggestions, 400, or 500.
// suggest turns a suggested name into a link; nil lists them unlinked.
func (s *server) storeError(w http.ResponseWriter, r *http.Request, err error, suggest func(string) string) {
	s.storeErrorWith(w, r, err, suggest, nil)
}

// storeErrorWith is storeError with more suggestions after the error's
// own (the targets a mistyped name may mean).
func (s *server) storeErrorWith(w http.ResponseWriter, r *http.Request, err error, suggest func(string) string, more []link) {
	status := errs.HTTPStatus(err)
	if status == http.StatusInternalServerError || errors.Is(err, context.Canceled) {
		s.fail(w, r, err)
		return
	}
	v := notFoundView{Message: err.Error()}
	for _, sg := range errs.SuggestionsOf(err) {
		l := link{Text: sg}
		if suggest != nil {
			l.URL = suggest(sg)
		}
		v.Suggestions = append(v.Suggestions, l)
	}
	if status == http.StatusNotFound {
		v.Suggestions = append(v.Suggestions, more...)
	}
	title := "Not found"
	if status == http.StatusBadRequest {
		title = "Bad request"
	}
	s.render(w, r, status, "notfound", page{Title: title, Data: v})
}

// handleNotFound answers unknown routes, suggesting instructions named like
// the last path segment.
func (s *server) handleNotFound(w http.ResponseWriter, r *http.Request) {
	v := notFoundView{Message: "There is no page at " + r.URL.Path + "."}
	last := strings.TrimSpace(r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:])
	if last != "" && len(last) <= 64 {
		if hits, err := s.store.Search(r.Context(), last, store.SearchOptions{Limit: 5}); err == nil {
			for _, h := range hits {
				v.Suggestions = append(v.Suggestions, link{Text: h.Name, URL: instrURL(h.Arch, h.Name), Note: archName(h.Arch)})
			}
		}
		v.Suggestions = append(v.Suggestions, s.targetLinks(last)...)
	}
	s.render(w, r, http.StatusNotFound, "notfound", page{Title: "Not found", Data: v})
}

func slug(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteRune(c)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// list returns a family's instruction list, cached: the database is
// read-only while served and "more in this category" needs it on every page.
func (s *server) list(ctx context.Context, arch string) ([]isa.Summary, error) {
	s.listMu.Lock()
	l, ok := s.lists[arch]
	s.listMu.Unlock()
	if ok {
		return l, nil
	}
	l, err := s.store.List(ctx, arch)
	if err != nil {
		return nil, err
	}
	s.listMu.Lock()
	if s.lists == nil {
		s.lists = map[string][]isa.Summary{}
	}
	s.lists[arch] = l
	s.listMu.Unlock()
	return l, nil
}

// hasInstruction says whether arch has an instruction page named name.
func (s *server) hasInstruction(arch, name string) bool {
	s.listMu.Lock()
	set, ok := s.nameSets[arch]
	s.listMu.Unlock()
	if !ok {
		list, err := s.list(context.Background(), arch)
		if err != nil {
			return false
		}
		set = make(map[string]bool, len(list))
		for _, sum := range list {
			set[sum.Name] = true
		}
		s.listMu.Lock()
		if s.nameSets == nil {
			s.nameSets = map[string]map[string]bool{}
		}
		s.nameSets[arch] = set
		s.listMu.Unlock()
	}
	return set[name]
}

// --- instruction pages ---

type instrView struct {
	In        *isa.Instruction
	Arch      isa.Architecture
	Encodings []encodingView
	// Generations compare this instruction's opcodes with other families.
	Differ, Same []generation
	// Renames are the other spellings of this instruction, with the
	// families that use them and how that is known.
	Renames  []renameView
	Switcher []link
	Targets  []targetRow
	Verified bool
	Concepts []conceptView
	More     []isa.Summary
	Types    []string // PTX: every data type of every form
	// Siblings are the PTX mnemonics NVIDIA documents in the same section;
	// the paragraphs about only them are on their own pages.
	Siblings    []isa.Summary
	ComparePath string
	// ConceptsTitle names the other vendor: "Related PTX Concepts".
	ConceptsTitle string
	// NoCounterpart is the catalogue's reason a PTX instruction has no AMD
	// counterpart, when it has none.
	NoCounterpart *noCounterpartRow
	// ExampleFields are the examples' encodings decoded into fields;
	// ExampleNote says why they are missing when the decoder is not available.
	ExampleFields []exampleView
	ExampleNote   string
	// Disagree and Corrected count the conflicts left open and those an
	// oracle resolved (its value shown, the document's beside it).
	Disagree, Corrected int
	// TryIt runs the pseudocode (eval.go); nil without any.
	TryIt *tryitView
	// PTX is what NVIDIA's assembler said, on PTX pages.
	PTX *ptxView
	// CostGroups are LLVM's scheduling model's numbers, targets with equal
	// numbers in one row.
	CostGroups []costGroup

	// Answer is the first screen; TOC the page's sections.
	Answer answerView
	TOC    []tocEntry
	// OwnAliases are the aliases about this family; ForeignAliases those
	// about other families' targets, shown under Other generations.
	OwnAliases, ForeignAliases []isa.Alias
	// CategoryURL is the page of the instruction's category; MoreCount
	// how many other instructions it holds (More lists the first).
	CategoryURL string
	MoreCount   int

	// PTX pages: the counterparts per family, the forms in groups (AllForms:
	// every form is on the page), the operands with their own sentences,
	// the SASS the page keeps (the rest are on the SASS page).
	Counterparts  counterpartsView
	FormGroups    []formGroup
	AllForms      bool
	Operands      []operandView
	SharedNotes   []sharedNote
	PageSASS      []sassBlock
	SASSElsewhere int
	// Part is the PTX sub-page shown: "forms" or "sass".
	Part string
	// Generations say where the instruction first and last appears in
	// each line of families, and the products behind the family's targets.
	Generations *generationsView
}

type encodingView struct {
	Enc          isa.Encoding
	Wide, Narrow diagram
	Fields       []isa.Field
	OpBits       string
	Check        string
	CheckOK      bool
	Preferred    bool
	ID           string
	// Doc is the guide's own drawing where the layout shown is the one
	// llvm-mc encodes.
	Doc *documentedView
	// HasParts: a field is drawn as its documented sub-fields.
	HasParts bool
}

// documentedView is the documented variant of a layout: the diagram as
// the vendor's guide draws it and how the verified layout differs.
type documentedView struct {
	isa.Layout
	Format       string
	Wide, Narrow diagram
}

type renameView struct {
	Name     string
	Links    []link // Text: family name
	Evidence string
}

// renames groups the Related renames by spelling, in family order.
func renames(in *isa.Instruction) []renameView {
	var out []renameView
	index := map[string]int{}
	for _, a := range isa.Archs() {
		for _, rel := range in.Related {
			if rel.Arch != a.ID || !rel.Renamed {
				continue
			}
			i, ok := index[rel.Name]
			if !ok {
				i = len(out)
				index[rel.Name] = i
				out = append(out, renameView{Name: rel.Name, Evidence: rel.Evidence})
			}
			out[i].Links = append(out[i].Links, link{Text: a.Name, URL: instrURL(rel.Arch, rel.Name)})
		}
	}
	return out
}

type generation struct {
	Arch, Name, URL, Opcodes string
	Evidence                 string // how a rename is known
}

type targetRow struct {
	Target, Family, Status, Encoding, Message string
	// OtherSpelling is the name that assembles on a target that rejects
	// this one (a rename), with its page in the target's family.
	OtherSpelling, OtherURL string
}

type conceptView struct {
	isa.ConceptRef
	URL string // the concept's page, "" when the catalogue is not stored
	// Members groups the concept's instructions by name, each with links to
	// the families that have it, so a PTX page lists v_max_f32 once.
	Members []memberGroup
}

type memberGroup struct {
	Name  string
	Links []link // Text: family name; Note: the family's class ("f-cdna3")
	// Classes are the families' classes, for the family picker; Span
	// names the families briefly ("RDNA 1–3.5, CDNA 1–4, Vega").
	Classes, Span string
}

func (s *server) handleInstruction(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	archParam, nameParam := r.PathValue("arch"), r.PathValue("name")
	a, err := s.lookupArch(ctx, archParam)
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	s.serveInstruction(w, r, a, nameParam)
}

func (s *server) handlePTXInstruction(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), "ptx")
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	s.serveInstruction(w, r, a, r.PathValue("name"))
}

func (s *server) serveInstruction(w http.ResponseWriter, r *http.Request, a isa.Architecture, name string) {
	v, ok := s.instructionView(w, r, a, name, "")
	if !ok {
		return
	}
	title := v.In.Name + " · " + a.Name
	if a.Kind == isa.KindVirtual {
		s.render(w, r, http.StatusOK, "ptx", page{Title: title, Description: plainSummary(v.In.Summary), ScopeID: a.ID, ScopeName: a.Name, Data: v})
		return
	}
	s.render(w, r, http.StatusOK, "instruction", page{Title: title, Description: v.In.Summary, ScopeID: a.ID, ScopeName: a.Name, Data: v})
}

// instructionView loads an instruction and builds its page's view; part
// names a PTX sub-page ("forms", "sass") whose permalink is checked. It
// answers the request itself (redirect, not found) when ok is false.
func (s *server) instructionView(w http.ResponseWriter, r *http.Request, a isa.Architecture, name, part string) (*instrView, bool) {
	ctx := r.Context()
	arch, canon, err := s.store.Resolve(ctx, a.ID, name)
	if err != nil {
		// "sm_90" or "mi300" where an instruction was expected: the target.
		s.storeErrorWith(w, r, err, func(sg string) string { return instrURL(a.ID, sg) }, s.targetLinks(name))
		return nil, false
	}
	want := instrURL(arch, canon)
	if part != "" {
		want += "/" + part
	}
	if want != r.URL.EscapedPath() {
		http.Redirect(w, r, want, http.StatusMovedPermanently)
		return nil, false
	}
	in, err := s.store.Instruction(ctx, arch, canon)
	if err != nil {
		s.storeError(w, r, err, func(sg string) string { return instrURL(a.ID, sg) })
		return nil, false
	}
	v := &instrView{In: in, Arch: a, ComparePath: "/compare/" + url.PathEscape(in.Name), ConceptsTitle: "Related PTX Concepts",
		CategoryURL: categoryURL(arch, in.Category)}
	v.TryIt = s.tryit(ctx, in)
	for _, c := range in.Conflicts {
		if c.CorrectedBy != "" {
			v.Corrected++
		} else {
			v.Disagree++
		}
	}
	if a.Kind == isa.KindVirtual {
		v.ConceptsTitle = "Counterparts on AMD"
	}
	cd, _ := s.conceptCatalogue() // pages render without the catalogue, only without its links
	for _, c := range in.Concepts {
		cv := conceptView{ConceptRef: c}
		if cd != nil && cd.cat.Concept(c.ID) != nil {
			cv.URL = conceptURL(c.ID)
		}
		index := map[string]int{}
		for _, m := range c.Members {
			i, ok := index[m.Name]
			if !ok {
				i = len(cv.Members)
				index[m.Name] = i
				cv.Members = append(cv.Members, memberGroup{Name: m.Name})
			}
			// Note: the family as a class name, for the family picker.
			cls := "f-" + famSlug(m.Arch)
			cv.Members[i].Links = append(cv.Members[i].Links, link{Text: archName(m.Arch), URL: instrURL(m.Arch, m.Name), Note: cls})
			cv.Members[i].Classes = strings.TrimSpace(cv.Members[i].Classes + " " + cls)
		}
		for i := range cv.Members {
			var ids []string
			for _, m := range c.Members {
				if m.Name == cv.Members[i].Name {
					ids = append(ids, m.Arch)
				}
			}
			cv.Members[i].Span = familyRanges(ids)
		}
		v.Concepts = append(v.Concepts, cv)
	}
	if list, err := s.list(ctx, arch); err == nil {
		for _, sum := range list {
			if strings.EqualFold(sum.Category, in.Category) && sum.Name != in.Name {
				v.MoreCount++
				if len(v.More) < 12 {
					v.More = append(v.More, sum)
				}
			}
			if a.Kind == isa.KindVirtual && in.Section != "" && sum.Section == in.Section && sum.Name != in.Name {
				v.Siblings = append(v.Siblings, sum)
			}
		}
	}
	if a.Kind == isa.KindVirtual {
		types := map[string]bool{}
		for _, f := range in.Forms {
			for _, t := range f.Types {
				types[t] = true
			}
		}
		v.Types = slices.Sorted(maps.Keys(types))
		v.PTX = ptxPageView(in, s.ptxTargets())
		if cd != nil {
			if n := cd.cat.NoCounterpartFor(in.Name); n != nil {
				row := s.noCounterpartRow(n)
				v.NoCounterpart = &row
			}
		}
		v.Counterparts = s.ptxCounterparts(v.Concepts)
		v.FormGroups, v.AllForms = groupForms(v.PTX.Forms, part == "forms")
		v.Operands, v.SharedNotes = ptxOperands(in.Operands)
		v.PageSASS, v.SASSElsewhere = pageSASS(v.PTX.SASS)
		v.Answer = ptxAnswer(v)
		v.TOC = ptxTOC(v)
		return v, true
	}
	for i, e := range in.Encodings {
		ev := encodingView{Enc: e, Wide: buildDiagram(e, 32), Narrow: buildDiagram(e, 16),
			Fields: sortedFields(e.Fields), Preferred: i == 0, ID: "enc-" + slug(e.Name)}
		ev.Check, ev.CheckOK = identifierCheck(e)
		for _, f := range e.Fields {
			ev.HasParts = ev.HasParts || len(f.Parts) > 0
		}
		if d := e.Documented; d != nil {
			de := e
			de.Fields, de.Name = d.Fields, e.Name+" as AMD's guide draws it"
			ev.Doc = &documentedView{Layout: *d, Format: e.Format, Wide: buildDiagram(de, 32), Narrow: buildDiagram(de, 16)}
		}
		v.Encodings = append(v.Encodings, ev)
	}
	v.Differ, v.Same = s.generations(in)
	v.Renames = renames(in)
	v.Switcher = s.switcher(in)
	v.Targets, v.Verified = targetRows(in)
	v.CostGroups = costGroups(in)
	v.ExampleFields, v.ExampleNote = s.decodeExamples(in)
	v.OwnAliases, v.ForeignAliases = splitAliases(in)
	v.Generations = s.generationsOf(in, a)
	v.Answer = s.amdAnswer(v)
	v.TOC = amdTOC(v)
	return v, true
}

// amdTOC lists an AMD page's sections in their order.
func amdTOC(v *instrView) []tocEntry {
	toc := []tocEntry{}
	if v.hasDescription() {
		toc = append(toc, tocEntry{"description", "Description"})
	}
	toc = append(toc, tocEntry{"operands", "Operands"}, tocEntry{"encoding", "Encoding"}, tocEntry{"semantics", "Semantics"},
		tocEntry{"examples", "Examples"}, tocEntry{"targets", "Targets"})
	if len(v.CostGroups) > 0 {
		toc = append(toc, tocEntry{"cost", "Cost (model)"})
	}
	return append(toc, tocEntry{"generations", "Other generations"},
		tocEntry{"concepts", "PTX counterparts"}, tocEntry{"more", "Same category"}, tocEntry{"reference", "Reference"},
		tocEntry{"sources", "Sources"})
}

// ptxTOC lists a PTX page's sections in their order.
func ptxTOC(v *instrView) []tocEntry {
	toc := []tocEntry{{"syntax", "Syntax"}, {"counterparts", "AMD counterparts"}, {"forms", "Forms"},
		{"operands", "Operands"}, {"description", "Description"}, {"semantics", "Semantics"}, {"examples", "Examples"},
		{"targets", "Targets"}, {"sass", "Compiles to"}}
	if len(v.In.Measured) > 0 {
		toc = append(toc, tocEntry{"measured", "Measured timing"})
	}
	return append(toc, tocEntry{"more", "Same category"}, tocEntry{"reference", "Reference"}, tocEntry{"sources", "Sources"})
}

// hasDescription says whether the page has prose beyond its summary (or
// notes about where it comes from).
func (v *instrView) hasDescription() bool {
	in := v.In
	return (in.Description != "" && in.Description != in.Summary) || in.DescriptionFrom != nil || len(v.OwnAliases) > 0 ||
		len(in.Repairs) > 0 || v.Disagree > 0 || v.Corrected > 0
}

// HasDescription is hasDescription for the templates.
func (v *instrView) HasDescription() bool { return v.hasDescription() }

// handlePTXPart serves a PTX instruction's sub-pages: every form
// (/ptx/{name}/forms) and every SASS listing (/ptx/{name}/sass).
func (s *server) handlePTXPart(w http.ResponseWriter, r *http.Request) {
	part := r.PathValue("part")
	if part != "forms" && part != "sass" {
		s.handleNotFound(w, r)
		return
	}
	a, err := s.lookupArch(r.Context(), "ptx")
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	v, ok := s.instructionView(w, r, a, r.PathValue("name"), part)
	if !ok {
		return
	}
	title := v.In.Name + " · every form"
	if part == "sass" {
		title = v.In.Name + " · SASS"
	}
	v.Part = part
	s.render(w, r, http.StatusOK, "ptx-part", page{Title: title, Description: plainSummary(v.In.Summary), ScopeID: a.ID, ScopeName: a.Name, Data: v})
}

// generations splits the other families into those whose opcodes differ from
// this instruction's and those where they are the same.
func (s *server) generations(in *isa.Instruction) (differ, same []generation) {
	mine := in.Opcodes[in.Arch]
	if len(mine) == 0 {
		mine = map[string]int{}
		for _, e := range in.Encodings {
			mine[e.Name] = e.Opcode
		}
	}
	names := map[string]string{}
	evidence := map[string]string{}
	for _, rel := range in.Related {
		names[rel.Arch] = rel.Name
		evidence[rel.Arch] = rel.Evidence
	}
	for _, a := range isa.Archs() {
		ops, ok := in.Opcodes[a.ID]
		if a.ID == in.Arch || !ok || len(ops) == 0 {
			continue
		}
		name := in.Name
		if n, ok := names[a.ID]; ok {
			name = n
		}
		var parts []string
		for _, f := range slices.Sorted(maps.Keys(ops)) {
			parts = append(parts, fmt.Sprintf("%s %d", f, ops[f]))
		}
		g := generation{Arch: a.Name, Name: name, URL: instrURL(a.ID, name), Opcodes: strings.Join(parts, ", "), Evidence: evidence[a.ID]}
		if maps.Equal(ops, mine) {
			same = append(same, g)
		} else {
			differ = append(differ, g)
		}
	}
	return differ, same
}

// switcher links the same instruction on every family that has it.
func (s *server) switcher(in *isa.Instruction) []link {
	names := map[string]string{in.Arch: in.Name}
	for _, rel := range in.Related {
		names[rel.Arch] = rel.Name
	}
	var out []link
	for _, a := range s.archs {
		if n, ok := names[a.ID]; ok {
			l := link{Text: a.Name, URL: instrURL(a.ID, n)}
			if a.ID == in.Arch {
				l.Note = "current"
			} else if n != in.Name {
				l.Note = n
			}
			out = append(out, l)
		}
	}
	return out
}

// targetRows lists every gfx target with the assembler's verdict; verified is
// false when no verdict was recorded at all.
func targetRows(in *isa.Instruction) ([]targetRow, bool) {
	details := map[string]isa.TargetResult{}
	for _, d := range in.TargetDetails {
		details[d.Target] = d
	}
	if len(in.Targets) == 0 && len(details) == 0 {
		return nil, false
	}
	var rows []targetRow
	for _, t := range isa.AllGFXTargets {
		row := targetRow{Target: t, Status: in.Targets[t]}
		fam, known := isa.ArchForTarget(t)
		if known {
			row.Family = archName(fam)
		}
		if d, ok := details[t]; ok {
			if row.Status == "" {
				row.Status = d.Status
			}
			row.Encoding, row.Message = d.Encoding, d.Message
			if d.OtherSpelling != "" {
				row.OtherSpelling = d.OtherSpelling
				if known {
					row.OtherURL = instrURL(fam, d.OtherSpelling)
				}
			}
		}
		if row.Status == "" {
			row.Status = "not verified"
		}
		rows = append(rows, row)
	}
	return rows, true
}

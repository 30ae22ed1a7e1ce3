package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// The concept catalogue is stored by the build as one JSON object (file path
// -> YAML text) and parsed here once, on first use: the pages need the whole
// catalogue (themes, no-counterpart list, file:line of every concept), which
// the instruction documents' ConceptRefs do not carry.

// conceptData is the parsed catalogue with what the pages derive from it.
type conceptData struct {
	cat     *concepts.Catalogue
	themes  []conceptTheme
	themeOf map[string]*conceptTheme // concept id -> its theme
}

// conceptTheme is one catalogue file: a theme such as "Minimum and maximum".
type conceptTheme struct {
	ID, File, Title string
	Concepts        []*concepts.Concept
}

func (s *server) conceptCatalogue() (*conceptData, error) {
	s.conceptsOnce.Do(func() {
		cat, files, err := store.LoadCatalogue(context.Background(), s.store)
		if err != nil {
			if errs.KindOf(err) == errs.KindNotFound {
				err = errs.NotFound(nil, "this database was built without the concept catalogue")
			} else {
				err = fmt.Errorf("web: %w", err)
			}
			s.conceptsErr = err
			return
		}
		s.concepts = newConceptData(cat, files)
	})
	return s.concepts, s.conceptsErr
}

func newConceptData(cat *concepts.Catalogue, files map[string]string) *conceptData {
	cd := &conceptData{cat: cat, themeOf: map[string]*conceptTheme{}}
	byFile := map[string]int{}
	for _, c := range cat.Concepts {
		i, ok := byFile[c.Pos.File]
		if !ok {
			i = len(cd.themes)
			byFile[c.Pos.File] = i
			base := strings.TrimSuffix(path.Base(c.Pos.File), ".yaml")
			cd.themes = append(cd.themes, conceptTheme{ID: "theme-" + slug(base), File: c.Pos.File,
				Title: themeTitle(files[c.Pos.File], base)})
		}
		cd.themes[i].Concepts = append(cd.themes[i].Concepts, c)
	}
	sort.SliceStable(cd.themes, func(i, j int) bool { return cd.themes[i].File < cd.themes[j].File })
	for i := range cd.themes {
		for _, c := range cd.themes[i].Concepts {
			cd.themeOf[c.ID] = &cd.themes[i]
		}
	}
	return cd
}

// themeTitle is the first sentence of a catalogue file's leading comment
// ("# Minimum and maximum. Authored by ..."), else its name.
func themeTitle(text, base string) string {
	first, _, _ := strings.Cut(text, "\n")
	if c, ok := strings.CutPrefix(strings.TrimSpace(first), "#"); ok {
		c = strings.TrimSpace(c)
		if i := strings.Index(c, ". "); i > 0 {
			c = c[:i]
		}
		c = strings.TrimSuffix(c, ".")
		if c != "" && len(c) <= 80 {
			return c
		}
	}
	t := strings.ReplaceAll(base, "_", " ")
	if t == "" {
		return "Concepts"
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

func conceptURL(id string) string { return "/concepts/" + url.PathEscape(id) }

func posText(p concepts.Pos) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return p.File
}

// --- /concepts ---

type conceptIndexView struct {
	Themes        []themeView
	Total         int
	Relations     int
	NoCounterpart []noCounterpartRow
}

type themeView struct {
	ID, Title, File string
	Rows            []conceptRow
}

type conceptRow struct {
	ID, Name, URL string
	PTX           []link
	AMD           int
	Kinds         string // the relation kinds used, in words
}

type noCounterpartRow struct {
	Mnemonic, URL, Reason, Pos string
}

func (s *server) noCounterpartRow(n *concepts.NoCounterpart) noCounterpartRow {
	row := noCounterpartRow{Mnemonic: n.Mnemonic, Reason: n.Reason, Pos: posText(n.Pos)}
	if s.hasInstruction("ptx", n.Mnemonic) {
		row.URL = instrURL("ptx", n.Mnemonic)
	}
	return row
}

func (s *server) handleConcepts(w http.ResponseWriter, r *http.Request) {
	cd, err := s.conceptCatalogue()
	if err != nil {
		s.storeError(w, r, err, conceptURL)
		return
	}
	v := conceptIndexView{Total: len(cd.cat.Concepts)}
	for _, th := range cd.themes {
		tv := themeView{ID: th.ID, Title: th.Title, File: th.File}
		for _, c := range th.Concepts {
			row := conceptRow{ID: c.ID, Name: c.Name, URL: conceptURL(c.ID), AMD: len(c.AMD)}
			for _, m := range c.PTX {
				l := link{Text: m.Mnemonic}
				if s.hasInstruction("ptx", m.Mnemonic) {
					l.URL = instrURL("ptx", m.Mnemonic)
				}
				row.PTX = append(row.PTX, l)
			}
			seen := map[concepts.RelationKind]bool{}
			var kinds []string
			for _, rel := range c.Relations {
				if !seen[rel.Kind] {
					seen[rel.Kind] = true
					kinds = append(kinds, string(rel.Kind))
				}
			}
			v.Relations += len(c.Relations)
			row.Kinds = strings.Join(kinds, ", ")
			tv.Rows = append(tv.Rows, row)
		}
		v.Themes = append(v.Themes, tv)
	}
	for _, n := range cd.cat.NoCounterpart {
		v.NoCounterpart = append(v.NoCounterpart, s.noCounterpartRow(n))
	}
	s.render(w, r, http.StatusOK, "concepts", page{Title: "Cross-vendor concepts",
		Description: "Which AMD GPU instructions correspond to which PTX instructions, and how closely.", Data: v})
}

// --- /concepts/{id} ---

type conceptPageView struct {
	C         *concepts.Concept
	Theme     *conceptTheme
	Pos       string
	PTX       []ptxMemberRow
	Families  []link // the table's columns: AMD families
	AMD       []amdMemberRow
	Relations []relationRow
	// Evaluated are the relations run on both sides (semdiff.go).
	Evaluated *evaluatedView
}

type ptxMemberRow struct {
	Name, URL, Variants, Note, Pos string
}

type amdMemberRow struct {
	Name, Note, Declared string
	Cells                []familyCell
}

// familyCell says whether an AMD member exists on one family and whether
// the concept applies there.
type familyCell struct {
	State string // "member" (listed and has a page), "other" (has a page, not listed), "missing" (listed, no page), "absent"
	URL   string
	Label string
}

type relationRow struct {
	PTX          link
	AMD          []link
	Kind         string
	Variants     string
	Condition    string // the modifiers the relation requires or excludes, in words
	Families     string // the families it is limited to, "" when not limited
	Restrictions []string
	Forms        string // example instructions, one a line
	Sequence     string
	Pos          string
}

func (s *server) handleConcept(w http.ResponseWriter, r *http.Request) {
	cd, err := s.conceptCatalogue()
	if err != nil {
		s.storeError(w, r, err, conceptURL)
		return
	}
	id := r.PathValue("id")
	c := cd.cat.Concept(id)
	if c == nil {
		if lc := cd.cat.Concept(strings.ToLower(id)); lc != nil {
			http.Redirect(w, r, conceptURL(lc.ID), http.StatusMovedPermanently)
			return
		}
		var ids []string
		for _, x := range cd.cat.Concepts {
			ids = append(ids, x.ID)
		}
		s.storeError(w, r, errs.NotFound(closeIDs(strings.ToLower(id), ids, 5), "no concept %q in the catalogue", id), conceptURL)
		return
	}
	v := conceptPageView{C: c, Theme: cd.themeOf[c.ID], Pos: posText(c.Pos)}
	for _, m := range c.PTX {
		row := ptxMemberRow{Name: m.Mnemonic, Variants: strings.Join(m.Variants, " "), Note: m.Note, Pos: posText(m.Pos)}
		if s.hasInstruction("ptx", m.Mnemonic) {
			row.URL = instrURL("ptx", m.Mnemonic)
		}
		v.PTX = append(v.PTX, row)
	}
	amd := s.nativeArchs()
	for _, a := range amd {
		v.Families = append(v.Families, link{Text: a.Name, URL: archURL(a.ID), Note: a.ID})
	}
	for _, m := range c.AMD {
		row := amdMemberRow{Name: m.Mnemonic, Note: m.Note, Declared: "every family that has it"}
		if len(m.Families) > 0 {
			var names []string
			for _, f := range m.Families {
				names = append(names, archName(f))
			}
			row.Declared = strings.Join(names, ", ")
		}
		for _, a := range amd {
			has, applies := s.hasInstruction(a.ID, m.Mnemonic), m.AppliesOn(a.ID)
			cell := familyCell{State: "absent", Label: "not in " + a.Name}
			switch {
			case has && applies:
				cell = familyCell{State: "member", URL: instrURL(a.ID, m.Mnemonic), Label: m.Mnemonic + " on " + a.Name}
			case has:
				cell = familyCell{State: "other", URL: instrURL(a.ID, m.Mnemonic), Label: m.Mnemonic + " exists on " + a.Name + " but the concept does not list it there"}
			case applies && len(m.Families) > 0:
				cell = familyCell{State: "missing", Label: "listed for " + a.Name + " but this database has no page for it"}
			}
			row.Cells = append(row.Cells, cell)
		}
		v.AMD = append(v.AMD, row)
	}
	v.Relations = s.relationRows(c, amd)
	v.Evaluated = s.evaluated(c.ID)
	s.render(w, r, http.StatusOK, "concept", page{Title: c.Name + " · concept",
		Description: c.Description, Data: v})
}

// relationRows groups the catalogue's per-pair relations back into the rows
// an author wrote (one YAML relation may name several AMD members).
func (s *server) relationRows(c *concepts.Concept, amd []isa.Architecture) []relationRow {
	var out []relationRow
	index := map[string]int{}
	for _, rel := range c.Relations {
		key := fmt.Sprintf("%s|%d|%s|%s", rel.Pos.File, rel.Pos.Line, rel.PTX, rel.Kind)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			row := relationRow{PTX: link{Text: rel.PTX}, Kind: string(rel.Kind), Variants: strings.Join(rel.Variants, " "),
				Restrictions: rel.Restrictions, Forms: strings.Join(rel.Forms, "\n"), Sequence: strings.Join(rel.SequenceText(), "\n"), Pos: posText(rel.Pos)}
			var cond []string
			if len(rel.Requires) > 0 {
				cond = append(cond, "with "+strings.Join(rel.Requires, " "))
			}
			if len(rel.Except) > 0 {
				cond = append(cond, "not with "+strings.Join(rel.Except, " "))
			}
			row.Condition = strings.Join(cond, "; ")
			var fams []string
			for _, f := range rel.Families {
				fams = append(fams, archName(f))
			}
			row.Families = strings.Join(fams, ", ")
			if s.hasInstruction("ptx", rel.PTX) {
				row.PTX.URL = instrURL("ptx", rel.PTX)
			}
			out = append(out, row)
		}
		l := link{Text: rel.AMD}
		for _, a := range amd { // the newest family that has it
			if s.hasInstruction(a.ID, rel.AMD) {
				l.URL, l.Note = instrURL(a.ID, rel.AMD), a.Name
				break
			}
		}
		out[i].AMD = append(out[i].AMD, l)
	}
	return out
}

// closeIDs suggests concept ids that share a prefix or a word with want.
func closeIDs(want string, ids []string, n int) []string {
	var out []string
	words := strings.FieldsFunc(want, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for _, id := range ids {
		hit := strings.HasPrefix(id, want) || strings.HasPrefix(want, id)
		for _, w := range words {
			if len(w) >= 3 && strings.Contains(id, w) {
				hit = true
			}
		}
		if hit {
			out = append(out, id)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

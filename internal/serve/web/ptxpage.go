package web

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The parts of a PTX page that are arranged for reading rather than
// derived from ptxas: the AMD counterparts per family, the forms table in
// groups (with a budget of rows on the page itself; every form is on
// /ptx/{name}/forms), the operands with what NVIDIA says about each one
// alone, and the SASS listings the page keeps for its own (the rest are on
// /ptx/{name}/sass).

const (
	// formsInline: with at most this many forms every form is on the
	// page (groups beyond their first rows folded); with more, the page
	// shows at most formsShown rows and links the full table.
	formsInline = 40
	formsShown  = 20
	// formsGroupHead rows of a group are shown before the rest is folded.
	formsGroupHead = 3
	// sassBudget bounds the SASS the instruction page keeps (see
	// pageSASS); the first statement's is always kept.
	sassBudget = 70
	// sassTabLines bounds one target's listing on the instruction page.
	sassTabLines = 12
)

// familyPick is one choice of the counterparts' family picker.
type familyPick struct {
	ID, Slug, Name, Targets string
	Count                   int
}

// counterpartRow is one relation of the catalogue with the families it
// applies to (Classes, "f-cdna3 f-rdna4", for the picker's CSS). Extra:
// beyond the first rows, folded while every family is shown.
type counterpartRow struct {
	conceptView
	Classes string
	Extra   bool
}

// counterpartGroup is one concept's relations.
type counterpartGroup struct {
	Name, URL, Classes string
	Rows               []counterpartRow
}

type counterpartsView struct {
	Families []familyPick
	Groups   []counterpartGroup
	Count    int // relations
	Extra    int // relations folded while every family is shown
}

// counterpartsShown relations are shown before the rest is folded (while
// no family is picked).
const counterpartsShown = 6

// famSlug is a family's name in CSS classes and element ids
// (isa.ArchInfo.Class); an id the table lacks is used as it is.
func famSlug(id string) string {
	if a, ok := isa.ArchByID(id); ok {
		return a.Class
	}
	return id
}

// ptxCounterparts groups a PTX instruction's concept links by concept for
// the family picker: each relation knows its families, each member its.
func (s *server) ptxCounterparts(concepts []conceptView) counterpartsView {
	var v counterpartsView
	count := map[string]int{}
	index := map[string]int{}
	for _, c := range concepts {
		fams := map[string]bool{}
		for _, m := range c.ConceptRef.Members {
			fams[m.Arch] = true
		}
		var classes []string
		for _, a := range s.archs {
			if fams[a.ID] {
				classes = append(classes, "f-"+famSlug(a.ID))
				count[a.ID]++
			}
		}
		i, ok := index[c.ID]
		if !ok {
			i = len(v.Groups)
			index[c.ID] = i
			v.Groups = append(v.Groups, counterpartGroup{Name: c.Name, URL: c.URL})
		}
		g := &v.Groups[i]
		row := counterpartRow{conceptView: c, Classes: strings.Join(classes, " "), Extra: v.Count >= counterpartsShown}
		if row.Extra {
			v.Extra++
		}
		g.Rows = append(g.Rows, row)
		v.Count++
	}
	for i := range v.Groups {
		set := map[string]bool{}
		var classes []string
		for _, r := range v.Groups[i].Rows {
			for _, c := range strings.Fields(r.Classes) {
				if !set[c] {
					set[c] = true
					classes = append(classes, c)
				}
			}
		}
		v.Groups[i].Classes = strings.Join(classes, " ")
	}
	for _, a := range s.archs {
		if count[a.ID] > 0 {
			v.Families = append(v.Families, familyPick{ID: a.ID, Slug: famSlug(a.ID), Name: a.Name,
				Targets: strings.Join(a.Targets, " "), Count: count[a.ID]})
		}
	}
	return v
}

// --- forms in groups ---

// formGroup is a run of forms with the same description, shape and
// first type: "Half precision floating point type · m16n8k16 · .f32".
type formGroup struct {
	ID, Title string
	Count     int
	Head      []formRow // shown
	Rest      []formRow // on the page, folded
	// Elsewhere counts the rows only the full forms table has.
	Elsewhere int
	// Raises, Rejected and Unchecked are what ptxas said of the optional
	// parts of every form of the group alike, shown once for the group
	// (and left out of its rows).
	Raises, Rejected, Unchecked []modGroup
}

var shapeToken = regexp.MustCompile(`^\.m\d+n\d+k\d+$`)

// formGroupKey names a form's group from its syntax and facts; withType
// adds its first type.
func formGroupKey(f isa.Form, withType bool) string {
	var parts []string
	if d := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(f.Description), ":")); d != "" {
		parts = append(parts, d)
	}
	op, _, _ := strings.Cut(f.Syntax, " ")
	tokens := dottedTokens(op)
	var shapes []string
	for _, m := range f.Modifiers {
		if shapeToken.MatchString(m) {
			shapes = append(shapes, m)
		}
	}
	literal := ""
	for _, t := range tokens {
		if shapeToken.MatchString(t) {
			literal = t
			break
		}
	}
	switch {
	case literal != "":
		parts = append(parts, strings.TrimPrefix(literal, "."))
	case len(shapes) > 0 && len(shapes) <= 3:
		var names []string
		for _, sh := range shapes {
			names = append(names, strings.TrimPrefix(sh, "."))
		}
		parts = append(parts, strings.Join(names, ", "))
	case len(shapes) > 3:
		parts = append(parts, fmt.Sprintf("%d shapes", len(shapes)))
	}
	if withType {
		types := map[string]bool{}
		for _, t := range f.Types {
			types[t] = true
		}
		for _, t := range tokens {
			if types[t] {
				parts = append(parts, t)
				break
			}
		}
	}
	return strings.Join(parts, " · ")
}

// dottedTokens splits an opcode with optional parts ("cvt{.rn}{.sat}.f32.f16")
// into its dotted tokens (".rn", ".sat", ".f32", ".f16").
func dottedTokens(op string) []string {
	op = strings.NewReplacer("{", "", "}", "").Replace(op)
	var out []string
	for _, p := range strings.Split(op, ".")[1:] {
		if p != "" {
			out = append(out, "."+p)
		}
	}
	return out
}

// groupForms arranges rows in groups in the order their first forms
// appear. all says whether every row is on the page (folded beyond a
// group's head) or only up to formsShown rows; unfolded shows every row
// (the forms page).
func groupForms(rows []formRow, unfolded bool) (groups []formGroup, all bool) {
	// Groups of description, shape and first type; where those are
	// mostly single forms, of description and shape; else one group.
	var members [][]formRow
	for _, withType := range []bool{true, false} {
		groups, members = nil, nil
		index := map[string]int{}
		for _, r := range rows {
			k := formGroupKey(r.F, withType)
			i, ok := index[k]
			if !ok {
				i = len(groups)
				index[k] = i
				title := k
				if title == "" {
					title = "Other forms"
				}
				groups = append(groups, formGroup{ID: fmt.Sprintf("fg-%d", i+1), Title: title})
				members = append(members, nil)
			}
			members[i] = append(members[i], r)
		}
		if len(groups) == 1 || 2*len(rows) >= 5*len(groups) {
			break
		}
	}
	if 2*len(rows) < 5*len(groups) {
		groups = []formGroup{{ID: "fg-1"}}
		members = [][]formRow{rows}
	}
	all = len(rows) <= formsInline
	if len(groups) == 1 {
		groups[0].Title = ""
	} else {
		for i := range groups {
			members[i] = shareModifierFacts(&groups[i], members[i])
		}
	}
	shown := 0
	for i := range groups {
		m := members[i]
		groups[i].Count = len(m)
		if unfolded {
			groups[i].Head = m
			continue
		}
		head := min(len(m), formsGroupHead)
		switch {
		case len(rows) <= 12:
			head = len(m) // short tables are never folded
		case len(groups) == 1:
			head = min(len(m), 12)
		}
		if groups[i].Title != "" {
			// The group's title carries the forms' description.
			for j := range m {
				m[j].DescInTitle = strings.Contains(groups[i].Title, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(m[j].F.Description), ":")))
			}
		}
		if all {
			groups[i].Head = m[:head]
			for _, r := range m[head:] {
				r.Folded = true
				groups[i].Rest = append(groups[i].Rest, r)
			}
			continue
		}
		head = min(head, max(formsShown-shown, 0))
		if i == 0 {
			head = max(head, 1)
		}
		groups[i].Head = m[:head]
		groups[i].Elsewhere = len(m) - head
		shown += head
	}
	return groups, all
}

// shareModifierFacts moves what ptxas said about the optional parts out
// of a group's rows into the group, each statement that every row of the
// group makes alike ("✗ .rni .rzi rejected with this form: Illegal
// rounding modifier"); the rows keep the rest.
func shareModifierFacts(g *formGroup, rows []formRow) []formRow {
	if len(rows) < 2 {
		return rows
	}
	eq := func(a, b modGroup) bool { return a.Label == b.Label && slices.Equal(a.Mods, b.Mods) }
	share := func(get func(*formRow) *[]modGroup) []modGroup {
		var common []modGroup
		for _, m := range *get(&rows[0]) {
			all := true
			for i := 1; i < len(rows) && all; i++ {
				all = slices.ContainsFunc(*get(&rows[i]), func(x modGroup) bool { return eq(x, m) })
			}
			if all {
				common = append(common, m)
			}
		}
		return common
	}
	out := slices.Clone(rows)
	strip := func(get func(*formRow) *[]modGroup, common []modGroup) {
		for i := range out {
			f := get(&out[i])
			*f = slices.DeleteFunc(slices.Clone(*f), func(x modGroup) bool {
				return slices.ContainsFunc(common, func(c modGroup) bool { return eq(c, x) })
			})
		}
	}
	raises := func(r *formRow) *[]modGroup { return &r.Raises }
	rejected := func(r *formRow) *[]modGroup { return &r.Rejected }
	unchecked := func(r *formRow) *[]modGroup { return &r.Unchecked }
	g.Raises, g.Rejected, g.Unchecked = share(raises), share(rejected), share(unchecked)
	strip(raises, g.Raises)
	strip(rejected, g.Rejected)
	strip(unchecked, g.Unchecked)
	return out
}

// --- operands: what NVIDIA says about each one alone ---

// operandView is a PTX operand with the sentences that concern it alone.
type operandView struct {
	isa.Operand
	Own string
}

// sharedNote is a sentence the documentation attaches to several
// operands, shown once with their names.
type sharedNote struct {
	Operands []string
	Text     string
}

// ptxOperands takes the sentences NVIDIA repeats in several operands'
// descriptions ("Operands d, a and b have the same type as the instruction
// type.") out of them, to show each once, and leaves each operand its own.
func ptxOperands(ops []isa.Operand) ([]operandView, []sharedNote) {
	sentences := make([][]string, len(ops))
	holders := map[string][]string{}
	var order []string
	for i, o := range ops {
		seen := map[string]bool{}
		for _, s := range splitSentences(o.Description) {
			if seen[s] {
				continue
			}
			seen[s] = true
			sentences[i] = append(sentences[i], s)
			if _, ok := holders[s]; !ok {
				order = append(order, s)
			}
			holders[s] = append(holders[s], o.Name)
		}
	}
	var out []operandView
	for i, o := range ops {
		var own []string
		for _, s := range sentences[i] {
			if len(holders[s]) < 2 {
				own = append(own, s)
			}
		}
		out = append(out, operandView{Operand: o, Own: strings.Join(own, " ")})
	}
	// One note per set of operands, sentences in first-seen order.
	var notes []sharedNote
	byKey := map[string]int{}
	for _, s := range order {
		h := holders[s]
		if len(h) < 2 {
			continue
		}
		k := strings.Join(h, ",")
		i, ok := byKey[k]
		if !ok {
			i = len(notes)
			byKey[k] = i
			notes = append(notes, sharedNote{Operands: h})
		}
		if notes[i].Text != "" {
			notes[i].Text += " "
		}
		notes[i].Text += s
	}
	return out, notes
}

// splitSentences splits prose at sentence ends (a full stop, then space,
// then a capital, a backtick or an emphasis mark), keeping abbreviations
// ("e.g. ") whole.
func splitSentences(s string) []string {
	s = strings.Join(strings.Fields(s), " ")
	var out []string
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '.' || s[i+1] != ' ' {
			continue
		}
		next := s[i+2]
		if !(next >= 'A' && next <= 'Z' || next == '`' || next == '*' || next == '_') {
			continue
		}
		head := s[start : i+1]
		if strings.HasSuffix(head, "e.g.") || strings.HasSuffix(head, "i.e.") || strings.HasSuffix(head, "etc.") {
			continue
		}
		out = append(out, strings.TrimSpace(head))
		start = i + 2
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// --- SASS on the page ---

// pageSASS picks the statements whose SASS the instruction page keeps:
// the first, then those that lower to an opcode not shown yet, each
// target's listing cut to sassTabLines, while the listings cost under
// sassBudget (a tab costs two, a line one); the rest stay on the SASS page.
// It returns how many statements it left there.
func pageSASS(blocks []sassBlock) ([]sassBlock, int) {
	var out []sassBlock
	seen := map[string]bool{}
	cost := 0
	for i, b := range blocks {
		b.Tabs = slices.Clone(b.Tabs)
		n, fresh := 0, false
		for j := range b.Tabs {
			t := &b.Tabs[j]
			if len(t.Lines) > sassTabLines {
				t.Elsewhere = len(t.Lines) - sassTabLines
				t.Lines = t.Lines[:sassTabLines]
			}
			n += 2 + len(t.Lines)
			for _, l := range t.Lines {
				if !seen[sassOpcode(l.Text)] {
					fresh = true
				}
			}
		}
		if i > 0 && (!fresh || cost+n > sassBudget) {
			continue
		}
		for _, t := range b.Tabs {
			for _, l := range t.Lines {
				seen[sassOpcode(l.Text)] = true
			}
		}
		cost += n
		out = append(out, b)
	}
	return out, len(blocks) - len(out)
}

// sassOpcode is a SASS line's opcode with its modifiers ("FMNMX.NAN"),
// after a predicate guard.
func sassOpcode(line string) string {
	f := strings.Fields(line)
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

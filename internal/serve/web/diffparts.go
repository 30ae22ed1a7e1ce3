package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// A diff page leads with a summary table and keeps to maxDiffPage bytes:
// a list of added, removed or changed instructions whose rows would take
// more than its kind's inline bytes moves to pages of its own
// (/diff/A/B/changed, /diff/A/B/changed/2: paths, so a static export
// holds them) of at most pageBytes of rows each, and the
// summary page shows how many there are per category with links into
// them. A row's size is estimated from what it shows (its names, the
// word diff, the encodings). The JSON answer has every row on one page.

// maxDiffPage is the HTML size every diff page keeps under (the tests
// hold every page of the sample and the real database to it).
const maxDiffPage = 150 << 10

// diffPartKind is one of the lists a diff page may move to pages of its
// own: the estimated bytes of rows that stay on the summary page, and
// that one page of the list holds.
type diffPartKind struct {
	ID, Title         string
	Inline, PageBytes int
}

// diffPartKinds are the lists, in page order. The summary page holds at
// most the three inline budgets beside its renames and formats.
var diffPartKinds = []diffPartKind{
	{ID: "renamed", Title: "Renamed", Inline: 60 << 10, PageBytes: 110 << 10},
	{ID: "added", Title: "Added", Inline: 20 << 10, PageBytes: 110 << 10},
	{ID: "removed", Title: "Removed", Inline: 20 << 10, PageBytes: 110 << 10},
	{ID: "changed", Title: "Changed", Inline: 25 << 10, PageBytes: 110 << 10},
}

func partKind(id string) (diffPartKind, bool) {
	for _, k := range diffPartKinds {
		if k.ID == id {
			return k, true
		}
	}
	return diffPartKind{}, false
}

// diffPart is what the summary page says of one list, and what its own
// pages show around their rows.
type diffPart struct {
	diffPartKind
	Count int
	// Paged: the rows are on pages of their own, URL the first; Cats
	// links each category to the page where it starts.
	Paged bool
	URL   string
	Cats  []partCat
	// starts[i] is the first row of page i+1.
	starts []int
	// On a page of the list: its number, the links to every page.
	Page, PageCount int
	Pages           []link
	Prev, Next      string
}

type partCat struct {
	Category, URL string
	Count         int
}

// partURL is the list's own page n (1 the first).
func partURL(res *famdiff.Result, kind string, n int) string {
	u := diffURL(res.From.ID, res.To.ID) + "/" + kind
	if n > 1 {
		u += "/" + strconv.Itoa(n)
	}
	return u
}

// partURLs are the pages of the lists of res that have pages of their
// own.
func (s *server) partURLs(res *famdiff.Result) []string {
	v := s.diffView(res)
	var out []string
	for _, p := range []*diffPart{v.RenamedPart, v.AddedPart, v.RemovedPart, v.ChangedPart} {
		if p.Paged {
			for _, l := range p.Pages {
				out = append(out, l.URL)
			}
		}
	}
	return out
}

// newDiffPart says where each page of the list starts and each of its
// categories; cats are the rows' categories in order, costs their
// estimated bytes.
func newDiffPart(res *famdiff.Result, k diffPartKind, cats []string, costs []int) *diffPart {
	p := &diffPart{diffPartKind: k, Count: len(cats)}
	total := 0
	for i, c := range costs {
		if len(p.starts) == 0 || total+c > k.PageBytes && i > p.starts[len(p.starts)-1] {
			p.starts, total = append(p.starts, i), 0
		}
		total += c
	}
	p.PageCount = len(p.starts)
	all := 0
	for _, c := range costs {
		all += c
	}
	// Lists of a diff with no address of its own (the oldest PTX
	// version) stay whole.
	p.Paged = all > k.Inline && res.From.ID != ""
	if !p.Paged {
		return p
	}
	p.URL = partURL(res, k.ID, 1)
	page := 0
	for i, c := range cats {
		for page+1 < len(p.starts) && p.starts[page+1] <= i {
			page++
		}
		c = orUncategorized(c)
		if n := len(p.Cats); n > 0 && p.Cats[n-1].Category == c {
			p.Cats[n-1].Count++
			continue
		}
		p.Cats = append(p.Cats, partCat{Category: c, Count: 1, URL: partURL(res, k.ID, page+1) + "#" + k.ID + "-" + slug(c)})
	}
	for n := 1; n <= p.PageCount; n++ {
		lo, hi := p.rows(n)
		p.Pages = append(p.Pages, link{Text: strconv.Itoa(n), URL: partURL(res, k.ID, n), Note: fmt.Sprintf("%d–%d", lo+1, hi)})
	}
	return p
}

// rows is the range of rows page n (1 the first) shows.
func (p *diffPart) rows(n int) (lo, hi int) {
	lo, hi = p.starts[n-1], p.Count
	if n < len(p.starts) {
		hi = p.starts[n]
	}
	return lo, hi
}

// itemCost and changeCost estimate a row's bytes on the page: its
// markup and the text it shows.
func itemCost(it famdiff.Item) int {
	return 140 + 2*len(it.Name) + len(it.Syntax) + len(it.Modifier) + len(it.PTXVersion) + len(it.MinTarget) + 12*len(it.Targets)
}

func renameCost(rn famdiff.Rename) int {
	n := 200 + 3*len(rn.From) + 3*len(rn.To) + len(rn.Category)
	for _, e := range rn.Evidence {
		n += 70 + 2*len(e.Kind) + len(e.Text)
	}
	return n
}

func changeCost(c famdiff.Change, words int) int {
	n := 220 + 2*len(c.From) + 2*len(c.To) + words
	for _, e := range c.Encodings {
		n += 90 + len(e.Kind) + len(e.From) + len(e.To)
	}
	for _, o := range c.Operands {
		n += 100 + len(o.Kind) + len(o.Operand) + len(o.From) + len(o.To)
	}
	if t := c.Targets; t != nil {
		n += 120
		for _, x := range append(append([]string(nil), t.From...), t.To...) {
			n += len(x) + 2
		}
	}
	return n
}

// summaryRow is one line of the table a diff page opens with.
type summaryRow struct {
	Kind, URL string
	Count     int
	Note      string
}

// summaryRows counts each kind of difference, each linked to its section
// (or the first page of its list).
func summaryRows(v *diffView) []summaryRow {
	r := v.R
	at := func(p *diffPart, anchor string) string {
		if p != nil && p.Paged {
			return p.URL
		}
		return "#" + anchor
	}
	var rows []summaryRow
	if v.IsFamilies {
		rows = append(rows, summaryRow{Kind: "Renamed", URL: at(v.RenamedPart, "renamed"), Count: r.Counts.Renamed, Note: "the same instruction spelled differently, each with its evidence"})
	}
	rows = append(rows, summaryRow{Kind: "Added", URL: at(v.AddedPart, "added"), Count: r.Counts.Added, Note: "only in " + r.To.Name},
		summaryRow{Kind: "Removed", URL: at(v.RemovedPart, "removed"), Count: r.Counts.Removed, Note: "only in " + r.From.Name})
	if !v.IsFamilies {
		return rows
	}
	changed := at(v.ChangedPart, "changed")
	return append(rows,
		summaryRow{Kind: "Changed opcode", URL: changed, Count: r.Counts.Opcodes, Note: "the same format, another opcode"},
		summaryRow{Kind: "Changed encoding", URL: changed, Count: r.Counts.Encodings, Note: "another format, or an encoding added or dropped"},
		summaryRow{Kind: "Changed operands", URL: changed, Count: r.Counts.Operands, Note: "an operand's type or size"},
		summaryRow{Kind: "Changed semantics", URL: changed, Count: r.Counts.Semantics, Note: "the pseudocode differs (word diff)"},
		summaryRow{Kind: "Changed target support", URL: changed, Count: r.Counts.Targets, Note: "the targets that accept it"},
		summaryRow{Kind: "Formats", URL: "#formats", Count: r.Counts.Formats, Note: "an encoding format's bit layout"},
		summaryRow{Kind: "Unchanged", Count: r.Counts.Unchanged, Note: "in both, alike"})
}

// handleDiffPart serves one page of a diff's list: /diff/A/B/KIND and
// /diff/A/B/KIND/N.
func (s *server) handleDiffPart(w http.ResponseWriter, r *http.Request) {
	a, b := r.PathValue("a"), r.PathValue("b")
	k, ok := partKind(r.PathValue("kind"))
	if !ok {
		s.storeError(w, r, errs.NotFound([]string{"renamed", "added", "removed", "changed"}, "a diff has no list %q", r.PathValue("kind")),
			func(sg string) string { return diffURL(a, b) + "/" + url.PathEscape(sg) })
		return
	}
	res, err := s.diffFacts().Compare(r.Context(), a, b)
	if err != nil {
		s.storeError(w, r, err, func(sg string) string { return diffURL(sg, b) })
		return
	}
	n := 1
	if q := r.PathValue("page"); q != "" {
		if n, err = strconv.Atoi(q); err != nil || n < 1 {
			s.storeError(w, r, errs.Invalid("page %q: not a page number", q), nil)
			return
		}
	}
	if want := partURL(res, k.ID, n); want != r.URL.EscapedPath() {
		http.Redirect(w, r, want, http.StatusMovedPermanently)
		return
	}
	v := s.diffPartView(res, k, n)
	if v.Part.PageCount == 0 || n > v.Part.PageCount {
		s.storeError(w, r, errs.NotFound(nil, "%s → %s has %d pages of %s instructions", res.From.Name, res.To.Name, v.Part.PageCount, k.ID), nil)
		return
	}
	v.Heading = fmt.Sprintf("%s → %s: %s", res.From.Name, res.To.Name, k.Title)
	v.Intro = fmt.Sprintf("%d instructions, page %d of %d.", v.Part.Count, n, v.Part.PageCount)
	s.render(w, r, http.StatusOK, "diffpart", page{Title: v.Heading + fmt.Sprintf(" (page %d)", n), Description: v.Intro, Data: v})
}

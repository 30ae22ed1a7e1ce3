package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// The search page: the header's and the home page's search, over the
// store's ranking; a family, target or product in the query scopes it as
// the store's Search does (the processor index reads the same words).

type searchView struct {
	Query string
	Arch  string
	// ArchName names the family searched; Widened says a search in it
	// found nothing, so Hits are from every family; ScopeWords are the
	// query's own words that chose the family ("cdna3", "MI300X"), ""
	// when the family came from the page the search started on.
	ArchName   string
	Widened    bool
	ScopeWords string
	AllURL     string // the same query over every family
	Archs      []isa.Architecture
	Hits       []searchHitView
	Error      string
	// Decoded is the query decoded as machine code, when it looks like
	// instruction words; Incomplete says on which other families its last
	// word starts a longer instruction (half of a 64-bit VOP3).
	Decoded    []decodedGroup
	Incomplete []IncompleteWord
	// Targets are the gfx targets a product name leads to ("MI300X").
	Targets []targetHit
	// NearTargets are the targets names close to the query lead to,
	// when it names none ("mi300": gfx942).
	NearTargets []targetHit
}

// Answered says whether something besides Hits answers the query: a
// decoding, a target or a target close to its words, or the note that the
// words are half an instruction. The page then shows no "Nothing matched"
// under it.
func (v searchView) Answered() bool {
	return len(v.Decoded) > 0 || len(v.Targets) > 0 || len(v.NearTargets) > 0 || len(v.Incomplete) > 0
}

type searchHitView struct {
	isa.SearchHit
	URL, ArchName string
	// Others are the other families with the name, each its page there.
	Others []link
}

const maxQueryLen = 200

// queryTooLong says whether q is over maxQueryLen characters: runes, as
// the message says and a user counts them ("é" is two bytes).
func queryTooLong(q string) bool { return utf8.RuneCountInString(q) > maxQueryLen }

// searchShortcut is where a search in one family goes straight to: the
// page of the instruction q names there (an alias or an assembler
// spelling included), or the decoding of q when it is machine code that
// decodes in that family; "" when neither.
func (s *server) searchShortcut(ctx context.Context, q, arch string) string {
	if a, canon, err := s.store.Resolve(ctx, arch, q); err == nil {
		return instrURL(a, canon)
	}
	fam := s.decodeArch(ctx, arch)
	if fam == "" || fam == "ptx" {
		return ""
	}
	if hits := s.decodeQuery(q, fam); len(hits) > 0 {
		return "/decode?arch=" + url.QueryEscape(fam) + "&hex=" + url.QueryEscape(q)
	}
	return ""
}

func (s *server) handleSearch(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	v := searchView{Query: q, Arch: r.URL.Query().Get("arch"), Archs: s.archs}
	status := http.StatusOK
	switch {
	case q == "":
	case queryTooLong(q):
		v.Error = fmt.Sprintf("The query is longer than %d characters.", maxQueryLen)
		status = http.StatusBadRequest
	default:
		// From a family's pages (the header's scope), or with a family
		// in its words ("v_max_f32 cdna3"), an instruction's name opens
		// its page there and a decodable word its decoding.
		sc := s.processors.ScopeOf(q)
		if sc.Arch != "" {
			if target := s.searchShortcut(r.Context(), sc.Rest, sc.Arch); target != "" {
				http.Redirect(w, r, target, http.StatusFound)
				return
			}
		} else if v.Arch != "" {
			if target := s.searchShortcut(r.Context(), q, v.Arch); target != "" {
				http.Redirect(w, r, target, http.StatusFound)
				return
			}
		}
		if err := s.searchInto(r.Context(), &v, sc); err != nil {
			if errs.HTTPStatus(err) == http.StatusInternalServerError {
				s.fail(w, r, err)
				return
			}
			if !v.Answered() {
				v.Error = err.Error()
				status = errs.HTTPStatus(err)
			}
		}
	}
	title := "Search"
	if q != "" {
		title = "Search: " + q
	}
	s.render(w, r, status, "search", page{Title: title, Query: q, Data: v})
}

// searchInto fills the view's answers to its query: decodings, targets and
// the ranked hits, scoped by the page's family or the query's own words.
func (s *server) searchInto(ctx context.Context, v *searchView, sc isa.QueryScope) error {
	q := v.Query
	code, codeArch := s.machineCode(ctx, q, v.Arch)
	v.Decoded = groupDecoded(s.decodeQuery(code, codeArch), code)
	v.Incomplete = s.incompleteWords(code, codeArch)
	v.Targets = s.targetHits(q)
	if len(v.Targets) == 0 {
		v.NearTargets = s.nearTargets(q)
	}
	hits, err := s.store.Search(ctx, q, store.SearchOptions{Arch: v.Arch, Limit: 50})
	scope := v.Arch
	if sc.Arch != "" {
		scope, v.ScopeWords = sc.Arch, sc.Words
	}
	if scope != "" && err == nil {
		v.ArchName = archName(s.decodeArch(ctx, scope))
		v.AllURL = "/search?q=" + url.QueryEscape(q)
		if sc.Arch != "" {
			v.AllURL = "/search?q=" + url.QueryEscape(sc.Rest)
		}
		if len(hits) == 0 && !v.Answered() {
			// Nothing in the family searched: say so and show what the
			// other families have.
			v.Widened = true
			wide := q
			if sc.Arch != "" {
				wide = sc.Rest
			}
			hits, err = s.store.Search(ctx, wide, store.SearchOptions{Limit: 50})
		}
	}
	for _, h := range hits {
		hv := searchHitView{SearchHit: h, URL: instrURL(h.Arch, h.Name), ArchName: archName(h.Arch)}
		for _, a := range h.Archs {
			if a != h.Arch {
				hv.Others = append(hv.Others, link{Text: archName(a), URL: instrURL(a, h.Name)})
			}
		}
		v.Hits = append(v.Hits, hv)
	}
	return err
}

// IncompleteWord is the note that pasted words are the start of a longer
// instruction on some families (half of a 64-bit VOP3 word): the decoder's
// message, and the families that read them so.
type IncompleteWord struct {
	Message  string   `json:"message"`
	Archs    []string `json:"archs"`
	Families []link   `json:"-"`
}

// incompleteWords says, for machine code, on which
// families (arch, or every AMD family) it decodes up to its last
// instruction, which needs more bytes than were given.
func (s *server) incompleteWords(q, arch string) []IncompleteWord {
	if !decode.LooksLikeMachineCode(q) {
		return nil
	}
	code, err := parseMachineCode(q)
	if err != nil {
		return nil
	}
	var out []IncompleteWord
	index := map[string]int{}
	for _, a := range s.archs {
		if a.Kind != isa.KindNative || arch != "" && a.ID != arch {
			continue
		}
		d, err := s.decoder(a.ID)
		if err != nil {
			continue
		}
		_, bad := decodeAll(d, code)
		if len(bad) != 1 || !strings.HasPrefix(bad[0].Message, "truncated") {
			continue
		}
		i, ok := index[bad[0].Message]
		if !ok {
			i = len(out)
			index[bad[0].Message] = i
			out = append(out, IncompleteWord{Message: bad[0].Message})
		}
		out[i].Archs = append(out[i].Archs, a.ID)
		out[i].Families = append(out[i].Families, link{Text: archName(a.ID), URL: "/decode?arch=" + url.QueryEscape(a.ID) + "&hex=" + url.QueryEscape(q)})
	}
	return out
}

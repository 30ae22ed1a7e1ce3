package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// jsonType is the Content-Type of every API answer.
const jsonType = "application/json; charset=utf-8"

// apiError is the body of every API error.
type apiError struct {
	Error       string   `json:"error"`
	Suggestions []string `json:"suggestions,omitempty"`
}

// SearchResult is the answer of /api/v1/search.
type SearchResult struct {
	Query string          `json:"query"`
	Arch  string          `json:"arch,omitempty"`
	Hits  []isa.SearchHit `json:"hits"`
	// Decoded is the query decoded as machine code on the family asked for
	// (or every AMD family on which all of it decodes), when q looks like
	// instruction words: "0x160a04c1", "160a04c1 7e020280", "[0xc1,0x04,0x0a,0x16]".
	Decoded []DecodedHit `json:"decoded,omitempty"`
	// Targets are the gfx targets the query names as a product or another
	// name in LLVM's processor table ("MI300X": gfx942, CDNA 3).
	Targets []isa.ProcessorMatch `json:"targets,omitempty"`
	// Scope is the family the query's own words name ("v_max_f32 cdna3",
	// "MI300X mfma", "H100 wgmma"), which the hits are from.
	Scope *SearchScope `json:"scope,omitempty"`
	// Incomplete says on which families machine code that does not decode
	// there ends in the start of a longer instruction (the first word of a
	// 64-bit VOP3 alone).
	Incomplete []IncompleteWord `json:"incomplete,omitempty"`
	// NearTargets are the targets names close to the query lead to, when
	// it names none ("mi300": gfx942), as the search page suggests them.
	NearTargets []isa.ProcessorMatch `json:"near_targets,omitempty"`
}

// SearchScope is the family a query's words name.
type SearchScope struct {
	Arch   string `json:"arch"`             // the family
	Words  string `json:"words"`            // the words that named it: "cdna3", "RTX 4090"
	Target string `json:"target,omitempty"` // the target they named: "gfx1100", "sm_90"
}

func (s *server) sendJSON(w http.ResponseWriter, r *http.Request, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendOK(w, r, jsonType, append(body, '\n'))
}

func (s *server) apiFail(w http.ResponseWriter, r *http.Request, err error) {
	status := errs.HTTPStatus(err)
	msg := err.Error()
	if status == http.StatusInternalServerError && databaseDamaged(err) {
		s.log.Error("database unreadable", "path", r.URL.Path, "err", err)
		status, msg = http.StatusServiceUnavailable, damagedMessage
		w.Header().Set("Retry-After", "5")
	} else if status == http.StatusInternalServerError {
		s.log.Error("internal error", "path", r.URL.Path, "err", err)
		msg = "internal error"
	}
	body, _ := json.Marshal(apiError{Error: msg, Suggestions: errs.SuggestionsOf(err)})
	s.send(w, r, response{status: status, contentType: jsonType, body: append(body, '\n')})
}

func (s *server) apiNotFound(w http.ResponseWriter, r *http.Request) {
	s.apiFail(w, r, errs.NotFound(nil, "no API route %s %s", r.Method, r.URL.Path))
}

func (s *server) apiInfo(w http.ResponseWriter, r *http.Request) {
	s.sendJSON(w, r, s.info)
}

func (s *server) apiArchs(w http.ResponseWriter, r *http.Request) {
	s.sendJSON(w, r, s.archs)
}

func (s *server) apiArch(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), r.PathValue("arch"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendJSON(w, r, a)
}

func (s *server) apiList(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), r.PathValue("arch"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	list, err := s.list(r.Context(), a.ID)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if list == nil {
		list = []isa.Summary{}
	}
	s.sendJSON(w, r, list)
}

// apiInstruction answers json.Marshal of the instruction (as the build
// stored it), the same document as `gpuisa show --json`. Names resolve as on the pages (case, suffixes,
// aliases); the answer is always the canonical instruction.
func (s *server) apiInstruction(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), r.PathValue("arch"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	doc, err := s.store.InstructionDoc(r.Context(), a.ID, r.PathValue("name"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	// The stored document is the answer: sent as the build compressed it.
	ans := newGzipAnswer(jsonType, s.etag, s.maxAge, doc.Gzip())
	if s.cache != nil {
		ans = s.cache.put(cacheKey(r), ans)
	}
	s.sendAnswer(w, r, ans)
}

// maxAPILimit bounds how many hits one search answer may carry.
const maxAPILimit = 200

func (s *server) apiSearch(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if q == "" {
		s.apiFail(w, r, errs.Invalid("missing query parameter q"))
		return
	}
	if queryTooLong(q) {
		s.apiFail(w, r, errs.Invalid("query longer than %d characters", maxQueryLen))
		return
	}
	limit := 20
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxAPILimit {
			s.apiFail(w, r, errs.Invalid("limit must be a number from 1 to %d", maxAPILimit))
			return
		}
		limit = n
	}
	arch := r.URL.Query().Get("arch")
	code, codeArch := s.machineCode(r.Context(), q, arch)
	decoded := s.decodeQuery(code, codeArch)
	hits, err := s.store.Search(r.Context(), q, store.SearchOptions{Arch: arch, Limit: limit})
	res := SearchResult{Query: q, Arch: arch, Hits: hits, Decoded: decoded, Targets: s.processors.Match(q)}
	res.Incomplete = s.incompleteWords(code, codeArch)
	if len(res.Targets) == 0 {
		res.NearTargets = s.processors.Near(q, 4)
	}
	if sc := s.processors.ScopeOf(q); sc.Arch != "" {
		res.Scope = &SearchScope{Arch: sc.Arch, Words: sc.Words, Target: sc.Target}
	}
	if err != nil && (len(decoded) == 0 && len(res.Targets) == 0 && len(res.Incomplete) == 0 && len(res.NearTargets) == 0 || errs.HTTPStatus(err) == http.StatusInternalServerError) {
		s.apiFail(w, r, err)
		return
	}
	if res.Hits == nil {
		res.Hits = []isa.SearchHit{}
	}
	s.sendJSON(w, r, res)
}

func (s *server) apiOpenAPI(w http.ResponseWriter, r *http.Request) {
	body, err := openAPIDocument()
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.send(w, r, response{status: http.StatusOK, contentType: jsonType, body: body,
		etag: s.etag, cache: s.maxAge})
}

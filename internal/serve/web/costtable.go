package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/costview"
)

// costTableDefaultLimit keeps a ranking's page small; ?limit=0 lists all.
const costTableDefaultLimit = 200

// costEntries is one family's cost table, read once from the build's
// stored entries (costview.ExtraKey).
type costEntries struct {
	once    sync.Once
	entries []costview.Entry
	err     error
}

func (s *server) costEntries(ctx context.Context, arch string) ([]costview.Entry, error) {
	v, _ := s.costTables.LoadOrStore(arch, &costEntries{})
	c := v.(*costEntries)
	c.once.Do(func() { c.entries, c.err = costview.Load(context.WithoutCancel(ctx), s.store, arch) })
	return c.entries, c.err
}

func costTableURL(arch string) string { return archURL(arch) + "/cost" }

// costQuery reads a ranking's query parameters: target, unit, sort
// (latency by default: the slowest first is the question), asc and limit.
func costQuery(r *http.Request) (costview.Query, error) {
	v := r.URL.Query()
	q := costview.Query{Target: v.Get("target"), Unit: v.Get("unit"), Sort: v.Get("sort"), DType: v.Get("dtype"), Limit: costTableDefaultLimit}
	if q.Sort == "" {
		q.Sort = "latency"
	}
	q.Ascending = v.Get("asc") == "1"
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 || n > 100000 {
			return q, errs.Invalid("limit %q: want a number from 0 (all) up", l)
		}
		q.Limit = n
	}
	for _, f := range []string{q.Target, q.Unit, q.DType} {
		if len(f) > 64 {
			return q, errs.Invalid("a parameter is longer than 64 characters")
		}
	}
	return q.Normalize()
}

// costTable ranks one AMD family for r's query.
func (s *server) costTable(r *http.Request, a isa.Architecture) (costview.Table, costview.Query, error) {
	if a.Vendor != isa.VendorAMD {
		return costview.Table{}, costview.Query{}, errs.NotFound(nil, "%s has no cost table: LLVM's scheduling model covers AMD targets", a.ID)
	}
	q, err := costQuery(r)
	if err != nil {
		return costview.Table{}, q, errs.Invalid("%v", err)
	}
	entries, err := s.costEntries(r.Context(), a.ID)
	if err != nil {
		return costview.Table{}, q, err
	}
	t, err := costview.Build(a, entries, q)
	if err != nil {
		return t, q, errs.Invalid("%v", err)
	}
	return t, q, nil
}

type costTableView struct {
	Arch  isa.Architecture
	Info  isa.ArchInfo // the family's matrix facts
	T     costview.Table
	Q     costview.Query
	Sorts []string
	// AllURL lists every row of this ranking; Questions are rankings people ask for.
	AllURL    string
	Questions []link
	// Peaks are the family's products' published peaks against the rates
	// the model implies (CDNA families with a product table).
	Peaks []costview.PeakCheck
}

func (s *server) handleCostTable(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), r.PathValue("arch"))
	if err != nil {
		s.storeError(w, r, err, archURL)
		return
	}
	t, q, err := s.costTable(r, a)
	if err != nil {
		s.storeError(w, r, err, nil)
		return
	}
	v := costTableView{Arch: a, Info: isa.ArchInfoFor(a.ID), T: t, Q: q, Sorts: costview.Sorts}
	if q.Limit > 0 && t.Total > len(t.Rows) {
		all := r.URL.Query()
		all.Set("limit", "0")
		v.AllURL = costTableURL(a.ID) + "?" + all.Encode()
	}
	for _, u := range []struct{ unit, sort, text string }{{"HWVALU", "", "the slowest vector (VALU) instructions"},
		{"HWXDL", "work", "every instruction that uses the matrix (XDL) unit, by work per cycle"}, {"HWVMEM", "", "vector memory"}, {"HWSALU", "", "scalar ALU"}} {
		if slices.Contains(t.Units, u.unit) && u.unit != q.Unit {
			p := url.Values{"target": {t.Target}, "unit": {u.unit}}
			if u.sort != "" {
				p.Set("sort", u.sort)
			}
			v.Questions = append(v.Questions, link{Text: u.text, URL: costTableURL(a.ID) + "?" + p.Encode(), Note: u.unit})
		}
	}
	if len(t.DTypes) > 0 && q.Sort != "work" {
		p := url.Values{"target": {t.Target}, "sort": {"work"}}
		v.Questions = append(v.Questions, link{Text: "the matrix instructions by work per cycle", URL: costTableURL(a.ID) + "?" + p.Encode()})
	}
	v.Peaks = s.familyPeaks(r.Context(), a.ID)
	title := fmt.Sprintf("%s cost on %s", a.Name, t.Target)
	s.render(w, r, http.StatusOK, "costtable", page{Title: title, ScopeID: a.ID, ScopeName: a.Name,
		Description: fmt.Sprintf("%s instructions ranked by LLVM's scheduling model on %s.", a.Name, t.Target), Data: v})
}

// costTableResult is /api/v1/archs/{arch}/cost.
type costTableResult struct {
	Arch    string         `json:"arch"`
	Target  string         `json:"target"`
	Targets []string       `json:"targets"`
	Units   []string       `json:"units"`
	DTypes  []string       `json:"dtypes"` // of the matrix instructions, for the dtype filter
	Sort    string         `json:"sort"`
	DType   string         `json:"dtype,omitempty"`
	Total   int            `json:"total"` // rows before limit
	Rows    []costTableRow `json:"rows"`
	Note    string         `json:"note"`
}

type costTableRow struct {
	Name string   `json:"name"`
	Cost isa.Cost `json:"cost"`
	// Work is a matrix instruction's passes, cycles and work per cycle.
	Work *costview.Work `json:"work,omitempty"`
}

func (s *server) apiCostTable(w http.ResponseWriter, r *http.Request) {
	a, err := s.lookupArch(r.Context(), r.PathValue("arch"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	t, q, err := s.costTable(r, a)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	res := costTableResult{Arch: t.Arch, Target: t.Target, Targets: t.Targets, Units: t.Units, DTypes: t.DTypes, Sort: q.Sort, DType: q.DType, Total: t.Total,
		Rows: make([]costTableRow, 0, len(t.Rows)), Note: costWorkNote}
	for _, row := range t.Rows {
		res.Rows = append(res.Rows, costTableRow{row.Name, row.Cost, row.Work})
	}
	s.sendJSON(w, r, res)
}

// costWorkNote says where the API's numbers come from.
const costWorkNote = "LLVM's scheduling model (llvm-mca), not a measurement; a matrix instruction's work: " +
	"cycles are the model's passes times the family's cycles per pass (the CDNA guides' PASS, 4 clock cycles), " +
	"ops 2*M*N*K*blocks, per CU the SIMD's rate times the CU's SIMDs"

// familyPeaks are the peak checks of the products that run family arch.
func (s *server) familyPeaks(ctx context.Context, arch string) []costview.PeakCheck {
	var mine []isa.InstinctProduct
	for _, p := range isa.InstinctProducts {
		if id, _ := isa.ArchForTarget(p.Target); id == arch {
			mine = append(mine, p)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	return costview.CheckPeaks(mine, func(a string) ([]costview.Entry, error) { return s.costEntries(ctx, a) })
}

// allPeaks are the peak checks of every Instinct product, for /quality.
func (s *server) allPeaks(ctx context.Context) []costview.PeakCheck {
	return costview.CheckPeaks(isa.InstinctProducts, func(a string) ([]costview.Entry, error) { return s.costEntries(ctx, a) })
}

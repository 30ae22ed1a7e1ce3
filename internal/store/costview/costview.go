// Package costview ranks a family's instructions by LLVM's scheduling model:
// the rows behind "the slowest VALU instructions on gfx942" and "every
// instruction that uses the XDL unit", shared by the CLI and the web so both
// filter and sort the same way.
package costview

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Query selects and orders rows. Zero values mean "every unit", "the family's
// first target with a modelled cost" and "by name".
type Query struct {
	Target string
	Unit   string // HWXDL, XDL (the HW prefix may be left out), case-insensitive; matches any resource
	Sort   string // "name", "latency", "throughput", "uops", "work" (per cycle), "ops" (per instruction)
	// DType keeps the matrix instructions of one data type ("fp16"; "f16"
	// and "half" are read as that).
	DType string
	// Ascending puts the smallest first; numeric sorts are largest first
	// otherwise (the slowest instructions are the question).
	Ascending bool
	Limit     int
}

// Sorts are the orders a Query accepts.
var Sorts = []string{"name", "latency", "throughput", "uops", "work", "ops"}

// Row is one instruction's cost on the query's target; Work is set for
// matrix instructions.
type Row struct {
	Name    string
	Summary string
	Cost    isa.Cost
	Work    *Work
}

// Table is the result of a query over one family.
type Table struct {
	Arch    string
	Target  string
	Targets []string // targets with at least one modelled instruction, in the family's order
	Units   []string // units seen on Target, for a filter's choices
	DTypes  []string // data types of the matrix instructions on Target, in isa.DTypes order
	// HasWork: some row is a matrix instruction (the work columns apply).
	HasWork bool
	Rows    []Row
	Total   int // rows before Limit
}

// Normalize checks q and fills its defaults; errors name the bad field.
func (q Query) Normalize() (Query, error) {
	if q.Sort == "" {
		q.Sort = "name"
	}
	ok := false
	for _, s := range Sorts {
		ok = ok || s == q.Sort
	}
	if !ok {
		return q, fmt.Errorf("sort %q: want one of %s", q.Sort, strings.Join(Sorts, ", "))
	}
	q.Unit = strings.ToUpper(strings.TrimSpace(q.Unit))
	if q.Unit != "" && !strings.HasPrefix(q.Unit, "HW") {
		q.Unit = "HW" + q.Unit
	}
	if q.Limit < 0 {
		q.Limit = 0
	}
	if q.DType = strings.TrimSpace(q.DType); q.DType != "" {
		d, ok := isa.LookupDType(q.DType)
		if !ok {
			names := make([]string, len(isa.DTypes))
			for i, d := range isa.DTypes {
				names[i] = string(d)
			}
			return q, fmt.Errorf("data type %q: want one of %s", q.DType, strings.Join(names, ", "))
		}
		q.DType = string(d)
	}
	return q, nil
}

// Entry is what a cost table needs of one instruction: its name, summary
// and modelled cost per target.
type Entry struct {
	Name    string              `json:"name"`
	Summary string              `json:"summary,omitempty"`
	Cost    map[string]isa.Cost `json:"cost"`
}

// Entries keeps the instructions of ins that have a modelled cost.
func Entries(ins []*isa.Instruction) []Entry {
	out := []Entry{}
	for _, in := range ins {
		if len(in.Cost) > 0 {
			out = append(out, Entry{Name: in.Name, Summary: in.Summary, Cost: in.Cost})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ExtraKey names the build's stored entries of one family, so a table is
// ranked from one small document instead of every instruction's.
func ExtraKey(arch string) string { return "cost_table:" + arch }

// maxPacked bounds what Unpack inflates (a family's table is ~1 MB).
const maxPacked = 64 << 20

// Pack is the stored form of entries: gzip-compressed JSON.
func Pack(entries []Entry) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(entries); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unpack reads what Pack wrote.
func Unpack(b []byte) ([]Entry, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("cost table: %w", err)
	}
	var out []Entry
	if err := json.NewDecoder(io.LimitReader(zr, maxPacked)).Decode(&out); err != nil {
		return nil, fmt.Errorf("cost table: %w", err)
	}
	return out, nil
}

// ExtraReader is the part of a store Load reads.
type ExtraReader interface {
	Extra(ctx context.Context, key string) ([]byte, error)
}

// Load reads one family's entries as the build stored them.
func Load(ctx context.Context, r ExtraReader, arch string) ([]Entry, error) {
	b, err := r.Extra(ctx, ExtraKey(arch))
	if err != nil {
		return nil, fmt.Errorf("%s's cost table (rebuild the database with llvm-mca-22 installed): %w", arch, err)
	}
	return Unpack(b)
}

// Build ranks ins (one family's instructions) for q. The family's target list
// gives the default target and the order of Targets.
func Build(arch isa.Architecture, ins []Entry, q Query) (Table, error) {
	q, err := q.Normalize()
	if err != nil {
		return Table{}, err
	}
	t := Table{Arch: arch.ID, Target: q.Target, Rows: []Row{}, Targets: []string{}, Units: []string{}}
	seen := map[string]bool{}
	for _, in := range ins {
		for tg := range in.Cost {
			seen[tg] = true
		}
	}
	for _, tg := range arch.Targets {
		if seen[tg] {
			t.Targets = append(t.Targets, tg)
			delete(seen, tg)
		}
	}
	// Other families' targets (where an example also assembles) only when
	// none of the family's own has a modelled instruction: a ranking of
	// CDNA 3 is a question about CDNA 3's targets.
	if len(t.Targets) == 0 {
		for tg := range seen {
			t.Targets = append(t.Targets, tg)
		}
		sort.Strings(t.Targets)
	}
	if t.Target == "" {
		if len(t.Targets) == 0 {
			return t, nil
		}
		t.Target = t.Targets[0]
	} else if !slices.Contains(t.Targets, t.Target) {
		return t, fmt.Errorf("target %q: no modelled cost in %s (targets with one: %s)", t.Target, arch.ID, strings.Join(t.Targets, ", "))
	}
	t.Rows, t.Units, t.DTypes = selectRows(isa.ArchInfoFor(arch.ID), ins, t.Target, q)
	for _, r := range t.Rows {
		t.HasWork = t.HasWork || r.Work != nil
	}
	sortRows(t.Rows, q)
	t.Total = len(t.Rows)
	if q.Limit > 0 && len(t.Rows) > q.Limit {
		t.Rows = t.Rows[:q.Limit]
	}
	return t, nil
}

// selectRows keeps the entries with a cost on target that q's unit and data
// type select, and lists the units and data types seen on target.
func selectRows(a isa.ArchInfo, ins []Entry, target string, q Query) (rows []Row, units, dtypes []string) {
	rows = []Row{}
	seenUnits := map[string]bool{}
	seenTypes := map[isa.DType]bool{}
	for _, in := range ins {
		c, ok := in.Cost[target]
		if !ok {
			continue
		}
		for _, r := range c.Resources {
			seenUnits[r.Name] = true
		}
		if c.Unit != "" {
			seenUnits[c.Unit] = true
		}
		w, _ := WorkOf(a, in.Name, c)
		if w != nil {
			seenTypes[w.DType] = true
		}
		if q.Unit != "" && !uses(c, q.Unit) || q.DType != "" && (w == nil || string(w.DType) != q.DType) {
			continue
		}
		rows = append(rows, Row{Name: in.Name, Summary: in.Summary, Cost: c, Work: w})
	}
	units = []string{}
	for u := range seenUnits {
		units = append(units, u)
	}
	sort.Strings(units)
	dtypes = []string{}
	for _, d := range isa.DTypes {
		if seenTypes[d] {
			dtypes = append(dtypes, string(d))
		}
	}
	return rows, units, dtypes
}

// sortRows orders rows by q's key, the name breaking ties. Under the work
// sorts the rows without work (not matrix instructions, or no cycles) come
// last whichever the direction.
func sortRows(rows []Row, q Query) {
	key := func(r Row) (float64, bool) {
		switch q.Sort {
		case "latency":
			return float64(r.Cost.Latency), true
		case "throughput":
			return r.Cost.RThroughput, true
		case "uops":
			return float64(r.Cost.UOps), true
		case "work":
			if r.Work == nil || r.Work.PerCycleCU == 0 {
				return 0, false
			}
			return r.Work.PerCycleCU, true
		case "ops":
			if r.Work == nil {
				return 0, false
			}
			return float64(r.Work.Ops), true
		}
		return 0, true
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if q.Sort != "name" {
			ka, oka := key(a)
			kb, okb := key(b)
			if oka != okb {
				return oka
			}
			if ka != kb {
				if q.Ascending {
					return ka < kb
				}
				return ka > kb
			}
		}
		return a.Name < b.Name
	})
}

// Resources prints a cost's resources with their cycles: "HWXDL[8] HWVALU".
func Resources(c isa.Cost) string {
	var rs []string
	for _, r := range c.Resources {
		if r.Cycles > 0 {
			rs = append(rs, fmt.Sprintf("%s[%d]", r.Name, r.Cycles))
		} else {
			rs = append(rs, r.Name)
		}
	}
	return strings.Join(rs, " ")
}

// Flags names what the model says an instruction may do besides
// computing: "may load", "may store", "side effects".
func Flags(c isa.Cost) []string {
	var fl []string
	if c.MayLoad {
		fl = append(fl, "may load")
	}
	if c.MayStore {
		fl = append(fl, "may store")
	}
	if c.SideEffects {
		fl = append(fl, "side effects")
	}
	return fl
}

// uses reports whether c occupies unit, as its main unit or any resource.
func uses(c isa.Cost, unit string) bool {
	if strings.EqualFold(c.Unit, unit) {
		return true
	}
	for _, r := range c.Resources {
		if strings.EqualFold(r.Name, unit) {
			return true
		}
	}
	return false
}

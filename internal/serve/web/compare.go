package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// compareURL is the compare page of a mnemonic.
func compareURL(name string) string { return "/compare/" + url.PathEscape(name) }

type compareView struct {
	Name    string
	Columns []compareColumn
	Rows    []compareRow
	// Choices are every AMD family with the instruction, Checked the ones
	// compared; AllURL compares every one of them.
	Choices []compareChoice
	AllURL  string
	// Diffs link the family diff of each neighbouring pair of columns.
	Diffs []link
}

type compareChoice struct {
	ID, Name, Mnemonic string
	Checked            bool
}

type compareColumn struct {
	Arch, Name, URL string
}

type compareRow struct {
	Label  string
	Pre    bool
	Cells  []compareCell
	Differ bool
}

type compareCell struct {
	Text string
	Diff bool // differs from the most common value of the row
}

// handleCompare shows one instruction in the AMD families the reader
// picks (?f=rdna3&f=rdna4, or ?all=1), by default the newest family that
// has it and the one before it, oldest column first.
func (s *server) handleCompare(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	name := r.PathValue("name")
	type found struct{ arch, name string }
	var have []found // display order: newest first within a line
	for _, a := range s.archs {
		if a.Kind != isa.KindNative {
			continue
		}
		arch, canon, err := s.store.Resolve(ctx, a.ID, name)
		if err != nil {
			if errs.KindOf(err) == errs.KindNotFound {
				continue
			}
			s.storeError(w, r, err, compareURL)
			return
		}
		have = append(have, found{arch, canon})
	}
	if len(have) == 0 {
		v := notFoundView{Message: fmt.Sprintf("No AMD family has an instruction %q.", name)}
		if hits, err := s.store.Search(ctx, name, store.SearchOptions{Limit: 5}); err == nil {
			for _, h := range hits {
				if h.Arch != "ptx" {
					v.Suggestions = append(v.Suggestions, link{Text: h.Name, URL: compareURL(h.Name), Note: archName(h.Arch)})
				}
			}
		}
		s.render(w, r, http.StatusNotFound, "notfound", page{Title: "Not found", Data: v})
		return
	}
	q := r.URL.Query()
	picked := map[string]bool{}
	for _, f := range q["f"] {
		if a, err := s.lookupArch(ctx, f); err == nil {
			picked[a.ID] = true
		}
	}
	if q.Get("all") == "1" {
		for _, h := range have {
			picked[h.arch] = true
		}
	}
	hasArch := func(id string) bool {
		return slices.ContainsFunc(have, func(h found) bool { return h.arch == id })
	}
	if len(picked) == 0 {
		// The newest family and its predecessor in the same line, else
		// the next family that has it.
		picked[have[0].arch] = true
		if p := famdiff.Previous(have[0].arch); p != "" && hasArch(p) {
			picked[p] = true
		} else if len(have) > 1 {
			picked[have[1].arch] = true
		}
	}
	v := compareView{Name: strings.ToLower(name), AllURL: compareURL(name) + "?all=1"}
	var ins []*isa.Instruction
	for i := len(have) - 1; i >= 0; i-- { // oldest first, as a diff reads
		h := have[i]
		if !picked[h.arch] {
			continue
		}
		in, err := s.store.Instruction(ctx, h.arch, h.name)
		if err != nil {
			if errs.KindOf(err) == errs.KindNotFound { // resolved, yet no document
				continue
			}
			s.storeError(w, r, err, compareURL)
			return
		}
		ins = append(ins, in)
	}
	for _, h := range have {
		v.Choices = append(v.Choices, compareChoice{ID: h.arch, Name: archName(h.arch), Mnemonic: h.name, Checked: picked[h.arch]})
	}
	for i, in := range ins {
		v.Columns = append(v.Columns, compareColumn{Arch: archName(in.Arch), Name: in.Name, URL: instrURL(in.Arch, in.Name)})
		if i > 0 {
			prev := ins[i-1].Arch
			v.Diffs = append(v.Diffs, link{Text: archName(prev) + " → " + archName(in.Arch), URL: diffURL(prev, in.Arch)})
		}
	}
	row := func(label string, pre bool, f func(*isa.Instruction) string) {
		cr := compareRow{Label: label, Pre: pre}
		count := map[string]int{}
		var vals []string
		for _, in := range ins {
			t := f(in)
			vals = append(vals, t)
			count[t]++
		}
		common, best := "", -1
		for _, t := range vals { // first most common value, in column order
			if count[t] > best {
				common, best = t, count[t]
			}
		}
		for _, t := range vals {
			// With two columns neither is "the common value": both differ.
			diff := t != common || len(vals) == 2 && count[t] == 1
			cr.Cells = append(cr.Cells, compareCell{Text: t, Diff: diff})
			cr.Differ = cr.Differ || diff
		}
		v.Rows = append(v.Rows, cr)
	}
	row("Name", false, func(in *isa.Instruction) string { return in.Name })
	row("Category", false, func(in *isa.Instruction) string { return in.Category })
	row("Encodings and opcodes", false, func(in *isa.Instruction) string {
		var parts []string
		for _, e := range in.Encodings {
			parts = append(parts, fmt.Sprintf("%s %d (%d-bit)", e.Name, e.Opcode, e.Width))
		}
		return strings.Join(parts, "\n")
	})
	row("Identifiers", false, func(in *isa.Instruction) string {
		var parts []string
		for _, e := range in.Encodings {
			if e.Identifier != "" {
				parts = append(parts, e.Name+" "+e.Identifier)
			}
		}
		return strings.Join(parts, "\n")
	})
	row("Operands", false, func(in *isa.Instruction) string {
		var parts []string
		for _, o := range in.Operands {
			parts = append(parts, strings.TrimSpace(o.Name+" "+o.DataFormat+" "+o.OperandType))
		}
		return strings.Join(parts, "\n")
	})
	row("Semantics", true, func(in *isa.Instruction) string { return in.Semantics })
	s.render(w, r, http.StatusOK, "compare", page{Title: "Compare " + v.Name, Description: "One instruction across the AMD families you pick.", Data: v})
}

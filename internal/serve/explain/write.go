package explain

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/listing"
)

// ModelLabel is said wherever the cost estimate is shown.
const ModelLabel = "model estimate (LLVM's scheduling model), not a measurement"

// LineText is the comment written after an instruction:
// "VALU · vmcnt · gfx942 ok · max (PTX, equivalent) · summary".
func (x *Explanation) LineText(ln Line) string {
	if ln.Name == "" {
		return ""
	}
	var parts []string
	u := ln.Unit
	if len(ln.Counters) > 0 {
		u += " +" + strings.Join(ln.Counters, " +")
	}
	if u != "" {
		parts = append(parts, u)
	}
	if x.Target != "" {
		switch ln.Verdict {
		case "supported":
		case "unsupported":
			parts = append(parts, "NOT on "+x.Target)
		default:
			if ln.Known {
				parts = append(parts, "not verified on "+x.Target)
			}
		}
	}
	for _, t := range x.Also {
		switch ln.Also[t] {
		case "unsupported":
			parts = append(parts, "NOT on "+t)
		case "":
			parts = append(parts, "not verified on "+t)
		}
	}
	if !ln.Known {
		parts = append(parts, "not in the "+x.Listing.Arch+" reference")
	}
	if ln.Counterpart != "" {
		parts = append(parts, ln.Counterpart)
	}
	if ln.Summary != "" {
		parts = append(parts, Shorten(ln.Summary, 64))
	}
	return strings.Join(parts, " · ")
}

// Shorten cuts s at a word boundary to at most n bytes, with "…".
func Shorten(s string, n int) string {
	s = strings.TrimSuffix(s, ".")
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// WriteText writes the annotated listing and the kernel summaries.
func WriteText(w io.Writer, x *Explanation, fields bool) error {
	byEntry := map[*listing.Entry]Line{}
	for si := range x.Listing.Sections {
		for i := range x.Listing.Sections[si].Entries {
			byEntry[&x.Listing.Sections[si].Entries[i]] = x.Lines[si][i]
		}
	}
	annotate := func(e *listing.Entry) string { return x.LineText(byEntry[e]) }
	if err := listing.WriteText(w, x.Listing, listing.WriteOptions{Fields: fields, Annotate: annotate}); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, k := range x.Kernels {
		writeKernel(bw, x, &k)
	}
	return bw.Flush()
}

func writeKernel(w *bufio.Writer, x *Explanation, k *Kernel) {
	fmt.Fprintf(w, "\n// kernel %s: %s", k.Name, instructions(k.Instructions, ""))
	if k.Descriptor != "" {
		fmt.Fprintf(w, "; %s", k.Descriptor)
	}
	fmt.Fprintln(w)
	if len(k.ByUnit) > 0 {
		fmt.Fprintf(w, "//   by unit: %s\n", CountsText(k.ByUnit))
	}
	if len(k.Matrix) > 0 {
		fmt.Fprintf(w, "//   matrix instructions: %s\n", CountsText(k.Matrix))
	}
	if len(k.Counters) > 0 {
		fmt.Fprintf(w, "//   wait counters incremented: %s\n", CountsText(k.Counters))
	}
	targets := []string{}
	if x.Target != "" {
		targets = append(targets, x.Target)
	}
	targets = append(targets, x.Also...)
	for _, t := range targets {
		if u := k.Unsupported[t]; len(u) > 0 {
			n := 0
			for _, c := range u {
				n += c
			}
			fmt.Fprintf(w, "//   not supported on %s (llvm-mc): %s: %s\n", t, instructions(n, ""), CountsText(u))
		} else {
			fmt.Fprintf(w, "//   every instruction llvm-mc verified assembles on %s\n", t)
		}
	}
	if k.Padding > 0 {
		fmt.Fprintf(w, "//   and %d padding words after it (not counted)\n", k.Padding)
	}
	if k.NotVerified > 0 {
		fmt.Fprintf(w, "//   %s no llvm-mc verdict on %s\n", instructions(k.NotVerified, "have"), x.Target)
	}
	if k.Unknown > 0 {
		fmt.Fprintf(w, "//   %s not in the %s reference\n", instructions(k.Unknown, "are"), x.Listing.Arch)
	}
	c := &k.Cost
	switch {
	case c.Target == "":
		fmt.Fprintf(w, "//   cost: no target known, so no %s\n", ModelLabel)
	case c.Modelled == 0:
		fmt.Fprintf(w, "//   cost on %s: no instruction has a modelled cost (%s)\n", c.Target, ModelLabel)
	default:
		fmt.Fprintf(w, "//   cost on %s, %s:\n", c.Target, ModelLabel)
		fmt.Fprintf(w, "//     latency by unit: %s (sum %d cycles, no overlap assumed)\n", CountsText(c.Latency), c.Total)
		fmt.Fprintf(w, "//     mix: %s\n", MixText(c.Mix))
		if c.Unmodelled > 0 {
			names := c.UnmodelledNames
			if len(names) > 8 {
				names = append(names[:8:8], fmt.Sprintf("and %d more", len(c.UnmodelledNames)-8))
			}
			fmt.Fprintf(w, "//     %s no modelled cost: %s\n", instructions(c.Unmodelled, "have"), strings.Join(names, ", "))
		}
	}
}

// MixText writes the share of the units that matter for throughput first
// (XDL, VALU, VMEM), then the rest.
func MixText(mix map[string]float64) string {
	order := []string{"HWXDL", "HWVALU", "HWTransVALU", "HWVMEM", "HWLGKM", "HWRC", "HWSALU", "HWBranch"}
	seen := map[string]bool{}
	var parts []string
	for _, u := range order {
		if v, ok := mix[u]; ok {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", strings.TrimPrefix(u, "HW"), v))
			seen[u] = true
		} else if u == "HWXDL" || u == "HWVALU" || u == "HWVMEM" {
			parts = append(parts, strings.TrimPrefix(u, "HW")+" 0%")
		}
	}
	var rest []string
	for u := range mix {
		if !seen[u] {
			rest = append(rest, u)
		}
	}
	sort.Strings(rest)
	for _, u := range rest {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", strings.TrimPrefix(u, "HW"), mix[u]))
	}
	return strings.Join(parts, ", ")
}

// JSON is `gpuisa explain --json`: the listing's JSON with a note per
// instruction and the kernel summaries.
type JSON struct {
	listing.JSON
	Notes     []Line   `json:"notes"` // one per instruction, in order
	Kernels   []Kernel `json:"kernels"`
	Also      []string `json:"also"`
	CostLabel string   `json:"cost_label"`
}

// ToJSON builds the JSON document.
func (x *Explanation) ToJSON() JSON {
	doc := JSON{JSON: x.Listing.ToJSON(), Notes: []Line{}, Kernels: x.Kernels, Also: append([]string{}, x.Also...), CostLabel: ModelLabel}
	for si := range x.Listing.Sections {
		for i, e := range x.Listing.Sections[si].Entries {
			if e.Err() != "" && e.How != listing.FromTextAlone {
				continue
			}
			doc.Notes = append(doc.Notes, x.Lines[si][i])
		}
	}
	if doc.Kernels == nil {
		doc.Kernels = []Kernel{}
	}
	return doc
}

// WriteJSON writes the JSON document.
func WriteJSON(w io.Writer, x *Explanation) error { return writeJSON(w, x.ToJSON()) }

// writeJSON writes v indented, buffered, with <, > and & as they are.
func writeJSON(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return bw.Flush()
}

// instructions writes "1 instruction has", "2 instructions have" (verb
// "have" or "are"; "" for the noun alone).
func instructions(n int, verb string) string {
	out := fmt.Sprintf("%d instructions", n)
	if n == 1 {
		out = "1 instruction"
		switch verb {
		case "have":
			verb = "has"
		case "are":
			verb = "is"
		}
	}
	if verb != "" {
		out += " " + verb
	}
	return out
}

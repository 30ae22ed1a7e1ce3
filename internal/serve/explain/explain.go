// Package explain annotates a listing (package listing) line by line: what
// each instruction does (the guide's summary), the unit that executes it,
// the wait counter it increments, whether the file's target (and any other
// target asked about) assembles it, and its counterpart in the other
// vendor's ISA; and per kernel, the instruction mix, the matrix
// instructions used and a cost estimate from LLVM's scheduling model. It
// also explains PTX files with the checker's version/target per line and
// the concept catalogue's AMD counterparts (ptx.go).
package explain

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/codec"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Line is what is said about one entry of a listing.
type Line struct {
	Name    string `json:"name,omitempty"` // the model's mnemonic
	Summary string `json:"summary,omitempty"`
	Unit    string `json:"unit,omitempty"` // VALU, SALU, VMEM, SMEM, LDS, FLAT, XDL, WMMA, ...
	// Counters are the wait counters the instruction increments on this
	// family (vmcnt, lgkmcnt, expcnt, vscnt; loadcnt, storecnt, dscnt,
	// kmcnt, samplecnt, bvhcnt on gfx12).
	Counters []string `json:"counters,omitempty"`
	// Verdict is llvm-mc's answer on the file's target: "supported",
	// "unsupported" or "" (not verified or no target).
	Verdict string `json:"verdict,omitempty"`
	// Also are the verdicts on the other targets asked about.
	Also        map[string]string `json:"also,omitempty"`
	Counterpart string            `json:"counterpart,omitempty"` // "max (PTX, equivalent with restrictions)"
	Cost        *isa.Cost         `json:"cost,omitempty"`        // LLVM's model on the file's target
	Page        string            `json:"page,omitempty"`        // /amdgpu/ARCH/NAME
	Known       bool              `json:"known"`                 // the model has the instruction
}

// Options of an explanation.
type Options struct {
	Also []string // other gfx targets to check every instruction against
}

// Explanation is a listing with a Line per entry and a summary per kernel.
type Explanation struct {
	Listing *listing.Listing
	Target  string // the target verdicts are given for ("" when the listing has none)
	Lines   [][]Line
	Kernels []Kernel
	Also    []string
}

// Explain annotates l with the family's notes.
func Explain(l *listing.Listing, ns *codec.Notes, o Options) *Explanation {
	x := &Explanation{Listing: l, Target: l.Target, Also: o.Also}
	r := rules(l.Arch)
	for si := range l.Sections {
		s := &l.Sections[si]
		lines := make([]Line, len(s.Entries))
		for i := range s.Entries {
			lines[i] = explainEntry(&s.Entries[i], l.Arch, x.Target, ns, r, o.Also)
		}
		x.Lines = append(x.Lines, lines)
		x.Kernels = append(x.Kernels, kernels(s, lines, x.Target, o.Also)...)
	}
	return x
}

func explainEntry(e *listing.Entry, arch, target string, ns *codec.Notes, r counterRules, also []string) Line {
	var ln Line
	if e.Err() != "" && e.How != listing.FromTextAlone {
		return ln
	}
	name := e.Name
	if name == "" {
		name, _, _ = strings.Cut(e.Text, " ")
	}
	n, ok := ns.Lookup(name)
	format := ""
	if e.Inst != nil {
		format = e.Inst.Encoding
	}
	if ok {
		ln.Known = true
		ln.Name, ln.Summary = n.Name, n.Summary
		ln.Page = "/amdgpu/" + arch + "/" + n.Name
		if target != "" {
			ln.Verdict = ns.Verdict(n, target)
			if c, ok := n.CostOn(target); ok {
				ln.Cost = &c
			}
		}
		for _, t := range also {
			if ln.Also == nil {
				ln.Also = map[string]string{}
			}
			ln.Also[t] = ns.Verdict(n, t)
		}
		ln.Counterpart = counterpartText(n)
	} else {
		ln.Name = strings.ToLower(name)
	}
	mods := []string(nil)
	if e.Inst != nil {
		mods = e.Inst.Modifiers
	}
	ln.Unit = unitOf(ln.Name, format, ln.Cost, n)
	ln.Counters = r.counters(ln.Name, format, mods)
	return ln
}

// relationRank orders the catalogue's relations, closest first.
var relationRank = map[string]int{"equivalent": 0, "equivalent with restrictions": 1, "partial": 2, "sequence": 3}

// counterpartText names the PTX members of the concept that best fits the
// instruction: the one whose name the guide's summary says most of
// ("shift-left" for "calculate the logical shift left", not the bf16
// conversion v_lshlrev_b32 also serves), then the closest relation.
func counterpartText(n *codec.Note) string {
	cs := append([]codec.Counterpart(nil), n.Counterparts...)
	summary := strings.ToLower(n.Summary)
	fit := func(c codec.Counterpart) int {
		k := 0
		for _, w := range strings.Split(c.Concept, "-") {
			if len(w) > 2 && strings.Contains(summary, w) {
				k++
			}
		}
		return k
	}
	rank := func(c codec.Counterpart) int {
		if r, ok := relationRank[c.Relation]; ok {
			return r
		}
		return len(relationRank)
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if fi, fj := fit(cs[i]), fit(cs[j]); fi != fj {
			return fi > fj
		}
		return rank(cs[i]) < rank(cs[j])
	})
	for _, c := range cs {
		var names []string
		for _, m := range c.Members {
			if m.Arch == "ptx" {
				names = append(names, m.Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		if len(names) > 3 {
			names = append(names[:3], "...")
		}
		return strings.Join(names, ", ") + " (PTX, " + c.Relation + ")"
	}
	return ""
}

// unitOf names the unit that executes an instruction: the matrix cores
// for MFMA and WMMA, the memory path by encoding (LDS, SMEM, VMEM, FLAT),
// else LLVM's scheduling-model unit on the target (HWVALU is VALU,
// HWTransVALU TRANS, HWSALU SALU, HWBranch Branch), else the guide's unit.
func unitOf(name, format string, c *isa.Cost, n *codec.Note) string {
	switch isa.MatrixKindOf(name) {
	case isa.MatrixXDL:
		return "XDL"
	case isa.MatrixWMMA:
		return "WMMA"
	}
	switch k := formatKind(format, name); k {
	case "":
	default:
		return k
	}
	if c != nil {
		u := c.Unit
		if i := strings.IndexByte(u, '['); i >= 0 {
			u = u[:i]
		}
		switch u {
		case "HWVALU":
			return "VALU"
		case "HWTransVALU":
			return "TRANS"
		case "HWSALU":
			return "SALU"
		case "HWBranch":
			return "Branch"
		case "HWXDL":
			return "XDL"
		case "HWVMEM":
			return "VMEM"
		}
	}
	if strings.HasPrefix(name, "s_cbranch") || strings.HasPrefix(name, "s_branch") {
		return "Branch"
	}
	if strings.HasPrefix(name, "v_") {
		return "VALU"
	}
	if strings.HasPrefix(name, "s_") {
		return "SALU"
	}
	if n != nil && n.Unit != "" {
		return n.Unit
	}
	return ""
}

// formatKind names the memory and export paths by encoding (or, for a
// line recognised by name only, by mnemonic).
func formatKind(format, name string) string {
	f := strings.ToUpper(format)
	mem := isa.MemoryKindOf(f)
	switch {
	case mem == isa.ScalarMemory || f == "" && strings.HasPrefix(name, "s_load") || strings.HasPrefix(name, "s_buffer_load"):
		return "SMEM"
	case mem == isa.DataShare || f == "" && strings.HasPrefix(name, "ds_"):
		if strings.HasPrefix(name, "ds_gws_") {
			return "GDS"
		}
		if strings.HasPrefix(name, "ds_param_load") || strings.HasPrefix(name, "ds_direct_load") {
			return "LDS param"
		}
		return "LDS"
	case mem == isa.LDSDirect:
		return "LDS param"
	case mem == isa.ExportPath || strings.HasPrefix(name, "exp ") || name == "exp" || name == "export":
		return "EXP"
	case strings.HasPrefix(name, "flat_"):
		return "FLAT"
	case mem == isa.FlatMemory || mem == isa.BufferMemory || mem == isa.ImageMemory:
		return "VMEM"
	case f == "" && (strings.HasPrefix(name, "global_") || strings.HasPrefix(name, "scratch_") || strings.HasPrefix(name, "buffer_") ||
		strings.HasPrefix(name, "tbuffer_") || strings.HasPrefix(name, "image_")):
		return "VMEM"
	}
	return ""
}

// Kernel is the summary of one kernel (or of the whole listing when it
// names none).
type Kernel struct {
	Name         string         `json:"name"`
	Instructions int            `json:"instructions"`
	ByUnit       map[string]int `json:"by_unit"`
	Counters     map[string]int `json:"counters"`
	// Matrix counts the MFMA / WMMA instructions used, by mnemonic.
	Matrix map[string]int `json:"matrix"`
	// Unsupported lists, per target (the file's and --also ones), the
	// instructions llvm-mc rejects there, with counts.
	Unsupported map[string]map[string]int `json:"unsupported"`
	// NotVerified counts instructions without a verdict on the file's target.
	NotVerified int `json:"not_verified"`
	// Padding counts the alignment words after the kernel (s_code_end,
	// s_nop 0), left out of every other count.
	Padding    int    `json:"padding"`
	Unknown    int    `json:"unknown"` // not in the model
	Cost       Cost   `json:"cost"`
	Descriptor string `json:"descriptor,omitempty"`
}

// Cost is the kernel's estimate from LLVM's scheduling model: a model,
// not a measurement.
type Cost struct {
	Target string `json:"target,omitempty"`
	// Latency sums the modelled latencies by the model's unit (HWVALU,
	// HWXDL, HWVMEM, HWLGKM, HWSALU, HWBranch, ...), in cycles.
	Latency map[string]int `json:"latency_by_unit"`
	Total   int            `json:"latency_total"`
	// Mix is the share of modelled instructions per unit, in percent.
	Mix        map[string]float64 `json:"mix"`
	Modelled   int                `json:"modelled"`
	Unmodelled int                `json:"unmodelled"`
	// UnmodelledNames are the mnemonics without a modelled cost.
	UnmodelledNames []string `json:"unmodelled_names"`
}

// kernels groups a section's entries by kernel: from each function symbol
// to the next; entries before the first, or a section without symbols,
// form one group named after the section.
func kernels(s *listing.Section, lines []Line, target string, also []string) []Kernel {
	var out []Kernel
	var cur *Kernel
	unmodelled := map[*Kernel]map[string]bool{}
	start := func(name string) {
		out = append(out, Kernel{Name: name, ByUnit: map[string]int{}, Counters: map[string]int{}, Matrix: map[string]int{},
			Unsupported: map[string]map[string]int{}, Cost: Cost{Target: target, Latency: map[string]int{}, Mix: map[string]float64{}, UnmodelledNames: []string{}}})
		cur = &out[len(out)-1]
	}
	desc := map[string]string{}
	for i := range s.Kernels {
		desc[s.Kernels[i].Name] = listing.KernelText(&s.Kernels[i], target)
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Func && len(e.Labels()) > 0 {
			start(e.Labels()[0])
			cur.Descriptor = desc[e.Labels()[0]]
		}
		if cur == nil {
			name := s.Name
			if name == "" {
				name = "listing"
			}
			start(name)
		}
		ln := lines[i]
		if e.Err() != "" && e.How != listing.FromTextAlone {
			continue
		}
		if e.Padding {
			cur.Padding += e.Repeat
			continue
		}
		n := e.Repeat
		cur.Instructions += n
		if ln.Unit != "" {
			cur.ByUnit[ln.Unit] += n
		}
		for _, c := range ln.Counters {
			cur.Counters[c] += n
		}
		if ln.Unit == "XDL" || ln.Unit == "WMMA" {
			cur.Matrix[ln.Name] += n
		}
		if !ln.Known {
			cur.Unknown += n
		}
		verdicts := map[string]string{}
		if target != "" {
			verdicts[target] = ln.Verdict
			if ln.Verdict == "" && ln.Known {
				cur.NotVerified += n
			}
		}
		for t, v := range ln.Also {
			verdicts[t] = v
		}
		for t, v := range verdicts {
			if v == "unsupported" {
				if cur.Unsupported[t] == nil {
					cur.Unsupported[t] = map[string]int{}
				}
				cur.Unsupported[t][ln.Name] += n
			}
		}
		if ln.Cost != nil {
			u := ln.Cost.Unit
			if j := strings.IndexByte(u, '['); j >= 0 {
				u = u[:j]
			}
			cur.Cost.Latency[u] += ln.Cost.Latency * n
			cur.Cost.Total += ln.Cost.Latency * n
			cur.Cost.Modelled += n
			cur.Cost.Mix[u] += float64(n)
		} else {
			cur.Cost.Unmodelled += n
			if unmodelled[cur] == nil {
				unmodelled[cur] = map[string]bool{}
			}
			if ln.Name != "" && !unmodelled[cur][ln.Name] {
				unmodelled[cur][ln.Name] = true
				cur.Cost.UnmodelledNames = append(cur.Cost.UnmodelledNames, ln.Name)
			}
		}
	}
	for i := range out {
		c := &out[i].Cost
		for u, v := range c.Mix {
			c.Mix[u] = 100 * v / float64(max(c.Modelled, 1))
		}
		sort.Strings(c.UnmodelledNames)
	}
	return out
}

// CountsText writes counts "VALU 38, SALU 9", largest first.
func CountsText(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var xs []kv
	for k, v := range m {
		xs = append(xs, kv{k, v})
	}
	sort.Slice(xs, func(i, j int) bool {
		if xs[i].v != xs[j].v {
			return xs[i].v > xs[j].v
		}
		return xs[i].k < xs[j].k
	})
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%s %d", x.k, x.v)
	}
	return strings.Join(parts, ", ")
}

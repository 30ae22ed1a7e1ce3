// Package amdgpuusage reads LLVM's AMDGPU usage document (AMDGPUUsage.rst,
// installed by the llvm-NN-doc package as html/_sources/AMDGPUUsage.rst.txt)
// for its two processor tables: every gfx target with its alternative
// names, features and example products (gfx942 is "AMD Instinct MI300X"),
// and the generic targets with their member targets and what they exclude.
// The tables are reStructuredText simple tables: a border of "=" runs
// gives the columns, and a row begins where the first column has text.
package amdgpuusage

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// File is the document's path under LLVM's html documentation folder.
const File = "_sources/AMDGPUUsage.rst.txt"

// Processor is one row of the processor table.
type Processor struct {
	Name         string   // "gfx942", "r600"
	Alternatives []string // "tahiti"
	Triple       string   // "amdgcn"
	Kind         string   // "dGPU" | "APU"
	Generation   string   // the heading above the row: "GCN GFX11 (RDNA 3)"
	Features     []string // "xnack", "sramecc", "kernarg preload (except MI210)"
	Products     []string // "AMD Instinct MI300X"
	Line         int
}

// Generic is one row of the generic processor table.
type Generic struct {
	Name     string   // "gfx11-generic"
	Members  []string // "gfx1100", ...
	Features []string
	// Restrictions are the table's sentences, lists folded in: "The
	// following instructions are not available on gfx906: v_fmac_f32,
	// v_xnor_b32, ..." ("No restrictions." is none).
	Restrictions []string
	// Excluded are the instructions (or instruction name prefixes, as
	// written: v_mad_mix) a restriction names, per target.
	Excluded map[string][]string
	Line     int
}

// Read reads the document from LLVM's html documentation folder.
func Read(docDir string) ([]Processor, []Generic, error) {
	path := filepath.Join(docDir, File)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	procs, gens, err := Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return procs, gens, nil
}

// maxInput bounds what Parse reads; the real document is about 1 MB.
const maxInput = 16 << 20

// Parse reads both tables from the document's text.
func Parse(data []byte) ([]Processor, []Generic, error) {
	if len(data) > maxInput {
		return nil, nil, fmt.Errorf("document larger than %d bytes", maxInput)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	procRows, procLine, ok := table(lines, ":name: amdgpu-processor-table")
	if !ok {
		return nil, nil, fmt.Errorf("no processor table (:name: amdgpu-processor-table)")
	}
	var procs []Processor
	for _, r := range procRows {
		if r.heading != "" {
			continue
		}
		p := Processor{Name: code(first(r.cells[0])), Alternatives: codes(items(col(r, 1))), Triple: code(first(col(r, 2))),
			Kind: first(col(r, 3)), Generation: r.generation, Features: items(col(r, 4)), Products: products(col(r, 7)), Line: procLine + r.line}
		if p.Name == `\` && len(procs) > 0 {
			// "\" continues the row above: more alternative names of one
			// processor (gfx803 is fiji, polaris10, polaris11).
			prev := &procs[len(procs)-1]
			prev.Alternatives = appendNew(prev.Alternatives, p.Alternatives...)
			prev.Products = appendNew(prev.Products, p.Products...)
			continue
		}
		if p.Name == "" {
			continue
		}
		procs = append(procs, p)
	}
	genRows, genLine, ok := table(lines, ":name: amdgpu-generic-processor-table")
	var gens []Generic
	if ok {
		for _, r := range genRows {
			if r.heading != "" {
				continue
			}
			g := Generic{Name: code(first(r.cells[0])), Members: codes(items(col(r, 2))), Features: items(col(r, 3)), Line: genLine + r.line}
			if g.Name == "" {
				continue
			}
			g.Restrictions, g.Excluded = restrictions(col(r, 5))
			gens = append(gens, g)
		}
	}
	return procs, gens, nil
}

// row is one table row: each column's lines, or a heading row.
type row struct {
	cells      [][]string
	heading    string
	generation string
	line       int // offset of its first line from the table's name line
}

func col(r row, i int) []string {
	if i < len(r.cells) {
		return r.cells[i]
	}
	return nil
}

// simpleTable finds the reStructuredText simple table after the line
// holding name: start is that line's index; the header lies between
// borders[0] and borders[1], the body between borders[1] and borders[2].
func simpleTable(lines []string, name string) (start int, borders [3]int, ok bool) {
	start = slices.IndexFunc(lines, func(l string) bool { return strings.TrimSpace(l) == name })
	if start < 0 {
		return 0, borders, false
	}
	n := 0
	for i := start; i < len(lines) && n < len(borders); i++ {
		if isTableBorder(lines[i]) {
			borders[n] = i
			n++
		}
	}
	return start, borders, n == len(borders)
}

// isTableBorder: runs of '=' separated by spaces, at least two columns.
func isTableBorder(l string) bool {
	f := strings.Fields(l)
	if len(f) < 2 {
		return false
	}
	for _, w := range f {
		if strings.Trim(w, "=") != "" {
			return false
		}
	}
	return true
}

// table finds the table after the line holding name and splits its body
// (between the second and third borders) into rows.
func table(lines []string, name string) ([]row, int, bool) {
	start, borders, ok := simpleTable(lines, name)
	if !ok {
		return nil, 0, false
	}
	cols := columns(lines[borders[0]])
	var rows []row
	generation := ""
	for i := borders[1] + 1; i < borders[2]; i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "**") {
			if end := strings.Index(t[2:], "**"); end >= 0 {
				generation = t[2 : 2+end]
				rows = append(rows, row{heading: generation, line: i - start})
			}
			continue
		}
		if strings.HasPrefix(t, "---") {
			continue
		}
		cells := split(l, cols)
		if strings.TrimSpace(cells[0]) != "" || len(rows) == 0 || rows[len(rows)-1].heading != "" {
			if strings.TrimSpace(cells[0]) == "" && t == "" {
				continue
			}
			rows = append(rows, row{cells: make([][]string, len(cols)), generation: generation, line: i - start})
		}
		r := &rows[len(rows)-1]
		for c := range cols {
			r.cells[c] = append(r.cells[c], strings.TrimRight(cells[c], " "))
		}
	}
	return rows, start + 1, true
}

// columns returns the start of each "=" run of a border line.
func columns(b string) []int {
	var out []int
	for i := 0; i < len(b); i++ {
		if b[i] == '=' && (i == 0 || b[i-1] == ' ') {
			out = append(out, i)
		}
	}
	return out
}

// split cuts a line at the column starts; the last column takes the rest.
func split(l string, cols []int) []string {
	out := make([]string, len(cols))
	for c, s := range cols {
		if s >= len(l) {
			break
		}
		e := len(l)
		if c+1 < len(cols) && cols[c+1] < e {
			e = cols[c+1]
		}
		out[c] = l[s:e]
	}
	return out
}

// first returns the first non-blank line of a cell, trimmed.
func first(cell []string) string {
	for _, l := range cell {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// items returns a cell's "- " list items, continuation lines joined; a
// cell without a list is one item.
func items(cell []string) []string {
	var out []string
	for _, l := range cell {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
		case strings.HasPrefix(t, "- "):
			out = append(out, strings.TrimSpace(t[2:]))
		case len(out) > 0:
			out[len(out)-1] += " " + t
		default:
			out = append(out, t)
		}
	}
	return out
}

// products reads the Example Products cell, leaving out the placeholders
// ("*TBA*", ".. TODO:: Add product names.").
func products(cell []string) []string {
	var keep []string
	for _, l := range cell {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "..") {
			break
		}
		if t == "*TBA*" {
			continue
		}
		keep = append(keep, l)
	}
	out := []string{}
	for _, it := range items(keep) {
		if it = strings.Trim(it, "* "); it != "" {
			out = append(out, it)
		}
	}
	return out
}

var codeSpan = regexp.MustCompile("``([^`]+)``")

// code strips reStructuredText's inline code marks.
func code(s string) string { return codeSpan.ReplaceAllString(s, "$1") }

func codes(ss []string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		out = append(out, code(s))
	}
	return out
}

func appendNew(list []string, more ...string) []string {
	for _, m := range more {
		found := false
		for _, l := range list {
			found = found || l == m
		}
		if !found {
			list = append(list, m)
		}
	}
	return list
}

var gfxName = regexp.MustCompile(`^gfx[0-9a-f]+$`)

// restrictions folds the Target Restrictions cell into sentences: a
// top-level bullet or a paragraph begins one, a list under a sentence
// ending in ":" becomes its tail. It also returns the instructions the
// sentences name as unavailable, per target.
func restrictions(cell []string) ([]string, map[string][]string) {
	type block struct {
		text string
		list []string
	}
	var blocks []*block
	blank := true
	base := -1
	for _, l := range cell {
		t := strings.TrimSpace(l)
		if t == "" {
			blank = true
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		if base < 0 || ind < base {
			base = ind
		}
		ind -= base
		cur := (*block)(nil)
		if len(blocks) > 0 {
			cur = blocks[len(blocks)-1]
		}
		switch bullet := strings.HasPrefix(t, "- "); {
		case bullet && cur != nil && (ind > 0 || strings.HasSuffix(cur.text, ":")) && len(cur.text) > 0:
			cur.list = append(cur.list, strings.TrimSpace(t[2:]))
		case bullet:
			blocks = append(blocks, &block{text: strings.TrimSpace(t[2:])})
		case cur != nil && !blank && len(cur.list) > 0:
			cur.list[len(cur.list)-1] += " " + t
		case cur != nil && !blank:
			cur.text += " " + t
		default:
			blocks = append(blocks, &block{text: t})
		}
		blank = false
	}
	var out []string
	excluded := map[string][]string{}
	for _, b := range blocks {
		s := code(b.text)
		if len(b.list) > 0 {
			if !strings.HasSuffix(s, ":") {
				s += ":"
			}
			s += " " + strings.Join(codes(b.list), ", ")
		}
		if strings.EqualFold(strings.TrimSpace(s), "No restrictions.") {
			continue
		}
		out = append(out, s)
		// "X instructions are not available on T..." and "The following
		// instructions are not available on T: X, Y".
		head, tail, ok := strings.Cut(b.text, "not available on")
		if !ok || !strings.Contains(head, "instructions") {
			continue
		}
		var names, targets []string
		for _, m := range codeSpan.FindAllStringSubmatch(head, -1) {
			names = append(names, m[1])
		}
		for _, m := range codeSpan.FindAllStringSubmatch(tail, -1) {
			if gfxName.MatchString(m[1]) {
				targets = append(targets, m[1])
			}
		}
		for _, it := range codes(b.list) {
			if gfxName.MatchString(it) {
				targets = append(targets, it)
			} else if !strings.Contains(it, " ") {
				names = append(names, it)
			}
		}
		if len(names) == 0 {
			continue // a class of instructions ("SALU floating point"), kept as the sentence
		}
		for _, t := range targets {
			excluded[t] = appendNew(excluded[t], names...)
		}
	}
	return out, excluded
}

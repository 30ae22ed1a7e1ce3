// Package amdgpuusage reads LLVM's AMDGPU usage document (AMDGPUUsage.rst,
// installed by the llvm-NN-doc package as html/_sources/AMDGPUUsage.rst.txt).
// This file reads its ELF header tables: the EF_AMDGPU_MACH values that name
// the gfx target a code object was compiled for, and the e_flags feature
// bits (xnack, sramecc) of code object V4 and later.
package amdgpuusage

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// UsageFile is the document's path under LLVM's html documentation folder.
const UsageFile = "_sources/AMDGPUUsage.rst.txt"

// Machine is one row of the "AMDGPU EF_AMDGPU_MACH Values" table.
type Machine struct {
	Name   string // "EF_AMDGPU_MACH_AMDGCN_GFX942"
	Value  uint32 // 0x04c
	Target string // "gfx942"; generic targets too ("gfx11-generic")
	Line   int    // line of the row in the document
}

// Flag is one row of the e_flags table of code object V4 and later: a mask
// (EF_AMDGPU_MACH 0x0ff, EF_AMDGPU_FEATURE_XNACK_V4 0x300) or one of a
// mask's values (EF_AMDGPU_FEATURE_XNACK_ON_V4 0x300).
type Flag struct {
	Name  string
	Value uint32
	Text  string // the first line of its description: "XNACK enabled."
	Line  int
}

// Header is what a code object's e_flags mean, as the document defines them.
type Header struct {
	Machines []Machine
	Flags    []Flag
	// Prov: the document's path as read (for provenance).
	File string
}

// ReadHeader reads the ELF header tables from LLVM's html documentation folder.
func ReadHeader(docDir string) (Header, error) {
	path := filepath.Join(docDir, UsageFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return Header{}, err
	}
	h, err := ParseHeader(data)
	if err != nil {
		return Header{}, fmt.Errorf("%s: %w", path, err)
	}
	h.File = path
	return h, nil
}

// maxUsageInput bounds what ParseHeader reads; the real document is about 1 MB.
const maxUsageInput = 16 << 20

// usageRow is a simple-table row that starts with a “NAME“ and a hex value.
var usageRow = regexp.MustCompile("^\\s*``([A-Z0-9_]+)``\\s+(0x[0-9a-fA-F]+)\\s*(.*)$")

// targetCell is the description column of a machine row: “gfx942“ (a
// trailing period in some rows).
var targetCell = regexp.MustCompile("^``([a-z0-9-]+)``")

// ParseHeader reads the EF_AMDGPU_MACH table and the newest e_flags table.
func ParseHeader(data []byte) (Header, error) {
	if len(data) > maxUsageInput {
		return Header{}, fmt.Errorf("document larger than %d bytes", maxUsageInput)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var h Header
	rows, ok := simpleTableRows(lines, ":name: amdgpu-ef-amdgpu-mach-table")
	if !ok {
		return h, fmt.Errorf("no EF_AMDGPU_MACH table (:name: amdgpu-ef-amdgpu-mach-table)")
	}
	for _, i := range rows {
		m := usageRow.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		v, err := strconv.ParseUint(m[2], 0, 32)
		if err != nil {
			continue
		}
		t := targetCell.FindStringSubmatch(strings.TrimSpace(m[3]))
		if t == nil {
			continue // EF_AMDGPU_MACH_NONE: *not specified*
		}
		h.Machines = append(h.Machines, Machine{Name: m[1], Value: uint32(v), Target: t[1], Line: i + 1})
	}
	if len(h.Machines) == 0 {
		return h, fmt.Errorf("the EF_AMDGPU_MACH table has no rows")
	}
	// The newest layout first; V4 and V5 define the same feature bits.
	for _, name := range []string{":name: amdgpu-elf-header-e_flags-table-v6-onwards", ":name: amdgpu-elf-header-e_flags-table-v4-v5"} {
		rows, ok := simpleTableRows(lines, name)
		if !ok {
			continue
		}
		for _, i := range rows {
			m := usageRow.FindStringSubmatch(lines[i])
			if m == nil {
				continue
			}
			v, err := strconv.ParseUint(m[2], 0, 32)
			if err != nil {
				continue
			}
			h.Flags = append(h.Flags, Flag{Name: m[1], Value: uint32(v), Text: strings.TrimSpace(m[3]), Line: i + 1})
		}
		break
	}
	return h, nil
}

// simpleTableRows returns the indexes of the body lines of the
// reStructuredText simple table after the line holding name: the lines
// between its second and third "=== ===" borders.
func simpleTableRows(lines []string, name string) ([]int, bool) {
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == name {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, false
	}
	var borders []int
	for i := start; i < len(lines) && len(borders) < 3; i++ {
		if isTableBorder(lines[i]) {
			borders = append(borders, i)
		}
	}
	if len(borders) < 3 {
		return nil, false
	}
	var out []int
	for i := borders[1] + 1; i < borders[2]; i++ {
		out = append(out, i)
	}
	return out, true
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

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

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
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
	rows, ok := usageRows(lines, ":name: amdgpu-ef-amdgpu-mach-table")
	if !ok {
		return h, fmt.Errorf("no EF_AMDGPU_MACH table (:name: amdgpu-ef-amdgpu-mach-table)")
	}
	for _, r := range rows {
		t := targetCell.FindStringSubmatch(strings.TrimSpace(r.rest))
		if t == nil {
			continue // EF_AMDGPU_MACH_NONE: *not specified*
		}
		h.Machines = append(h.Machines, Machine{Name: r.name, Value: r.value, Target: t[1], Line: r.line})
	}
	if len(h.Machines) == 0 {
		return h, fmt.Errorf("the EF_AMDGPU_MACH table has no rows")
	}
	// The newest layout first; V4 and V5 define the same feature bits.
	for _, name := range []string{":name: amdgpu-elf-header-e_flags-table-v6-onwards", ":name: amdgpu-elf-header-e_flags-table-v4-v5"} {
		rows, ok := usageRows(lines, name)
		if !ok {
			continue
		}
		for _, r := range rows {
			h.Flags = append(h.Flags, Flag{Name: r.name, Value: r.value, Text: strings.TrimSpace(r.rest), Line: r.line})
		}
		break
	}
	return h, nil
}

// valueRow is one body row of a simple table that starts with a “NAME“
// and a 32-bit hex value: rest is the line after the value, line its
// 1-based number.
type valueRow struct {
	name  string
	value uint32
	rest  string
	line  int
}

// usageRows reads the body rows of the simple table after the line
// holding name that start with a “NAME“ and a value; it reports false
// when there is no such table.
func usageRows(lines []string, name string) ([]valueRow, bool) {
	_, borders, ok := simpleTable(lines, name)
	if !ok {
		return nil, false
	}
	var out []valueRow
	for i := borders[1] + 1; i < borders[2]; i++ {
		m := usageRow.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		v, err := strconv.ParseUint(m[2], 0, 32)
		if err != nil {
			continue
		}
		out = append(out, valueRow{name: m[1], value: uint32(v), rest: m[3], line: i + 1})
	}
	return out, true
}

// CodeObjectMachines is the header's tables as the code-object reader takes
// them (e_machine values to gfx targets, and the e_flags), source naming the
// document for provenance.
func (h Header) CodeObjectMachines(source string) codeobj.Machines {
	targets := map[uint32]string{}
	for _, m := range h.Machines {
		targets[m.Value] = m.Target
	}
	var rows []codeobj.FlagRow
	for _, f := range h.Flags {
		rows = append(rows, codeobj.FlagRow{Name: f.Name, Value: f.Value})
	}
	return codeobj.NewMachines(targets, rows, source)
}

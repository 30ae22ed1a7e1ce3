package codeobj

import (
	"fmt"
	"sort"
	"strings"
)

// Machines says what e_flags mean: the gfx target of each EF_AMDGPU_MACH
// value and the feature fields of code object V4 and later. The build reads
// it from LLVM's AMDGPUUsage document (package amdgpuusage) and stores it in
// the database; nothing here is typed in by hand.
type Machines struct {
	// Targets maps an EF_AMDGPU_MACH value to its processor ("gfx942").
	Targets map[uint32]string `json:"targets"`
	// Features are the V4+ feature fields: a mask and what its values mean.
	Features []Feature `json:"features"`
	// Source says where the tables were read ("…/AMDGPUUsage.rst.txt").
	Source string `json:"source"`
}

// Feature is one e_flags feature field ("xnack" under mask 0x300).
type Feature struct {
	Name   string            `json:"name"` // "xnack", "sramecc"
	Mask   uint32            `json:"mask"`
	Values map[uint32]string `json:"values"` // value -> "on" | "off" | "any" | "unsupported"
}

// FlagRow is one e_flags table row as the document gives it.
type FlagRow struct {
	Name  string // "EF_AMDGPU_FEATURE_XNACK_ON_V4"
	Value uint32
}

// NewMachines builds the table from the document's rows: machine values
// with their targets, and the e_flags rows whose names follow the
// document's EF_AMDGPU_FEATURE_<NAME>_V4 (a mask) and
// EF_AMDGPU_FEATURE_<NAME>_<STATE>_V4 (a value) pattern.
func NewMachines(targets map[uint32]string, flags []FlagRow, source string) Machines {
	m := Machines{Targets: targets, Source: source}
	byName := map[string]*Feature{}
	var order []string
	for _, f := range flags {
		rest, ok := strings.CutPrefix(f.Name, "EF_AMDGPU_FEATURE_")
		if !ok {
			continue
		}
		rest = strings.TrimSuffix(rest, "_V4")
		name, state, _ := strings.Cut(rest, "_")
		name = strings.ToLower(name)
		ft := byName[name]
		if ft == nil {
			ft = &Feature{Name: name, Values: map[uint32]string{}}
			byName[name] = ft
			order = append(order, name)
		}
		if state == "" {
			ft.Mask = f.Value
		} else {
			ft.Values[f.Value] = strings.ToLower(state)
		}
	}
	for _, n := range order {
		if f := byName[n]; f.Mask != 0 {
			m.Features = append(m.Features, *f)
		}
	}
	return m
}

// Target returns the processor an object was compiled for and its target
// ID with the features e_flags set ("gfx942:sramecc+:xnack-"; "any" is left
// out as LLVM does).
func (m Machines) Target(o *Object) (processor, targetID string, err error) {
	mach := o.Mach()
	p, ok := m.Targets[mach]
	if !ok {
		return "", "", fmt.Errorf("e_flags 0x%x: EF_AMDGPU_MACH 0x%03x is not in LLVM's table (%d values known); pass --target", o.Flags, mach, len(m.Targets))
	}
	id := p
	if o.CodeObjectVersion() >= 4 {
		fs := append([]Feature(nil), m.Features...)
		sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
		for _, f := range fs {
			switch f.Values[o.Flags&f.Mask] {
			case "on":
				id += ":" + f.Name + "+"
			case "off":
				id += ":" + f.Name + "-"
			}
		}
	}
	return p, id, nil
}

package isa

import (
	"sort"
	"strings"
)

// ArchInfo is the static description of an architecture family: its id,
// display name, the gfx targets LLVM assembles for it and its encoding
// generation. It is the one owner of these facts: the decoder, LLVM's
// syntax pages and the tests read them from here.
type ArchInfo struct {
	ID     string
	Name   string
	Vendor string
	Kind   string
	Order  int // display order: AMD families newest first, then PTX
	// Targets are the family's gfx targets; the first is its reference
	// target, the one the differential tests and the compiled kernels run
	// on.
	Targets []string
	// Gen is the encoding generation the machine-code tables follow: 9
	// (GCN 5, CDNA 1-4), 10 (RDNA 1-2), 11 (RDNA 3, 3.5), 12 (RDNA 4,
	// CDNA 5); 0 for PTX.
	Gen int
}

// RefTarget is the family's reference gfx target ("" for PTX).
func (a ArchInfo) RefTarget() string {
	if len(a.Targets) == 0 {
		return ""
	}
	return a.Targets[0]
}

// archTable lists every family gpuisa knows. The gfx lists follow LLVM's
// processor table (llvm-mc -mcpu=help); LLVM 22 dropped gfx940 and gfx941,
// so CDNA 3 is gfx942 alone.
var archTable = []ArchInfo{
	{"rdna4", "RDNA 4", VendorAMD, KindNative, 1, []string{"gfx1200", "gfx1201"}, 12},
	{"rdna3.5", "RDNA 3.5", VendorAMD, KindNative, 2, []string{"gfx1150", "gfx1151", "gfx1152", "gfx1153"}, 11},
	{"rdna3", "RDNA 3", VendorAMD, KindNative, 3, []string{"gfx1100", "gfx1101", "gfx1102", "gfx1103"}, 11},
	{"rdna2", "RDNA 2", VendorAMD, KindNative, 4, []string{"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"}, 10},
	{"rdna1", "RDNA 1", VendorAMD, KindNative, 5, []string{"gfx1010", "gfx1011", "gfx1012", "gfx1013"}, 10},
	{"cdna5", "CDNA 5", VendorAMD, KindNative, 6, []string{"gfx1250", "gfx1251"}, 12},
	{"cdna4", "CDNA 4", VendorAMD, KindNative, 7, []string{"gfx950"}, 9},
	{"cdna3", "CDNA 3", VendorAMD, KindNative, 8, []string{"gfx942"}, 9},
	{"cdna2", "CDNA 2", VendorAMD, KindNative, 9, []string{"gfx90a"}, 9},
	{"cdna1", "CDNA 1", VendorAMD, KindNative, 10, []string{"gfx908"}, 9},
	{"vega7", "Vega 7nm", VendorAMD, KindNative, 11, []string{"gfx906"}, 9},
	{"vega", "Vega", VendorAMD, KindNative, 12, []string{"gfx900", "gfx902", "gfx904", "gfx909", "gfx90c"}, 9},
	{"ptx", "PTX", VendorNVIDIA, KindVirtual, 20, nil, 0},
}

// AllGFXTargets is every AMD gfx target the LLVM 22 assembler knows, oldest
// first. The target-compatibility matrix of a page covers all of them.
var AllGFXTargets = []string{
	"gfx600", "gfx601", "gfx602",
	"gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705",
	"gfx801", "gfx802", "gfx803", "gfx805", "gfx810",
	"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c",
	"gfx942", "gfx950",
	"gfx1010", "gfx1011", "gfx1012", "gfx1013",
	"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
	"gfx1100", "gfx1101", "gfx1102", "gfx1103",
	"gfx1150", "gfx1151", "gfx1152", "gfx1153",
	"gfx1200", "gfx1201",
	"gfx1250", "gfx1251",
}

// Archs returns every known family in display order.
func Archs() []ArchInfo {
	out := append([]ArchInfo(nil), archTable...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

// AMDArchIDs returns the AMD family ids in display order.
func AMDArchIDs() []string {
	var ids []string
	for _, a := range Archs() {
		if a.Vendor == VendorAMD {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// LookupArch finds a family by id, case-insensitively. It also accepts a gfx
// target name ("gfx942") and a few spellings users type ("rdna35",
// "rdna_3.5", "CDNA 4").
func LookupArch(s string) (ArchInfo, bool) {
	k := normalizeArch(s)
	for _, a := range archTable {
		if a.ID == k || normalizeArch(a.Name) == k {
			return a, true
		}
		for _, t := range a.Targets {
			if t == k {
				return a, true
			}
		}
	}
	return ArchInfo{}, false
}

// archSeparators are dropped from user spellings; built once because
// LookupArch runs on every request.
var archSeparators = strings.NewReplacer(" ", "", "_", "", "-", "")

func normalizeArch(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = archSeparators.Replace(s)
	switch s {
	case "rdna35":
		return "rdna3.5"
	case "vega10", "gcn5":
		return "vega"
	case "vega20":
		return "vega7"
	case "vega7nm":
		return "vega7"
	}
	return s
}

// ArchForTarget returns the family a gfx target belongs to, if any.
func ArchForTarget(target string) (string, bool) {
	for _, a := range archTable {
		for _, t := range a.Targets {
			if t == target {
				return a.ID, true
			}
		}
	}
	return "", false
}

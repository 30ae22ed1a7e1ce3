package explain

import (
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// counterRules apply a family's wait rules (isa.WaitRules, in isa's
// family table) to an instruction: which counters it increments.
type counterRules struct{ isa.WaitRules }

// rules reads a family's rules from isa's table; a listing of no known
// family (l.Arch "") has no counters.
func rules(arch string) counterRules {
	info, _ := isa.ArchByID(arch)
	return counterRules{info.Waits}
}

func (r counterRules) gen12() bool       { return r.Counters == isa.CountersLoad }
func (r counterRules) splitStores() bool { return r.Counters == isa.CountersVS }

// counters lists the counters an instruction increments.
func (r counterRules) counters(name, format string, mods []string) []string {
	kind := formatKind(format, name)
	switch {
	case kind == "SMEM" || isMessage(name) || name == "s_memtime" || name == "s_memrealtime":
		if r.gen12() {
			return []string{"kmcnt"}
		}
		return []string{"lgkmcnt"}
	case kind == "LDS param":
		if r.ParamLoadExp {
			return []string{"expcnt"}
		}
		return []string{"lgkmcnt"}
	case kind == "GDS" || kind == "LDS" && slices.Contains(mods, "gds"):
		if r.gen12() {
			return []string{"dscnt"}
		}
		if r.GDSExp {
			return []string{"lgkmcnt", "expcnt"}
		}
		return []string{"lgkmcnt"}
	case kind == "LDS":
		if r.gen12() {
			return []string{"dscnt"}
		}
		return []string{"lgkmcnt"}
	case kind == "EXP":
		if r.Exports {
			return []string{"expcnt"}
		}
		return nil
	case kind == "VMEM" || kind == "FLAT":
		store := isStore(name, mods)
		var out []string
		switch {
		case r.gen12() && strings.HasPrefix(name, "image_bvh"):
			out = []string{"bvhcnt"}
		case r.gen12() && strings.HasPrefix(name, "image_sample") || r.gen12() && strings.HasPrefix(name, "image_gather"):
			out = []string{"samplecnt"}
		case r.gen12() && store:
			out = []string{"storecnt"}
		case r.gen12():
			out = []string{"loadcnt"}
		case r.splitStores() && store:
			out = []string{"vscnt"}
		default:
			out = []string{"vmcnt"}
		}
		if store && r.StoresExp {
			out = append(out, "expcnt")
		}
		if kind == "FLAT" {
			if r.gen12() {
				out = append(out, "dscnt")
			} else {
				out = append(out, "lgkmcnt")
			}
		}
		return out
	}
	return nil
}

func isMessage(name string) bool {
	return strings.HasPrefix(name, "s_sendmsg")
}

// isStore: a store, or an atomic that returns nothing (no glc / sc0 /
// th:TH_ATOMIC_RETURN). Cache maintenance counts as a load.
func isStore(name string, mods []string) bool {
	if strings.Contains(name, "_store") {
		return true
	}
	if strings.Contains(name, "_atomic") {
		for _, m := range mods {
			if m == "glc" || m == "sc0" || strings.HasPrefix(m, "th:TH_ATOMIC_RETURN") {
				return false
			}
		}
		return true
	}
	return false
}

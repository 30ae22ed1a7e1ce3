package isa

import (
	"strings"
	"testing"
)

// The words of a query that name a family, a target or a product scope it;
// a number stays a search word, and a query that is only a product is not
// scoped (its targets answer it).
func TestScopeOf(t *testing.T) {
	archs := []Architecture{
		{ID: "cdna3", Vendor: VendorAMD, Targets: []string{"gfx942"}, Processors: []Processor{{Target: "gfx942", Products: []string{"AMD Instinct MI300X", "AMD Instinct MI300A"}}}},
		{ID: "rdna3", Vendor: VendorAMD, Targets: []string{"gfx1100"}, Processors: []Processor{{Target: "gfx1100", Products: []string{"Radeon RX 7900 XTX"}}}},
		{ID: "ptx", Vendor: VendorNVIDIA, Processors: []Processor{{Target: "sm_90"}, {Target: "sm_89"}, {Target: "sm_75"}}},
	}
	ix := NewProcessorIndex(archs)
	for q, want := range map[string]QueryScope{
		"v_max_f32 cdna3":     {Arch: "cdna3", Words: "cdna3", Rest: "v_max_f32"},
		"CDNA 3 v_max_f32":    {Arch: "cdna3", Words: "CDNA 3", Rest: "v_max_f32"},
		"gfx1100 v_max":       {Arch: "rdna3", Words: "gfx1100", Target: "gfx1100", Rest: "v_max"},
		"MI300X mfma":         {Arch: "cdna3", Words: "MI300X", Target: "gfx942", Rest: "mfma"},
		"RX 7900 XTX wmma":    {Arch: "rdna3", Words: "RX 7900 XTX", Target: "gfx1100", Rest: "wmma"},
		"H100 wgmma":          {Arch: "ptx", Words: "H100", Target: "sm_90", Rest: "wgmma"},
		"shuffle on RTX 4090": {Arch: "ptx", Words: "RTX 4090", Target: "sm_89", Rest: "shuffle on"},
		"ptx barrier":         {Arch: "ptx", Words: "ptx", Rest: "barrier"},
		"sm_75 mma":           {Arch: "ptx", Words: "sm_75", Target: "sm_75", Rest: "mma"},
		"MI300 mfma":          {Arch: "cdna3", Words: "MI300", Target: "gfx942", Rest: "mfma"}, // the series: MI300A and MI300X
		"MI30 mfma":           {},                                                              // a digit away: another product
		"RX 7900 wmma":        {Arch: "rdna3", Words: "RX 7900", Target: "gfx1100", Rest: "wmma"},
		"atomic max 64-bit":   {},
		"4090 shuffle":        {},
		"MI300X":              {},
		"cdna3":               {},
		"fused multiply add":  {},
	} {
		if got := ix.ScopeOf(q); got != want {
			t.Errorf("ScopeOf(%q) = %+v, want %+v", q, got, want)
		}
	}
	for q, want := range map[string]string{"H100": "sm_90", "T4": "sm_75", "NVIDIA GeForce RTX 4090": "sm_89", "sm_90": "sm_90", "gfx942": "gfx942"} {
		if ms := ix.Match(q); len(ms) != 1 || ms[0].Target != want {
			t.Errorf("Match(%q) = %+v, want %s", q, ms, want)
		}
	}
}

// Every line of the products tables names a target of its vendor (an sm_
// target for NVIDIA, a gfx target for AMD), and no product is listed under
// two targets.
func TestProductTables(t *testing.T) {
	for vendor, c := range map[string]struct {
		prefix string
		min    int
	}{VendorNVIDIA: {"sm_", 40}, VendorAMD: {"gfx", 3}} {
		seen := map[string]string{}
		for target, products := range tableProducts()[vendor] {
			if len(target) < 5 || !strings.HasPrefix(target, c.prefix) {
				t.Errorf("%s products: %q is not a %s target", vendor, target, c.prefix)
			}
			for _, p := range products {
				if prev, ok := seen[p]; ok {
					t.Errorf("%s products: %s under %s and %s", vendor, p, prev, target)
				}
				seen[p] = target
			}
		}
		if len(seen) < c.min {
			t.Errorf("%d products in the %s table", len(seen), vendor)
		}
	}
}

// A product LLVM's table lacks leads to its target through AMD's table,
// and the name without its maker's counts ("Jetson AGX Orin").
func TestProductTableNames(t *testing.T) {
	archs := []Architecture{
		{ID: "cdna4", Vendor: VendorAMD, Targets: []string{"gfx950"}, Processors: []Processor{{Target: "gfx950"}}},
		{ID: "ptx", Vendor: VendorNVIDIA, Targets: []string{"sm_87"}, Processors: []Processor{{Target: "sm_87"}}},
	}
	ix := NewProcessorIndex(archs)
	for q, want := range map[string]string{"MI355X": "gfx950", "AMD Instinct MI350X": "gfx950", "Jetson AGX Orin": "sm_87", "jetson orin nano": "sm_87"} {
		if ms := ix.Match(q); len(ms) != 1 || ms[0].Target != want {
			t.Errorf("Match(%q) = %+v, want %s", q, ms, want)
		}
	}
	if ms := ix.Match("Instinct"); len(ms) != 0 {
		t.Errorf("Match(Instinct) = %+v: a word of a product without a digit leads nowhere", ms)
	}
}

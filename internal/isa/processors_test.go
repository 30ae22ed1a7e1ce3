package isa

import "testing"

func TestMatchProcessors(t *testing.T) {
	archs := []Architecture{
		{ID: "cdna3", Targets: []string{"gfx942"}, Processors: []Processor{{Target: "gfx942", Products: []string{"AMD Instinct MI300X", "AMD Instinct MI300A"}}}},
		{ID: "cdna2", Targets: []string{"gfx90a"}, Processors: []Processor{{Target: "gfx90a", Products: []string{"AMD Instinct MI250X Accelerator"}}}},
		{ID: "rdna3", Targets: []string{"gfx1100", "gfx1101"}, Processors: []Processor{
			{Target: "gfx1100", Products: []string{"Radeon RX 7900 XTX", "Radeon RX 7900 XT"}},
			{Target: "gfx1101", Products: []string{"Radeon RX 7800 XT"}}},
			Generic: []GenericTarget{{Target: "gfx11-generic", Members: []string{"gfx1100", "gfx1101", "gfx1150"}}}},
	}
	for q, want := range map[string]string{
		"MI300X": "cdna3/gfx942", "amd instinct mi300a": "cdna3/gfx942", "mi250x": "cdna2/gfx90a",
		"RX 7900 XTX": "rdna3/gfx1100", "7900xtx": "rdna3/gfx1100", "Radeon RX 7800 XT": "rdna3/gfx1101",
		"gfx11-generic": "rdna3/gfx1100 rdna3/gfx1101", "Instinct": "", "XT": "", "mi300": "",
	} {
		got := ""
		for i, m := range MatchProcessors(archs, q) {
			if i > 0 {
				got += " "
			}
			got += m.Arch + "/" + m.Target
		}
		if got != want {
			t.Errorf("MatchProcessors(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestNearProcessors: a name close to a product or target, that names
// none itself, leads to the targets it may mean: the names it begins
// ("mi300": MI300X and MI300A, one target), else those a typo away; a
// name that matches, or a key under three characters, gets none.
func TestNearProcessors(t *testing.T) {
	archs := []Architecture{
		{ID: "cdna3", Vendor: VendorAMD, Targets: []string{"gfx942"}, Processors: []Processor{{Target: "gfx942", Products: []string{"AMD Instinct MI300X", "AMD Instinct MI300A"}}}},
		{ID: "cdna2", Vendor: VendorAMD, Targets: []string{"gfx90a"}, Processors: []Processor{{Target: "gfx90a", Products: []string{"AMD Instinct MI250X Accelerator"}}}},
		{ID: "ptx", Vendor: VendorNVIDIA, Processors: []Processor{{Target: "sm_89"}, {Target: "sm_90"}, {Target: "sm_90a"}}},
	}
	for q, want := range map[string]string{
		"mi300": "cdna3/gfx942", "MI 300": "cdna3/gfx942", "mi250": "cdna2/gfx90a", "mi301x": "cdna3/gfx942",
		"sm_9": "ptx/sm_90 ptx/sm_90a", "sm_8": "ptx/sm_89", "gfx94": "cdna3/gfx942",
		"MI300X": "", "sm_90": "", "mi": "", "zzzzzz": "",
	} {
		got := ""
		for i, m := range MatchProcessorsNear(archs, q, 3) {
			if i > 0 {
				got += " "
			}
			got += m.Arch + "/" + m.Target
		}
		if got != want {
			t.Errorf("MatchProcessorsNear(%q) = %q, want %q", q, got, want)
		}
	}
}

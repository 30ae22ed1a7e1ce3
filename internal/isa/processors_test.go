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

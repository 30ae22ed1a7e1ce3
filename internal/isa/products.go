package isa

// familyProducts names a few products of each AMD family, so a reader can
// find the family of the GPU in front of them. The list is gpuisa's own,
// short by design (LLVM's AMDGPUUsage processor table has every target's);
// a family without a released product has none.
var familyProducts = map[string][]string{
	"rdna4":   {"Radeon RX 9070 XT", "RX 9060 XT"},
	"rdna3.5": {"Radeon 890M", "Radeon 8060S (Ryzen AI APUs)"},
	"rdna3":   {"Radeon RX 7900 XTX", "RX 7800 XT", "RX 7600", "Radeon PRO W7900"},
	"rdna2":   {"Radeon RX 6900 XT", "RX 6700 XT", "Radeon PRO W6800"},
	"rdna1":   {"Radeon RX 5700 XT", "RX 5500 XT"},
	"cdna4":   {"Instinct MI350 series"},
	"cdna3":   {"Instinct MI300X", "MI300A"},
	"cdna2":   {"Instinct MI210", "MI250", "MI250X"},
	"cdna1":   {"Instinct MI100"},
	"vega7":   {"Radeon VII", "Instinct MI50", "MI60"},
	"vega":    {"Radeon RX Vega 56/64", "Instinct MI25", "Ryzen 2000G and 4000G APUs"},
}

// Products returns a few products of the AMD family id, nil when none is
// listed.
func Products(id string) []string {
	return append([]string(nil), familyProducts[id]...)
}

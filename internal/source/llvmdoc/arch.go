package llvmdoc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// pageArchs says which architectures each syntax page documents. The "core"
// GFX9 page applies to every GFX9 chip whose own page refers back to it
// (gfx900 ... gfx908); gfx90a and gfx942 have complete pages of their own.
// LLVM 22 ships no page for gfx950 or gfx1250: gfx950 extends gfx942, so
// the GFX940 page is the closest description of it; gfx1250 has none.
// The GFX11 page names only gfx1100-gfx1103, but LLVM assembles the same
// syntax for gfx1150-gfx1153, so RDNA 3.5 shares it.
var pageArchs = map[string][]string{
	"gfx9":    {"vega", "vega7", "cdna1"},
	"gfx900":  {"vega"},
	"gfx904":  {"vega"},
	"gfx906":  {"vega7"},
	"gfx908":  {"cdna1"},
	"gfx90a":  {"cdna2"},
	"gfx940":  {"cdna3", "cdna4"},
	"gfx10":   {"rdna1"},
	"gfx1011": {"rdna1"},
	"gfx1013": {"rdna1"},
	"gfx1030": {"rdna2"},
	"gfx11":   {"rdna3", "rdna3.5"},
	"gfx12":   {"rdna4"},
}

// pageTargets narrows the pages that describe only some chips of an
// architecture (the pages' own introductions say which).
var pageTargets = map[string][]string{
	"gfx900":  {"gfx900", "gfx902"},
	"gfx904":  {"gfx904"},
	"gfx1011": {"gfx1011", "gfx1012"},
	"gfx1013": {"gfx1013"},
	"gfx9":    {"gfx900", "gfx902", "gfx904", "gfx906", "gfx908"},
}

// PageArchs returns the architecture ids a syntax page ("GFX11", "GFX90a",
// case-insensitive) documents, or nil for pages of chips gpuisa does not
// cover (GFX7, GFX8).
func PageArchs(gfxPage string) []string {
	return append([]string(nil), pageArchs[strings.ToLower(gfxPage)]...)
}

// PageTargets returns the gfx targets a syntax page documents: the targets of
// its architectures, narrowed for the pages that cover only some chips.
func PageTargets(gfxPage string) []string {
	key := strings.ToLower(gfxPage)
	if t, ok := pageTargets[key]; ok {
		return append([]string(nil), t...)
	}
	var out []string
	for _, arch := range pageArchs[key] {
		if a, ok := isa.LookupArch(arch); ok {
			out = append(out, a.Targets...)
		}
	}
	return out
}

// DocDir returns the folder of LLVM's HTML documentation: $GPUISA_LLVM_DOC
// when set, else the first of the Debian llvm-NN-doc folders that exists
// (newest first), else "".
func DocDir() string {
	if d := os.Getenv("GPUISA_LLVM_DOC"); d != "" {
		return d
	}
	for v := 30; v >= 15; v-- {
		d := fmt.Sprintf("/usr/share/doc/llvm-%d-doc/html", v)
		if st, err := os.Stat(filepath.Join(d, "AMDGPU")); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}

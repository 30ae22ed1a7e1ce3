package cli

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/listing"
)

// TestDecodeTarget: the target a decode narrows its decoder to is the one
// its listing reports (listing.TargetFor, which Listing.SetTarget uses): --target, a gfx target given as
// --arch, else the input's, also under an --arch that names its family.
func TestDecodeTarget(t *testing.T) {
	object := &listing.Input{Target: "gfx904"}
	for _, c := range []struct {
		name   string
		choice listing.Choice
		in     *listing.Input
		want   string
	}{
		{"--target", listing.Choice{Target: "gfx900", Arch: "vega"}, object, "gfx900"},
		{"a target as --arch", listing.Choice{Arch: "GFX900"}, object, "GFX900"},
		{"the object's under its family", listing.Choice{Arch: "vega"}, object, "gfx904"},
		{"the object's alone", listing.Choice{}, object, "gfx904"},
		{"a family alone", listing.Choice{Arch: "vega"}, &listing.Input{}, ""},
		{"no input", listing.Choice{Arch: "vega"}, nil, ""},
	} {
		// gfx target names are case-blind (the listing spells them lower).
		if got := listing.TargetFor(c.in, c.choice, "vega"); !strings.EqualFold(got, c.want) {
			t.Errorf("%s: TargetFor = %q, want %q", c.name, got, c.want)
		}
	}
}

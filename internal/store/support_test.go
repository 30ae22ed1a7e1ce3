package store

import (
	"context"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestSupport: the support column carries the targets llvm-mc accepts and
// the other spelling where it rejects the name; unverified names have none.
func TestSupport(t *testing.T) {
	b := sampleBuild()
	mix := &isa.Instruction{Arch: "cdna4", Name: "v_mad_mix_f32", Vendor: isa.VendorAMD, Kind: isa.KindNative,
		Targets: map[string]string{"gfx900": "supported", "gfx906": "unsupported", "gfx950": "unsupported"},
		TargetDetails: []isa.TargetResult{
			{Target: "gfx900", Status: "supported"},
			{Target: "gfx906", Status: "unsupported"},
			{Target: "gfx950", Status: "unsupported", OtherSpelling: "v_fma_mix_f32"},
		}}
	b.Instructions = append(b.Instructions, mix)
	s := writeOpen(t, b)
	sup, err := s.Support(context.Background(), "gfx950")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := sup["v_mad_mix_f32"]
	if !ok || len(sup) != 1 {
		t.Fatalf("support = %+v, want v_mad_mix_f32 alone (the others were not verified)", sup)
	}
	if !got.Supports("gfx900") || got.Supports("gfx950") || got.Supports("gfx906") {
		t.Errorf("supported = %v", got.Supported)
	}
	if got.OtherSpellings["gfx950"] != "v_fma_mix_f32" || len(got.OtherSpellings) != 1 {
		t.Errorf("other spellings = %v", got.OtherSpellings)
	}
	if _, err := s.Support(context.Background(), "gfx9999"); err == nil {
		t.Error("unknown family gave no error")
	}
}

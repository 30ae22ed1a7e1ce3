package ingest

import (
	"context"
	"slices"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
)

// TestVerifyAliases runs the alias check on hand-made instructions with
// llvm-mc: a spelling llvm-mc takes for the example's bytes gets the
// targets it takes it on, one it refuses gets none, and a target that
// refuses the instruction's own name still verifies an alias against the
// family's bytes.
func TestVerifyAliases(t *testing.T) {
	llvmMC, err := verify.FindLLVMMC()
	if err != nil {
		t.Skipf("llvm-mc not installed (apt-get install llvm-22): %v", err)
	}
	mfma := &isa.Instruction{Arch: "cdna3", Name: "v_mfma_f32_16x16x16_f16", Vendor: isa.VendorAMD,
		Examples: []isa.Example{{Asm: "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]"}},
		Aliases: []isa.Alias{{Name: "v_mfma_f32_16x16x16f16"}, {Name: "v_mfma_f32_16x16x16_f16_1k"},
			{Name: "v_mfma_f32_32x32x8f16", Targets: []string{"gfx942"}}}}
	mix := &isa.Instruction{Arch: "vega", Name: "v_mad_mix_f32", Vendor: isa.VendorAMD,
		Examples: []isa.Example{{Asm: "v_mad_mix_f32 v1, v2, v3, v4"}},
		Aliases:  []isa.Alias{{Name: "v_fma_mix_f32"}}}
	vop := &isa.Instruction{Arch: "rdna3", Name: "v_cmp_t_f32", Vendor: isa.VendorAMD,
		Examples: []isa.Example{{Asm: "v_cmp_t_f32_e64 s2, v1, v2"}},
		Aliases:  []isa.Alias{{Name: "v_cmp_tru_f32"}}}
	p := &llvmPass{ctx: context.Background(), llvmMC: llvmMC, cacheDir: testCache(),
		archs: []isa.Architecture{{ID: "cdna3"}, {ID: "vega"}, {ID: "rdna3"}}, insts: []*isa.Instruction{mfma, mix, vop},
		famTargets: map[string][]string{"cdna3": {"gfx942"}, "vega": {"gfx900", "gfx904"}, "rdna3": {"gfx1100", "gfx1101"}}}
	n, err := p.verifyAliases()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"v_mfma_f32_16x16x16f16":     {"gfx942"},
		"v_mfma_f32_16x16x16_f16_1k": nil,
		"v_mfma_f32_32x32x8f16":      nil, // another instruction's bytes: a stale verdict goes
		"v_fma_mix_f32":              {"gfx904"},
		"v_cmp_tru_f32":              {"gfx1100", "gfx1101"},
	}
	total := 0
	for _, in := range p.insts {
		for _, a := range in.Aliases {
			if !slices.Equal(a.Targets, want[a.Name]) {
				t.Errorf("%s %s alias %s: targets %v, want %v", in.Arch, in.Name, a.Name, a.Targets, want[a.Name])
			}
			total += len(want[a.Name])
		}
	}
	if n != total {
		t.Errorf("verifyAliases counted %d verified pairs, want %d", n, total)
	}
}

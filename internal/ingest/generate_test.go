package ingest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

func TestDisasmVariants(t *testing.T) {
	got := disasmVariants("v_wmma_f32_16x16x16_f16 v[1:8], v[2:9], v[3:10], s[0:7]/*Invalid register, operand has 'VReg_256' register class*/ ; comment",
		"v_wmma_f32_16x16x16_f16", true)
	want := []string{
		"v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[24:31]",
		"v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
		"v_wmma_f32_16x16x16_f16 v[1:8], v[2:9], v[3:10], v[0:7]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("wmma variants:\n got %q\nwant %q", got, want)
	}
	// AMD's name first where llvm-mc prints another, the encoding suffix
	// kept; modifiers stay after the operands.
	got = disasmVariants("v_fma_mix_f32_e64 v1, v2, s3 op_sel:[0,1] clamp", "v_mad_mix_f32", true)
	want = []string{"v_mad_mix_f32_e64 v0, v1, s1 op_sel:[0,1] clamp", "v_mad_mix_f32_e64 v1, v2, s3 op_sel:[0,1] clamp",
		"v_fma_mix_f32_e64 v0, v1, s1 op_sel:[0,1] clamp", "v_fma_mix_f32_e64 v1, v2, s3 op_sel:[0,1] clamp"}
	if !slices.Equal(got, want) {
		t.Errorf("renamed variants:\n got %q\nwant %q", got, want)
	}
	if got := disasmVariants("s_nop 0", "s_nop", true); !slices.Equal(got, []string{"s_nop 0"}) {
		t.Errorf("s_nop: %q", got)
	}
	if got := disasmVariants("v_x v1, v2 /*unknown complaint*/", "v_x", true); got != nil {
		t.Errorf("a line llvm-mc complains about in another way must be dropped: %q", got)
	}
	ops, mods := splitOperands("v1, [v2, v3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_1D")
	if !slices.Equal(ops, []string{"v1", "[v2, v3]", "s[4:11]"}) || mods != "dmask:0x1 dim:SQ_RSRC_IMG_1D" {
		t.Errorf("splitOperands: %q %q", ops, mods)
	}
	if !repeatsRegister("v_fma_mix_f32 v1, v1, s0, s0") || repeatsRegister("v_fma_mix_f32 v0, v1, v2, v3") {
		t.Error("repeatsRegister")
	}
}

// TestExampleForEveryInstruction: every LLVM-supported family has a
// verified example (accepted by llvm-mc on a family target, bytes
// recorded) for at least 98% of its instructions, and the classes the
// issue names have one each: CDNA 4's MFMA and SMFMAC, RDNA 3/3.5's WMMA
// and RDNA 4's matrix instructions. Generated examples say so, and their
// recorded bytes are what llvm-mc produces for them.
func TestExampleForEveryInstruction(t *testing.T) {
	m := verified(t)
	for _, f := range m.res.Report.Families {
		if len(f.Targets) == 0 {
			continue
		}
		t.Logf("%-8s %.1f%% (%d generated, %d in LLVM's spelling, %d without: %d rejected, %d unverified)",
			f.Arch, f.Share, f.Generated, f.Spelled, f.Instructions-f.WithExample-f.Spelled, len(f.Rejected), len(f.Unverified))
		if f.Share < quality.ShareTarget {
			t.Errorf("%s: %.1f%% of instructions have a verified example, want >= %.0f%%", f.Arch, f.Share, quality.ShareTarget)
		}
		for _, it := range f.Unverified {
			if it.Reason == "" {
				t.Errorf("%s %s: listed without a reason", f.Arch, it.Name)
			}
		}
	}
	famTargets := map[string]map[string]bool{}
	for _, a := range isa.Archs() {
		famTargets[a.ID] = map[string]bool{}
		for _, t := range a.Targets {
			famTargets[a.ID][t] = true
		}
	}
	matrix := map[string]int{}
	byTarget := map[string][]isa.Example{}
	for _, in := range m.insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		isMatrix := strings.HasPrefix(in.Name, "v_mfma_") || strings.HasPrefix(in.Name, "v_smfmac_") ||
			strings.HasPrefix(in.Name, "v_wmma_") || strings.HasPrefix(in.Name, "v_swmmac_")
		wanted := isMatrix && (in.Arch == "cdna4" || in.Arch == "rdna3" || in.Arch == "rdna3.5" || in.Arch == "rdna4")
		if wanted {
			matrix[in.Arch]++
		}
		ok := false
		for _, ex := range in.Examples {
			if ex.Encoding != "" && famTargets[in.Arch][ex.Target] {
				ok = true
			}
			if merge.IsGenerated(ex) {
				if !strings.Contains(ex.Source, "accepted by llvm-mc") || !strings.Contains(ex.Source, ex.Target) || ex.Encoding == "" {
					t.Errorf("%s %s: generated example without its provenance, target or bytes: %+v", in.Arch, in.Name, ex)
				}
				byTarget[ex.Target] = append(byTarget[ex.Target], ex)
			}
		}
		if wanted && !ok {
			t.Errorf("%s %s: no example accepted on a family target", in.Arch, in.Name)
		}
	}
	for arch, min := range map[string]int{"cdna4": 66, "rdna3": 6, "rdna3.5": 6, "rdna4": 22} {
		if matrix[arch] < min {
			t.Errorf("%s: %d matrix instructions, want at least %d", arch, matrix[arch], min)
		}
	}
	if in := find(m.insts, "rdna3", "v_wmma_f32_16x16x16_f16"); in == nil || len(in.Examples) == 0 || in.Targets["gfx1100"] != "supported" {
		t.Errorf("rdna3 v_wmma_f32_16x16x16_f16 has no verified example on gfx1100")
	}
	// The recorded bytes of generated examples are llvm-mc's.
	for target, exs := range byTarget {
		inputs := make([]verify.Input, len(exs))
		for i, ex := range exs {
			inputs[i] = verify.Input{Asm: ex.Asm}
		}
		res, err := verify.Run(context.Background(), inputs, []string{target}, verify.Options{CacheDir: testCache()})
		if err != nil {
			t.Fatal(err)
		}
		for i, ex := range exs {
			o := res.Outcomes[i][0]
			if !o.Supported || asmtext.FormatBytes(o.Encoding) != ex.Encoding {
				t.Errorf("%s on %s: recorded %s, llvm-mc says %+v", ex.Asm, target, ex.Encoding, o)
			}
		}
	}
}

func TestRenumberAddressLists(t *testing.T) {
	got := renumber([]string{"v0", "[v2, v0]", "s[0:7]", "s[8:11]"})
	if want := []string{"v0", "[v1, v2]", "s[0:7]", "s[8:11]"}; !slices.Equal(got, want) {
		t.Errorf("renumber = %q, want %q", got, want)
	}
}

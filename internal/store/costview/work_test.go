package costview

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// xdl is a cost in the shape llvm-mca gives a matrix instruction: the unit
// held for passes cycles (sample numbers, not llvm-mca's output).
func xdl(asm, unit string, passes int, opcode string) isa.Cost {
	return isa.Cost{Asm: asm, UOps: 1, Latency: passes + 4, RThroughput: float64(passes), Unit: unit,
		Resources: []isa.CostResource{{Name: unit, Cycles: passes}}, Opcode: opcode}
}

func matrixSample() (isa.Architecture, []Entry) {
	arch := isa.Architecture{ID: "cdna3", Targets: []string{"gfx942"}}
	entries := []Entry{
		{Name: "v_add_f32", Cost: map[string]isa.Cost{"gfx942": {Unit: "HWVALU", Latency: 1, RThroughput: 1, Resources: []isa.CostResource{{Name: "HWVALU"}}}}},
		{Name: "v_mfma_f32_32x32x8_f16", Cost: map[string]isa.Cost{"gfx942": xdl("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "HWXDL", 8, "")}},
		{Name: "v_mfma_f32_4x4x4_16b_f16", Cost: map[string]isa.Cost{"gfx942": xdl("", "HWXDL", 2, "")}},
		{Name: "v_mfma_f32_16x16x16_f16", Cost: map[string]isa.Cost{"gfx942": xdl("", "HWXDL", 4, "")}},
		{Name: "v_mfma_f64_16x16x4_f64", Cost: map[string]isa.Cost{"gfx942": xdl("", "HWVALU", 8, "")}},
		{Name: "v_mfma_i32_16x16x32_i8", Cost: map[string]isa.Cost{"gfx942": xdl("", "HWXDL", 4, "")}},
		{Name: "v_smfmac_f32_16x16x32_f16", Cost: map[string]isa.Cost{"gfx942": xdl("", "HWXDL", 4, "")}},
	}
	return arch, entries
}

// TestWorkOf: cycles are passes × the family's cycles per pass, shown with
// the passes; work per cycle per SIMD and per CU.
func TestWorkOf(t *testing.T) {
	_, entries := matrixSample()
	a := isa.MustArch("cdna3")
	w, ok := WorkOf(a, entries[1].Name, entries[1].Cost["gfx942"])
	if !ok || w.Passes != 8 || w.Cycles != 32 || w.Ops != 16384 || w.PerCycleSIMD != 512 || w.PerCycleCU != 2048 || w.DType != isa.DTypeFP16 {
		t.Errorf("v_mfma_f32_32x32x8_f16 on gfx942: %+v, want 8 passes, 32 cycles, 16384 FLOPs, 512 per cycle per SIMD, 2048 per CU", w)
	}
	if w, ok := WorkOf(a, "v_add_f32", entries[0].Cost["gfx942"]); ok {
		t.Errorf("v_add_f32 has work %+v", w)
	}
	// A family without a stated pass length has work per instruction but no cycles.
	if w, ok := WorkOf(isa.MustArch("rdna3"), "v_wmma_f32_16x16x16_f16", isa.Cost{Unit: "HWVALU", RThroughput: 1}); !ok || w.Ops != 8192 || w.Cycles != 0 || w.PerCycleCU != 0 {
		t.Errorf("RDNA 3 WMMA: %+v, %v; want 8192 FLOPs and no cycles", w, ok)
	}
	if got := TFLOPS(304, 2100, 2048); math.Abs(got-1307.4) > 0.05 {
		t.Errorf("TFLOPS(304 CUs, 2100 MHz, 2048) = %.2f, want 1307.4", got)
	}
}

// TestRankByWork: sorting by work per cycle puts 4x4x4 f16 below 32x32x8
// and 16x16x16 f16; the data-type filter keeps one type; rows without work
// come last either way.
func TestRankByWork(t *testing.T) {
	arch, entries := matrixSample()
	tab, err := Build(arch, entries, Query{Sort: "work", DType: "f16"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(names(tab), " ")
	if want := "v_smfmac_f32_16x16x32_f16 v_mfma_f32_16x16x16_f16 v_mfma_f32_32x32x8_f16 v_mfma_f32_4x4x4_16b_f16"; got != want {
		t.Errorf("fp16 by work per cycle:\n got %s\nwant %s", got, want)
	}
	if !tab.HasWork || strings.Join(tab.DTypes, " ") != "fp64 fp16 int8" {
		t.Errorf("HasWork %v, data types %v", tab.HasWork, tab.DTypes)
	}
	tab, _ = Build(arch, entries, Query{Sort: "work", Ascending: true})
	if n := names(tab); n[len(n)-1] != "v_add_f32" || n[0] != "v_mfma_f64_16x16x4_f64" {
		t.Errorf("ascending by work: %v, want f64 first and v_add_f32 (no work) last", n)
	}
	if _, err := Build(arch, entries, Query{DType: "colour"}); err == nil {
		t.Error("an unknown data type is accepted")
	}
}

// TestCheckPeaks: the implied peak of each published type, the fastest
// dense instruction of the type (sparse ones left out), a disagreement
// beyond 1% and a type without an instruction listed.
func TestCheckPeaks(t *testing.T) {
	_, entries := matrixSample()
	products := []isa.InstinctProduct{{Name: "X", Target: "gfx942", CUs: 304, PeakMHz: 2100,
		Peaks: map[isa.DType]float64{isa.DTypeFP16: 1307.4, isa.DTypeFP64: 100, isa.DTypeINT8: 2614.9, isa.DTypeFP8: 2614.9}}}
	checks := CheckPeaks(products, func(arch string) ([]Entry, error) {
		if arch != "cdna3" {
			t.Errorf("loaded %s", arch)
		}
		return entries, nil
	})
	byType := map[isa.DType]PeakCheck{}
	for _, c := range checks {
		byType[c.DType] = c
	}
	if c := byType[isa.DTypeFP16]; !c.Agrees || math.Abs(c.Implied-1307.4) > 0.01*1307.4 || c.Instruction == "v_smfmac_f32_16x16x32_f16" {
		t.Errorf("FP16: %+v", c)
	}
	if c := byType[isa.DTypeFP64]; c.Agrees || math.Abs(c.Implied-163.4) > 0.1 || c.DiffPct < 60 {
		t.Errorf("FP64 against a wrong published 100: %+v", c)
	}
	if c := byType[isa.DTypeFP8]; c.Agrees || c.Implied != 0 || c.Note == "" {
		t.Errorf("FP8 without an instruction: %+v", c)
	}
	if d := Disagreements(checks); len(d) != 2 {
		t.Errorf("disagreements %+v, want FP64 and FP8", d)
	}
}

// TestInstinctProducts: every product runs a family with matrix facts, and
// its published rates divided by CUs × clock are whole operations per
// cycle per CU (the table's figures are AMD's, rounded to 0.1 TFLOPS).
func TestInstinctProducts(t *testing.T) {
	for _, p := range isa.InstinctProducts {
		arch, ok := isa.ArchForTarget(p.Target)
		if !ok {
			t.Errorf("%s: target %s in no family", p.Name, p.Target)
			continue
		}
		if a := isa.MustArch(arch); a.CyclesPerPass == 0 || a.SIMDsPerCU == 0 {
			t.Errorf("%s: %s has no matrix facts", p.Name, arch)
		}
		if !strings.HasPrefix(p.Source, "https://www.amd.com/") || p.Corroborated == "" || len(p.Peaks) == 0 {
			t.Errorf("%s: source %q, corroborated %q, %d peaks", p.Name, p.Source, p.Corroborated, len(p.Peaks))
		}
		for d, v := range p.Peaks {
			perCU := v * 1e12 / (float64(p.CUs) * float64(p.PeakMHz) * 1e6)
			if r := math.Round(perCU); math.Abs(perCU-r) > 0.01*r {
				t.Errorf("%s %s: %.1f TFLOPS is %.1f per cycle per CU, not a whole number", p.Name, d, v, perCU)
			}
		}
	}
}

// TestCheckPeaksOfOtherFormats: an F8F6F4 instruction's FP6 and FP4 costs
// (Cost.Formats, each with its LLVM opcode) are checked against the FP6 and
// FP4 peaks; without them those peaks are unchecked.
func TestCheckPeaksOfOtherFormats(t *testing.T) {
	const name = "v_mfma_f32_16x16x128_f8f6f4"
	c := xdl(name+" v[0:3], v[8:15], v[16:23], v[24:27]", "HWXDL", 8, "V_MFMA_F32_16X16X128_F8F6F4_f8_f8_gfx940_vcd")
	c.Formats = []isa.Cost{
		xdl(name+" v[0:3], v[8:13], v[16:21], v[24:27] cbsz:2 blgp:2", "HWXDL", 4, "V_MFMA_F32_16X16X128_F8F6F4_f6_f6_gfx940_vcd"),
		xdl(name+" v[0:3], v[8:11], v[16:19], v[24:27] cbsz:4 blgp:4", "HWXDL", 4, "V_MFMA_F32_16X16X128_F8F6F4_f4_f4_gfx940_vcd"),
	}
	entries := []Entry{{Name: name, Cost: map[string]isa.Cost{"gfx950": c}}}
	// 256 CUs at 2,400 MHz: 16,384 FLOPs per cycle per CU at 4 passes.
	products := []isa.InstinctProduct{{Name: "Y", Target: "gfx950", CUs: 256, PeakMHz: 2400,
		Peaks: map[isa.DType]float64{isa.DTypeFP8: 5033.2, isa.DTypeFP6: 10066.3, isa.DTypeFP4: 10066.3}}}
	load := func(string) ([]Entry, error) { return entries, nil }
	byType := map[isa.DType]PeakCheck{}
	for _, c := range CheckPeaks(products, load) {
		byType[c.DType] = c
	}
	for _, d := range []isa.DType{isa.DTypeFP8, isa.DTypeFP6, isa.DTypeFP4} {
		if c := byType[d]; !c.Agrees || c.Instruction != name || !strings.Contains(c.Opcode, "_f"+strings.TrimPrefix(string(d), "fp")+"_") {
			t.Errorf("%s: %+v", d, c)
		}
	}
	c.Formats = nil
	entries[0].Cost["gfx950"] = c
	for _, pc := range CheckPeaks(products, load) {
		if pc.DType != isa.DTypeFP8 && (pc.Agrees || pc.Note == "") {
			t.Errorf("%s without its format's cost: %+v", pc.DType, pc)
		}
	}
}

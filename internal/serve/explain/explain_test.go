package explain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codec"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestKernelCostSummary: a kernel's estimate sums LLVM's modelled latencies
// by unit over its instructions (a collapsed run counted as often as it
// stands for), gives the mix of modelled instructions, counts and names
// those without a cost, leaves padding out, and is labelled a model.
func TestKernelCostSummary(t *testing.T) {
	a := isa.Architecture{ID: "cdna3", Kind: isa.KindNative, Targets: []string{"gfx942"}}
	ins := []*isa.Instruction{
		{Arch: "cdna3", Name: "v_mfma_f32_32x32x8_f16", Summary: "Multiply matrices.", Unit: "Vector",
			Targets: map[string]string{"gfx942": "supported", "gfx1100": "unsupported"},
			Cost:    map[string]isa.Cost{"gfx942": {Unit: "HWXDL[8]", Latency: 16}}},
		{Arch: "cdna3", Name: "v_add_f32", Summary: "Add.", Unit: "Vector", Targets: map[string]string{"gfx942": "supported", "gfx1100": "supported"},
			Cost: map[string]isa.Cost{"gfx942": {Unit: "HWVALU", Latency: 1}}},
		{Arch: "cdna3", Name: "s_endpgm", Summary: "End.", Unit: "Scalar", Targets: map[string]string{"gfx942": "supported"}},
		{Arch: "cdna3", Name: "s_nop", Summary: "Nothing.", Unit: "Scalar", Cost: map[string]isa.Cost{"gfx942": {Unit: "HWSALU", Latency: 1}}},
	}
	ns := codec.NotesOf(a, ins)
	entry := func(name, text string, repeat int) listing.Entry {
		return listing.Entry{Name: name, Text: text, Target: -1, Repeat: repeat, How: listing.FromText, Bytes: make([]byte, 4)}
	}
	es := []listing.Entry{
		entry("v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", 1),
		entry("v_add_f32", "v_add_f32_e32 v1, v2, v3", 3),
		entry("s_endpgm", "s_endpgm", 1),
		entry("s_nop", "s_nop 0", 5),
	}
	es[0].SetLabels([]string{"k"})
	es[0].Func = true
	es[3].Padding = true
	l := &listing.Listing{Arch: "cdna3", Target: "gfx942", Sections: []listing.Section{{Name: ".text", Entries: es}}}
	x := Explain(l, ns, Options{Also: []string{"gfx1100"}})
	if len(x.Kernels) != 1 {
		t.Fatalf("%d kernels", len(x.Kernels))
	}
	k := x.Kernels[0]
	c := k.Cost
	if k.Name != "k" || k.Instructions != 5 || k.Padding != 5 {
		t.Errorf("kernel %q: %d instructions, %d padding; want k, 5, 5", k.Name, k.Instructions, k.Padding)
	}
	if c.Target != "gfx942" || c.Latency["HWXDL"] != 16 || c.Latency["HWVALU"] != 3 || c.Total != 19 || c.Modelled != 4 {
		t.Errorf("cost %+v: want HWXDL 16, HWVALU 3 (three adds), total 19 over 4 modelled", c)
	}
	if c.Unmodelled != 1 || strings.Join(c.UnmodelledNames, ",") != "s_endpgm" {
		t.Errorf("unmodelled %d %v, want 1 [s_endpgm]", c.Unmodelled, c.UnmodelledNames)
	}
	if c.Mix["HWXDL"] != 25 || c.Mix["HWVALU"] != 75 {
		t.Errorf("mix %v, want XDL 25%%, VALU 75%%", c.Mix)
	}
	if u := k.Unsupported["gfx1100"]; u["v_mfma_f32_32x32x8_f16"] != 1 || len(u) != 1 {
		t.Errorf("unsupported on gfx1100: %v", u)
	}
	if k.Matrix["v_mfma_f32_32x32x8_f16"] != 1 {
		t.Errorf("matrix instructions %v", k.Matrix)
	}
	var out bytes.Buffer
	if err := WriteText(&out, x, false); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"cost on gfx942, " + ModelLabel, "latency by unit: HWXDL 16, HWVALU 3 (sum 19 cycles", "mix: XDL 25%, VALU 75%",
		"1 instruction has no modelled cost: s_endpgm", "not supported on gfx1100 (llvm-mc): 1 instruction"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the text lacks %q:\n%s", w, out.String())
		}
	}
}

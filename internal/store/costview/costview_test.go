package costview

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func sample() (isa.Architecture, []*isa.Instruction) {
	arch := isa.Architecture{ID: "cdna3", Targets: []string{"gfx940", "gfx942"}}
	c := func(unit string, lat int, rt float64, res ...isa.CostResource) isa.Cost {
		return isa.Cost{Unit: unit, Latency: lat, RThroughput: rt, UOps: 1, Resources: res}
	}
	ins := []*isa.Instruction{
		{Name: "v_add_f32", Cost: map[string]isa.Cost{"gfx942": c("HWVALU", 1, 1, isa.CostResource{Name: "HWVALU"})}},
		{Name: "v_mfma_f32_32x32x8_f16", Cost: map[string]isa.Cost{"gfx942": c("HWXDL", 18, 16, isa.CostResource{Name: "HWXDL", Cycles: 16})}},
		{Name: "v_exp_f32", Cost: map[string]isa.Cost{"gfx942": c("HWTransVALU", 4, 1, isa.CostResource{Name: "HWVALU"}, isa.CostResource{Name: "HWTransVALU"})}},
		{Name: "v_sqrt_f64", Cost: map[string]isa.Cost{"gfx942": c("HWVALU", 8, 4, isa.CostResource{Name: "HWVALU"})}},
		{Name: "v_unmodelled"},
	}
	return arch, ins
}

func names(t Table) []string {
	var n []string
	for _, r := range t.Rows {
		n = append(n, r.Name)
	}
	return n
}

func TestBuild(t *testing.T) {
	arch, ins := sample()
	for _, tc := range []struct {
		q    Query
		want []string
	}{
		{Query{}, []string{"v_add_f32", "v_exp_f32", "v_mfma_f32_32x32x8_f16", "v_sqrt_f64"}},
		{Query{Sort: "latency"}, []string{"v_mfma_f32_32x32x8_f16", "v_sqrt_f64", "v_exp_f32", "v_add_f32"}},
		{Query{Sort: "latency", Ascending: true, Limit: 2}, []string{"v_add_f32", "v_exp_f32"}},
		// A unit matches any resource the instruction holds, with or without HW.
		{Query{Unit: "valu", Sort: "latency"}, []string{"v_sqrt_f64", "v_exp_f32", "v_add_f32"}},
		{Query{Unit: "HWXDL"}, []string{"v_mfma_f32_32x32x8_f16"}},
		// Equal keys fall back to the name.
		{Query{Sort: "throughput", Unit: "VALU", Ascending: true}, []string{"v_add_f32", "v_exp_f32", "v_sqrt_f64"}},
	} {
		got, err := Build(arch, Entries(ins), tc.q)
		if err != nil {
			t.Fatalf("%+v: %v", tc.q, err)
		}
		if g := names(got); len(g) != len(tc.want) || func() bool {
			for i := range g {
				if g[i] != tc.want[i] {
					return true
				}
			}
			return false
		}() {
			t.Errorf("%+v: got %v, want %v", tc.q, g, tc.want)
		}
		if got.Target != "gfx942" {
			t.Errorf("%+v: default target %q, want the first with a cost", tc.q, got.Target)
		}
	}
	tab, _ := Build(arch, Entries(ins), Query{Limit: 1})
	if tab.Total != 4 || len(tab.Rows) != 1 {
		t.Errorf("limit: total %d rows %d", tab.Total, len(tab.Rows))
	}
	if want := []string{"HWTransVALU", "HWVALU", "HWXDL"}; len(tab.Units) != 3 || tab.Units[0] != want[0] || tab.Units[2] != want[2] {
		t.Errorf("units %v, want %v", tab.Units, want)
	}
	if _, err := Build(arch, Entries(ins), Query{Target: "gfx940"}); err == nil {
		t.Errorf("a target without modelled costs is accepted")
	}
	if _, err := Build(arch, Entries(ins), Query{Sort: "speed"}); err == nil {
		t.Errorf("an unknown sort is accepted")
	}
}

// TestTargetsAreTheFamilys: an example that also assembles on another
// family's target does not put that target in the family's ranking, unless
// no target of the family has a modelled instruction; Pack and Unpack keep
// the entries.
func TestTargetsAreTheFamilys(t *testing.T) {
	arch := isa.Architecture{ID: "cdna3", Targets: []string{"gfx940", "gfx942"}}
	entries := []Entry{{Name: "v_max_f32", Cost: map[string]isa.Cost{"gfx942": {Unit: "HWVALU", Latency: 1}, "gfx1100": {Unit: "HWVALU", Latency: 1}}}}
	packed, err := Pack(entries)
	if err != nil {
		t.Fatal(err)
	}
	if entries, err = Unpack(packed); err != nil || len(entries) != 1 || entries[0].Cost["gfx1100"].Unit != "HWVALU" {
		t.Fatalf("Unpack(Pack) = %+v, %v", entries, err)
	}
	tab, err := Build(arch, entries, Query{})
	if err != nil || strings.Join(tab.Targets, " ") != "gfx942" {
		t.Errorf("targets %q (%v), want gfx942 alone", tab.Targets, err)
	}
	if _, err := Build(arch, entries, Query{Target: "gfx1100"}); err == nil {
		t.Error("a CDNA 3 ranking on gfx1100 was accepted")
	}
	other := isa.Architecture{ID: "x", Targets: []string{"gfx900"}}
	if tab, err := Build(other, entries, Query{}); err != nil || len(tab.Targets) != 2 {
		t.Errorf("a family without modelled targets: %q, %v; want the others'", tab.Targets, err)
	}
	if _, err := Unpack([]byte("not gzip")); err == nil {
		t.Error("Unpack accepted garbage")
	}
}

package store

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// A vendor word, with the words of a porting question around it, leaves
// the query; a query that is only the vendor word keeps it.
func TestCutVendor(t *testing.T) {
	for _, c := range []struct{ q, rest, vendor string }{
		{"shfl.sync on amd", "shfl.sync on", isa.VendorAMD},
		{"what is the AMD equivalent of __ballot_sync", "is the of __ballot_sync", isa.VendorAMD},
		{"ds_bpermute in cuda", "ds_bpermute in", isa.VendorNVIDIA},
		{"amd", "amd", ""},
		{"warp shuffle", "warp shuffle", ""},
	} {
		rest, vendor := cutVendor(c.q)
		if rest != c.rest || vendor != c.vendor {
			t.Errorf("cutVendor(%q) = %q, %q; want %q, %q", c.q, rest, vendor, c.rest, c.vendor)
		}
	}
}

// A porting question's modifiers pick the relations that serve them: one
// the catalogue writes for the mnemonic (.cas) must be a relation's or its
// member's, one it never writes (.sync) picks nothing out.
func TestServingRelations(t *testing.T) {
	cat, err := concepts.LoadFiles(map[string][]byte{"a.yaml": []byte(`concepts:
  - id: cas
    name: Compare and swap
    description: CAS.
    ptx: [{mnemonic: atom, variants: [.cas, .b32]}]
    amd: [{mnemonic: global_atomic_cmpswap}]
    relations:
      - {ptx: atom, amd: global_atomic_cmpswap, relation: equivalent with restrictions, variants: [.cas.b32], restrictions: ["x"]}
  - id: add
    name: Atomic add
    description: Add.
    ptx: [{mnemonic: atom, variants: [.add, .u32]}]
    amd: [{mnemonic: global_atomic_add_u32}]
    relations:
      - {ptx: atom, amd: global_atomic_add_u32, relation: equivalent with restrictions, variants: [.add.u32], restrictions: ["x"]}
`)})
	if err != nil {
		t.Fatal(err)
	}
	amd := func(mods ...string) []string {
		var out []string
		for _, r := range servingRelations(cat.ForPTX("atom"), "atom", mods) {
			out = append(out, r.AMD)
		}
		return out
	}
	if got, want := amd(".cas"), []string{"global_atomic_cmpswap"}; !reflect.DeepEqual(got, want) {
		t.Errorf("atom.cas: %q, want %q", got, want)
	}
	if got, want := amd(".sync"), []string{"global_atomic_cmpswap", "global_atomic_add_u32"}; !reflect.DeepEqual(got, want) {
		t.Errorf("atom.sync: %q, want %q", got, want)
	}
}

// The closest relation's names come first, then the commoner type.
func TestClosestFirst(t *testing.T) {
	rels := []concepts.Relation{
		{AMD: "v_mov_b32", Kind: concepts.Partial},
		{AMD: "v_rsq_f64", Kind: concepts.EquivalentWithRestrictions},
		{AMD: "v_rsq_f32", Kind: concepts.EquivalentWithRestrictions},
		{AMD: "v_mov_b32", Kind: concepts.Equivalent},
	}
	got := closestFirst(rels, func(r concepts.Relation) string { return r.AMD })
	if want := []string{"v_mov_b32", "v_rsq_f32", "v_rsq_f64"}; !reflect.DeepEqual(got, want) {
		t.Errorf("closestFirst = %q, want %q", got, want)
	}
}

// A PTX instruction's type and vector modifiers are the widths and float
// types AMD's names spell.
func TestPTXQualifiers(t *testing.T) {
	for _, c := range []struct {
		mods []string
		want []string
	}{
		{[]string{".shared", ".b128"}, []string{"128-bit", "shared"}},
		{[]string{".global", ".v4", ".f32"}, []string{"128-bit", "global"}},
		{[]string{".global", ".add"}, []string{"global"}},
		{[]string{".rn", ".f16", ".f32", ".f16.f32"}, []string{"f16", "16-bit"}},
		{[]string{".cas"}, nil},
	} {
		if got := ptxQualifiers(c.mods); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ptxQualifiers(%q) = %q, want %q", c.mods, got, c.want)
		}
	}
}

// Porting questions the catalogue answers through more than one word: a
// PTX name's head ("wgmma": wgmma.mma_async), a PTX name with modifiers
// typed apart ("mma.sync m16n8k16"), and an AMD name the catalogue relates
// to nothing, answered by the synonym table's group that lists it
// (v_max3_f32: "maximum of three", PTX max).
func TestPortingHeadsModifiersAndSynonymFallback(t *testing.T) {
	b := sampleBuild()
	b.Archs = append(b.Archs, isa.Architecture{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20})
	for _, n := range []string{"wgmma.mma_async", "wgmma.fence", "mma", "max"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "ptx", Name: n, Vendor: isa.VendorNVIDIA, Summary: "A PTX instruction."})
	}
	for _, n := range []string{"v_mfma_f32_16x16x16_f16", "v_max3_f32"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "cdna4", Name: n, Vendor: isa.VendorAMD, Summary: "An AMD instruction."})
	}
	cat, err := json.Marshal(map[string]string{"matrix.yaml": `concepts:
  - id: mma
    name: Matrix multiply
    description: MMA.
    ptx: [{mnemonic: wgmma.mma_async}, {mnemonic: mma}]
    amd: [{mnemonic: v_mfma_f32_16x16x16_f16}]
    relations:
      - {ptx: wgmma.mma_async, amd: v_mfma_f32_16x16x16_f16, relation: equivalent with restrictions, restrictions: ["x"]}
      - {ptx: mma, amd: v_mfma_f32_16x16x16_f16, relation: equivalent with restrictions, restrictions: ["x"]}
`})
	if err != nil {
		t.Fatal(err)
	}
	b.Extras[KeyConcepts] = cat
	s := writeOpen(t, b)
	for q, want := range map[string]string{
		"wgmma on amd":             "v_mfma_f32_16x16x16_f16",
		"mma.sync m16n8k16 on amd": "v_mfma_f32_16x16x16_f16",
		"v_max3_f32 ptx":           "max",
		// The family word says the name's side, the vendor word the
		// answer's.
		"wgmma.mma_async ptx on amd": "v_mfma_f32_16x16x16_f16",
	} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil || len(hits) == 0 || hits[0].Name != want || !strings.HasPrefix(hits[0].Why, "counterpart of ") {
			t.Errorf("Search(%q) = %+v %v, want the counterpart %s first", q, hits, err, want)
		}
	}
	// Words after a PTX name that are no modifiers make it no porting
	// question ("mma.sync for attention on amd" asks something else).
	if hits, _ := s.Search(context.Background(), "mma.sync attention on amd", SearchOptions{}); len(hits) > 0 && strings.HasPrefix(hits[0].Why, "counterpart of ") {
		t.Errorf("mma.sync attention on amd: %+v, want no counterparts", hits)
	}
}

// A PTX name and modifiers typed apart are its dotted form when one of
// them is PTX's alone (a rounding, approx, a shape); types alone are a
// question of either vendor.
func TestJoinPTXModifiers(t *testing.T) {
	b := sampleBuild()
	b.Archs = append(b.Archs, isa.Architecture{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20})
	for _, n := range []string{"ex2", "max", "mma"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "ptx", Name: n, Vendor: isa.VendorNVIDIA, Summary: "A PTX instruction."})
	}
	s := writeOpen(t, b)
	for q, want := range map[string]string{
		"ex2 approx f16":    "ex2.approx.f16",
		"mma.sync m16n8k16": "mma.sync.m16n8k16",
		"max f16":           "max f16",
		"max of two floats": "max of two floats",
		"v_max_f32 approx":  "v_max_f32 approx",
	} {
		if got := s.joinPTXModifiers(q); got != want {
			t.Errorf("joinPTXModifiers(%q) = %q, want %q", q, got, want)
		}
	}
	hits, err := s.Search(context.Background(), "ex2 approx f16", SearchOptions{})
	if err != nil || len(hits) == 0 || hits[0].Name != "ex2" {
		t.Errorf("ex2 approx f16: %+v %v, want ex2 first", hits, err)
	}
}

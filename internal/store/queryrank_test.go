package store

import (
	"slices"
	"testing"
)

// A name's stem is the operation its type, width, packing and memory
// variants share.
func TestNameStem(t *testing.T) {
	for name, want := range map[string]string{
		"v_fma_f32": "v_fma", "v_pk_fma_bf16": "v_fma", "v_fma_mix_f32_bf16": "v_fma_mix",
		"global_atomic_max_i32": "mem_max", "ds_max_i64": "mem_max", "global_atomic_smax_x2": "mem_smax",
		"global_load_dwordx4": "mem_load", "ds_load_b128": "mem_load", "v_max_f64": "v_max",
		"v_mfma_f32_32x32x8bf16": "v_mfma_32x32x8bf16", "shfl.sync": "shfl_sync",
	} {
		if got := nameStem(name); got != want {
			t.Errorf("nameStem(%s) = %s, want %s", name, got, want)
		}
	}
}

// Qualifier words are read out of a query, "64 bit" as "64-bit", and a
// name carries those its parts spell.
func TestQualifiers(t *testing.T) {
	qw := readQuery("shared memory store 128 bit")
	if qw.core != "store" || len(qw.quals) != 2 {
		t.Fatalf("readQuery: core %q, %d qualifiers", qw.core, len(qw.quals))
	}
	for name, want := range map[string]int{"ds_store_b128": 2, "ds_write_b128": 2, "ds_store_b32": 1, "global_store_dwordx4": 1, "st": 0} {
		if got := qw.satisfied(name); got != want {
			t.Errorf("%s carries %d of the qualifiers, want %d", name, got, want)
		}
	}
	f16 := readQuery("fma f16")
	for name, want := range map[string]int{"v_fma_f16": 1, "v_pk_fma_bf16": 0, "v_mfma_f32_32x32x8f16": 1, "v_fma_f32": 0} {
		if got := f16.satisfied(name); got != want {
			t.Errorf("f16: %s carries %d, want %d", name, got, want)
		}
	}
	if !onlyQualifiers("shared memory") || !onlyQualifiers("LDS") || onlyQualifiers("atomic add") {
		t.Error("onlyQualifiers")
	}
}

// A qualifier finds the sibling of a synonym's instruction that carries it,
// in the same unit unless the qualifier names another.
func TestSiblings(t *testing.T) {
	s := &DB{names: []string{"v_fma_f32", "v_fma_f16", "v_pk_fma_bf16", "v_fma_mix_f32_bf16", "global_load_b32", "global_load_b128", "ds_load_b128", "ds_load_b64"}}
	for q, want := range map[string][]string{
		"fma bf16":         {"v_pk_fma_bf16"},
		"load 128-bit":     {"global_load_b128"},
		"lds load 128-bit": {"ds_load_b128"},
	} {
		qw := readQuery(q)
		base := "v_fma_f32"
		if qw.core != "fma" {
			base = "global_load_b32"
		}
		if got := s.siblings(base, &qw); !slices.Equal(got, want) {
			t.Errorf("%q: siblings of %s = %q, want %q", q, base, got, want)
		}
	}
}

package ptx

import (
	"strings"
	"testing"
)

// TestMatrixFragments: register counts of mma fragments as ptxas accepts
// them (each row was assembled with ptxas 13 for sm_120a), and the block
// scaling's {byte-id, thread-id} pairs written as immediates.
func TestMatrixFragments(t *testing.T) {
	for _, tc := range []struct {
		stmt string
		want map[string]int
	}{
		{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", map[string]int{"d": 4, "a": 4, "b": 2, "c": 4}},
		// 4-bit e2m1 under kind::f8f6f4 still takes a byte per element.
		{"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32", map[string]int{"d": 4, "a": 4, "b": 2, "c": 4}},
		{"mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e2m1.f32.ue8m0", map[string]int{"a": 4, "b": 2}},
		// kind::mxf4 packs e2m1 two to a byte.
		{"mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0", map[string]int{"d": 4, "a": 4, "b": 2, "c": 4}},
	} {
		tokens := strings.Split(tc.stmt, ".")
		for name, want := range tc.want {
			if got := fragmentLength(tokens, name); got != want {
				t.Errorf("%s: %s has %d registers, want %d", tc.stmt, name, got, want)
			}
		}
	}
	tokens := strings.Split("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0", ".")
	if got := concreteOperand("{byte-id-a, thread-id-a}", 5, tokens, map[int]int{}, map[int]int{}); got != "{0, 0}" {
		t.Errorf("{byte-id-a, thread-id-a} became %q, want {0, 0}", got)
	}
	if got := concreteOperand("{x, y}", 5, tokens, map[int]int{}, map[int]int{}); got != "{x, y}" {
		t.Errorf("{x, y} became %q", got)
	}
}

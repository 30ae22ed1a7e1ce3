package ptx

import (
	"strings"
	"testing"
)

// renderForm writes the canonical statement of a syntax line whose
// opcode is already concrete, as the probes do.
func renderForm(opcode, operands string) string {
	text, _ := renderProbe(parseOperandTemplate(operands), strings.Split(opcode, "."), nil, nil)
	return text
}

// TestProbeOperandClasses: the operand classes ptxas could not be given
// operands for (issue 11's follow-up), one row per class, each written as
// ptxas accepts it (checked with ptxas 13 on sm_90a / sm_100a).
func TestProbeOperandClasses(t *testing.T) {
	for _, tc := range []struct{ opcode, operands, want string }{
		// Immediates by role (code I): a size of 128, a pmevent number,
		// the enumerated tensormap fields' new value.
		{"applypriority.global.L2::evict_normal", "[a], size", "applypriority.global.L2::evict_normal [a], 128;"},
		{"discard.global.L2", "[a], size", "discard.global.L2 [a], 128;"},
		{"fence.proxy.tensormap::generic.acquire.cta", "[addr], size", "fence.proxy.tensormap::generic.acquire.cta [addr], 128;"},
		{"pmevent.mask", "a", "pmevent.mask 1;"},
		{"tensormap.replace.tile.elemtype.b1024.b32", "[addr], new_val", "tensormap.replace.tile.elemtype.b1024.b32 [addr], 1;"},
		// ... but a size that is a register stays one.
		{"cp.async.bulk.prefetch.L2.global", "[srcMem], size", "cp.async.bulk.prefetch.L2.global [srcMem], size;"},
		{"tensormap.replace.tile.box_dim.b1024.b32", "[addr], ord, new_val", "tensormap.replace.tile.box_dim.b1024.b32 [addr], 0, new_val;"},
		// A special register of the instruction's width.
		{"mov.u64", "d, sreg", "mov.u64 d, %clock64;"},
		{"mov.u32", "d, sreg", "mov.u32 d, %tid.x;"},
		// tex.grad's gradients are vectors of the geometry's dimensions.
		{"tex.grad.2d.v4.f32.f32", "d, [a, c], dPdx, dPdy", "tex.grad.2d.v4.f32.f32 {d0, d1, d2, d3}, [a, {c0, c1}], {dPdx0, dPdx1}, {dPdy0, dPdy1};"},
		{"tex.grad.cube.v4.f32.f32", "d, [a, c], dPdx, dPdy", "tex.grad.cube.v4.f32.f32 {d0, d1, d2, d3}, [a, {c0, c1, c2, c3}], {dPdx0, dPdx1, dPdx2, dPdx3}, {dPdy0, dPdy1, dPdy2, dPdy3};"},
		// multimem.st and .red store a vector from their second operand.
		{"multimem.st.v2.f16", "[a], b", "multimem.st.v2.f16 [a], {b0, b1};"},
		{"multimem.red.add.v4.f32", "[a], b", "multimem.red.add.v4.f32 [a], {b0, b1, b2, b3};"},
	} {
		if got := renderForm(tc.opcode, tc.operands); got != tc.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.opcode, tc.operands, got, tc.want)
		}
	}
}

// TestOperandRoleClasses: packed f32x2 is a 64-bit type; cp.reduce.async.bulk
// takes 64-bit addresses and a 32-bit size whatever its data type.
func TestOperandRoleClasses(t *testing.T) {
	if got := OperandRoles("add", strings.Split("add.rn.f32x2", "."), 3); strings.Join(got, " ") != ".b64 .b64 .b64" {
		t.Errorf("add.rn.f32x2 roles %v, want .b64 registers", got)
	}
	if got := OperandRoles("cp.reduce.async.bulk", strings.Split("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.and.b64", "."), 4); strings.Join(got, " ") != ".b64 .b64 .b32 .b64" {
		t.Errorf("cp.reduce.async.bulk .b64 roles %v", got)
	}
}

// TestDenseCounterpart: a sparse mma's dense statement, at the dense
// fragment sizes.
func TestDenseCounterpart(t *testing.T) {
	got, ok := DenseCounterpart("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 {d0, d1}, {a0, a1}, {b0, b1}, {c0, c1, c2, c3}, e, 0;")
	want := "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 {d0, d1}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};"
	if !ok || got != want {
		t.Errorf("dense counterpart %q, want %q", got, want)
	}
	if _, ok := DenseCounterpart("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d0, d1, d2, d3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};"); ok {
		t.Errorf("a dense mma has no dense counterpart")
	}
}

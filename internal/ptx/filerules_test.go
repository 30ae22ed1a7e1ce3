package ptx

import (
	"strings"
	"testing"
)

// TestFileRules: the rules the CUDA corpus showed ptxas applies to a
// statement in its file, each with a statement ptxas 13.5 accepts and one
// it rejects: registers typed inside an inline-PTX block, integer literals
// for floating-point types, a header's return parameter, suld/sust
// registers, prefetch sizes and 256-bit accesses off .global, a cache
// hint without its policy, a call's arity, wmma fragment sizes, and the
// ptxas facts (set.bf16.bf16, wgmma without .aligned, atom.cas's four
// operands).
func TestFileRules(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	head := ".version 8.8\n.target sm_100a\n.address_size 64\n" +
		".func (.param .b32 func_retval0) f(.param .b32 f_p0, .param .b32 f_p1)\n{\nret;\n}\n" +
		".visible .entry k()\n{\n.reg .b16 %rs<4>; .reg .b32 %r<10>; .reg .f32 %f<9>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n.param .b32 param0;\n.param .b32 param1;\n.param .b32 retval0;\n"
	for _, tc := range []struct {
		stmt, why string // why: a word of the reason; "" for valid
	}{
		{"{ .reg .b16 r; .reg .f32 g;\n cvt.rn.f16.f32 r, g; }", ""},
		{"{ .reg .b16 r; .reg .f32 g;\n cvt.rn.f16.u64 r, g; }", "declared .f32"},
		{"{.reg.b16 r;\n mov.b32 r, 0x3c00U; }", "16-bit register"},
		{"mov.f32 %f1, 0f3F800000;", ""},
		{"mov.f32 %f1, 0;", "integer literal"},
		{"fma.rn.f32 %f1, %f1, %f2, 27;", "integer literal"},
		{"sust.b.2d.v4.b16.zero [%rd1, {%r1, %r2}], {%r3, %r4, %r5, %r6};", ""},
		{"suld.b.2d.b64.trap {%r4}, [%rd1, {%r3, %r2}];", "32-bit register"},
		{"ld.global.L2::128B.b32 %r1, [%rd1];", ""},
		{"ld.shared.L2::128B.b32 %r1, [%rd1];", "prefetch"},
		{"ld.global.v8.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1];", ""},
		{"ld.local.v8.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1];", "256-bit"},
		{"ld.global.L2::cache_hint.b32 %r1, [%rd1], %rd2;", ""},
		{"ld.global.L2::cache_hint.b32 %r1, [%rd1];", "cache-policy"},
		{"call.uni (retval0), f, (param0, param1);", ""},
		{"call.uni (retval0), f, (param0);", "wrong number"},
		{"wmma.load.a.sync.aligned.col.m32n8k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;", ""},
		{"wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1, %r2, %r3, %r4}, [%rd3], %r9;", "vector size"},
		{"set.nan.bf16.bf16 %rs1, %rs2, %rs2;", ""},
		{"set.nan.f16.bf16 %rs1, %rs2, %rs2;", "no documented form"},
		{"wgmma.wait_group.sync 0;", ""},
		{"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", ""},
		{"atom.global.cas.b32 %r1, [%rd1], %r2;", "operand"},
	} {
		h := head
		if strings.HasPrefix(tc.stmt, "wgmma") {
			h = strings.Replace(head, "sm_100a", "sm_90a", 1) // wgmma is sm_90a's alone
		}
		rep := c.CheckSource("a.ptx", h+tc.stmt+"\nret;\n}\n")
		var bad []string
		for _, r := range rep.Results {
			if !r.Valid && !strings.HasPrefix(r.Text, "ret") {
				bad = append(bad, r.Reason)
			}
		}
		switch {
		case tc.why == "" && len(bad) > 0:
			t.Errorf("%s: invalid (%v), want valid", tc.stmt, bad)
		case tc.why != "" && (len(bad) == 0 || !strings.Contains(bad[0], tc.why)):
			t.Errorf("%s: %v, want invalid with %q", tc.stmt, bad, tc.why)
		}
	}
	// func_retval0 declared in the header is a .param variable.
	if rep := c.CheckSource("a.ptx", head+"ret;\n}\n.func (.param .b32 func_retval0) g()\n{\n.reg .f32 %f<2>;\nst.global.f32 [func_retval0+0], %f1;\nret;\n}\n"); rep.Invalid == 0 {
		t.Errorf("st.global to func_retval0: %+v, want invalid", rep.Results)
	}
}

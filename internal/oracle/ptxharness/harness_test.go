package ptxharness

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ptx"
)

// TestByteRegisters: 8-bit registers are loaded and stored as bytes.
func TestByteRegisters(t *testing.T) {
	h := NewHarness(nil)
	u, _, err := h.Unit(ptx.Statement{Text: "cvt.rni.u8.bf16 d, a;", OperandTypes: map[int]string{0: ".b8"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".reg .b8 d;", "ld.global.b8 d,", "st.global.b8 [gpuisa_p+"} {
		if !strings.Contains(u.Entry, want) {
			t.Errorf("a .b8 register: the unit lacks %q:\n%s", want, u.Entry)
		}
	}
}

// TestHarnessCallsAndBranchTables: call statements get a function of
// their parameters' shape (return parameters apart), an indirect call a
// function pointer with a .calltargets list or a .callprototype, and
// brx.idx a .branchtargets list.
func TestHarnessCallsAndBranchTables(t *testing.T) {
	h := NewHarness([]ptx.Instruction{{Name: "call", Kind: ptx.KindInstruction}, {Name: "brx.idx", Kind: ptx.KindInstruction}})
	for _, tc := range []struct {
		stmt string
		want []string
	}{
		{"call (ret-param), func, (param-list);", []string{".func (.param .b32 gpuisa_r0) func_$U(.param .b32 gpuisa_a0)", ".param .b32 ret_param;", "call (ret_param), func_$U, (param_list);"}},
		{"call func;", []string{".func func_$U()"}},
		{"call (r), fptr, (a, b), flist;", []string{".func (.param .b32 gpuisa_r0) gpuisa_f_$U(.param .b32 gpuisa_a0, .param .b32 gpuisa_a1)",
			".reg .b64 fptr;", "mov.u64 fptr, gpuisa_f_$U;", "flist: .calltargets gpuisa_f_$U;"}},
		{"call fptr, (a), fproto;", []string{"fproto: .callprototype _ (.param .b32 gpuisa_a0);"}},
		{"brx.idx index, tlist;", []string{".reg .b32 index;", "tlist: .branchtargets gpuisa_l;", "brx.idx index, tlist; // gpuisa:statement\ngpuisa_l:"}},
	} {
		u, _, err := h.Unit(ptx.Statement{Text: tc.stmt})
		if err != nil {
			t.Fatalf("%s: %v", tc.stmt, err)
		}
		all := u.Module + "\n" + u.Entry
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: the unit lacks %q:\n%s", tc.stmt, w, all)
			}
		}
		if h.OnlyRegisters(ptx.Statement{Text: tc.stmt}) {
			t.Errorf("%s: OnlyRegisters, but the harness declares more than registers", tc.stmt)
		}
	}
	if !h.OnlyRegisters(ptx.Statement{Text: "mov.f32 d, avar;"}) {
		t.Errorf("mov.f32 d, avar: the harness chooses only d's register type")
	}
}

// FuzzHarness: any statement text either becomes a kernel or an error,
// never a panic.
func FuzzHarness(f *testing.F) {
	for _, s := range []string{"max.NaN.f32 d, a, b;", "call (r), f, (a, b);", "bra L;", "mov.u64 d, avar+4;",
		"tex.2d.v4.f32.f32 {a,b,c,d}|p, [t, s, {x, y}];", "cvta.const.u32 p, var;", "@!p st.global.v2.f32 [a+4], {b, c};",
		"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d0,d1,d2,d3}, {a0,a1,a2,a3}, {b0,b1}, {c0,c1,c2,c3};", "", "[", "{,}|!"} {
		f.Add(s)
	}
	h := NewHarness(fuzzInstrs())
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		u, _, err := h.Unit(ptx.Statement{Text: s})
		if err == nil && !strings.Contains(u.Entry, "$U") {
			t.Fatalf("unit of %q names no entry: %s", s, u.Entry)
		}
	})
}

// fuzzInstrs are the mnemonics of the fuzz seeds, so the harness knows them.
func fuzzInstrs() []ptx.Instruction {
	var out []ptx.Instruction
	for _, m := range []string{"max", "call", "bra", "mov", "tex", "cvta", "st", "mma", "ld"} {
		out = append(out, ptx.Instruction{Name: m, Kind: ptx.KindInstruction})
	}
	return out
}

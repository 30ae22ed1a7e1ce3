package ptxoracle

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestOperandClasses runs one statement per class of forms ptxas could
// not be given operands for (issue 11's follow-up) through ptxas: each
// must end accepted, or rejected for what it is, not for the harness.
func TestOperandClasses(t *testing.T) {
	s := ptxas.NewSession(testenv.PTXAS(t), ptxas.DefaultCacheDir())
	s.ParseOnly = true
	h := ptxharness.NewHarness([]ptx.Instruction{{Name: "call", Kind: ptx.KindInstruction}, {Name: "brx.idx", Kind: ptx.KindInstruction},
		{Name: "%tid", Kind: ptx.KindSpecialRegister}})
	e, err := New(context.Background(), s, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		status    string
		message   string // part of ptxas's message, for a rejection
		exhausted bool
	}
	cases := []struct {
		item Item
		want want
	}{
		// Packed f32x2 lives in 64-bit registers.
		{Item{Stmt: ptx.Statement{Text: "add.rn.f32x2 d, a, b;"}}, want{status: Accepted}},
		// 8-bit values ptxas wants in .b8 registers.
		{Item{Stmt: ptx.Statement{Text: "cvt.rni.u8.bf16 d, a;"}}, want{status: Accepted}},
		{Item{Stmt: ptx.Statement{Text: "cvt.rn.satfinite.e2m1x2.f32 d, a, b;"}}, want{status: Accepted}},
		// With the byte register ptxas reads the operands and says what
		// is wrong: .e5m2 alone is no type of multimem.st.
		{Item{Stmt: ptx.Statement{Text: "multimem.st.e5m2 [a], b;"}}, want{status: Rejected, message: "Unexpected instruction types"}},
		// Every register type tried, nothing else chosen by the harness.
		{Item{Stmt: ptx.Statement{Text: "mov.pred d, %tid.x;"}, Complete: true}, want{status: Rejected, message: "Arguments mismatch", exhausted: true}},
		{Item{Stmt: ptx.Statement{Text: "mov.f32 d, avar;"}, Complete: true}, want{status: Rejected, message: "Arguments mismatch", exhausted: true}},
		// A statement that leaves out an optional operand is not
		// exhausted: .L2::cache_hint wants its cache policy.
		{Item{Stmt: ptx.Statement{Text: "ld.global.L2::cache_hint.b32 d, [a];"}}, want{status: Rejected, message: "Arguments mismatch"}},
		// Calls, indirect calls, branch tables, immediates by role.
		{Item{Stmt: ptx.Statement{Text: "call (r), f, (a, b);"}}, want{status: Accepted}},
		{Item{Stmt: ptx.Statement{Text: "call (r), fptr, (a), flist;"}}, want{status: Accepted}},
		{Item{Stmt: ptx.Statement{Text: "call fptr, fproto;"}}, want{status: Accepted}},
		{Item{Stmt: ptx.Statement{Text: "brx.idx.uni index, tlist;"}}, want{status: Accepted}},
		{Item{Stmt: ptx.Statement{Text: "applypriority.global.L2::evict_normal [a], 128;"}}, want{status: Accepted}},
		{Item{Stmt: ptx.Statement{Text: "tex.grad.2d.v4.f32.f32 {d0, d1, d2, d3}, [a, {c0, c1}], {x0, x1}, {y0, y1};"}}, want{status: Accepted}},
		// The dense counterpart of a sparse mma whose .dtype is not its
		// .ctype names the rule.
		{Item{Stmt: ptx.Statement{Text: "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 {d0, d1}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};"}},
			want{status: Rejected, message: ".dtype must be"}},
	}
	items := make([]Item, len(cases))
	for i, c := range cases {
		items[i] = c.item
	}
	vs, err := e.Check(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		v := vs[i]
		if v.Status != c.want.status || !strings.Contains(v.Message, c.want.message) || v.Exhausted != c.want.exhausted {
			t.Errorf("%s: %s %q exhausted=%v, want %s %q exhausted=%v", c.item.Stmt.Text, v.Status, v.Message, v.Exhausted, c.want.status, c.want.message, c.want.exhausted)
		}
	}
}

// TestCandidatesExhaustive: the search covers every register typing of a
// complete statement of one or two registers, and says so; not of one
// that leaves an operand out, nor of one with vectors.
func TestCandidatesExhaustive(t *testing.T) {
	decls := []ptxharness.Declared{{Name: "d", Type: ".b32", Operand: 0}, {Name: "a", Type: ".b32", Operand: 1}}
	cs, ok := candidates(Item{Stmt: ptx.Statement{Text: "cvt.f32.f32 d, a;"}, Complete: true}, decls, 24, true)
	if !ok || len(cs) != 24 {
		t.Errorf("two registers: %d candidates, exhaustive=%v; want all 24 other typings", len(cs), ok)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.stmt.OperandTypes[0]+"/"+c.stmt.OperandTypes[1]] = true
	}
	if !seen[".b8/.b16"] || !seen["/.pred"] || !seen[".b64/"] {
		t.Errorf("two registers: typings %v lack pairs or singles", seen)
	}
	if _, ok := candidates(Item{Stmt: ptx.Statement{Text: "cvt.f32.f32 d, a;"}}, decls, 24, true); ok {
		t.Errorf("an incomplete statement is never exhausted")
	}
	if _, ok := candidates(Item{Stmt: ptx.Statement{Text: "cvt.f32.f32 d, a;"}, Complete: true}, decls, 24, false); ok {
		t.Errorf("a statement naming more than registers is never exhausted")
	}
	if _, ok := candidates(Item{Stmt: ptx.Statement{Text: "cvt.f32.f32 d, a;"}, Complete: true, Lengths: map[int]int{0: 2}}, decls, 24, true); ok {
		t.Errorf("a statement with vectors is never exhausted")
	}
}

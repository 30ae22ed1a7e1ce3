package ptx

import (
	"strings"
	"testing"
)

func FuzzParseInstruction(f *testing.F) {
	for _, s := range []string{"max.NaN.f32 d, a, b;", "@!p bra L1;", "L: mov.b64 d, {a, b};", "ld.global.v4.f32 {a,b,c,d}, [x+8];", "", "@", "{", "a..b"} {
		f.Add(s)
	}
	c := NewChecker(fuzzInstrs(f))
	f.Fuzz(func(t *testing.T, s string) {
		_, _, _ = ParseInstruction(s)
		_ = c.Check(s)
		_ = c.CheckSource("fuzz.ptx", s)
	})
}

// fuzzInstrs uses the made-up fixture so the fuzz test runs without the docs.
func fuzzInstrs(f *testing.F) []Instruction {
	instrs, _ := Build(fixtureSectionsForFuzz())
	return instrs
}

// FuzzHarness: any statement text either becomes a kernel or an error,
// never a panic, and the probe key of any text is computed.
func FuzzHarness(f *testing.F) {
	for _, s := range []string{"max.NaN.f32 d, a, b;", "call (r), f, (a, b);", "bra L;", "mov.u64 d, avar+4;",
		"tex.2d.v4.f32.f32 {a,b,c,d}|p, [t, s, {x, y}];", "cvta.const.u32 p, var;", "@!p st.global.v2.f32 [a+4], {b, c};",
		"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d0,d1,d2,d3}, {a0,a1,a2,a3}, {b0,b1}, {c0,c1,c2,c3};", "", "[", "{,}|!"} {
		f.Add(s)
	}
	h := NewHarness(fuzzInstrs(f))
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		u, _, err := h.Unit(Statement{Text: s})
		if err == nil && !strings.Contains(u.Entry, "$U") {
			t.Fatalf("unit of %q names no entry: %s", s, u.Entry)
		}
		_ = ProbeKey(s)
		_ = shapeOf(s)
	})
}

package ptx

import "testing"

func FuzzParseInstruction(f *testing.F) {
	for _, s := range []string{"max.NaN.f32 d, a, b;", "@!p bra L1;", "L: mov.b64 d, {a, b};", "ld.global.v4.f32 {a,b,c,d}, [x+8];", "", "@", "{", "a..b",
		// Files: registers per function, inline blocks, directives, 64-bit addresses.
		".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n.maxclusterrank 2\n{\n.reg .b32 %r<3>;\n{ .reg .pred %p; }\nld.global.u32 %r1, [%r2+4];\nadd.s32 %r1, %r9, %tid.x;\n}\n",
		".entry k(){ /* { */ .reg .v4 .f32 %v; mov.b32 %r1, %v.x; } } { %q",
		".version 9.9\n.target sm_90\n{\n%L1: bra %L1;\n}"} {
		f.Add(s)
	}
	c := NewChecker(fuzzInstrs(f))
	f.Fuzz(func(t *testing.T, s string) {
		_, _, _ = ParseInstruction(s)
		_ = c.Check(s)
		rep := c.CheckSource("fuzz.ptx", s)
		if n := rep.Valid + rep.Invalid + rep.Unjudged; n != len(rep.Results) {
			t.Fatalf("%d valid + %d invalid + %d unjudged, %d results", rep.Valid, rep.Invalid, rep.Unjudged, len(rep.Results))
		}
		_ = ProbeKey(s)
		_ = shapeOf(s)
	})
}

// fuzzInstrs uses the made-up fixture so the fuzz test runs without the docs.
func fuzzInstrs(f *testing.F) []Instruction {
	instrs, _ := Build(fixtureSectionsForFuzz())
	return instrs
}

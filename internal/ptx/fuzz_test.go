package ptx

import "testing"

func FuzzParseInstruction(f *testing.F) {
	for _, s := range []string{"max.NaN.f32 d, a, b;", "@!p bra L1;", "L: mov.b64 d, {a, b};", "ld.global.v4.f32 {a,b,c,d}, [x+8];", "", "@", "{", "a..b"} {
		f.Add(s)
	}
	c := NewChecker(fuzzInstrs(f))
	f.Fuzz(func(t *testing.T, s string) {
		_, _, _ = ParseInstruction(s)
		_ = c.Check(s)
		_ = c.CheckSource("fuzz.ptx", s)
		_ = ProbeKey(s)
		_ = shapeOf(s)
	})
}

// fuzzInstrs uses the made-up fixture so the fuzz test runs without the docs.
func fuzzInstrs(f *testing.F) []Instruction {
	instrs, _ := Build(fixtureSectionsForFuzz())
	return instrs
}

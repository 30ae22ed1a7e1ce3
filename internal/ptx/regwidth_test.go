package ptx

import "testing"

// The documents' relaxed operand sizes: wider registers for bit-size and
// integer types of ld, st and cvt, never for a floating-point type unless
// the register is bit-size; 8-bit types in wider registers everywhere.
func TestRegMismatchWidths(t *testing.T) {
	for _, c := range []struct {
		reg, typ string
		wider    bool
		ok       bool
	}{
		{".b32", ".u16", true, true},
		{".u64", ".s8", true, true},
		{".b32", ".f16", true, true},
		{".f32", ".f16", true, false}, // cvt.f64.f16 d, %f: ptxas's Arguments mismatch
		{".f64", ".f32", true, false},
		{".b16", ".b32", true, false},
		{".b32", ".u16", false, false},
	} {
		if got := regMismatch(c.reg, c.typ, c.wider) == ""; got != c.ok {
			t.Errorf("regMismatch(%s, %s, %v): ok=%v, want %v", c.reg, c.typ, c.wider, got, c.ok)
		}
	}
}

package sem

import (
	"errors"
	"strings"
	"testing"
)

// TestSignedZeroLiteralIsSignExact: a zero literal written with its sign
// tests the sign (the CDNA guides' V_MAX/V_MIN branches); an unsigned one
// is IEEE equality; either side, == and !=, and through a cast.
func TestSignedZeroLiteralIsSignExact(t *testing.T) {
	pos, neg, one, nan := f32bits(0), uint64(0x80000000), f32bits(1), uint64(0x7fc00000)
	for _, c := range []struct {
		cond string
		x    uint64
		want uint64
	}{
		{"S0.f32 == +0.0", pos, 1}, {"S0.f32 == +0.0", neg, 0},
		{"S0.f32 == -0.0", neg, 1}, {"S0.f32 == -0.0", pos, 0},
		{"-0.0 == S0.f32", neg, 1}, {"+0.0 == S0.f32", neg, 0},
		{"64'F(S0.f32) == +0.0", neg, 0}, {"64'F(S0.f32) == -0.0", neg, 1},
		{"S0.f32 == 0.0", neg, 1}, {"S0.f32 == 0.0", pos, 1}, {"S0.f32 == 0.0F", neg, 1},
		{"S0.f32 != +0.0", neg, 1}, {"S0.f32 != +0.0", pos, 0}, {"S0.f32 != -0.0", one, 1},
		{"S0.f32 != +0.0", nan, 0}, {"S0.f32 == +0.0", nan, 0},
		{"S0.f32 == +1.0", one, 1},
	} {
		src := "if " + c.cond + " then\n  D0.u32 = 1U\nelse\n  D0.u32 = 0U\nendif"
		if got := evalD0(t, src, c.x); got != c.want {
			t.Errorf("%s with S0 = %#x: %d, want %d", c.cond, c.x, got, c.want)
		}
	}
}

// TestMaxMinSignedZeros runs the CDNA 3 guide's V_MAX_F32/V_MIN_F32 text
// (its ±0 branches, as the guide writes them) on -0 and +0 both ways: max
// gives +0 and min -0, as LLVM's maxnum/minnum folds do.
func TestMaxMinSignedZeros(t *testing.T) {
	branches := func(pick0, pick1, op string) string {
		return "if ((64'F(S0.f32) == +0.0) && (64'F(S1.f32) == -0.0)) then\n  D0.f32 = " + pick0 +
			"\nelsif ((64'F(S0.f32) == -0.0) && (64'F(S1.f32) == +0.0)) then\n  D0.f32 = " + pick1 +
			"\nelse\n  D0.f32 = S0.f32 " + op + " S1.f32 ? S0.f32 : S1.f32\nendif"
	}
	max, min := branches("S0.f32", "S1.f32", ">="), branches("S1.f32", "S0.f32", "<")
	pos, neg := f32bits(0), uint64(0x80000000)
	for _, c := range []struct {
		name     string
		src      string
		a, b, to uint64
	}{
		{"max(-0, +0)", max, neg, pos, pos}, {"max(+0, -0)", max, pos, neg, pos},
		{"min(-0, +0)", min, neg, pos, neg}, {"min(+0, -0)", min, pos, neg, neg},
		{"max(-0, -0)", max, neg, neg, neg}, {"min(+0, +0)", min, pos, pos, pos},
	} {
		if got := evalD0(t, c.src, c.a, c.b); got != c.to {
			t.Errorf("%s = %#x, want %#x", c.name, got, c.to)
		}
	}
}

// TestRequestSources: every source the program reads needs a value, one
// it does not read is refused, and a sliced shift amount is a whole
// 32-bit register.
func TestRequestSources(t *testing.T) {
	in := Compile("cdna3", "v_test_b32", "D0.u32 = (S1.u32 << S0[4 : 0].u32)")
	if !in.Executable() {
		t.Fatalf("not executable: %v %v", in.Err, in.Info.Problems)
	}
	var ie *InputError
	for _, c := range []struct {
		srcs map[string][]string
		want string
	}{
		{map[string][]string{"S0": {"1"}}, "no value given for S1"},
		{map[string][]string{"S1": {"1"}}, "no value given for S0"},
		{map[string][]string{"S0": {"1"}, "S1": {"1"}, "S3": {"4"}}, "does not read S3"},
		{map[string][]string{"S0": {"1"}, "S1": {"1"}, "S2": {"4"}}, "does not read S2"},
	} {
		_, err := Evaluate(in, Request{Sources: c.srcs})
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an input error saying %q", c.srcs, err, c.want)
		}
	}
	// 33 and 0xffffffe1 shift by their low five bits: 1.
	for _, amount := range []string{"33", "0xffffffe1", "1"} {
		resp, err := Evaluate(in, Request{Sources: map[string][]string{"S0": {amount}, "S1": {"1"}}})
		if err != nil {
			t.Fatalf("shift by %s: %v", amount, err)
		}
		if got := resp.Lanes[0].Outputs[0].Value; got != "2" {
			t.Errorf("1 << %s = %s, want 2 (the pseudocode takes bits 4:0)", amount, got)
		}
	}
	if _, err := Evaluate(in, Request{Sources: map[string][]string{"S0": {"0x100000000"}, "S1": {"1"}}}); err == nil {
		t.Error("a 33-bit shift amount accepted for a 32-bit register")
	}
}

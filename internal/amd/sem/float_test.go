package sem

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// refRound rounds an exact big.Float to f with IEEE subnormals and
// overflow, independently of roundBig: big.Float has no subnormals, so
// the precision is cut to what the exponent leaves.
func refRound(x *big.Float, f *FloatFormat, mode big.RoundingMode) uint64 {
	if x.Sign() == 0 {
		if x.Signbit() {
			return f.signBit()
		}
		return 0
	}
	neg := x.Signbit()
	a := new(big.Float).Abs(x)
	exp := a.MantExp(nil) - 1 // |x| in [2^exp, 2^(exp+1))
	prec := f.prec()
	if exp < f.emin() {
		prec -= f.emin() - exp
	}
	var r *big.Float
	if prec <= 0 {
		// Below half the smallest subnormal, or between it and the smallest.
		tiny := new(big.Float).SetMantExp(big.NewFloat(1), f.emin()-f.ManBits)
		half := new(big.Float).SetMantExp(big.NewFloat(1), f.emin()-f.ManBits-1)
		switch {
		case mode == big.ToNearestEven && a.Cmp(half) > 0,
			mode == big.AwayFromZero, mode == big.ToPositiveInf && !neg, mode == big.ToNegativeInf && neg:
			r = tiny
		default:
			r = new(big.Float)
		}
		if neg {
			r.Neg(r)
		}
	} else {
		r = new(big.Float).SetPrec(uint(prec)).SetMode(mode)
		r.Set(x) // the signed value: directed modes round it, not |x|
	}
	// Overflow: beyond the largest finite after rounding.
	max := f.ToBigFloat(f.MaxFinite(false))
	if new(big.Float).Abs(r).Cmp(max) > 0 {
		toInf := mode == big.ToNearestEven || mode == big.ToPositiveInf && !neg || mode == big.ToNegativeInf && neg
		if toInf {
			return f.Inf(neg)
		}
		return f.MaxFinite(neg)
	}
	return f.FromBigFloat(r, RoundTowardZero)
}

// TestFMAAgainstBig is issue 21's check: RDNA 4's v_fma_f32, evaluated
// from its guide's pseudocode, agrees with math/big on 100,000 random
// triples, denormals included, in every rounding mode.
func TestFMAAgainstBig(t *testing.T) {
	in := libraries(t)["rdna4"].Get("v_fma_f32")
	if !in.Executable() {
		t.Fatalf("rdna4 v_fma_f32 is not executable: %v %v", in.Err, in.Info)
	}
	rng := rand.New(rand.NewPCG(21, 21))
	modes := []struct {
		m RoundMode
		b big.RoundingMode
	}{{RoundNearestEven, big.ToNearestEven}, {RoundTowardZero, big.ToZero}, {RoundUp, big.ToPositiveInf}, {RoundDown, big.ToNegativeInf}}
	draw := func() uint32 {
		switch rng.IntN(4) {
		case 0: // subnormal
			return rng.Uint32()&0x807fffff | 0
		case 1: // near 1
			return rng.Uint32()&0x80ffffff | 0x3f000000
		}
		return rng.Uint32()
	}
	bad := 0
	for i := 0; i < 100000; i++ {
		a, b, c := draw(), draw(), draw()
		fa, fb, fc := math.Float32frombits(a), math.Float32frombits(b), math.Float32frombits(c)
		if f32IsSpecial(fa) || f32IsSpecial(fb) || f32IsSpecial(fc) {
			continue
		}
		md := modes[i%4]
		mode := DefaultMode
		mode.Round = md.m
		w, err := in.Eval([]uint64{uint64(a), uint64(b), uint64(c)}, mode)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := in.Dest(w, "D0")
		got := d.Uint() & 0xffffffff
		exact := new(big.Float).SetPrec(0).SetFloat64(float64(fa))
		exact.SetPrec(2000).Mul(exact, new(big.Float).SetFloat64(float64(fb)))
		exact.Add(exact, new(big.Float).SetPrec(2000).SetFloat64(float64(fc)))
		var want uint64
		if exact.Sign() == 0 {
			// An exact zero: zeros keep IEEE's sign rule; a cancellation is
			// +0 except toward -inf.
			pneg := math.Signbit(float64(fa)) != math.Signbit(float64(fb))
			if (fa == 0 || fb == 0) && fc == 0 {
				want = F32.zero(zeroSum(pneg, math.Signbit(float64(fc)), md.m))
			} else {
				want = F32.zero(md.m == RoundDown)
			}
		} else {
			want = refRound(exact, &F32, md.b)
		}
		if got != want {
			bad++
			if bad <= 10 {
				t.Errorf("fma(%#08x, %#08x, %#08x) %v = %#08x, math/big %#08x", a, b, c, md.m, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}

func f32IsSpecial(x float32) bool { return math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) }

// TestFMAThroughFloat64IsWrong shows why f32 fma takes the exact path:
// (1 + 2^-12)^2 + 2^-60 is 1 + 2^-11 + 2^-24 + 2^-60, just above an f32
// tie; float64 drops the 2^-60 and f32 then rounds the tie to even.
func TestFMAThroughFloat64IsWrong(t *testing.T) {
	a := float32(1 + 1.0/4096)
	c := float32(math.Ldexp(1, -60))
	double := math.Float32bits(float32(math.FMA(float64(a), float64(a), float64(c))))
	single := uint32(F32.FMA(uint64(math.Float32bits(a)), uint64(math.Float32bits(a)), uint64(math.Float32bits(c)), Env{}))
	if single != 0x3f801001 || double != 0x3f801000 {
		t.Errorf("one rounding %#08x (want 0x3f801001), through float64 %#08x (want 0x3f801000)", single, double)
	}
}

func TestRoundingModesAndSubnormals(t *testing.T) {
	for _, c := range []struct {
		name string
		got  uint64
		want uint64
	}{
		{"1/3 nearest", F32.Div(0x3f800000, 0x40400000, Env{}), 0x3eaaaaab},
		{"1/3 toward zero", F32.Div(0x3f800000, 0x40400000, Env{Round: RoundTowardZero}), 0x3eaaaaaa},
		{"-1/3 toward -inf", F32.Div(0xbf800000, 0x40400000, Env{Round: RoundDown}), 0xbeaaaaab},
		{"max*2 nearest overflows to inf", F32.Mul(0x7f7fffff, 0x40000000, Env{}), 0x7f800000},
		{"max*2 toward zero saturates", F32.Mul(0x7f7fffff, 0x40000000, Env{Round: RoundTowardZero}), 0x7f7fffff},
		{"smallest subnormal / 2 ties to 0", F32.Mul(0x00000001, 0x3f000000, Env{}), 0},
		{"3 * smallest subnormal / 2 ties to even 2", F32.Mul(0x00000003, 0x3f000000, Env{}), 2},
		{"subnormal input flushed", F32.Add(0x00000001, 0x00000001, Env{Flush: true}), 0},
		{"subnormal result flushed keeps sign", F32.Mul(0x80000003, 0x3f000000, Env{Flush: true}), 0x80000000},
		{"x - x is +0", F32.Sub(0x3f800000, 0x3f800000, Env{}), 0},
		{"x - x toward -inf is -0", F32.Sub(0x3f800000, 0x3f800000, Env{Round: RoundDown}), 0x80000000},
		{"inf - inf is the default NaN", F32.Sub(0x7f800000, 0x7f800000, Env{}), 0x7fc00000},
		{"the guides' default NaN", F32.Sub(0x7f800000, 0x7f800000, Env{NaN: NaNNegative}), 0xffc00000},
		{"sNaN input comes out quiet with its payload", F32.Add(0x7f800001, 0x3f800000, Env{}), 0x7fc00001},
		{"first NaN wins", F32.Add(0x7fc00002, 0x7fc00003, Env{}), 0x7fc00002},
		{"sqrt(2) nearest", F32.Sqrt(0x40000000, Env{}), 0x3fb504f3},
		{"sqrt(-0) is -0", F32.Sqrt(0x80000000, Env{}), 0x80000000},
		{"sqrt(-1) is NaN", F32.Sqrt(0xbf800000, Env{}), 0x7fc00000},
		{"f16 1 + 2^-11 ties to even", F16.Add(0x3c00, 0x1000, Env{}), 0x3c00},
		{"f16 65504 + 16 rounds to inf", F16.Add(0x7bff, 0x4c00, Env{}), 0x7c00},
		{"bf16 1 + 1/256 ties to even", BF16.Add(0x3f80, 0x3b80, Env{}), 0x3f80},
		{"f32 to f16 of a sNaN keeps it signalling", F32.Convert(0x7fa00000, &F16, RoundNearestEven, false), 0x7d00},
		{"f32 to f16 of a sNaN quieted", F32.Convert(0x7f800001, &F16, RoundNearestEven, true), 0x7e00},
		{"f32 to f16 of a tiny sNaN keeps a payload bit", F32.Convert(0x7f800001, &F16, RoundNearestEven, false), 0x7c01},
		{"f32 to f64 of a sNaN stays signalling", F32.Convert(0x7f800001, &F64, RoundNearestEven, false), 0x7ff0000020000000},
		{"f32 65520 to f16 overflows", F32.Convert(0x477ff000, &F16, RoundNearestEven, false), 0x7c00},
		{"f32 to fp8 E4M3 of 448", F32.Convert(0x43e00000, &FP8, RoundNearestEven, false), 0x7e},
		{"f32 to fp8 E4M3 of 480 overflows to NaN", F32.Convert(0x43f00000, &FP8, RoundNearestEven, false), 0x7f},
		{"f32 to bf8 E5M2 of 57344", F32.Convert(0x47600000, &BF8, RoundNearestEven, false), 0x7b},
		{"fp8 FNUZ of 240", F32.Convert(0x43700000, &FP8FNUZ, RoundNearestEven, false), 0x7f},
		{"fp8 FNUZ NaN", F32.Convert(0x7fc00000, &FP8FNUZ, RoundNearestEven, false), 0x80},
		{"fp8 FNUZ -0 is +0", F32.Convert(0x80000000, &FP8FNUZ, RoundNearestEven, false), 0x00},
		{"fp4 of 6", F32.Convert(0x40c00000, &FP4, RoundNearestEven, false), 0x7},
		{"fp4 of 100 saturates", F32.Convert(0x42c80000, &FP4, RoundNearestEven, false), 0x7},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %#x, want %#x", c.name, c.got, c.want)
		}
	}
}

// TestNativeAgreesWithExact holds the fast paths (Go's float32/float64
// arithmetic, f16 through f64) to the exact slow path.
func TestNativeAgreesWithExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	slow := Env{Round: RoundNearestEven}
	for _, f := range []*FloatFormat{&F16, &BF16, &F32, &F64} {
		for i := 0; i < 20000; i++ {
			a, b := rng.Uint64()&f.mask(), rng.Uint64()&f.mask()
			if i%3 == 0 {
				a &= f.fracMask() | f.signBit() // subnormal
			}
			ua, ub := f.unpack(a), f.unpack(b)
			if ua.class != fcFinite || ub.class != fcFinite {
				continue
			}
			for _, op := range []byte{'+', '*', '/'} {
				fast, ok := f.fastBinary(op, a, b, slow)
				if !ok {
					continue
				}
				var exactBits uint64
				switch op {
				case '+':
					s := addExact(ua.exact(), ub.exact())
					if s.m.Sign() == 0 {
						continue
					}
					exactBits = f.finish(s, false, slow)
				case '*':
					m := new(big.Int).Mul(ua.exact().m, ub.exact().m)
					exactBits = f.finish(exact{ua.neg != ub.neg, m, ua.exp + ub.exp}, false, slow)
				case '/':
					k := f.prec() + 3 + 64
					num := new(big.Int).Lsh(new(big.Int).SetUint64(ua.mant), uint(k))
					q, r := new(big.Int).QuoRem(num, new(big.Int).SetUint64(ub.mant), new(big.Int))
					exactBits = f.finish(exact{ua.neg != ub.neg, q, ua.exp - ub.exp - k}, r.Sign() != 0, slow)
				}
				if fast != exactBits {
					t.Fatalf("%s %#x %c %#x: native %#x, exact %#x", f.Name, a, op, b, fast, exactBits)
				}
			}
		}
	}
}

// TestSignallingNaNPayload: snan with no payload is the format's first
// signalling NaN; snan:0x0 (infinity's bits) is refused rather than
// silently given another payload; other payloads are kept as written.
func TestSignallingNaNPayload(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		err  string
	}{
		{"snan", 0x7fa00000, ""},
		{"snan:0x1", 0x7f800001, ""},
		{"-snan:0x5", 0xff800005, ""},
		{"snan:0x0", 0, "non-zero payload"},
		{"snan:0", 0, "non-zero payload"},
		{"nan:0x0", 0x7fc00000, ""},
	} {
		got, err := parseFloatText(c.in, &F32)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %#x, %v; want an error saying %q", c.in, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s: %#x, %v; want %#x", c.in, got, err, c.want)
		}
	}
}

package sem

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func f32bits(x float32) uint64 { return uint64(math.Float32bits(x)) }

// evalD0 runs src (a fixture written for the test) on sources and returns
// D0's low 64 bits.
func evalD0(t *testing.T, src string, srcs ...uint64) uint64 {
	t.Helper()
	in := Compile("rdna4", "v_test", src)
	if in.Err != nil {
		t.Fatalf("parse: %v\n%s", in.Err, src)
	}
	w, err := in.Eval(srcs, DefaultMode)
	if err != nil {
		t.Fatalf("eval: %v\n%s", err, src)
	}
	d, ok := in.Dest(w, "D0")
	if !ok {
		t.Fatalf("no D0:\n%s", src)
	}
	return d.Uint()
}

func TestLexer(t *testing.T) {
	toks, err := lex("D0.f32 = 32'F(0xffc00000) // comment\nx[i +: 8] <<= 1'1U; 16'1.0 0x1ULL 2.0F")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, tk.text)
	}
	want := "D0 . f32 = 32'F ( 0xffc00000 ) x [ i +: 8 ] <<= 1'1U ; 16'1.0 0x1ULL 2.0F "
	if strings.Join(got, " ") != want {
		t.Errorf("tokens %q, want %q", strings.Join(got, " "), want)
	}
	if toks[len(toks)-2].line != 2 {
		t.Errorf("line of the last token %d, want 2", toks[len(toks)-2].line)
	}
	for _, bad := range []string{"a = `b`", "\"open", "/* never closed", "32'Q(x)"} {
		if _, err := lex(bad); err == nil {
			t.Errorf("lex(%q) accepted", bad)
		}
	}
}

func TestParserConstructs(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		srcs []uint64
		want uint64
	}{
		{"assignment and types", "D0.u32 = S0.u32 + S1.u32", []uint64{0xffffffff, 2}, 1},
		{"if elsif else", "if S0.i32 < 0 then\n D0.i32 = -1\nelsif S0.i32 == 0 then\n D0.i32 = 0\nelse\n D0.i32 = 1\nendif", []uint64{0x80000000}, 0xffffffff},
		{"for with break", "tmp = -1;\nfor i in 0 : 31 do\n if S0.u32[i] == 1'1U then\n tmp = i;\n break\n endif\nendfor;\nD0.i32 = tmp", []uint64{0x100}, 8},
		{"declare array", "declare in : 8'B[4];\nfor i in 0 : 3 do\n in[i] = S0[i * 8 + 7 : i * 8].b8\nendfor;\nD0.u32 = 32'U(in[2])", []uint64{0x44332211}, 0x33},
		{"op-assign", "tmp = S0.u32;\ntmp += 5U;\ntmp -= 1U;\ntmp |= 0x100;\nD0.u32 = tmp", []uint64{1}, 0x105},
		{"chained assignment", "a = b = S0.u32 + 1U;\nD0.u32 = a + b", []uint64{1}, 4},
		{"lambda with return", "F = lambda(x) (\n if x > 3U then\n return 1U\n else\n return 2U\n endif);\nD0.u32 = F(S0.u32)", []uint64{9}, 1},
		{"lambda expression", "ABSDIFF = lambda(x, y) (\n x > y ? x - y : y - x);\nD0.u32 = ABSDIFF(S0.u32, S1.u32)", []uint64{3, 10}, 7},
		{"ternary and <>", "D0.u32 = S0.u32 <> 3U ? 7U : 9U", []uint64{3}, 9},
		{"power of two", "D0.f32 = S0.f32 * 2.0F ** S1.i32", []uint64{f32bits(1.5), 3}, f32bits(12)},
		{"ldexp idiom stays exact past f32 range", "D0.f32 = S0.f32 * 2.0F ** S1.i32", []uint64{1, 200}, f32bits(float32(math.Ldexp(1, 51)))},
		{"slice", "D0.u32 = 32'U(S0[15 : 8])", []uint64{0xabcd}, 0xab},
		{"reversed slice is a bit reverse", "D0.u32[31 : 0] = S0.u32[0 : 31]", []uint64{1}, 0x80000000},
		{"part-select", "D0.u32 = 32'U(S0[8 +: 4])", []uint64{0xf00}, 0xf},
		{"concatenation", "D0 = { S1[15 : 0].u16, S0[15 : 0].u16 }", []uint64{0x1111, 0x2222}, 0x22221111},
		{"concatenation target", "{ D1.u1, D0.u64 } = 65'B(65'U(S0.u64) + 65'U(S1.u64))", []uint64{math.MaxUint64, 1}, 0},
		{"wide multiply", "D0.u32 = 32'U((64'U(S0.u32) * 64'U(S1.u32)) >> 32U)", []uint64{0xffffffff, 0xffffffff}, 0xfffffffe},
		{"sign extension cast", "D0.i64 = 64'I(S0.i32)", []uint64{0xfffffffe}, 0xfffffffffffffffe},
		{"float cast of hex is bitwise", "D0.f32 = 32'F(0xffc00000)", nil, 0xffc00000},
		{"float cast converts", "D0.f64 = 64'F(S0.f32)", []uint64{f32bits(1.5)}, math.Float64bits(1.5)},
		{"bits grow on part assignment", "tmp[15 : 0].f16 = 16'1.0;\ntmp[31 : 16].f16 = 16'2.0;\nD0 = tmp.b32", nil, 0x40003c00},
		{"signed shift", "D0.i32 = (S0.i32 >> 4U)", []uint64{0x80000000}, 0xf8000000},
		{"prose lines are taken out", "S1.u[0] -- the first mask bit.\nD0.u32 = 1U", nil, 1},
		{"worked examples are taken out", "D0.u32 = 2U\n\nX(0x1) => 0x2", nil, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := evalD0(t, c.src, c.srcs...); got&0xffffffffffffffff != c.want {
				t.Errorf("D0 = %#x, want %#x", got, c.want)
			}
		})
	}
}

func TestParseErrorsArePerInstruction(t *testing.T) {
	for _, src := range []string{
		"if S0 then D0 = 1",            // no endif
		"D0 = (S0 + ",                  // unclosed
		"for i in 0 do endfor",         // no ':' range
		"1 = D0",                       // not a target
		"D = A (16x16) * B (16x16)",    // matrix prose
		"declare x : U",                // bad type
		strings.Repeat("(", 300) + "1", // too deep
	} {
		in := Compile("rdna4", "v_x", src)
		var pe *ParseError
		if !errors.As(in.Err, &pe) {
			t.Errorf("%q: want a ParseError, got %v", src, in.Err)
			continue
		}
		if pe.Line < 1 {
			t.Errorf("%q: error without a line: %v", src, pe)
		}
		if _, err := in.Eval(nil, DefaultMode); !errors.Is(err, ErrNotExecutable) {
			t.Errorf("%q: Eval gave %v, want ErrNotExecutable", src, err)
		}
	}
}

func TestUnsupportedIsReportedNotGuessed(t *testing.T) {
	for src, want := range map[string]string{
		"MEM[ADDR].u32 = DATA.u32":                                 "MEM",
		"D0.u32 = mystery(S0.u32)":                                 "unknown function mystery",
		"D0.u32 = HW_REGISTERS[1].u32":                             "HW_REGISTERS",
		"eval \"D0.i32(16x16) = S0 * S1\"":                         "a matrix operation (D0.i32(16x16) = S0 * S1)",
		"eval \"D0 = something in words\"":                         "eval of a prose string",
		"D = A (16x8) * B (8x16) + C (16x16)\nsaved_exec = EXEC":   "a matrix operation (D = A (16x8) * B (8x16) + C (16x16)): the mnemonic does not name the shape 16x16x8",
		"D = A (sparse 16x32) * B (32x16) + D (16x16)":             "A is sparse: which of its entries are kept is an index set in S2",
		"D0.b32 = S0.b32\nD = A (16x128) * B (128x16) + C (16x16)": "which is not this instruction's",
		"D0.u32 = OVERFLOW_F32":                                    "unknown name OVERFLOW_F32",
		"D0.u32 = v_other_b32(S0.u32)":                             "v_other_b32",
	} {
		name := "v_x"
		if strings.HasPrefix(want, MatrixProblem) || strings.HasPrefix(want, "A is sparse") {
			name = "v_wmma_f32_16x16x16_f16"
		}
		in := Compile("rdna4", name, src)
		if in.Err != nil {
			t.Errorf("%q: parse error %v", src, in.Err)
			continue
		}
		if in.Executable() || !strings.Contains(strings.Join(in.Info.Problems, "; "), want) {
			t.Errorf("%q: problems %v, want one naming %q", src, in.Info.Problems, want)
		}
	}
}

func TestBuiltins(t *testing.T) {
	nan := uint64(0x7fc00000)
	snan := uint64(0x7fa00000)
	for _, c := range []struct {
		src  string
		srcs []uint64
		want uint64
	}{
		{"D0.u32 = isNAN(S0.f32) ? 1U : 0U", []uint64{snan}, 1},
		{"D0.u32 = isSignalNAN(64'F(S0.f32)) ? 1U : 0U", []uint64{snan}, 1},
		{"D0.u32 = isQuietNAN(64'F(S0.f32)) ? 1U : 0U", []uint64{snan}, 0},
		{"D0.f32 = 32'F(cvtToQuietNAN(64'F(S0.f32)))", []uint64{snan}, 0x7fe00000},
		{"D0.f32 = abs(S0.f32)", []uint64{0xffc00001}, 0x7fc00001},
		{"D0.i32 = abs(S0.i32)", []uint64{0xfffffffb}, 5},
		{"D0.u32 = 32'U(sign(S0.f32))", []uint64{0x80000000}, 1},
		{"D0.i32 = exponent(S0.f32)", []uint64{f32bits(1)}, 127},
		{"D0.f32 = mantissa(S0.f32)", []uint64{f32bits(12)}, f32bits(0.75)},
		{"D0.f32 = mantissa(S0.f32)", []uint64{1}, f32bits(0.5)},
		{"D0.f32 = fma(S0.f32, S1.f32, S2.f32)", []uint64{f32bits(2), f32bits(3), f32bits(4)}, f32bits(10)},
		{"D0.f32 = sqrt(S0.f32)", []uint64{f32bits(9)}, f32bits(3)},
		{"D0.f32 = trunc(S0.f32)", []uint64{f32bits(-2.7)}, f32bits(-2)},
		{"D0.f32 = floor(S0.f32)", []uint64{f32bits(-2.2)}, f32bits(-3)},
		{"D0.f32 = ceil(S0.f32)", []uint64{f32bits(2.2)}, f32bits(3)},
		{"D0.f32 = trunc(S0.f32)", []uint64{f32bits(-0.5)}, 0x80000000},
		{"D0.f32 = fract(S0.f32)", []uint64{f32bits(-1.25)}, f32bits(0.75)},
		{"D0.u32 = isEven(64'F(S0.f32)) ? 1U : 0U", []uint64{f32bits(4)}, 1},
		{"D0.f32 = ldexp(S0.f32, S1.i32)", []uint64{f32bits(3), 0xfffffffe}, f32bits(0.75)},
		{"D0.f32 = pow(2.0F, S0.f32)", []uint64{f32bits(-3)}, f32bits(0.125)},
		{"D0.f32 = log2(S0.f32)", []uint64{f32bits(8)}, f32bits(3)},
		{"D0.f32 = sin(S0.f32)", []uint64{0}, 0},
		{"D0.f32 = cos(S0.f32)", []uint64{0}, f32bits(1)},
		{"D0.i32 = 32'I(signext(S0.i16))", []uint64{0x8000}, 0xffff8000},
		{"D0.i32 = signext_from_bit(S0.i32, S1.u32)", []uint64{0x8, 4}, 0xfffffff8},
		{"D0.i32 = signext_from_bit(S0.i32, S1.u32)", []uint64{0x8, 0}, 0},
		{"D0.u32 = 32'U(count_ones(S0.u32))", []uint64{0xf0f0}, 8},
		{"D0.u32 = reverse_bits(S0.u32)", []uint64{1}, 0x80000000},
		{"D0.i16 = f16_to_snorm(S0.f16)", []uint64{0x3c00}, 32767},
		{"D0.i16 = f16_to_snorm(S0.f16)", []uint64{0xfc00}, 0x8001},
		{"D0.u16 = f32_to_unorm(S0.f32)", []uint64{f32bits(0.5)}, 32768},
		{"D0.u16 = f32_to_unorm(S0.f32)", []uint64{nan}, 0},
		{"D0.f32 = float32(S0.u32, S1.u32, S2.u32)", []uint64{1, 127, 0x400000}, f32bits(-1.5)},
		{"D0.f32 = f16_to_f32(S0.f16)", []uint64{0x3c00}, f32bits(1)},
		{"D0.f16 = f32_to_f16(S0.f32)", []uint64{snan}, 0x7f00},
		{"D0.f32 = i32_to_f32(S0.i32)", []uint64{0xffffffff}, f32bits(-1)},
		{"D0.f32 = u32_to_f32(S0.u32)", []uint64{0xffffffff}, f32bits(4294967296)},
		{"D0.i32 = f32_to_i32(S0.f32)", []uint64{f32bits(-2.9)}, 0xfffffffe},
		{"D0.i32 = f32_to_i32(S0.f32)", []uint64{f32bits(3e9)}, 0x7fffffff},
		{"D0.i32 = f32_to_i32(S0.f32)", []uint64{nan}, 0},
		{"D0.u32 = f32_to_u32(S0.f32)", []uint64{f32bits(-5)}, 0},
		{"D0.i16 = i32_to_i16(S0.i32)", []uint64{70000}, 0x7fff},
		{"D0.u16 = u32_to_u16(S0.u32)", []uint64{70000}, 0xffff},
		{"D0.i32 = i16_to_i32(S0.i16)", []uint64{0xffff}, 0xffffffff},
		{"D0.f32 = fp8_to_f32(S0.fp8)", []uint64{0x7e}, f32bits(448)},
		{"D0.f32 = bf8_to_f32(S0.bf8)", []uint64{0x7c}, f32bits(float32(math.Inf(1)))},
	} {
		if got := evalD0(t, c.src, c.srcs...) & 0xffffffff; got != c.want {
			t.Errorf("%s on %#x: %#x, want %#x", c.src, c.srcs, got, c.want)
		}
	}
	for _, b := range Builtins() {
		if b.Doc == "" {
			t.Errorf("built-in %s has no documentation", b.Name)
		}
	}
}

func TestFamilyFP8(t *testing.T) {
	// CDNA 3's fp8 is FNUZ (its guide's table: bias 8, 0x80 the NaN).
	in := Compile("cdna3", "v_x", "D0.f32 = fp8_to_f32(S0[7 : 0].fp8)")
	w, err := in.Eval([]uint64{0x80}, DefaultMode)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := in.Dest(w, "D0")
	if !F32.IsNaN(d.Uint()) {
		t.Errorf("cdna3 fp8 0x80 gives %#x, want a NaN", d.Uint())
	}
	in = Compile("rdna4", "v_x", "D0.f32 = fp8_to_f32(S0[7 : 0].fp8)")
	w, _ = in.Eval([]uint64{0x80}, DefaultMode)
	if d, _ := in.Dest(w, "D0"); d.Uint() != 0x80000000 {
		t.Errorf("rdna4 fp8 0x80 gives %#x, want -0", d.Uint())
	}
}

func TestWaveModel(t *testing.T) {
	// A VOPC writes one bit per lane of a wave-wide mask.
	in := Compile("rdna4", "v_cmp_lt_u32", "D0.u64[laneId] = S0.u32 < S1.u32")
	w := NewWave(32)
	w.Exec = 0b1011
	for l := 0; l < 4; l++ {
		w.Lanes[l]["S0"] = FromUint(uint64(l), TB32)
		w.Lanes[l]["S1"] = FromUint(2, TB32)
	}
	res, err := in.Run(w, true)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Wave.Shared["D0"].Uint(); d != 0b0011 {
		t.Errorf("mask %#b, want 0b11 (lane 2 is off, lane 3 is not below 2)", d)
	}
	if len(res.Lanes) != 3 || len(res.Trace) != 3 {
		t.Errorf("lanes %v, trace %v", res.Lanes, res.Trace)
	}
	// VCC and SCC.
	in = Compile("rdna4", "v_add_co_u32", "tmp = 64'U(S0.u32) + 64'U(S1.u32);\nVCC.u64[laneId] = tmp >= 0x100000000ULL ? 1'1U : 1'0U;\nD0.u32 = tmp.u32")
	w = NewWave(32)
	w.Exec = 0b11
	w.Lanes[0]["S0"], w.Lanes[0]["S1"] = FromUint(0xffffffff, TB32), FromUint(1, TB32)
	w.Lanes[1]["S0"], w.Lanes[1]["S1"] = FromUint(1, TB32), FromUint(1, TB32)
	res, err = in.Run(w, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Wave.VCC != 1 || res.Wave.Lanes[0]["D0"].Uint() != 0 || res.Wave.Lanes[1]["D0"].Uint() != 2 {
		t.Errorf("VCC %#x, D0 %v %v", res.Wave.VCC, res.Wave.Lanes[0]["D0"], res.Wave.Lanes[1]["D0"])
	}
	// Another lane's register.
	in = Compile("rdna4", "v_readlane_b32", "D0.b32 = VGPR[S1.u32[4 : 0]][SRC0.u32]")
	w = NewWave(32)
	w.Exec = 1
	w.Lanes[0]["S1"] = FromUint(5, TB32)
	w.Lanes[5]["S0"] = FromUint(0x55, TB32)
	res, err = in.Run(w, false)
	if err != nil || res.Wave.Lanes[0]["D0"].Uint() != 0x55 {
		t.Errorf("readlane: %v %v", err, res)
	}
	// Modifiers: -|S0|, clamp.
	in = Compile("rdna4", "v_add_f32", "D0.f32 = S0.f32 + S1.f32")
	w = NewWave(32)
	w.Exec = 1
	w.Lanes[0]["S0"], w.Lanes[0]["S1"] = FromUint(f32bits(3), TB32), FromUint(f32bits(2), TB32)
	w.Mods.Abs[0], w.Mods.Neg[0] = true, true
	res, _ = in.Run(w, false)
	if got := res.Wave.Lanes[0]["D0"].Uint(); got != f32bits(-1) {
		t.Errorf("-|3| + 2 = %#x", got)
	}
	w.Mods = Modifiers{Clamp: true}
	res, _ = in.Run(w, false)
	if got := res.Wave.Lanes[0]["D0"].Uint(); got != f32bits(1) {
		t.Errorf("clamp(3 + 2) = %#x", got)
	}
	w.Mods = Modifiers{OMod: 3}
	res, _ = in.Run(w, false)
	if got := res.Wave.Lanes[0]["D0"].Uint(); got != f32bits(2.5) {
		t.Errorf("(3 + 2) / 2 = %#x", got)
	}
	// The rounding mode the pseudocode sets applies to what follows.
	in = Compile("rdna4", "v_x", "prev = ROUND_MODE;\nROUND_MODE = ROUND_TOWARD_ZERO;\nD0.f16 = f32_to_f16(S0.f32);\nROUND_MODE = prev")
	w = NewWave(32)
	w.Exec = 1
	w.Lanes[0]["S0"] = FromUint(f32bits(1+1.0/1024+1.0/4096), TB32) // above the f16 value 1+2^-10
	res, _ = in.Run(w, false)
	if got := res.Wave.Lanes[0]["D0"].Uint() & 0xffff; got != 0x3c01 || res.Wave.Mode.Round != RoundNearestEven {
		t.Errorf("toward zero: %#x, mode after %v", got, res.Wave.Mode.Round)
	}
}

// The acceptance tests of issue 21 on the guides' own pages.
func TestIssueAcceptance(t *testing.T) {
	libs := libraries(t)
	max := libs["rdna4"].Get("v_max_num_f32")
	for _, nan := range []uint64{0x7fc00000, 0x7fa00000, 0xffc00001} {
		w, err := max.Eval([]uint64{nan, f32bits(1)}, DefaultMode)
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := max.Dest(w, "D0"); d.Uint() != f32bits(1) {
			t.Errorf("rdna4 v_max_num_f32(%#x, 1.0) = %#x, want 1.0", nan, d.Uint())
		}
	}
	old := libs["rdna3"].Get("v_max_f32")
	w, err := old.Eval([]uint64{0x7fa00000, f32bits(1)}, DefaultMode)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := old.Dest(w, "D0"); d.Uint() != 0x7fe00000 {
		t.Errorf("rdna3 v_max_f32(sNaN 0x7fa00000, 1.0) in IEEE mode = %#x, want the quieted NaN 0x7fe00000", d.Uint())
	}
	mode := DefaultMode
	mode.IEEE = false
	w, _ = old.Eval([]uint64{0x7fa00000, f32bits(1)}, mode)
	if d, _ := old.Dest(w, "D0"); d.Uint() != f32bits(1) {
		t.Errorf("rdna3 v_max_f32(sNaN, 1.0) with IEEE mode off = %#x, want 1.0", d.Uint())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"D0.f32 = fma(S0.f32, S1.f32, S2.f32)",
		"if isNAN(64'F(S0.f32)) then\n D0.f32 = S1.f32\nelsif S0.f32 > S1.f32 then\n D0.f32 = S0.f32\nelse\n D0.f32 = S1.f32\nendif",
		"declare in : 8'B[8];\nfor i in 0 : 7 do\n in[i] = S0[i * 8 + 7 : i * 8].b8\nendfor",
		"F = lambda(x, y) (\n x > y ? x - y : y - x);\nD0.u32 = F(S0.u32, S1.u32)",
		"{ D1.u1, D0.u64 } = 65'B(65'U(S0.u64) * 65'U(S1.u64))",
		"D0.u32 = S0.u32[0 : 31]; tmp[i * 8 +: 8] = 8'0xff",
		"X(0x1) => 0x2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		in := Compile("rdna4", "v_fuzz", src)
		if in.Err != nil {
			var pe *ParseError
			if !errors.As(in.Err, &pe) {
				t.Fatalf("non-ParseError %T: %v", in.Err, in.Err)
			}
			return
		}
		// Whatever parses runs to a result or an error, never a panic or a hang.
		in.Eval([]uint64{1, 2, 3}, DefaultMode)
	})
}

// BenchmarkVALU measures evaluations per second of a typical VALU
// instruction (RDNA 4's v_max_num_f32 from its guide, a dozen branches and
// calls) on one lane.
func BenchmarkVALU(b *testing.B) {
	in := libraries(b)["rdna4"].Get("v_max_num_f32")
	srcs := []uint64{f32bits(1.5), f32bits(-2)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := in.Eval(srcs, DefaultMode); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFMA is the same for v_fma_f32 (the exact soft-float path).
func BenchmarkFMA(b *testing.B) {
	in := libraries(b)["rdna4"].Get("v_fma_f32")
	srcs := []uint64{f32bits(1.5), f32bits(-2), f32bits(0.1)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := in.Eval(srcs, DefaultMode); err != nil {
			b.Fatal(err)
		}
	}
}

package sem

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/sem/semtest"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// evalMatrix runs a matrix formula (a fixture) on whole matrices.
func evalMatrix(t *testing.T, arch, name, src string, req Request) (*MatrixResult, error) {
	t.Helper()
	in := Compile(arch, name, src)
	if !in.Executable() || in.Matrix == nil {
		t.Fatalf("%s: not a runnable matrix operation: %v %v", name, in.Err, in.Info.Problems)
	}
	resp, err := Evaluate(in, req)
	if err != nil {
		return nil, err
	}
	if resp.Matrix == nil || len(resp.Lanes) != 0 {
		t.Fatalf("%s: a matrix operation answered per lane: %+v", name, resp)
	}
	return resp.Matrix, nil
}

func srcs(kv ...string) map[string][]string {
	m := map[string][]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = strings.Split(kv[i+1], ",")
	}
	return m
}

// TestMatrixProduct: D = A * B + C element by element, row-major inputs,
// against a float64 reference on small integers (exact in every format).
func TestMatrixProduct(t *testing.T) {
	const src = "D = A (2x3) * B (3x2) + C (2x2)" // the CDNA header form
	a := []float64{1, 2, 3, 4, 5, 6}              // 2x3
	b := []float64{7, 8, 9, 10, 11, 12}           // 3x2
	c := []float64{0.5, -1, 2, 0}
	join := func(xs []float64) string {
		var s []string
		for _, x := range xs {
			s = append(s, strconv.FormatFloat(x, 'g', -1, 64))
		}
		return strings.Join(s, ",")
	}
	m, err := evalMatrix(t, "cdna3", "v_mfma_f32_2x2x3_f16", src, Request{Sources: srcs("S0", join(a), "S1", join(b), "S2", join(c))})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 2 || m.Cols != 2 || m.Type != "f32" || len(m.Values) != 4 {
		t.Fatalf("D is %dx%d %s with %d values", m.Rows, m.Cols, m.Type, len(m.Values))
	}
	for r := 0; r < 2; r++ {
		for col := 0; col < 2; col++ {
			want := c[r*2+col]
			for k := 0; k < 3; k++ {
				want += a[r*3+k] * b[k*2+col]
			}
			if got := m.Values[r*2+col]; got != strconv.FormatFloat(want, 'g', -1, 64) {
				t.Errorf("D[%d][%d] = %s, want %v", r, col, got, want)
			}
		}
	}
	if !strings.Contains(m.Inputs[0], "S0 = A, 2x3 f16") || !strings.Contains(m.Inputs[2], "S2 = C, 2x2 f32") {
		t.Errorf("inputs read as %v", m.Inputs)
	}
}

// TestMatrixRoundsOnce: the dot product is summed exactly and rounded
// once (1 + 2^-30 - 1 is 2^-30, where adding in f32 term by term gives 0),
// and the special values follow IEEE's rules for a sum of products.
func TestMatrixRoundsOnce(t *testing.T) {
	const src = "D = A (1x3) * B (3x1) + C (1x1)"
	tiny := strconv.FormatFloat(math.Ldexp(1, -30), 'g', -1, 64)
	for _, c := range []struct{ a, b, c, want string }{
		{"1," + tiny + ",-1", "1", "0", "0x30800000"}, // 2^-30, exact
		{"1,nan,1", "1", "0", "0x7fc00000"},           // a NaN input: the default NaN
		{"inf,1,1", "0,1,1", "0", "0x7fc00000"},       // inf * 0
		{"inf,-inf,0", "1", "0", "0x7fc00000"},        // inf - inf
		{"inf,1,1", "1", "-inf", "0x7fc00000"},        // inf + (-inf) from C
		{"-inf,1,1", "1", "1", "0xff800000"},          //
		{"-0", "1", "-0", "0x80000000"},               // every term -0
		{"-0", "1", "0", "0x00000000"},                // -0 + +0
		{"1,1,-1", "1", "-1", "0x00000000"},           // an exact zero from cancelling: +0
		{"max,max,0", "1", "0", "0x7f800000"},         // overflow
	} {
		m, err := evalMatrix(t, "cdna3", "v_mfma_f32_1x1x3_f32", src, Request{Sources: srcs("S0", c.a, "S1", c.b, "S2", c.c)})
		if err != nil {
			t.Errorf("A %s B %s C %s: %v", c.a, c.b, c.c, err)
			continue
		}
		if m.Bits[0] != c.want {
			t.Errorf("A %s B %s C %s: D = %s (%s), want %s", c.a, c.b, c.c, m.Values[0], m.Bits[0], c.want)
		}
	}
}

// TestMatrixIntegers: iu8 sources are unsigned unless NEG makes them
// signed (the guides' NEG[1:0] for WMMA IU), i8 is signed, the i32 sum
// keeps its low 32 bits, and clamp saturates.
func TestMatrixIntegers(t *testing.T) {
	const iu = `eval "D0.i32(1x1) = S0.iu8(1x2) * S1.iu8(2x1) + S2.i32(1x1)"`
	for _, c := range []struct {
		neg  [3]bool
		want string
	}{{[3]bool{}, "130050"}, {[3]bool{true, false, false}, "-510"}, {[3]bool{true, true, false}, "2"}} {
		m, err := evalMatrix(t, "rdna3", "v_wmma_i32_1x1x2_iu8", iu, Request{Sources: srcs("S0", "0xff", "S1", "0xff", "S2", "0"),
			Mods: Modifiers{Neg: c.neg}})
		if err != nil {
			t.Fatal(err)
		}
		if m.Values[0] != c.want {
			t.Errorf("neg %v: 2 (0xff * 0xff) = %s, want %s", c.neg, m.Values[0], c.want)
		}
	}
	const i8 = "D = A (1x2) * B (2x1) + C (1x1)"
	m, err := evalMatrix(t, "cdna3", "v_mfma_i32_1x1x2_i8", i8, Request{Sources: srcs("S0", "-1", "S1", "2", "S2", "2147483647")})
	if err != nil {
		t.Fatal(err)
	}
	if m.Values[0] != "2147483643" {
		t.Errorf("i8: 2147483647 + 2 * (-1 * 2) = %s", m.Values[0])
	}
	m, _ = evalMatrix(t, "cdna3", "v_mfma_i32_1x1x2_i8", i8, Request{Sources: srcs("S0", "1", "S1", "2", "S2", "2147483647")})
	if m.Values[0] != "-2147483645" {
		t.Errorf("i32 sum wraps: %s, want -2147483645", m.Values[0])
	}
	m, _ = evalMatrix(t, "cdna3", "v_mfma_i32_1x1x2_i8", i8, Request{Sources: srcs("S0", "1", "S1", "2", "S2", "2147483647"), Mods: Modifiers{Clamp: true}})
	if m.Values[0] != "2147483647" {
		t.Errorf("clamped: %s, want 2147483647", m.Values[0])
	}
}

// TestMatrixRequests: what a matrix operation does not read is refused,
// naming it; a per-lane run says the operation runs over whole matrices.
func TestMatrixRequests(t *testing.T) {
	const src = "D = A (2x2) * B (2x2) + C (2x2)"
	in := Compile("cdna3", "v_mfma_f32_2x2x2_f16", src)
	var ie *InputError
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Sources: srcs("S0", "1", "S1", "1")}, "no value given for S2 (C)"},
		{Request{Sources: srcs("S1", "1", "S2", "1")}, "no value given for S0 (A)"},
		{Request{Sources: srcs("S0", "1", "S1", "1", "S2", "1", "S3", "1")}, "does not read S3"},
		{Request{Sources: srcs("S0", "1,2,3", "S1", "1", "S2", "1")}, "3 values; give one (every element) or 4"},
		{Request{Sources: srcs("S0", "1", "S1", "1", "S2", "1"), Round: "toward-zero"}, "nearest even only"},
		{Request{Sources: srcs("S0", "1", "S1", "1", "S2", "1"), Mods: Modifiers{Neg: [3]bool{true}}}, "only an iu8 or iu4 source takes NEG"},
		{Request{Sources: srcs("S0", "1", "S1", "1", "S2", "1"), Exec: "0x1"}, "exec, wave, SCC, VCC and M0 do not apply"},
		{Request{Sources: srcs("S0", "banana", "S1", "1", "S2", "1")}, "S0 element 0"},
	} {
		_, err := Evaluate(in, c.req)
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an input error saying %q", c.req, err, c.want)
		}
	}
	if _, err := in.Eval([]uint64{1, 2, 3}, DefaultMode); !errors.Is(err, ErrNotExecutable) || !strings.Contains(err.Error(), "over whole matrices") {
		t.Errorf("a per-lane run of a matrix operation: %v", err)
	}
}

// TestGuideMatrixOperations holds every matrix instruction of the guides
// to one of two answers: it runs over whole matrices (A = 1, B = 2, C =
// 0.5 or 3 gives 2K + C in every element), or it says, after the formula,
// exactly why not. None is a parse error.
func TestGuideMatrixOperations(t *testing.T) {
	for _, fam := range []string{"rdna3", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5"} {
		lib := NewLibrary(fam, semtest.Pseudocode(t, fam))
		run, refused := 0, map[string]int{}
		for _, n := range lib.Names() {
			if !isa.IsMatrix(n) {
				continue
			}
			in := lib.Get(n)
			if in.Err != nil {
				t.Errorf("%s %s: parse error %v", fam, n, in.Err)
				continue
			}
			if !in.Executable() {
				p := in.Info.Problems[0]
				if !strings.HasPrefix(p, MatrixProblem+" (") || len(in.Info.Problems) != 1 {
					t.Errorf("%s %s: refused with %v, not one reason after the formula", fam, n, in.Info.Problems)
				}
				refused[p[strings.Index(p, "): ")+3:]]++
				continue
			}
			if in.Matrix == nil {
				t.Errorf("%s %s: executable but not as a matrix operation", fam, n)
				continue
			}
			op := in.Matrix
			c, want := "0.5", float64(2*op.K)+0.5
			if op.D.Kind != KFloat {
				c, want = "3", float64(2*op.K+3)
			}
			resp, err := Evaluate(in, Request{Sources: srcs("S0", "1", "S1", "2", "S2", c)})
			if err != nil {
				t.Errorf("%s %s: %v", fam, n, err)
				continue
			}
			m := resp.Matrix
			if len(m.Values) != op.M*op.N {
				t.Errorf("%s %s: %d values for %dx%d", fam, n, len(m.Values), op.M, op.N)
				continue
			}
			w := strconv.FormatFloat(want, 'g', -1, 64)
			for i, v := range m.Values {
				if v != w {
					t.Errorf("%s %s: D element %d = %s, want %s", fam, n, i, v, w)
					break
				}
			}
			run++
		}
		t.Logf("%s: %d matrix instructions run over whole matrices; refused: %v", fam, run, refused)
		if run == 0 {
			t.Errorf("%s: no matrix instruction runs", fam)
		}
	}
}

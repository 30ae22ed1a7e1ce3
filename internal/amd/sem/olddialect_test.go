package sem

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/sem/semtest"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// olderFamilies are the families whose guides write the older notation
// (isa.TraitOldPseudocode).
var olderFamilies = []string{"rdna1", "rdna2", "cdna1", "cdna2", "vega", "vega7"}

// newerOf is the newer-notation family each older one is held to: the
// next generation of its line whose guide has the newer pseudocode (RDNA
// 3 for RDNA 1-2; CDNA 3, GCN's descendant, for CDNA 1-2 and Vega).
var newerOf = map[string]string{"rdna1": "rdna3", "rdna2": "rdna3", "cdna1": "cdna3", "cdna2": "cdna3", "vega": "cdna3", "vega7": "cdna3"}

// TestOldNotation runs the older notation's constructs, as written in
// those guides' table cells, on the evaluator.
func TestOldNotation(t *testing.T) {
	neg0, pos0, one, two := uint64(0x80000000), uint64(0), f32bits(1), f32bits(2)
	snan, qnan := uint64(0x7fa00000), uint64(0x7fc00000)
	for _, c := range []struct {
		name, src string
		in        []uint64
		want      uint64
	}{
		// A sentence's period ends the statement; .f is f32.
		{"v_add_f32", "D.f = S0.f + S1.f.", []uint64{one, one}, two},
		// if without then, else if, endif; the class tests == NaN, == sNaN.
		{"v_max_f32", "if (IEEE_MODE && S0.f == sNaN) D.f = Quiet(S0.f); else if (S1.f == NaN) D.f = S0.f; else D.f = S1.f; endif.", []uint64{snan, one}, 0x7fe00000},
		{"v_max_f32", "if (IEEE_MODE && S0.f == sNaN) D.f = Quiet(S0.f); else if (S1.f == NaN) D.f = S0.f; else D.f = S1.f; endif.", []uint64{two, qnan}, two},
		// A signed zero literal compares sign-exactly, as in the newer notation.
		{"v_max_f32", "if (S0.f == +0.0 && S1.f == -0.0) D.f = S0.f; else D.f = S1.f; endif.", []uint64{pos0, neg0}, pos0},
		{"v_max_f32", "if (S0.f == +0.0 && S1.f == -0.0) D.f = S0.f; else D.f = S1.f; endif.", []uint64{neg0, neg0}, neg0},
		// +-INF is either infinity.
		{"v_test_f32", "if (S0.f == +-INF) D.u = 1; else D.u = 0; endif.", []uint64{0xff800000}, 1},
		// C casts convert by value; (int) of a float as f32_to_i32 does.
		{"v_cvt_f32_u32", "D.f = (float)S0.u.", []uint64{2}, two},
		{"v_cvt_i32_f32", "D.i = (int)S0.f.", []uint64{0xc0200000}, 0xfffffffe},
		{"v_cvt_f32_f64", "D.f = (float)S0.d.", []uint64{0x7ff4000000000000}, 0x7fe00000},
		// A C declaration; a // comment after code ends where the next statement starts.
		{"s_test_b32", "int32 tmp = S0.i; // keep it D.i = tmp + 1.", []uint64{41}, 42},
		// for ... in a ... b do, break for, opcode_size_in_bits from the name.
		{"s_ff1_i32_b64", "D.i = -1; for i in 0 ... opcode_size_in_bits - 1 do if S0[i] == 1 then D.i = i; break for; endif; endfor.", []uint64{1 << 40}, 40},
		// An operand named without a type has the name's: b64 here.
		{"s_not_b64", "D = ~S0; SCC = (D != 0).", []uint64{0}, 0xffffffffffffffff},
		// A slice of a signed view is a narrower signed value.
		{"v_ashrrev_i16", "D.i[15:0] = S1.i[15:0] >> S0.i[3:0].", []uint64{1, 0x8000}, 0xc000},
		// An index into a view narrower than a register is an element.
		{"v_dot2_u32_u16", "D.u32 = S0.u16[0] * S1.u16[0] + S0.u16[1] * S1.u16[1] + S2.u32", []uint64{0x00020003, 0x00050007, 1}, 3*7 + 2*5 + 1},
		// Narrow operands take part as 32-bit values (C's promotion).
		{"v_mul_u32_u24", "D.u = S0.u[23:0] * S1.u[23:0].", []uint64{2, 0xffffff}, 0x1fffffe},
		// Arithmetic shifted right by 32 is done in 64 bits.
		{"v_mul_hi_u32", "D.u = (S0.u * S1.u) >> 32.", []uint64{2, 0xffffffff}, 1},
		// S0.f * (2 ** S1.i) scales by a power of two.
		{"v_ldexp_f32", "D.f = S0.f * (2 ** S1.i).", []uint64{one, 3}, f32bits(8)},
		// A function definition "NAME(x, y) := expr", then a comment that runs into code.
		{"v_sad_u8", "ABSDIFF(x, y) := (x > y ? x - y : y - x) // unsigned D.u = S2.u; D.u += ABSDIFF(S0.u[7:0], S1.u[7:0]).", []uint64{3, 10, 100}, 107},
		// max and min: IEEE maxNum/minNum, -0 below +0.
		{"v_pk_max_f16", "D.f = max(S0.f, S1.f).", []uint64{qnan, one}, one},
		{"v_pk_max_f16", "D.f = max(S0.f, S1.f).", []uint64{neg0, pos0}, pos0},
		{"v_pk_min_f16", "D.f = min(S0.f, S1.f).", []uint64{pos0, neg0}, neg0},
		// A Verilog-style sized literal in a concatenation.
		{"v_test_b32", "D.u32 = {16 'h0, S0.u[15:0]}.", []uint64{0x12345678}, 0x5678},
		// "a == b == 0" is both zero.
		{"v_test_f32", "if (S1.f == S2.f == 0) D.u = 1; else D.u = 0; endif.", []uint64{0, pos0, neg0}, 1},
		{"v_test_f32", "if (S1.f == S2.f == 0) D.u = 1; else D.u = 0; endif.", []uint64{0, one, one}, 0},
	} {
		in := Compile("rdna2", c.name, c.src)
		if !in.Executable() {
			t.Errorf("%s %q: not executable: %v %v", c.name, c.src, in.Err, in.Info)
			continue
		}
		w, err := in.Eval(c.in, DefaultMode)
		if err != nil {
			t.Errorf("%s %q: %v", c.name, c.src, err)
			continue
		}
		d, _ := in.Dest(w, "D0")
		width := 32
		if r := in.Info.Regs["D0"]; r != nil && r.Type.Width > 0 {
			width = r.Type.Width
		}
		if got := d.view(Type{Kind: KBits, Width: width}).Bits().Uint64(); got != c.want {
			t.Errorf("%s %q on %#x: D0 = %#x, want %#x", c.name, c.src, c.in, got, c.want)
		}
	}
}

// TestOldNotationCarry: the carry out of an add compared with 2^32 is the
// 33-bit sum's, and a VALU instruction's VCC is its lane's bit.
func TestOldNotationCarry(t *testing.T) {
	s := Compile("vega", "s_add_u32", "D.u32 = S0.u32 + S1.u32; SCC = S0.u32 + S1.u32 >= 0x100000000ULL ? 1 : 0.")
	w, err := s.Eval([]uint64{1, 0xffffffff}, DefaultMode)
	if err != nil || !w.SCC {
		t.Errorf("s_add_u32(1, 0xffffffff): SCC %v, %v; want 1", w != nil && w.SCC, err)
	}
	v := Compile("vega", "v_add_co_u32", "D.u = S0.u + S1.u; VCC = S0.u + S1.u >= 0x100000000ULL ? 1 : 0.")
	if !v.Executable() {
		t.Fatalf("v_add_co_u32: %v %v", v.Err, v.Info.Problems)
	}
	w, err = v.Eval([]uint64{1, 0xffffffff}, DefaultMode)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.VCC & 1; got != 1 {
		t.Errorf("v_add_co_u32(1, 0xffffffff): VCC bit 0 = %d, want 1", got)
	}
}

// TestOldNotationExamples: the worked examples the older cells run
// together ("Examples: V_RCP_F32(0xff800000) => 0x80000000 // rcp(-INF)
// = -0 V_RCP_F32(...) => ...") are taken out, one each, and the code
// before them kept.
func TestOldNotationExamples(t *testing.T) {
	in := Compile("vega", "v_rcp_f32", "D.f = 1.0 / S0.f.\nExamples: V_RCP_F32(0xff800000) => 0x80000000 // rcp(-INF) = -0 V_RCP_F32(0x00000000) => 0x7f800000 // rcp(+0.0) = +INF")
	if !in.Executable() {
		t.Fatalf("not executable: %v %v", in.Err, in.Info)
	}
	if n := len(in.Prog.Examples); n != 2 {
		t.Fatalf("%d examples, want 2: %+v", n, in.Prog.Examples)
	}
	for _, ex := range in.Prog.Examples {
		got, err := runExample(in, ex)
		if err != nil || got.Cmp(parseExampleValue(ex.Result)) != 0 {
			t.Errorf("%s(%s) = %v (%v), the guide says %s", ex.Name, strings.Join(ex.Args, ", "), got, err, ex.Result)
		}
	}
}

// TestOldCoverageOnGuides parses every older-notation page of the guides
// and reports, per family, how much parses and runs, holding each to a
// floor below what it reaches now (the rest is memory, prose and matrix
// operations eval does not model).
func TestOldCoverageOnGuides(t *testing.T) {
	for _, fam := range olderFamilies {
		lib := NewLibrary(fam, semtest.Pseudocode(t, fam))
		pages, parsed, exec := 0, 0, 0
		why := map[string]int{}
		for _, n := range lib.Names() {
			in := lib.Get(n)
			pages++
			switch {
			case in.Err != nil:
				why["parse: "+firstWords(in.Err.Error())]++
			case !in.Executable():
				parsed++
				why[firstWords(in.Info.Problems[0])]++
			default:
				parsed++
				exec++
			}
		}
		t.Logf("%-6s %4d pages: %4d parsed (%.1f%%), %4d executable (%.1f%%); first reasons: %s", fam, pages, parsed, pct(parsed, pages),
			exec, pct(exec, pages), topReasons(why, 4))
		if pct(parsed, pages) < 90 || pct(exec, pages) < 55 {
			t.Errorf("%s: parsed %.1f%%, executable %.1f%%; the floors are 90%% and 55%%", fam, pct(parsed, pages), pct(exec, pages))
		}
	}
}

func topReasons(why map[string]int, n int) string {
	keys := make([]string, 0, len(why))
	for k := range why {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return why[keys[i]] > why[keys[j]] || why[keys[i]] == why[keys[j]] && keys[i] < keys[j]
	})
	var out []string
	for i, k := range keys {
		if i == n {
			break
		}
		out = append(out, fmt.Sprintf("%s (%d)", strings.TrimSpace(k), why[k]))
	}
	return strings.Join(out, "; ")
}

// maxDiffCases bounds the cases one instruction is compared on (the
// packed three-source corpora run to hundreds of thousands).
const maxDiffCases = 1500

// TestOldAgainstNewer is the differential: every instruction executable
// in an older family and in its line's newer family (newerOf) under the
// same name and with the same sources runs on the special-value corpus in
// both, and D0 and SCC must agree. Where the two guides' texts say
// different things, testdata/olddialect_differences.tsv names the
// instruction and why; a listed one that agrees everywhere is an error
// too.
func TestOldAgainstNewer(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates some 3,000 instructions on their corpora")
	}
	known := map[string]string{}
	for _, r := range testenv.ReadTable(t, "testdata/olddialect_differences.tsv", "\t", 2) {
		known[r.Fields[0]] = r.Fields[1]
	}
	seen := map[string]bool{}
	for _, old := range olderFamilies {
		lo := NewLibrary(old, semtest.Pseudocode(t, old))
		ln := NewLibrary(newerOf[old], semtest.Pseudocode(t, newerOf[old]))
		compared, agree, differ, other := 0, 0, 0, 0
		for _, n := range lo.Names() {
			a, b := lo.Get(n), ln.Get(n)
			if b == nil || !a.Executable() || !b.Executable() || a.Matrix != nil || b.Matrix != nil {
				continue
			}
			if len(a.Info.Sources()) != len(b.Info.Sources()) {
				other++ // the texts name their operands differently (SIMM16 as an operand, D read)
				continue
			}
			compared++
			ex, nd := diffOn(a, b)
			switch {
			case nd == 0:
				agree++
			case known[n] != "":
				differ++
				seen[n] = true
			default:
				differ++
				t.Errorf("%s %s differs from %s's on %d cases, e.g. %s", old, n, newerOf[old], nd, ex)
			}
		}
		t.Logf("%-6s vs %-5s: %d instructions compared, %d agree on every case, %d differ (each listed with its reason), %d with other operands",
			old, newerOf[old], compared, agree, differ, other)
		if agree < 400 {
			t.Errorf("%s: only %d instructions agree with %s", old, agree, newerOf[old])
		}
	}
	for n := range known {
		if !seen[n] {
			t.Errorf("olddialect_differences.tsv lists %s, which agrees (or is no longer compared) in every family", n)
		}
	}
}

// diffOn runs a and b on b's sources' specials: how many cases differ in
// D0 (at b's width) or SCC, and the first.
func diffOn(a, b *Instruction) (string, int) {
	var sp [][]Special
	for _, r := range b.Info.Sources() {
		sp = append(sp, RegSpecials(r))
	}
	cases := Cases(sp, 40, 1)
	if len(cases) > maxDiffCases {
		step := len(cases)/maxDiffCases + 1
		var keep []Case
		for i := 0; i < len(cases); i += step {
			keep = append(keep, cases[i])
		}
		cases = keep
	}
	width := 32
	if r := b.Info.Regs["D0"]; r != nil && r.Type.Width > 0 {
		width = r.Type.Width
	}
	if r := b.Info.Regs["D0"]; r != nil && r.LaneMask {
		width = 1
	}
	bits := func(in *Instruction, w *Wave) string {
		d, ok := in.Dest(w, "D0")
		if !ok {
			return "none"
		}
		return fmt.Sprintf("%#x", d.view(Type{Kind: KBits, Width: width}).Bits())
	}
	n, first := 0, ""
	for _, c := range cases {
		wa, ea := a.Eval(c.Bits, DefaultMode)
		wb, eb := b.Eval(c.Bits, DefaultMode)
		var ra, rb string
		switch {
		case ea != nil || eb != nil:
			ra, rb = fmt.Sprint(ea), fmt.Sprint(eb)
		default:
			ra, rb = bits(a, wa)+fmt.Sprintf(" SCC %v", wa.SCC), bits(b, wb)+fmt.Sprintf(" SCC %v", wb.SCC)
		}
		if ra != rb {
			if n++; first == "" {
				first = fmt.Sprintf("%#x: older %s, newer %s", c.Bits, ra, rb)
			}
		}
	}
	return first, n
}

// TestOldWorkedExamples evaluates the older guides' worked examples
// ("V_RCP_F32(0xff800000) => 0x80000000", split out of the cells) on
// their pages. Where the page's own pseudocode gives another result,
// testdata/olddialect_examples.tsv says so and why (for every older
// family: the guides share these pages).
func TestOldWorkedExamples(t *testing.T) {
	known := map[string]string{}
	for _, r := range testenv.ReadTable(t, "testdata/olddialect_examples.tsv", "\t", 3) {
		known[r.Fields[0]+"\t"+r.Fields[1]] = r.Fields[2]
	}
	used := map[string]bool{}
	for _, fam := range olderFamilies {
		lib := NewLibrary(fam, semtest.Pseudocode(t, fam))
		lines, agree := 0, 0
		for _, n := range lib.Names() {
			page := lib.Get(n)
			if page.Prog == nil {
				continue
			}
			for _, ex := range page.Prog.Examples {
				lines++
				in := lib.Get(strings.ToLower(ex.Name))
				if in == nil || in.Prog == nil {
					in = page
				}
				key := n + "\t" + strings.Join(ex.Args, ", ")
				got, err := runExample(in, ex)
				want := parseExampleValue(ex.Result)
				switch {
				case err == nil && want != nil && got.Cmp(want) == 0:
					agree++
					if known[key] != "" {
						t.Errorf("%s %s(%s) now gives the guide's %s: drop it from olddialect_examples.tsv", fam, ex.Name, strings.Join(ex.Args, ", "), ex.Result)
					}
				case known[key] != "":
					used[key] = true
				default:
					t.Errorf("%s %s: %s(%s) => %s in the guide, the pseudocode gives %#x (%v)", fam, n, ex.Name, strings.Join(ex.Args, ", "), ex.Result, got, err)
				}
			}
		}
		t.Logf("%-6s %d worked examples: %d agree with the pseudocode, %d differ (each listed with its reason)", fam, lines, agree, lines-agree)
		if lines < 100 {
			t.Errorf("%s: only %d worked examples found", fam, lines)
		}
	}
	for k := range known {
		if !used[k] {
			t.Errorf("olddialect_examples.tsv lists %q, which agrees (or no longer exists) in every family", k)
		}
	}
}

package encode

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestCheckOperandsFixture: the hand-written family's VOP2 takes three
// operands of one register each.
func TestCheckOperandsFixture(t *testing.T) {
	a, ins := fixture()
	enc, err := New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		asm     string
		operand int // -2: no problem
	}{
		{"v_max_f32 v5, -1, v2", -2},
		{"v_max_f32_e32 v5, 0x12345678, v2", -2},
		{"v_max_f32 v5, v1", -1},
		{"v_max_f32 v5, v1, v2, v3", -1},
		{"v_max_f32 v5, v[1:2], v2", 1},
		{"v_max_f32 v[4:5], v1, v2", 0},
		{"v_max_f32 v5, -|v[1:2]|, v2", 1},
		{"v_bogus v1, v2", -2}, // the name is the mnemonic check's business
	} {
		got := enc.CheckOperands(c.asm)
		switch {
		case c.operand == -2 && got != nil:
			t.Errorf("%s: %v, want no problem", c.asm, got)
		case c.operand != -2 && got == nil:
			t.Errorf("%s: no problem found, want one at operand %d", c.asm, c.operand)
		case c.operand != -2 && got.Operand != c.operand:
			t.Errorf("%s: problem at operand %d (%v), want %d", c.asm, got.Operand, got, c.operand)
		}
	}
}

// TestCheckOperandsAgainstLLVM holds the check to llvm-mc-22 on every
// family: lines llvm-mc disassembled from random words (valid by
// construction) must all pass, and of their mutants (an operand dropped,
// one repeated, a register widened or narrowed) every one the check flags
// must be one llvm-mc rejects. The share of llvm-mc's rejections the
// check finds is logged (it stays silent where it cannot tell).
func TestCheckOperandsAgainstLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to hold the operand check to llvm-mc")
	}
	if testenv.FindUpstream() == "" {
		t.Skip("shared/upstream not found (set GPUISA_SOURCES): no family to check")
	}
	for _, f := range familiesLLVM {
		t.Run(f.Arch, func(t *testing.T) {
			enc := familyEncoder(t, f.Arch)
			rng := rand.New(rand.NewSource(11))
			words := make([][]byte, 3000)
			for i := range words {
				words[i] = make([]byte, 16)
				rng.Read(words[i])
			}
			dis, err := decodetest.Disassemble(f.MCPU, words, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			var valid, mutants []string
			for _, r := range dis {
				if !r.OK || strings.Contains(r.Text, "/*") {
					continue
				}
				txt := strings.TrimSpace(commentRe.ReplaceAllString(r.Text, ""))
				valid = append(valid, txt)
				mutants = append(mutants, mutate(txt, rng)...)
			}
			falsePos := 0
			for _, v := range valid {
				if p := enc.CheckOperands(v); p != nil {
					falsePos++
					t.Errorf("valid line flagged: %s: %v", v, p)
				}
			}
			_, msgs, err := decodetest.Assemble(f.MCPU, mutants, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			flagged, wrong, rejected, found := 0, 0, 0, 0
			for i, m := range mutants {
				p := enc.CheckOperands(m)
				if msgs[i] != "" {
					rejected++
				}
				if p == nil {
					continue
				}
				flagged++
				if msgs[i] == "" {
					wrong++
					if wrong <= 10 {
						t.Errorf("flagged a line llvm-mc assembles: %s: %v", m, p)
					}
					continue
				}
				found++
			}
			t.Logf("%s: %d valid lines, %d flagged; %d mutants, llvm-mc rejects %d, the check flags %d (%d of them wrongly): it finds %.1f%% of llvm-mc's rejections",
				f.Arch, len(valid), falsePos, len(mutants), rejected, flagged, wrong, 100*float64(found)/float64(max(rejected, 1)))
			if len(valid) == 0 {
				t.Fatal("llvm-mc disassembled no random word: nothing was checked")
			}
			// The check stays silent where it cannot tell (memory, matrix,
			// DPP/SDWA lines); on these mutants it found 80-91% per family.
			if float64(found) < 0.75*float64(rejected) {
				t.Errorf("the check finds %d of llvm-mc's %d rejections: below 75%%", found, rejected)
			}
		})
	}
}

// mutate makes invalid-looking variants of a valid line: its last operand
// dropped, its last operand repeated, and its first register resized.
func mutate(line string, rng *rand.Rand) []string {
	mn, rest, _ := strings.Cut(line, " ")
	ops, mods := splitOperands(compactBrackets(rest))
	if len(ops) == 0 {
		return nil
	}
	join := func(o []string) string {
		s := mn
		if len(o) > 0 {
			s += " " + strings.Join(o, ", ")
		}
		if len(mods) > 0 {
			s += " " + strings.Join(mods, " ")
		}
		return s
	}
	out := []string{join(ops[:len(ops)-1]), join(append(append([]string{}, ops...), ops[len(ops)-1]))}
	for i, o := range ops {
		r := regOf(o)
		if r.file == "" {
			continue
		}
		m, _ := matchReg(strings.Trim(strings.TrimPrefix(o, "-"), "|"))
		lo := m[2] + m[3]
		n, _ := strconv.Atoi(lo)
		var resized string
		if r.count == 1 {
			resized = r.file + "[" + lo + ":" + strconv.Itoa(n+1+rng.Intn(2)) + "]"
		} else {
			resized = r.file + lo
		}
		o2 := append([]string{}, ops...)
		o2[i] = strings.Replace(o, m[0], resized, 1)
		out = append(out, join(o2))
		break
	}
	return out
}

// FuzzCheckOperands: any text (the language server hands it every line
// of an open file) is judged without a panic, and a problem always names
// an operand the line has.
func FuzzCheckOperands(f *testing.F) {
	a, ins := fixture()
	enc, err := New(a, ins)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"v_max_f32 v5, v1", "v_max_f32 v5, v[1:2], v2", "v_max_f32 v[9:1], -|v[", "s_add_u32 s5, 1, s2 ,,", "v_max_f32_e64 v1, v2, v3 clamp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := enc.CheckOperands(s)
		if p == nil || p.Operand < 0 {
			return
		}
		_, rest, _ := strings.Cut(normalize(s), " ")
		ops, _ := splitOperands(compactBrackets(rest))
		if p.Operand >= len(ops) || ops[p.Operand] != p.Written {
			t.Errorf("%q: problem at operand %d (%q) of %q", s, p.Operand, p.Written, ops)
		}
	})
}

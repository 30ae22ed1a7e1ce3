package ptx

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

type checkCase struct {
	line             int
	instr, want, exp string
}

func readCases(t *testing.T) []checkCase {
	t.Helper()
	var out []checkCase
	for _, r := range testenv.ReadTable(t, "testdata/check_cases.txt", "|", 3) {
		out = append(out, checkCase{r.Line, r.Fields[0], r.Fields[1], r.Fields[2]})
	}
	return out
}

func TestCheckCasesAgainstDocs(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	cases := readCases(t)
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		r := c.Check(tc.instr)
		switch tc.want {
		case "valid":
			if !r.Valid {
				t.Errorf("check_cases.txt:%d: %s: invalid (%s), want valid", tc.line, tc.instr, r.Reason)
				continue
			}
			got := "ptx=" + r.PTXVersion + " target=" + r.MinTarget
			if len(r.Alternatives) > 1 {
				parts := make([]string, len(r.Alternatives))
				for i, o := range r.Alternatives {
					parts[i] = "ptx=" + o.PTXVersion + " target=" + o.MinTarget
				}
				got = strings.Join(parts, " or ")
			}
			if got != tc.exp {
				t.Errorf("check_cases.txt:%d: %s: got %s, want %s", tc.line, tc.instr, got, tc.exp)
			}
		case "invalid":
			if r.Valid {
				t.Errorf("check_cases.txt:%d: %s: valid (%s), want invalid", tc.line, tc.instr, r.Syntax)
			} else if !strings.Contains(r.Reason, tc.exp) {
				t.Errorf("check_cases.txt:%d: %s: reason %q lacks %q", tc.line, tc.instr, r.Reason, tc.exp)
			}
		default:
			t.Fatalf("check_cases.txt:%d: bad verdict %q", tc.line, tc.want)
		}
	}
	t.Logf("%d cases", len(cases))
}

// TestHostileStatementsAreRefused: issue 13's quadratic case ("add" and
// 30,000 ".s32") and an over-long statement end in a clear error at once.
func TestHostileStatementsAreRefused(t *testing.T) {
	for _, s := range []string{"add" + strings.Repeat(".s32", 30000) + " d, a, b;", "mov.b32 r, " + strings.Repeat("x", MaxStatement) + ";"} {
		if _, _, err := ParseInstruction(s); err == nil || !strings.Contains(err.Error(), "may have here") {
			t.Errorf("%.30q...: %v, want a limit error", s, err)
		}
	}
	if _, _, err := ParseInstruction("cp.async.bulk.tensor.5d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2.L2::cache_hint [a], [b, {c}], [m];"); err != nil {
		t.Errorf("a long real statement is refused: %v", err)
	}
}

// BenchmarkHostileStatement: the checker on issue 13's quadratic case
// (over 20 s before the bound).
func BenchmarkHostileStatement(b *testing.B) {
	c := NewChecker(nil)
	s := "add" + strings.Repeat(".s32", 30000) + " d, a, b;"
	for b.Loop() {
		c.Check(s)
	}
}

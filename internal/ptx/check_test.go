package ptx

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testenv"
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

package ptx

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

type checkCase struct {
	line             int
	instr, want, exp string
}

func readCases(t *testing.T) []checkCase {
	t.Helper()
	f, err := os.Open("testdata/check_cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []checkCase
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := strings.Split(l, "|")
		if len(p) != 3 {
			t.Fatalf("check_cases.txt:%d: want 3 fields", n)
		}
		out = append(out, checkCase{n, strings.TrimSpace(p[0]), strings.TrimSpace(p[1]), strings.TrimSpace(p[2])})
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

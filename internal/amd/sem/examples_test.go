package sem

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestWorkedExamples evaluates every worked example of the guides
// (lines "NAME(args) => result", 107 on 20 pages) on its
// page's instruction. Where the guide's own pseudocode gives another
// result than its example, testdata/worked_examples.tsv says so and why.
func TestWorkedExamples(t *testing.T) {
	libs := libraries(t)
	known := map[string]string{}
	for _, r := range testenv.ReadTable(t, "testdata/worked_examples.tsv", "\t", 4) {
		known[r.Fields[0]+"\t"+r.Fields[1]+"\t"+r.Fields[2]] = r.Fields[3]
	}
	lines, pages, agree, differ := 0, 0, 0, 0
	used := map[string]bool{}
	for _, fam := range newerFamilies {
		lib := libs[fam]
		for _, n := range lib.Names() {
			page := lib.Get(n)
			exs := WorkedExamples(page.Source)
			if len(exs) == 0 {
				continue
			}
			pages++
			for _, ex := range exs {
				lines++
				// The example names its instruction; a page whose text is
				// only examples (V_RSQ_F32's on V_S_RSQ_F32's page) is
				// checked on the named one.
				in := lib.Get(strings.ToLower(ex.Name))
				if in == nil || in.Prog == nil {
					in = page
				}
				call := fmt.Sprintf("%s(%s)", ex.Name, strings.Join(ex.Args, ", "))
				key := fam + "\t" + n + "\t" + strings.Join(ex.Args, ", ")
				got, err := runExample(in, ex)
				want := parseExampleValue(ex.Result)
				switch {
				case err != nil:
					differ++
					if _, ok := known[key]; !ok {
						t.Errorf("%s %s: %s: cannot evaluate: %v", fam, n, call, err)
					}
					used[key] = true
				case want == nil:
					t.Errorf("%s %s: %s: cannot read the result %q", fam, n, call, ex.Result)
				case got.Cmp(want) == 0:
					agree++
					if _, ok := known[key]; ok {
						t.Errorf("%s %s: %s now gives the guide's %s: drop it from worked_examples.tsv", fam, n, call, ex.Result)
					}
				default:
					differ++
					if _, ok := known[key]; !ok {
						t.Errorf("%s %s: %s => %s in the guide, the pseudocode gives 0x%x", fam, n, call, ex.Result, got)
					}
					used[key] = true
				}
			}
		}
	}
	for k := range known {
		if !used[k] {
			t.Errorf("worked_examples.tsv lists %s, which does not disagree (or no longer exists)", k)
		}
	}
	t.Logf("%d worked example lines on %d pages: %d agree with the pseudocode, %d differ (each listed with its reason)", lines, pages, agree, differ)
	if lines < 100 {
		t.Errorf("only %d worked example lines found; the guides have 107", lines)
	}
}

func parseExampleValue(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 0)
	if !ok {
		return nil
	}
	return n
}

// runExample evaluates one worked example: its arguments are S0, S1, ...
// and the result is D0 at the width the pseudocode writes it.
func runExample(in *Instruction, ex WorkedExample) (*big.Int, error) {
	var srcs []uint64
	for _, a := range ex.Args {
		n := parseExampleValue(a)
		if n == nil {
			return nil, fmt.Errorf("cannot read the argument %q", a)
		}
		srcs = append(srcs, n.Uint64())
	}
	w, err := in.Eval(srcs, DefaultMode)
	if err != nil {
		return nil, err
	}
	d, ok := in.Dest(w, "D0")
	if !ok {
		return nil, fmt.Errorf("no D0 written")
	}
	width := 32
	if r := in.Info.Regs["D0"]; r != nil && r.Type.Width > 0 {
		width = r.Type.Width
	}
	v := d.view(Type{Kind: KBits, Width: width})
	return v.Bits(), nil
}

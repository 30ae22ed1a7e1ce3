package ptxfold

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx/semptx"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// minFolded guards the reader: fewer folded cases than this means the
// SASS shapes changed under it, not that ptxas stopped folding.
const minFolded = 2000

// Counts are one group's cases.
type counts struct{ cases, folded, agree, tolerated, differ int }

// TestFoldAgrees compiles every model's corpus as constant kernels for
// sm_90 and holds each folded constant to the model: equal, both NaN
// where NVIDIA leaves NaN bits unspecified, or a tolerated class.
func TestFoldAgrees(t *testing.T) {
	tools := testenv.PTXAS(t)
	if tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed (`go run ./cmd/gpuisa tools install`): skipping the folding check")
	}
	f, err := os.Open("testdata/tolerated.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ReadTolerances(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// GPUISA_PTXFOLD_RANDOM=N checks every model's whole corpus with N
	// random cases (300: 175,586 cases, about 90 s cold per target)
	// instead of 400 cases of each.
	opts := Options{PerModel: 400}
	if n, err := strconv.Atoi(os.Getenv("GPUISA_PTXFOLD_RANDOM")); err == nil && n > 0 {
		opts = Options{Random: n}
	}
	k, err := Generate(semptx.Models(), opts)
	if err != nil {
		t.Fatal(err)
	}
	sess := ptxas.NewSession(tools, ptxas.DefaultCacheDir())
	for _, target := range []string{"sm_90", "sm_80"} {
		if _, ok := tools.ToolFor(target); !ok {
			t.Logf("no ptxas compiles for %s: skipping it", target)
			continue
		}
		t.Run(target, func(t *testing.T) { checkTarget(t, sess, target, k, rows) })
	}
}

func checkTarget(t *testing.T, sess *ptxas.Session, target string, k *Kernels, rows []Tolerance) {
	rs, err := Run(context.Background(), sess, target, k)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]*counts{}
	total := &counts{}
	var bad []string
	for _, r := range rs {
		g := group(r.Model)
		if groups[g] == nil {
			groups[g] = &counts{}
		}
		tol := r.Folded && !Agrees(r) && Tolerated(rows, r) != nil
		for _, c := range []*counts{groups[g], total} {
			c.cases++
			if !r.Folded {
				continue
			}
			c.folded++
			switch {
			case Agrees(r):
				c.agree++
			case tol:
				c.tolerated++
			default:
				c.differ++
			}
		}
		if r.Folded && !Agrees(r) && !tol {
			bad = append(bad, fmt.Sprintf("%s%s %x: ptxas folds %#x, the model says %#x", r.Model.Mnemonic, r.Model.Variant, r.Inputs, r.Got, Want(r.Case)))
		}
	}
	t.Logf("%s:%s", target, report(groups, total))
	t.Logf("ptxas+nvdisasm processes so far %d (cache hits %d)", sess.Stats().Processes, sess.Stats().CacheHits)
	for i, b := range bad {
		if i == 30 {
			t.Errorf("... and %d more", len(bad)-i)
			break
		}
		t.Errorf("unexplained difference: %s", b)
	}
	if total.folded < minFolded {
		t.Errorf("%d cases folded, want at least %d: has ptxas's SASS changed shape?", total.folded, minFolded)
	}
}

// group is a model's mnemonic group: the mnemonic and whether it works
// on floats or integers.
func group(m *semptx.Model) string {
	kind := "int"
	if m.Srcs[0].Float != nil {
		kind = "float"
	}
	return m.Mnemonic + " " + kind
}

func report(groups map[string]*counts, total *counts) string {
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s %7s %7s %7s %7s %9s %7s\n", "group", "cases", "folded", "not", "agree", "tolerated", "differ")
	line := func(name string, c *counts) {
		fmt.Fprintf(&b, "%-12s %7d %7d %7d %7d %9d %7d\n", name, c.cases, c.folded, c.cases-c.folded, c.agree, c.tolerated, c.differ)
	}
	for _, g := range names {
		line(g, groups[g])
	}
	line("total", total)
	return b.String()
}

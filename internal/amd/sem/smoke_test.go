package sem

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"testing"
)

// TestRunsOnCorpus runs every executable page of the guides on the
// special-value corpus (lane by lane: matrix operations run over whole
// matrices, TestGuideMatrixOperations): an evaluator error (as opposed to an unsupported
// construct) on any input is a defect of the evaluator or of the page.
func TestRunsOnCorpus(t *testing.T) {
	libs := libraries(t)
	errs := map[string]int{}
	example := map[string]string{}
	ran, failed := 0, 0
	for _, fam := range newerFamilies {
		lib := libs[fam]
		for _, n := range lib.Names() {
			in := lib.Get(n)
			if !in.Executable() || in.Matrix != nil {
				continue // matrix operations: TestGuideMatrixOperations
			}
			var sp [][]Special
			for _, r := range in.Info.Sources() {
				sp = append(sp, RegSpecials(r))
			}
			cases := Cases(sp, 20, 1)
			if len(cases) > 300 {
				cases = cases[:300]
			}
			bad := false
			for _, c := range cases {
				ran++
				if _, err := in.Eval(c.Bits, DefaultMode); err != nil {
					key := err.Error()
					if len(key) > 90 {
						key = key[:90]
					}
					errs[key]++
					example[key] = fmt.Sprintf("%s %s %x", fam, n, c.Bits)
					bad = true
				}
			}
			if bad {
				failed++
			}
		}
	}
	t.Logf("%d runs, %d instructions failed on some input", ran, failed)
	keys := slices.Sorted(maps.Keys(errs))
	sort.Slice(keys, func(i, j int) bool { return errs[keys[i]] > errs[keys[j]] })
	for i, k := range keys {
		if i < 60 || os.Getenv("GPUISA_SEM_VERBOSE") != "" {
			t.Errorf("%6d  %s  (e.g. %s)", errs[k], k, example[k])
		}
	}
}

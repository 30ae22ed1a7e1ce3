package sem

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// TestCoverageOnGuides parses every newer-dialect page of the guides and
// holds parse and executable coverage to the targets: at least 95%
// of the pages parse and at least 55% are executable.
func TestCoverageOnGuides(t *testing.T) {
	libs := libraries(t)
	total, parsed, executable := 0, 0, 0
	reasons := map[string]int{}
	used := map[string]bool{}
	examples := map[string]string{}
	for _, fam := range newerFamilies {
		lib := libs[fam]
		fp, fe, ft := 0, 0, 0
		for _, n := range lib.Names() {
			in := lib.Get(n)
			ft++
			if in.Err != nil {
				key := "parse: " + firstWords(in.Err.Error())
				reasons[key]++
				examples[key] = fam + " " + n + ": " + in.Err.Error()
				continue
			}
			fp++
			if in.Executable() {
				fe++
				for _, c := range in.Info.Calls {
					if !isInstructionName(c) {
						used[c] = true
					}
				}
				continue
			}
			key := firstWords(in.Info.Problems[0])
			reasons[key]++
			examples[key] = fam + " " + n
		}
		t.Logf("%-8s %4d pages: %4d parsed (%.1f%%), %4d executable (%.1f%%)", fam, ft, fp, pct(fp, ft), fe, pct(fe, ft))
		total += ft
		parsed += fp
		executable += fe
	}
	t.Logf("the executable pages call %d distinct built-ins and conversions", len(used))
	t.Logf("all      %4d pages: %4d parsed (%.1f%%), %4d executable (%.1f%%)", total, parsed, pct(parsed, total), executable, pct(executable, total))
	if os.Getenv("GPUISA_SEM_VERBOSE") != "" {
		keys := make([]string, 0, len(reasons))
		for k := range reasons {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return reasons[keys[i]] > reasons[keys[j]] })
		for _, k := range keys {
			fmt.Printf("%5d  %s   e.g. %s\n", reasons[k], k, examples[k])
		}
	}
	if pct(parsed, total) < 95 {
		t.Errorf("parsed %.1f%% of the pages; the target is 95%%", pct(parsed, total))
	}
	if pct(executable, total) < 55 {
		t.Errorf("executable %.1f%% of the pages; the target is 55%%", pct(executable, total))
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// firstWords keeps an error's gist for grouping: up to the first quote or digit run.
func firstWords(s string) string {
	if i := strings.IndexAny(s, "\"0123456789"); i > 8 {
		s = s[:i]
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

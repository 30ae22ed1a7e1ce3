package ptxdoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func TestReadDirRealCopyShape(t *testing.T) {
	secs, err := ReadDir(testenv.PTXDocs(t))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	byName := map[string]Section{}
	for _, s := range secs {
		kinds[s.Kind]++
		for _, m := range s.Mnemonics {
			if _, seen := byName[m]; !seen {
				byName[m] = s
			}
		}
	}
	if kinds[KindInstruction] < 190 || kinds[KindSpecialRegister] < 30 || kinds[KindDirective] < 25 {
		t.Errorf("sections by kind: %v", kinds)
	}
	for _, m := range []string{"max", "cvt", "mma", "wgmma.mma_async", "tcgen05.mma", "cp.async.bulk.tensor", "tex", "ld", "atom", "bar", "barrier", "%tid", ".version"} {
		s, ok := byName[m]
		if !ok {
			t.Errorf("no section documents %s", m)
			continue
		}
		if len(s.Syntax) == 0 || s.PTXISANotes == "" || s.TargetISANotes == "" {
			t.Errorf("%s (%s): syntax %d, notes %q / %q", m, s.File, len(s.Syntax), s.PTXISANotes, s.TargetISANotes)
		}
	}
}

// TestSummariesRealCopy: each mnemonic's summary is the whole paragraph under
// its own name (multimem.st's is not the multimem intro, vavrg4's is not
// vadd4's, prefetch's is not cut at the line wrap).
func TestSummariesRealCopy(t *testing.T) {
	dir := testenv.PTXDocs(t)
	secs, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range secs {
		data, err := os.ReadFile(filepath.Join(dir, s.File))
		if err != nil {
			t.Fatal(err)
		}
		paragraphs := map[string]bool{}
		for _, p := range strings.Split(string(data), "\n\n") {
			p = strings.TrimSpace(p)
			if first, rest, ok := strings.Cut(p, "\n"); ok && strings.HasPrefix(first, "`") && strings.HasPrefix(rest, ":") {
				p = rest // a definition list item: "`%clock`" / ":   A predefined ..."
			}
			paragraphs[strings.Join(strings.Fields(strings.TrimPrefix(p, ":")), " ")] = true
		}
		for _, m := range s.Mnemonics {
			sum := s.SummaryOf(m)
			if sum == "" || !paragraphs[sum] {
				t.Errorf("%s %s: summary %q is not a whole paragraph of the section", s.File, m, sum)
			}
			if _, seen := got[m]; !seen {
				got[m] = sum
			}
		}
	}
	for m, want := range map[string]string{
		"multimem.st":          "Perform memory operations on the multimem address.",
		"multimem.red":         "Perform memory operations on the multimem address.",
		"vavrg4":               "Integer quad byte SIMD average.",
		"vabsdiff2":            "Integer dual half-word SIMD absolute value of difference.",
		"prefetchu":            "Prefetch line containing a generic address at a specified level of memory hierarchy, in specified state space.",
		"shfl":                 "Register data shuffle within threads of a warp.",
		"%pm7":                 "Performance monitoring counters.",
		"%globaltimer_lo":      "The lower 32-bits of %globaltimer.",
		"mbarrier.complete_tx": "Perfoms [complete-tx](https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier-complete-tx-operation) operation on the *mbarrier object*.",
	} {
		if got[m] != want {
			t.Errorf("summary of %s = %q, want %q", m, got[m], want)
		}
	}
	for _, s := range secs {
		if s.File == "9_instruction_set/97_instructions/979_data_movement_and_conversion_instructions/97914_data_movement_and_conversion_instructions_multimemld_reduce_multimemst_multimemred.md" &&
			!strings.HasPrefix(s.Intro, "The multimem.\\* operations operate on multimem addresses") {
			t.Errorf("multimem intro %q", s.Intro)
		}
	}
}

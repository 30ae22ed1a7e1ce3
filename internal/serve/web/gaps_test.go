package web

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// TestOracleGapsShown: what an older LLVM left unverified is on /quality
// and /about, each gap with its fix; a report without gaps shows no such
// section on either.
func TestOracleGapsShown(t *testing.T) {
	gap := quality.OracleGap{Tool: "llvm-mc", Step: quality.StepTargets, Families: []string{"Family A"}, Targets: []string{"gfx0"},
		Text: "Family A: not verified: llvm-mc 14.0.6 does not know gfx0", Fix: "apt-get install -y llvm-22"}
	cost := quality.OracleGap{Tool: "llvm-mca", Step: "cost model", Text: "no cost from LLVM's scheduling model: llvm-mca 14.0.6 lacks flags", Fix: "apt-get install -y llvm-22"}
	s := qualityServer(t, quality.Report{Gaps: []quality.OracleGap{gap}, Cost: &quality.CostReport{Gap: &cost}})
	for _, path := range []string{"/quality", "/about"} {
		sec := text(section(t, mustPage(t, s, path), "oracle-gaps"))
		for _, want := range []string{gap.Text, cost.Text, gap.Fix} {
			if !strings.Contains(sec, want) {
				t.Errorf("%s: %q missing from %q", path, want, sec)
			}
		}
	}
	clean := qualityServer(t, quality.Report{})
	for _, path := range []string{"/quality", "/about"} {
		if body := get(t, clean, path).Body.String(); strings.Contains(body, "oracle-gaps") {
			t.Errorf("%s shows an oracle-gaps section without gaps", path)
		}
	}
}

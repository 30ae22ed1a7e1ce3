package semdiff

import (
	"regexp"
	"testing"
)

// zeroWhen matches a group found on zero inputs alone ("a is -0 and b is
// +0", "one input is -0"): what port would print as a ±0 difference.
var zeroWhen = regexp.MustCompile(`(^|\s)[-+]0(\s|$)`)

// TestNoSignedZeroDifferenceInMinMax (issue 28): with CDNA's V_MAX/V_MIN
// ±0 branches read sign-exactly, no family's float minimum or maximum
// differs from PTX's min/max on signed zeros, so port claims none (the
// text of v_min_f32 on gfx942 once gave min(-0, +0) = +0).
func TestNoSignedZeroDifferenceInMinMax(t *testing.T) {
	res := Derive(projectCatalogue(t), guideLibraries(t), Options{})
	pairs := 0
	for _, p := range res.Pairs {
		if p.Concept != "minimum" && p.Concept != "maximum" || p.Variant != ".f32" && p.Variant != ".f64" && p.Variant != ".f16" {
			continue
		}
		pairs++
		for _, g := range p.Differences {
			if zeroWhen.MatchString(g.When) {
				t.Errorf("%s %s vs %s%s: %s", p.Arch, p.AMD, p.PTX, p.Variant, g.Sentence())
			}
		}
	}
	if pairs < len(Families) {
		t.Errorf("only %d float minimum/maximum pairs evaluated over %d families", pairs, len(Families))
	}
	t.Logf("%d float minimum/maximum pairs, none differing on signed zeros", pairs)
}

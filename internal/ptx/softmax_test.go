package ptx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckSoftmaxKernel checks a hand-written softmax kernel whose header
// declares less than its instructions need: shfl.sync needs PTX ISA 6.0 and
// sm_30, rcp.rn.f32 and fma.rn.f32 need sm_20, the rest less.
func TestCheckSoftmaxKernel(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	src, err := os.ReadFile(filepath.Join("testdata", "softmax.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	rep := c.CheckSource("softmax.ptx", string(src))
	// The shfl.sync lines need more than the header gives: invalid there,
	// as ptxas says; every other line is valid.
	for _, r := range rep.Results {
		shfl := strings.HasPrefix(r.Text, "shfl.sync")
		if !r.Valid && !shfl {
			t.Errorf("softmax.ptx:%d: %s: invalid: %s", r.Line, r.Text, r.Reason)
		}
		if shfl && (r.Valid || !strings.Contains(r.Reason, "needs PTX ISA 6.0 and sm_30; the file's .version is 5.0, the file's .target is sm_20")) {
			t.Errorf("softmax.ptx:%d: %s: %+v, want invalid for .version 5.0 and .target sm_20", r.Line, r.Text, r)
		}
	}
	if rep.Invalid != 3 || rep.Valid != 36 {
		t.Errorf("valid %d invalid %d, want 36 and 3", rep.Valid, rep.Invalid)
	}
	if rep.Version != "5.0" || rep.Target != "sm_20" {
		t.Errorf("file .version/.target = %s/%s", rep.Version, rep.Target)
	}
	// The shfl.sync.bfly lines raise both.
	const shflLines = "[35 37 46]"
	if rep.NeedsVersion != "6.0" || fmt.Sprint(rep.VersionLines) != shflLines {
		t.Errorf("needs .version %s on lines %v, want 6.0 on %s", rep.NeedsVersion, rep.VersionLines, shflLines)
	}
	if rep.NeedsTarget != "sm_30" || fmt.Sprint(rep.TargetLines) != shflLines {
		t.Errorf("needs .target %s on lines %v, want sm_30 on %s", rep.NeedsTarget, rep.TargetLines, shflLines)
	}
	if len(rep.Warnings) != 2 || !strings.Contains(rep.Warnings[0], ".version 5.0") || !strings.Contains(rep.Warnings[1], "target sm_20") {
		t.Errorf("warnings %q, want one for .version 5.0 and one for .target sm_20", rep.Warnings)
	}
	want := map[string]string{
		"ex2.approx.f32 %f8, %f7;":                "1.0 sm_10",
		"fma.rn.f32 %f13, %f8, %f12, 0f00000000;": "2.0 sm_20",
		"rcp.rn.f32 %f12, %f11;":                  "2.0 sm_20",
		"bar.sync 0;":                             "1.0 sm_10",
		"selp.f32 %f14, 0f3F800000, %f13, %p2;":   "1.0 sm_10",
		"cvt.u64.u32 %rd6, %r4;":                  "1.0 sm_10",
	}
	for _, r := range rep.Results {
		if w, ok := want[r.Text]; ok && r.PTXVersion+" "+r.MinTarget != w {
			t.Errorf("softmax.ptx:%d: %s needs %s %s, want %s", r.Line, r.Text, r.PTXVersion, r.MinTarget, w)
		}
	}

	// With a sufficient header the same kernel draws no warning.
	fixed := strings.Replace(strings.Replace(string(src), ".version 5.0", ".version 6.0", 1), ".target sm_20", ".target sm_30", 1)
	if rep := c.CheckSource("softmax.ptx", fixed); len(rep.Warnings) != 0 {
		t.Errorf("with .version 6.0/.target sm_30: warnings %q", rep.Warnings)
	}
}

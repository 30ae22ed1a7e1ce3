package ptx

import (
	"bytes"
	"strings"
	"testing"
)

func TestTargetMeets(t *testing.T) {
	for _, c := range []struct {
		have, need string
		want       bool
	}{
		{"sm_80", "sm_80", true}, {"sm_90", "sm_80", true}, {"sm_75", "sm_80", false},
		{"sm_90a", "sm_80", true}, {"sm_90", "sm_90a", false}, {"sm_90a", "sm_90a", true},
		{"sm_100a", "sm_90a", false}, {"sm_103f", "sm_100f", true}, {"sm_103a", "sm_100f", true},
		{"sm_103", "sm_100f", false}, {"sm_120f", "sm_100f", false}, {"sm_100f", "sm_103f", false},
	} {
		if got := TargetMeets(c.have, c.need); got != c.want {
			t.Errorf("TargetMeets(%s, %s) = %v, want %v", c.have, c.need, got, c.want)
		}
	}
}

// TestContextRules: a statement is judged where it is assembled.
func TestContextRules(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	cases := []struct {
		stmt    string
		ctx     Context
		valid   bool
		rule    string
		contain string
	}{
		{"max.NaN.f32 d, a, b;", Context{Target: "sm_75"}, false, "target", "needs sm_80; the file's .target is sm_75"},
		{"max.NaN.f32 d, a, b;", Context{Target: "sm_75", TargetFrom: "--target"}, false, "target", "--target is sm_75"},
		{"max.NaN.f32 d, a, b;", Context{Target: "sm_80"}, true, "", ""},
		{"max.NaN.f32 d, a, b;", Context{Version: "6.5", Target: "sm_80"}, false, "version", "needs PTX ISA 7.0; the file's .version is 6.5"},
		// Removed forms: the notes' "not supported on sm_70 or higher
		// starting PTX ISA version 6.4".
		{"shfl.bfly.b32 %r1, %r2, 1, 31;", Context{Target: "sm_90"}, false, "removed", "not supported on sm_70 and higher from PTX ISA 6.4"},
		{"shfl.bfly.b32 %r1, %r2, 1, 31;", Context{Version: "6.3", Target: "sm_75"}, true, "", ""},
		{"shfl.bfly.b32 %r1, %r2, 1, 31;", Context{Version: "6.4", Target: "sm_60"}, true, "", ""},
		{"vote.ballot.b32 %r1, %p1;", Context{Version: "8.0", Target: "sm_80"}, false, "removed", ""},
		{"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", Context{Target: "sm_90"}, true, "", ""},
		{"vote.sync.ballot.b32 %r1, %p1, -1;", Context{Target: "sm_90"}, true, "", ""},
		// Special registers: their own minima, widths and readers.
		{"mov.u32 %r1, %clusterid.x;", Context{Target: "sm_80"}, false, "target", "needs sm_90"},
		{"mov.u32 %r1, %clusterid.x;", Context{Target: "sm_90"}, true, "", ""},
		{"mov.u32 %r1, %clusterid.x;", Context{Version: "7.0", Target: "sm_90"}, false, "version", "needs PTX ISA 7.8"},
		{"mov.u32 %r1, %clock64;", Context{}, false, "", "64 bits"},
		{"mov.u64 %rd1, %clock64;", Context{}, true, "", ""},
		{"mov.b32 %r1, %tid.x;", Context{}, true, "", ""},
		{"mov.u16 %h1, %tid.x;", Context{}, true, "", ""}, // the notes' 16-bit legacy reads
		{"mov.u16 %h1, %laneid;", Context{}, false, "", ".u32"},
		{"cvt.u64.u32 %rd1, %tid.x;", Context{}, true, "", ""},
		{"add.u32 %r1, %tid.x, 1;", Context{}, false, "", "not allowed as an operand of add"},
		{"mov.f32 %f1, %tid.x;", Context{}, false, "", "integer type"},
		{"mov.pred %p1, %is_explicit_cluster;", Context{Target: "sm_90"}, true, "", ""},
		{"mov.u32 %r1, %pm7;", Context{}, true, "", ""},
	}
	for _, tc := range cases {
		r := c.CheckIn(tc.stmt, tc.ctx)
		if r.Valid != tc.valid || r.Rule != tc.rule || !strings.Contains(r.Reason, tc.contain) {
			t.Errorf("%s in %+v: valid=%v rule=%q reason %q; want valid=%v rule=%q reason containing %q", tc.stmt, tc.ctx, r.Valid, r.Rule, r.Reason, tc.valid, tc.rule, tc.contain)
		}
	}
	if r := c.Check("mov.u32 %r1, %clusterid.x;"); r.MinTarget != "sm_90" || r.PTXVersion != "7.8" {
		t.Errorf("%%clusterid.x: %s %s, want 7.8 sm_90 (the register's own)", r.PTXVersion, r.MinTarget)
	}
}

// TestNewerThanDocs: a file whose .version is newer than the documents
// leaves statements they do not know unjudged, and still judges the rest.
func TestNewerThanDocs(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	docs := c.DocsVersion()
	if docs == "" {
		t.Fatal("no documents' version")
	}
	src := ".version 9.5\n.target sm_90\n.entry f() {\n.reg .b32 %r<4>;\nfrobnicate.b32 %r1, %r2;\nmax.relu.u32 %r1, %r2, %r3;\nadd.s32 %r1, %r2, %r3;\n}\n"
	rep := c.CheckSource("new.ptx", src)
	if rep.Unjudged != 1 || rep.Invalid != 1 || rep.Valid != 1 || rep.DocsVersion != docs {
		t.Errorf("valid %d invalid %d unjudged %d docs %s: %+v", rep.Valid, rep.Invalid, rep.Unjudged, rep.DocsVersion, rep.Results)
	}
	if len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], "PTX ISA "+docs) {
		t.Errorf("warnings %q: want the documents' version named", rep.Warnings)
	}
	old := strings.Replace(src, ".version 9.5", ".version "+docs, 1)
	if rep := c.CheckSource("old.ptx", old); rep.Unjudged != 0 || rep.Invalid != 2 {
		t.Errorf(".version %s: invalid %d unjudged %d, want 2 and 0", docs, rep.Invalid, rep.Unjudged)
	}
}

func TestHeaderAndTargetFlag(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	rep := c.CheckSource("h.ptx", ".version 7.0\n.target sm_90\n.entry f() {\nret;\n}\n")
	if len(rep.Header) != 1 || !strings.Contains(rep.Header[0], "needs PTX ISA 7.8") {
		t.Errorf("header %q: want sm_90 to need PTX ISA 7.8", rep.Header)
	}
	// ptxas 13.5 takes .version 9.5 and refuses 9.6 ("Unsupported .version
	// 9.6; current version is '9.5'").
	for v, bad := range map[string]bool{"9.5": false, "9.6": true, "10.0": true} {
		rep := c.CheckSource("v.ptx", ".version "+v+"\n.target sm_90\n.entry f() {\nret;\n}\n")
		if got := len(rep.Header) > 0; got != bad || bad && !strings.Contains(rep.Header[0], "unsupported .version "+v) {
			t.Errorf(".version %s: header %q, want rejected=%v", v, rep.Header, bad)
		}
	}
	var out, errOut bytes.Buffer
	if code := RunCheck([]string{"max.NaN.f32 d, a, b;"}, &out, &errOut, instrs, "sm_75"); code != 1 || !strings.Contains(out.String(), "--target is sm_75") {
		t.Errorf("--target sm_75: exit %d, output %q", code, out.String())
	}
	out.Reset()
	if code := RunCheck([]string{"max.NaN.f32 d, a, b;"}, &out, &errOut, instrs, "sm_80"); code != 0 {
		t.Errorf("--target sm_80: exit %d, output %q", code, out.String())
	}
	out.Reset()
	RunCheck([]string{"--help"}, &out, &errOut, instrs)
	for _, f := range []string{"--target", "--ptxas", "--json", "--db"} {
		if !strings.Contains(out.String(), f) {
			t.Errorf("--help does not list %s", f)
		}
	}
}

// TestStatementLines: a statement after a label on a line of its own is
// on its own line, as ptxas counts.
func TestStatementLines(t *testing.T) {
	stmts, _, _ := SplitStatements(".version 9.5\n.target sm_90\n.entry f() {\n$L__BB0_2:\n\tshl.b32 %r7, %r3, 2;\nL1: add.s32 %r1, %r2, %r3;\nld.shared::cta.u32 %r1, [%r2];\n}\n")
	want := map[string]int{"shl.b32 %r7, %r3, 2": 5, "add.s32 %r1, %r2, %r3": 6, "ld.shared::cta.u32 %r1, [%r2]": 7}
	if len(stmts) != 3 {
		t.Fatalf("statements %+v", stmts)
	}
	for _, s := range stmts {
		if want[s.Text] != s.Line {
			t.Errorf("%q on line %d, want %d", s.Text, s.Line, want[s.Text])
		}
	}
}

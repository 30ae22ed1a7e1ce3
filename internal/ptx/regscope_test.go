package ptx

import (
	"strings"
	"testing"
)

// TestUndeclaredRegisters: a register no .reg of its function declares is
// ptxas's "Unknown symbol" (checked with ptxas 13.5: %f9 beyond %f<4>, a
// name of another function, an undeclared name); a range's member, a
// vector register's element, a special register, a .reg outside the
// function's braces but inside them on the line, and a lone statement
// are not.
func TestUndeclaredRegisters(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	src := `.version 8.0
.target sm_80
.address_size 64
.visible .entry k()
{
	.reg .f32 %f<4>;
	.reg .v4 .f32 %v;
	.reg .b32 %r<2>;
	add.f32 %f3, %f1, %f9;
	add.f32 %f3, %f1, %q;
	add.f32 %f3, %f1, %v.x;
	add.f32 %f3, %f1, %f03;
	mov.u32 %r1, %tid.x; // %f9 in a comment
	@%p3 bra $L1;
	{ .reg .f32 %t; add.f32 %t, %f1, %f2; }
$L1:
	ret;
}
.visible .entry k2()
{
	.reg .f32 %g<4>;
	add.f32 %g3, %g1, %f1;
	add.f32 %g3, %g1, %g2;
	ret;
}
`
	rep := c.CheckSource("u.ptx", src)
	want := map[int]string{9: "%f9", 10: "%q", 14: "%p3", 22: "%f1"}
	for _, r := range rep.Results {
		name, bad := want[r.Line]
		switch {
		case bad && (r.Valid || r.Rule != "undeclared" || !strings.Contains(r.Reason, "Unknown symbol '"+name+"'")):
			t.Errorf("line %d %s: valid=%v rule=%q reason %q; want Unknown symbol '%s'", r.Line, r.Text, r.Valid, r.Rule, r.Reason, name)
		case !bad && !r.Valid:
			t.Errorf("line %d %s: invalid (%s), want valid", r.Line, r.Text, r.Reason)
		}
	}
	if rep.Invalid != len(want) {
		t.Errorf("%d invalid, want %d", rep.Invalid, len(want))
	}
	// A lone statement has no function to declare its registers.
	if r := c.CheckIn("add.f32 %f3, %f1, %f9;", Context{}); !r.Valid {
		t.Errorf("lone statement: %s", r.Reason)
	}
}

func TestPercentNames(t *testing.T) {
	for op, want := range map[string]string{
		"[%rd1+8]": "%rd1", "{%r1, %r2}": "%r1 %r2", "%p1|%p2": "%p1 %p2", "%tid.x": "%tid.x",
		"!%p3": "%p3", "-1": "", "[__local_depot0]": "", "%$x": "%$x",
	} {
		if got := strings.Join(percentNames(op), " "); got != want {
			t.Errorf("percentNames(%q) = %q, want %q", op, got, want)
		}
	}
}

// TestDirectiveNeeds: a directive's own minimum is judged where the file
// is assembled (ptxas 13.5: "Feature '.maxclusterrank' requires .target
// sm_90 or higher"); below it the file is invalid at the directive's line.
func TestDirectiveNeeds(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	src := ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n.maxntid 128, 1, 1\n.maxclusterrank 2\n{\nret;\n}\n"
	rep := c.CheckSource("d.ptx", src)
	if rep.Invalid != 1 || len(rep.Results) != 2 || rep.Results[0].Line != 6 || rep.Results[0].Rule != "target" ||
		!strings.Contains(rep.Results[0].Reason, "directive .maxclusterrank needs sm_90; the file's .target is sm_80") {
		t.Errorf("sm_80: %+v", rep.Results)
	}
	if rep.NeedsTarget != "sm_90" || len(rep.TargetLines) != 1 || rep.TargetLines[0] != 6 {
		t.Errorf("needs %s on %v, want sm_90 on line 6", rep.NeedsTarget, rep.TargetLines)
	}
	if rep := c.CheckSource("d.ptx", strings.Replace(src, "sm_80", "sm_90", 1)); rep.Invalid != 0 {
		t.Errorf("sm_90: %+v", rep.Results)
	}
	if rep := c.CheckFile("d.ptx", strings.Replace(src, "sm_80", "sm_90", 1), "sm_75"); rep.Invalid != 1 || !strings.Contains(rep.Results[0].Reason, "--target is sm_75") {
		t.Errorf("--target sm_75: %+v", rep.Results)
	}
	if rep := c.CheckSource("d.ptx", strings.Replace(strings.Replace(src, "sm_80", "sm_90", 1), ".version 8.0", ".version 7.0", 1)); rep.Invalid != 1 || rep.Results[0].Rule != "version" {
		t.Errorf(".version 7.0: %+v", rep.Results)
	}
}

// TestNarrowGlobalAddress: under .address_size 64 a .global address in a
// 32-bit register is 32-bit addressing, which ptxas 13.5 refuses; other
// state spaces' addresses are 32-bit in their windows, and a 64-bit file
// is needed for the rule.
func TestNarrowGlobalAddress(t *testing.T) {
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	head := ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
	for stmt, bad := range map[string]bool{
		"ld.global.u32 %r1, [%r2];":            true,
		"atom.global.add.u32 %r1, [%r2+4], 1;": true,
		"ld.global.u32 %r1, [%rd2];":           false,
		"ld.shared.u32 %r1, [%r2];":            false,
		"ld.local.u32 %r1, [%r2];":             false,
		"ld.param.u32 %r1, [%r2];":             false,
	} {
		rep := c.CheckSource("a.ptx", head+stmt+"\nret;\n}\n")
		if got := rep.Invalid > 0; got != bad || bad && !strings.Contains(rep.Results[0].Reason, "32-bit addressing") {
			t.Errorf("%s: %+v, want invalid=%v", stmt, rep.Results, bad)
		}
	}
	if rep := c.CheckSource("a.ptx", strings.Replace(head, ".address_size 64\n", "", 1)+"ld.global.u32 %r1, [%r2];\nret;\n}\n"); rep.Invalid != 0 {
		t.Errorf("no .address_size 64: %+v", rep.Results)
	}
}

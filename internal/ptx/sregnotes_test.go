package ptx

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// A section documenting several registers whose notes differ gives each
// its own minimum: ranges ("`%r0` … `%r3`"), names with a suffix after the
// number ("%r0_64") and single names.
func TestSregNotesPerRegister(t *testing.T) {
	sec := ptxdoc.Section{
		Kind:           ptxdoc.KindSpecialRegister,
		PTXISANotes:    "`%r0` … `%r3` introduced in PTX ISA version 1.3.\n\n`%r4` … `%r7` introduced in PTX ISA version 3.0.\n\n`%q0_64` … `%q2_64` introduced in PTX ISA version 4.0.",
		TargetISANotes: "`%r0` … `%r3` supported on all target architectures.\n\n`%r4` … `%r7` require `sm_20` or higher.\n\n`%q1_64` requires `sm_50` or higher.",
	}
	notes := sregNotes(sec)
	base := Option{PTXVersion: "1.3", MinTarget: "sm_10"}
	for name, want := range map[string]Option{
		"%r0": {"1.3", "sm_10"}, "%r3": {"1.3", "sm_10"}, "%r4": {"3.0", "sm_20"}, "%r7": {"3.0", "sm_20"},
		"%q0_64": {"4.0", "sm_10"}, "%q1_64": {"4.0", "sm_50"}, "%other": {"1.3", "sm_10"},
	} {
		if got := sregNeed(name, base, notes); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	forms := sregForms(statement{text: ".sreg .u32 %r<8>;"}, base, notes)
	if len(forms) != 2 || forms[0].Syntax != ".sreg .u32 %r0, %r1, %r2, %r3;" || forms[1].Syntax != ".sreg .u32 %r4, %r5, %r6, %r7;" ||
		forms[1].MinTarget != "sm_20" || forms[1].Base.PTXVersion != "3.0" {
		t.Errorf("%%r<8> forms: %+v", forms)
	}
	if f := sregForms(statement{text: ".sreg .u32 %other;"}, base, notes); len(f) != 1 || f[0].Syntax != ".sreg .u32 %other;" {
		t.Errorf("a register no note names keeps its line: %+v", f)
	}
}

// The real documentation: every requirement note of a special register's
// section reaches the page (the entry and its forms) and the checker
// (issue 27: %pm4 … %pm7 need PTX 3.0 and sm_20, %lanemask_* and %nsmid
// sm_20).
func TestSregMinimaReal(t *testing.T) {
	_, instrs, _ := realDocs(t)
	for name, want := range map[string]Option{
		"%pm0": {"1.3", "sm_10"}, "%pm7": {"3.0", "sm_20"}, "%nsmid": {"2.0", "sm_20"},
		"%lanemask_eq": {"2.0", "sm_20"}, "%lanemask_le": {"2.0", "sm_20"}, "%lanemask_lt": {"2.0", "sm_20"},
		"%lanemask_ge": {"2.0", "sm_20"}, "%lanemask_gt": {"2.0", "sm_20"},
		"%clock": {"1.0", "sm_10"}, "%clock_hi": {"5.0", "sm_20"}, "%pm7_64": {"4.0", "sm_50"},
	} {
		in := findInstr(instrs, name)
		if in == nil {
			t.Errorf("no entry %s", name)
			continue
		}
		if got := (Option{in.PTXVersion, in.MinTarget}); got != want {
			t.Errorf("%s: entry needs %+v, want %+v", name, got, want)
		}
		for _, n := range in.Notes {
			if strings.Contains(n, "introduced in") || strings.Contains(n, "require") {
				t.Errorf("%s: requirement note left as text: %q", name, n)
			}
		}
	}
	regs := buildSregs(instrs)
	for name, want := range map[string]Option{
		"%pm3": {"1.3", "sm_10"}, "%pm4": {"3.0", "sm_20"}, "%pm6": {"3.0", "sm_20"}, "%pm3_64": {"4.0", "sm_50"},
		"%nsmid": {"2.0", "sm_20"}, "%lanemask_gt": {"2.0", "sm_20"}, "%clock_hi": {"5.0", "sm_20"},
	} {
		r := regs.regs[name]
		if r == nil {
			t.Errorf("checker: no register %s", name)
		} else if r.need != want {
			t.Errorf("checker: %s needs %+v, want %+v", name, r.need, want)
		}
	}
}

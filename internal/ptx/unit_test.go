package ptx

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// A made-up section in the documentation's shape: "frob" with type
// variables, optional modifiers, a scoped definition and version notes.
func fixtureSection() ptxdoc.Section {
	return ptxdoc.Section{
		ID: "frob", Title: "Made-up Instructions: frob", File: "fixture/frob.md", Line: 1,
		Mnemonics: []string{"frob"}, Group: "Made-up Instructions", Kind: ptxdoc.KindInstruction,
		Syntax: []ptxdoc.CodeBlock{{Line: 10, Text: strings.Join([]string{
			"frob{.wide}.itype        d, a, b;   // integer",
			"frob{.fast}{.twice}.ftype  d, a, b{, c};",
			".itype = { .u32, .s32 };",
			".ftype = { .f32 };",
		}, "\n")}},
		PTXISANotes:    "Introduced in PTX ISA version 2.0.\n\n`frob.twice` introduced in PTX ISA version 6.1.\n\n`frob` with three input arguments introduced in PTX ISA version 8.2.",
		TargetISANotes: "Supported on all target architectures.\n\n`frob.s32` requires `sm_50` or higher.\n\n`frob.twice` is supported on following architectures:\n\n* `sm_90a`\n* `sm_100a`",
	}
}

func TestBuildFixture(t *testing.T) {
	instrs, problems := Build([]ptxdoc.Section{fixtureSection()})
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if len(instrs) != 1 || instrs[0].Name != "frob" {
		t.Fatalf("entries: %+v", instrs)
	}
	var got []string
	for _, f := range instrs[0].Forms {
		got = append(got, fmt.Sprintf("%s %v %v %s %s %d", f.Syntax, f.Types, f.Modifiers, f.PTXVersion, f.MinTarget, len(f.Requirements)))
	}
	// Every note that applies to a form is kept as a requirement, also when
	// it always holds (frob.s32), so the checker can let a more specific
	// note win over a general one.
	want := []string{
		"frob{.wide}.u32 d, a, b; [.u32] [.wide] 2.0 sm_10 0",
		"frob{.wide}.s32 d, a, b; [.s32] [.wide] 2.0 sm_50 1",
		"frob{.fast}{.twice}.f32 d, a, b{, c}; [.f32] [.fast .twice] 2.0 sm_10 3",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("forms:\n got %q\nwant %q", got, want)
	}
	if d := instrs[0].Forms[0].Description; d != "integer" {
		t.Errorf("description %q", d)
	}
	c := NewChecker(instrs)
	for _, tc := range []struct{ in, want string }{
		{"frob.u32 d, a, b;", "ok 2.0 sm_10"},
		{"frob.wide.s32 d, a, b;", "ok 2.0 sm_50"},
		{"frob.twice.f32 d, a, b;", "ok 6.1 sm_90a"},
		{"frob.f32 d, a, b, c;", "ok 8.2 sm_10"},
		{"frob.fast.u32 d, a, b;", "modifier .fast not allowed with type .u32 for frob"},
		{"frob.slow.f32 d, a, b;", "unknown modifier .slow for frob"},
		{"frob.u32 d, a, b, c;", "wrong operand count: 4 given, frob.u32 takes 3"},
		// ptxas reads modifiers in any order; the data types keep theirs.
		{"frob.twice.fast.f32 d, a, b;", "ok 6.1 sm_90a"},
		{"frob.f32.twice d, a, b;", "ok 6.1 sm_90a"},
		{"frob.f32.u32 d, a, b;", "type .f32 not allowed in this combination for frob"},
		{"frab.u32 d, a, b;", "unknown mnemonic frab (did you mean frob?)"},
		{"frob d, a, b;", "frob needs a type or a required modifier that is missing"},
	} {
		r := c.Check(tc.in)
		got := r.Reason
		if r.Valid {
			got = "ok " + r.PTXVersion + " " + r.MinTarget
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseOperands(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"d, a, b;", []int{3}},
		{"d, a, b{, c};", []int{3, 4}},
		{"d[|p], [a, {b,} c] {, e} {, f};", []int{2, 3, 4}},
		{"d, {a, b, e, f}, rbits;", []int{3}},
		{"p, a{, b}, {!}c;", []int{3, 4}},
		{"", []int{0}},
		{"[a], b {, cache-policy};", []int{2, 3}},
	} {
		if got := parseOperands(tc.in).counts(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestParseInstruction(t *testing.T) {
	for _, tc := range []struct {
		in       string
		tokens   string
		operands int
		err      bool
	}{
		{"max.NaN.f32 d, a, b;", "max NaN f32", 3, false},
		{"@!p bra L1;", "bra", 1, false},
		{"L1: ret;", "ret", 0, false},
		{"mov.b64 d, {a, b};", "mov b64", 2, false},
		{"ld.global..f32 d, [a];", "", 0, true},
		{"@p", "", 0, true},
		{"", "", 0, true},
		{"add.s32 d, , b;", "", 0, true},
	} {
		toks, ops, err := ParseInstruction(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if !tc.err && (strings.Join(toks, " ") != tc.tokens || len(ops) != tc.operands) {
			t.Errorf("%q: tokens %v operands %v", tc.in, toks, ops)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	src := ".version 8.0\n.target sm_90a, texmode_independent\n.entry k()\n{\n  // note\n  add.s32 a, b, c; L: mov.b64 d, {x,\n y};\n  /* x */ @p ret;\n}\n"
	stmts, v, tg := SplitStatements(src)
	var got []string
	for _, s := range stmts {
		got = append(got, fmt.Sprintf("%d:%s", s.Line, s.Text))
	}
	want := []string{"6:add.s32 a, b, c", "6:mov.b64 d, {x,  y}", "8:@p ret"}
	if !reflect.DeepEqual(got, want) || v != "8.0" || firstSMTarget(tg) != "sm_90a" {
		t.Errorf("got %q %s %s", got, v, tg)
	}
}

// A variable's initializer is part of its declaration, across lines and
// nested, not a block of statements (nvcc writes printf strings and
// function tables so).
func TestSplitStatementsInitializers(t *testing.T) {
	src := ".global .align 1 .b8 $str[4] = {98, 108,\n 111, 0};\n.global .u64 tab[2] = {f, g};\n.const .b32 m[2][2] = {{1, 2}, {3, 4}};\n.entry k()\n{\n  ret;\n}\n"
	stmts, _, _ := SplitStatements(src)
	if len(stmts) != 1 || stmts[0].Text != "ret" || stmts[0].Line != 7 {
		t.Errorf("got %+v, want the one ret on line 7", stmts)
	}
}

func fixtureSectionsForFuzz() []ptxdoc.Section { return []ptxdoc.Section{fixtureSection()} }

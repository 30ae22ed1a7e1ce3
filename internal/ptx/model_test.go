package ptx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestEveryInstructionSectionHasForms(t *testing.T) {
	secs, instrs, problems := realDocs(t)
	formsBySection := map[string]int{}
	for _, in := range instrs {
		for _, f := range in.Forms {
			formsBySection[f.File]++
		}
	}
	forms, mnemonics := 0, 0
	for _, in := range instrs {
		if in.Kind == KindInstruction {
			mnemonics++
			forms += len(in.Forms)
		}
	}
	var missing []string
	for _, s := range secs {
		if s.Kind == KindInstruction && formsBySection[s.File] == 0 {
			missing = append(missing, s.Title)
		}
	}
	if len(missing) > 0 {
		t.Errorf("instruction sections without a form: %v", missing)
	}
	t.Logf("%d instruction mnemonics, %d forms", mnemonics, forms)
	for _, p := range problems {
		t.Logf("not fully parsed: %s", p)
	}
}

func TestMaxEntry(t *testing.T) {
	_, instrs, _ := realDocs(t)
	max := findInstr(instrs, "max")
	if max == nil {
		t.Fatal("no max entry")
	}
	if max.PTXVersion != "1.0" || max.MinTarget != "sm_10" {
		t.Errorf("max: PTX %s target %s, want 1.0 sm_10", max.PTXVersion, max.MinTarget)
	}
	if len(max.Sections) != 3 {
		t.Errorf("max merges %d sections, want 3 (integer, floating point, half precision)", len(max.Sections))
	}
	byType := map[string][]Form{}
	for _, f := range max.Forms {
		for _, ty := range f.Types {
			byType[ty] = append(byType[ty], f)
		}
	}
	for _, ty := range []string{".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".u16x2", ".s16x2", ".f32", ".f64", ".f16", ".f16x2", ".bf16", ".bf16x2"} {
		if len(byType[ty]) == 0 {
			t.Errorf("max: no form for %s", ty)
		}
	}
	hasMod := func(f Form, m string) bool { return slices.Contains(f.Modifiers, m) }
	for _, f := range max.Forms {
		relu := hasMod(f, ".relu")
		wantRelu := slices.Contains(f.Types, ".s32") || slices.Contains(f.Types, ".s16x2")
		if relu != wantRelu {
			t.Errorf("max form %q: .relu present=%v, want %v", f.Syntax, relu, wantRelu)
		}
	}
	f32 := byType[".f32"][0]
	for _, m := range []string{".ftz", ".NaN", ".xorsign.abs"} {
		if !hasMod(f32, m) {
			t.Errorf("max .f32 form %q lacks %s", f32.Syntax, m)
		}
	}
	if f32.PTXVersion != "1.0" || f32.MinTarget != "sm_10" {
		t.Errorf("max.f32 base: PTX %s %s", f32.PTXVersion, f32.MinTarget)
	}
	f64 := byType[".f64"][0]
	if f64.MinTarget != "sm_13" {
		t.Errorf("max.f64 target %s, want sm_13", f64.MinTarget)
	}
}

func TestSpecialRegistersAndDirectives(t *testing.T) {
	_, instrs, _ := realDocs(t)
	for name, kind := range map[string]string{"%tid": KindSpecialRegister, "%laneid": KindSpecialRegister, ".version": KindDirective, ".target": KindDirective} {
		in := findInstr(instrs, name)
		if in == nil {
			t.Errorf("no entry %s", name)
			continue
		}
		if in.Kind != kind || len(in.Forms) == 0 || in.PTXVersion == "" {
			t.Errorf("%s: kind %s, %d forms, PTX %q", name, in.Kind, len(in.Forms), in.PTXVersion)
		}
	}
}

func TestCheckFile(t *testing.T) {
	_, instrs, _ := realDocs(t)
	var out, errOut bytes.Buffer
	code := RunCheck([]string{filepath.Join("testdata", "sample.ptx"), "--json"}, &out, &errOut, instrs)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (max.relu.u32 is invalid, max.NaN needs sm_80); stderr %s", code, errOut.String())
	}
	var rep FileReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Version != "7.0" || rep.Target != "sm_75" {
		t.Errorf("file .version/.target = %s/%s", rep.Version, rep.Target)
	}
	// max.NaN.f32 needs sm_80: invalid on the file's sm_75.
	if rep.Invalid != 2 || rep.Valid != 6 {
		t.Errorf("valid %d invalid %d, want 6 and 2: %+v", rep.Valid, rep.Invalid, rep.Results)
	}
	for _, r := range rep.Results {
		if r.Line == 20 && (r.Valid || r.Rule != "target" || !strings.Contains(r.Reason, "needs sm_80; the file's .target is sm_75")) {
			t.Errorf("line 20: %+v, want invalid: needs sm_80 on the file's sm_75", r)
		}
	}
	if rep.NeedsVersion != "7.0" || rep.NeedsTarget != "sm_80" || fmt.Sprint(rep.TargetLines) != "[20]" {
		t.Errorf("needs %s %s lines %v", rep.NeedsVersion, rep.NeedsTarget, rep.TargetLines)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "target sm_75") {
		t.Errorf("warnings %v", rep.Warnings)
	}
}

func TestRunCheckExitCodes(t *testing.T) {
	_, instrs, _ := realDocs(t)
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"max.NaN.f32 d, a, b;"}, 0, "PTX ISA 7.0, sm_80"},
		{[]string{"max.relu.u32 d, a, b;"}, 1, "not allowed with type .u32"},
		{[]string{}, 2, ""},
		{[]string{"missing-file.ptx"}, 2, ""},
		{[]string{"   "}, 2, ""},
		{[]string{"--bogus", "max.u32 d,a,b;"}, 2, ""},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		code := RunCheck(tc.args, &out, &errOut, instrs)
		if code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("%q: exit %d out %q err %q, want exit %d with %q", tc.args, code, out.String(), errOut.String(), tc.code, tc.out)
		}
	}
	if code := RunCheck([]string{"max.u32 d,a,b;"}, &bytes.Buffer{}, &bytes.Buffer{}, nil); code != 2 {
		t.Errorf("no instructions: exit %d, want 2", code)
	}
}

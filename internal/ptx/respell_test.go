package ptx

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// TestRespellSyntax: a syntax token that only this section's syntax
// writes, one edit from exactly one token its examples write, is read in
// the examples' spelling; choices of one list (".r, .g"), tokens the prose
// or another section writes, and sections without examples are left as
// they are.
func TestRespellSyntax(t *testing.T) {
	sec := func(file, syntax, examples, prose string) ptxdoc.Section {
		return ptxdoc.Section{File: file, Kind: ptxdoc.KindInstruction, Syntax: []ptxdoc.CodeBlock{{Text: syntax, Line: 3}},
			Examples: []ptxdoc.CodeBlock{{Text: examples}}, Description: prose}
	}
	in := []ptxdoc.Section{
		sec("mma.md", "mma.sync.shape.f64 d, a;\n.shape = {.m8n84, .m16n8k4};", "mma.sync.m8n8k4.f64 d, a;", ""),
		sec("tld4.md", "tld4.comp.v4 d, a;\n.comp = {.r, .g};", "tld4.r.v4 d, a;", ""),
		sec("prose.md", "op.fp16x2 d, a;", "op.f16x2 d, a;", "converts `.fp16x2` sources"),
		sec("other.md", "op2.fp16x2 d, a;", "op2.f16x2 d, a;", ""),
		sec("other2.md", "op3.fp16x2 d, a;", "", ""),
	}
	in[4].Examples = nil
	out, notes := respellSyntax(in)
	if got := out[0].Syntax[0].Text; !strings.Contains(got, ".m8n8k4, .m16n8k4") || strings.Contains(got, "m8n84") {
		t.Errorf("mma syntax %q: want .m8n84 read as .m8n8k4", got)
	}
	if len(notes["mma.md"]) != 1 || !strings.Contains(notes["mma.md"][0], "(mma.md:3) writes `.m8n84`") {
		t.Errorf("mma notes %q", notes["mma.md"])
	}
	if in[0].Syntax[0].Text == out[0].Syntax[0].Text {
		t.Error("the sections given were changed")
	}
	for i := 1; i < len(in); i++ {
		if out[i].Syntax[0].Text != in[i].Syntax[0].Text || len(notes[in[i].File]) > 0 {
			t.Errorf("%s: %q, notes %q: want it left alone", in[i].File, out[i].Syntax[0].Text, notes[in[i].File])
		}
	}
}

// TestRespelledFormsReal: on NVIDIA's documents, the two misspellings
// the CUDA corpus met (mma's ".m8n84", cvt's ".fp16x2") are read as the
// examples write them, with the notes' minima ptxas 13.5 confirms
// (m8n8k4 f64 mma: PTX ISA 7.0 and sm_80; cvt to .e4m3x2 from .f16x2:
// PTX ISA 8.1 on sm_89, 7.8 on sm_90); no other syntax token is repaired.
func TestRespelledFormsReal(t *testing.T) {
	_, instrs, _ := realDocs(t)
	repairs := 0
	for _, in := range instrs {
		for _, n := range in.Notes {
			if strings.Contains(n, "the spelling of the section's examples") {
				repairs++
			}
		}
	}
	if repairs != 2 {
		t.Errorf("%d repair notes, want 2 (mma's .m8n84, cvt's .fp16x2)", repairs)
	}
	c := NewChecker(instrs)
	for stmt, want := range map[string]string{
		"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};": "7.0 sm_80",
		"cvt.rn.satfinite.e4m3x2.f16x2 %rs1, %r1;":                                                  "7.8 sm_90 or 8.1 sm_89",
	} {
		r := c.Check(stmt)
		got := r.PTXVersion + " " + r.MinTarget
		if len(r.Alternatives) > 1 {
			var parts []string
			for _, o := range r.Alternatives {
				parts = append(parts, o.PTXVersion+" "+o.MinTarget)
			}
			got = strings.Join(parts, " or ")
		}
		if !r.Valid || got != want {
			t.Errorf("%s: valid=%v %s (%s), want %s", stmt, r.Valid, got, r.Reason, want)
		}
	}
}

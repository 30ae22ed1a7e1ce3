package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func TestRestrictionHead(t *testing.T) {
	for in, want := range map[string]string{
		"NaN and sNaN handling: with MODE.IEEE set (IEEE mode), a signalling NaN input gives a quiet NaN":   "NaN and sNaN handling",
		"one MFMA is issued by a whole wave (64 lanes, or 32 for WMMA in wave32); a PTX warp is 32 threads": "one MFMA is issued by a whole wave",
		"shape and fragment layout differ": "shape and fragment layout differ",
		"widening bf16 to f32 is exact and max picks one input so the result is exact even in IEEE mode where a signalling NaN": "widening bf16 to f32 is exact and max picks one input so the…",
	} {
		if got := restrictionHead(in); got != want {
			t.Errorf("restrictionHead(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFamilyRanges(t *testing.T) {
	for _, c := range []struct {
		ids  []string
		want string
	}{
		{[]string{"rdna3.5", "rdna3", "rdna2", "rdna1", "cdna4", "cdna3", "cdna2", "cdna1", "vega7", "vega"}, "RDNA 1–3.5, CDNA 1–4, Vega 7nm, Vega"},
		{[]string{"rdna4", "cdna5"}, "RDNA 4, CDNA 5"},
		{[]string{"cdna3", "cdna2"}, "CDNA 2–3"},
		{[]string{"rdna4", "rdna2"}, "RDNA 4, RDNA 2"},
	} {
		if got := familyRanges(c.ids); got != c.want {
			t.Errorf("familyRanges(%q) = %q, want %q", c.ids, got, c.want)
		}
	}
}

// An alias note that speaks only of other families' targets belongs under
// Other generations; one about this family's, or about none, in the header.
func TestForeignNote(t *testing.T) {
	gfx12 := "llvm-mc accepts v_max_f32 and prints it as v_max_num_f32 on gfx1200, gfx1201, gfx1250, gfx1251"
	if !foreignNote(gfx12, "cdna4") {
		t.Error("the gfx12 note is CDNA 4's")
	}
	if foreignNote(gfx12, "rdna4") {
		t.Error("the gfx12 note is not RDNA 4's")
	}
	if foreignNote("renamed in RDNA 4 and CDNA 5; earlier families use v_max_f32", "rdna4") {
		t.Error("a note naming no target is foreign")
	}
	in := &isa.Instruction{Arch: "cdna4", Aliases: []isa.Alias{{Name: "v_max_num_f32", Note: gfx12}, {Name: "v_maxx", Note: "on gfx950"}}}
	own, foreign := splitAliases(in)
	if len(own) != 1 || own[0].Name != "v_maxx" || len(foreign) != 1 || foreign[0].Name != "v_max_num_f32" {
		t.Errorf("own %+v foreign %+v", own, foreign)
	}
}

// Sentences NVIDIA repeats in several operands' descriptions are shown
// once, with the operands they are about; each operand keeps its own.
func TestPTXOperandsShareSentences(t *testing.T) {
	shared := "Operands `d`, `a` and `b` have the same type as the instruction type."
	ops := []isa.Operand{
		{Name: "d", Description: shared + " If `.abs` is specified, the magnitude of `d` is the maximum of the absolute values."},
		{Name: "a", Description: shared + " For `.f16`, operand `a` has type `.f16` or `.b16`."},
		{Name: "b", Description: shared},
		{Name: "c"},
	}
	views, notes := ptxOperands(ops)
	if len(notes) != 1 || notes[0].Text != shared || !slices.Equal(notes[0].Operands, []string{"d", "a", "b"}) {
		t.Fatalf("shared notes %+v", notes)
	}
	if !strings.HasPrefix(views[0].Own, "If `.abs`") || !strings.HasPrefix(views[1].Own, "For `.f16`") || views[2].Own != "" || views[3].Own != "" {
		t.Errorf("own sentences %q %q %q %q", views[0].Own, views[1].Own, views[2].Own, views[3].Own)
	}
	if got := splitSentences("Use e.g. `.rn` here. Then `d` is set. done"); len(got) != 2 {
		t.Errorf("splitSentences: %q", got)
	}
}

// mma's forms group by description, shape and first type; a table of
// forms with no common shape or description is one group.
func TestGroupForms(t *testing.T) {
	form := func(syntax, desc string, types, mods []string) formRow {
		return formRow{F: isa.Form{Syntax: syntax, Description: desc, Types: types, Modifiers: mods}}
	}
	var rows []formRow
	for _, shape := range []string{"m8n8k4", "m16n8k8"} {
		for _, d := range []string{"f16", "f32"} {
			for _, c := range []string{"f16", "f32"} {
				rows = append(rows, form("mma.sync.aligned."+shape+".row.col."+d+".f16.f16."+c+" d, a, b, c;", "Half precision floating point type:",
					[]string{".f16", ".f32"}, []string{".sync", ".aligned", "." + shape, ".row", ".col"}))
			}
		}
	}
	for i := 0; i < 5; i++ {
		rows = append(rows, form("mma.sync.aligned.shape.row.col.s32.s8.s8.s32 d, a, b, c;", "Integer type:", []string{".s32", ".s8"},
			[]string{".sync", ".aligned", ".m8n8k16", ".m16n8k16", ".m16n8k32"}))
	}
	groups, all := groupForms(rows, false)
	if !all {
		t.Error("13 forms are all on the page")
	}
	var titles []string
	for _, g := range groups {
		titles = append(titles, g.Title)
	}
	want := []string{"Half precision floating point type · m8n8k4 · .f16", "Half precision floating point type · m8n8k4 · .f32",
		"Half precision floating point type · m16n8k8 · .f16", "Half precision floating point type · m16n8k8 · .f32",
		"Integer type · m8n8k16, m16n8k16, m16n8k32 · .s32"}
	if !slices.Equal(titles, want) {
		t.Errorf("groups\n got %q\nwant %q", titles, want)
	}
	if g := groups[4]; g.Count != 5 || len(g.Head) != formsGroupHead || len(g.Rest) != 2 || !g.Rest[0].Folded {
		t.Errorf("integer group: %d forms, %d shown, %d folded", g.Count, len(g.Head), len(g.Rest))
	}
	// A long table keeps formsShown rows on the page; the rest are on the forms page.
	var many []formRow
	for i := 0; i < 60; i++ {
		many = append(many, rows[i%len(rows)])
	}
	groups, all = groupForms(many, false)
	shown, elsewhere := 0, 0
	for _, g := range groups {
		shown += len(g.Head) + len(g.Rest)
		elsewhere += g.Elsewhere
	}
	if all || shown > formsShown || shown+elsewhere != 60 {
		t.Errorf("60 forms: all %v, %d shown, %d elsewhere", all, shown, elsewhere)
	}
	groups, _ = groupForms(many, true)
	shown = 0
	for _, g := range groups {
		shown += len(g.Head)
	}
	if shown != 60 {
		t.Errorf("the forms page shows %d of 60 forms", shown)
	}
}

func TestPlainSummary(t *testing.T) {
	for in, want := range map[string]string{
		"Dynamic [Tensor Memory](https://docs.nvidia.com/cuda/#tensor-memory) allocation.": "Dynamic Tensor Memory allocation.",
		"Commits all prior `wgmma.mma_async` operations into a *wgmma-group*.":             "Commits all prior wgmma.mma_async operations into a wgmma-group.",
		"Plain text.": "Plain text.",
	} {
		if got := plainSummary(in); got != want {
			t.Errorf("plainSummary(%q) = %q, want %q", in, got, want)
		}
	}
	if got := string(markdownInline("Use `max` <b>now</b>")); got != "Use <code>max</code> &lt;b&gt;now&lt;/b&gt;" {
		t.Errorf("markdownInline: %q", got)
	}
	// AMD's summaries are plain text: no emphasis made of underscores.
	if got := string(summaryHTML(isa.Summary{Arch: "cdna4", Summary: "D = S0_LO * S1_LO * S2 <x>"})); got != "D = S0_LO * S1_LO * S2 &lt;x&gt;" {
		t.Errorf("summaryHTML of an AMD summary: %q", got)
	}
	if got := string(summaryHTML(isa.Summary{Arch: "ptx", Summary: "Use `max`."})); got != "Use <code>max</code>." {
		t.Errorf("summaryHTML of a PTX summary: %q", got)
	}
}

// Categories that differ only by case are one, under the most common
// spelling, with one page.
func TestFamilyCategoriesMergeCase(t *testing.T) {
	list := []isa.Summary{
		{Arch: "ptx", Name: "tcgen05.alloc", Category: "Tensorcore 5th Generation"},
		{Arch: "ptx", Name: "tcgen05.mma", Category: "TensorCore 5th Generation"},
		{Arch: "ptx", Name: "tcgen05.ld", Category: "Tensorcore 5th Generation"},
		{Arch: "ptx", Name: "add", Category: "Integer Arithmetic"},
	}
	cats := familyCategories("ptx", list, nil)
	if len(cats) != 2 || cats[1].Name != "Tensorcore 5th Generation" || cats[1].Count != 3 ||
		cats[1].URL != "/ptx/category/tensorcore-5th-generation" {
		t.Errorf("categories %+v", cats)
	}
}

package ptx

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// TestOperandDescriptionsRealCopy: an operand's description is the sentences
// about that operand, not the Description repeated under every operand
// (/ptx/max and /ptx/mma showed the whole text for d, a, b and c).
func TestOperandDescriptionsRealCopy(t *testing.T) {
	_, instrs, _ := realDocs(t)
	for _, in := range instrs {
		whole := strings.Join(strings.Fields(in.Description), " ")
		for _, o := range in.Operands {
			if o.Description == "" {
				continue
			}
			if len(descriptionSentences(in.Description)) > 3 && strings.Join(strings.Fields(o.Description), " ") == whole {
				t.Errorf("%s %s: the whole description is the operand's", in.Name, o.Name)
			}
			bare := bareOperand(o.Name)
			for _, s := range descriptionSentences(o.Description) {
				if !spanNames(s, bare) && !plainMention(bare).MatchString(s) {
					t.Errorf("%s %s: sentence does not name the operand: %q", in.Name, o.Name, s)
				}
			}
		}
	}

	maxIn := findInstr(instrs, "max")
	ops := map[string]Operand{}
	for _, o := range maxIn.Operands {
		ops[o.Name] = o
	}
	if _, ok := ops["c"]; !ok || len(maxIn.Operands) != 4 {
		t.Errorf("max operands %+v: want d, a, b and the three-input form's c", maxIn.Operands)
	}
	for _, n := range []string{"d", "a", "b"} {
		if d := ops[n].Description; strings.Contains(d, "Store the maximum of") || !strings.Contains(d, "Operands `d`, `a` and `b` have the same type as the instruction type.") {
			t.Errorf("max %s: %q", n, d)
		}
	}
	if d := ops["d"].Description; !strings.Contains(d, "the magnitude of destination operand `d` is the maximum") || d == ops["b"].Description {
		t.Errorf("max d: %q", d)
	}

	mma := findInstr(instrs, "mma")
	for _, o := range mma.Operands {
		d := o.Description
		switch o.Name {
		case "d", "a", "b", "c":
			if !strings.HasPrefix(d, "Operands `a` and `b` represent two multiplicand matrices A and B, while `c` and `d` represent") {
				t.Errorf("mma %s: %q", o.Name, d)
			}
		case "scale-a-data":
			if !strings.Contains(d, "operand `scale-a-data`, `scale-b-data` represents the scale matrix metadata") {
				t.Errorf("mma %s: %q", o.Name, d)
			}
		}
		if strings.Contains(d, "Qualifier `.block_scale` specifies") || strings.Contains(d, "Precision and rounding") {
			t.Errorf("mma %s carries text about qualifiers: %q", o.Name, d)
		}
	}
}

// TestDescriptionPerMnemonicRealCopy: in a section documenting several
// mnemonics each keeps the paragraphs about it (multimem.st and multimem.red
// showed multimem.ld_reduce's text), and no paragraph is lost.
func TestDescriptionPerMnemonicRealCopy(t *testing.T) {
	secs, instrs, _ := realDocs(t)
	desc := map[string]string{}
	for _, in := range instrs {
		desc[in.Name] = in.Description
	}
	has := func(m, text string) bool { return strings.Contains(desc[m], text) }
	for _, c := range []struct {
		m       string
		want    []string
		notWant []string
	}{
		{"multimem.st",
			[]string{"The multimem.\\* operations operate on multimem addresses", "Instruction `multimem.st` performs a store operation", "Address operand `a` must be a multimem address."},
			[]string{"Instruction `multimem.ld_reduce` performs the following operations", "returned in register `d`", "Instruction `multimem.red` performs", "`.acc_prec`", "valid combinations of `.op`"}},
		{"multimem.red",
			[]string{"Instruction `multimem.red` performs a reduction operation", "In contrast, the `multimem.red` perform reduction", "valid combinations of `.op`"},
			[]string{"Instruction `multimem.ld_reduce` performs the following operations", "Instruction `multimem.st` performs"}},
		{"multimem.ld_reduce",
			[]string{"Instruction `multimem.ld_reduce` performs the following operations", "returned in register `d`", "`.acc_prec`"},
			[]string{"Instruction `multimem.st` performs", "Instruction `multimem.red` performs"}},
		{"prefetchu", []string{"The `prefetchu` instruction brings"}, []string{"The `prefetch` instruction brings", "`.tensormap`"}},
		{"tcgen05.relinquish_alloc_permit", []string{"Instruction `tcgen05.relinquish_alloc_permit` specifies"}, []string{"`nCols`", "`tcgen05.dealloc` is a potentially blocking"}},
		// bar is declared equivalent to barrier: it keeps barrier's text.
		{"bar", []string{"`barrier{.cta}` instructions can be used", "`bar{.cta}.sync` is equivalent to"}, nil},
		{"mma.sp", []string{"Operands `a` and `b` represent"}, []string{"Instruction `mma.sp::ordered_metadata` requires"}},
	} {
		for _, w := range c.want {
			if !has(c.m, w) {
				t.Errorf("%s lacks %q", c.m, w)
			}
		}
		for _, w := range c.notWant {
			if has(c.m, w) {
				t.Errorf("%s has %q", c.m, w)
			}
		}
	}
	for _, sec := range secs {
		if len(sec.Mnemonics) < 2 || sec.Kind != ptxdoc.KindInstruction {
			continue
		}
		kept := map[string]bool{}
		for _, m := range sec.Mnemonics {
			for _, u := range proseUnits(descriptionOf(sec, m)) {
				kept[u] = true
			}
		}
		for _, u := range proseUnits(joinText(sec.Intro, sec.Description)) {
			if !kept[u] {
				t.Errorf("%s: no mnemonic keeps %q", sec.File, u)
			}
		}
	}
	if in := findInstr(instrs, "vavrg4"); in == nil || in.Summary != "Integer quad byte SIMD average." {
		t.Errorf("vavrg4: %+v", in)
	}
}

// spanNames reports whether a code span of the sentence has the name among
// its identifiers.
func spanNames(sentence, name string) bool {
	for _, sp := range proseSpans(sentence) {
		for _, id := range operandIdentRe.FindAllString(sp, -1) {
			if id == name {
				return true
			}
		}
	}
	return false
}

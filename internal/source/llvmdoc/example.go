package llvmdoc

import (
	"fmt"
	"slices"
	"strings"
)

// ExampleProvenance is the honest origin of the instructions BuildExample
// makes: they are not quoted from anywhere, and only an assembler run tells
// whether a target accepts them.
const ExampleProvenance = "built from LLVM's documented syntax"

// BuildExample makes one concrete instruction from a syntax row: registers
// of the documented size (v1, s[2:3], v[4:7]), small constants for
// immediates, the modifiers an assembler will not do without (a DPP control,
// an image dimension) and nothing optional. ok is false when an operand is
// of a kind it has no representative value for.
//
// The result is a guess at a valid instruction, not a checked one: sizes
// that depend on other modifiers (image addresses, d16 data) take the
// smallest documented size. Run it through the assembler before showing it
// as an example.
func BuildExample(s Syntax) (asm string, ok bool) {
	if s.Mnemonic == "" {
		return "", false
	}
	if isDual(s) {
		return buildDual(s)
	}
	b := exampleBuilder{syntax: s, nextV: 1, nextS: 2, nextA: 1}
	ops, ok := b.operands(s.Operands)
	if !ok {
		return "", false
	}
	text := s.Mnemonic
	if len(ops) > 0 {
		text += " " + strings.Join(ops, ", ")
	}
	for _, m := range b.modifiers() {
		text += " " + m
	}
	return text, true
}

func (b *exampleBuilder) operands(ops []Operand) ([]string, bool) {
	var out []string
	for _, op := range ops {
		// An optional atomic destination selects the returning form,
		// which needs a modifier to match; the plain form is simpler.
		// Other optional operands (a buffer load's destination, absent
		// only with lds) are written.
		if op.Optional && strings.Contains(b.syntax.Mnemonic, "atomic") {
			continue
		}
		if op.IsDest() && !op.Optional {
			b.wroteDest = true
		}
		v, good := b.value(op)
		if !good {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// modifiers returns the modifiers the assembler will not do without for
// the operands chosen.
func (b *exampleBuilder) modifiers() []string {
	s := b.syntax
	var out []string
	has := func(id string) bool { return slices.Contains(s.ModifierIDs, id) }
	for _, id := range s.ModifierIDs {
		if m := requiredModifier(id); m != "" {
			out = append(out, m)
		}
	}
	if has("offen") && hasOperand(s, "vaddr") {
		out = append(out, "offen")
	}
	if has("dmask") {
		if strings.Contains(s.Mnemonic, "gather4") {
			out = append(out, "dmask:0x1")
		} else if n := dataDwords(s); n >= 2 && n <= 4 {
			out = append(out, fmt.Sprintf("dmask:0x%x", 1<<n-1))
		}
	}
	if has("gds") && (strings.Contains(s.Mnemonic, "gws") || strings.Contains(s.Mnemonic, "ordered_count") ||
		strings.Contains(s.Mnemonic, "gs_reg")) {
		out = append(out, "gds")
	}
	if has("th") && b.wroteDest && strings.Contains(s.Mnemonic, "atomic") {
		out = append(out, "th:TH_ATOMIC_RETURN")
	}
	return out
}

func hasOperand(s Syntax, kind string) bool {
	for _, op := range s.Operands {
		if op.Kind == kind {
			return true
		}
	}
	return false
}

// dataDwords is the size of an image instruction's data operand, which the
// dmask must agree with.
func dataDwords(s Syntax) int {
	for _, op := range s.Operands {
		if op.Kind == "vdata" || op.Kind == "vdst" {
			return op.Dwords()
		}
	}
	return 0
}

// buildDual writes a VOPD instruction. VOPD pairs an X and a Y half whose
// sources must sit in different VGPR banks (register number mod 4) and
// whose destinations must differ in parity, so each half uses fixed,
// compatible registers. GFX11 lists each half on its own (the other half
// is then a v_dual_mov_b32); GFX12 lists the pairs as one mnemonic,
// v_dual_<x>_x_<y>, with the X operands before the Y ones.
func buildDual(s Syntax) (string, bool) {
	xPlan, yPlan := []int{0, 1, 2}, []int{3, 4, 6}
	if i := strings.Index(s.Mnemonic, "_x_"); i >= 0 {
		split := len(s.Operands)
		for j, op := range s.Operands {
			if strings.HasSuffix(op.Kind, "y") || strings.HasPrefix(op.Name, "vdsty") {
				split = j
				break
			}
		}
		x := exampleBuilder{syntax: s, nextV: 8, nextS: 2, nextA: 1, fixedV: xPlan}
		y := exampleBuilder{syntax: s, nextV: 12, nextS: 2, nextA: 1, fixedV: yPlan}
		xo, ok1 := x.operands(s.Operands[:split])
		yo, ok2 := y.operands(s.Operands[split:])
		if !ok1 || !ok2 {
			return "", false
		}
		return s.Mnemonic[:i] + " " + strings.Join(xo, ", ") + " :: v_dual_" + s.Mnemonic[i+3:] + " " +
			strings.Join(yo, ", "), true
	}
	isY := vopdIsY(s)
	plan := xPlan
	if isY {
		plan = yPlan
	}
	b := exampleBuilder{syntax: s, nextV: 8, nextS: 2, nextA: 1, fixedV: plan}
	ops, ok := b.operands(s.Operands)
	if !ok {
		return "", false
	}
	text := s.Mnemonic + " " + strings.Join(ops, ", ")
	if isY {
		return "v_dual_mov_b32 v0, v1 :: " + text, true
	}
	return text + " :: v_dual_mov_b32 v3, v4", true
}

// requiredModifier returns the modifier to write for a modifier the
// assembler insists on, or "".
func requiredModifier(id string) string {
	switch id {
	case "dpp-ctrl", "dpp16-ctrl", "dpp32-ctrl", "dpp64-ctrl":
		return "quad_perm:[0,1,2,3]"
	case "dpp8-sel":
		return "dpp8:[0,1,2,3,4,5,6,7]"
	case "dim":
		return "dim:SQ_RSRC_IMG_1D"
	}
	return ""
}

func isDual(s Syntax) bool {
	return strings.HasPrefix(s.Mnemonic, "v_dual_") && strings.HasPrefix(s.Section, "VOPD")
}

func vopdIsY(s Syntax) bool {
	switch s.Section {
	case "VOPDY":
		return true
	case "VOPDX":
		return false
	}
	return s.Table == 1
}

type exampleBuilder struct {
	syntax              Syntax
	nextV, nextS, nextA int
	fixedV              []int // VOPD register plan, used in order
	wroteDest           bool
}

// wave32 reports whether the family's assembler defaults to wave32, which
// decides between vcc_lo and vcc.
func (b *exampleBuilder) wave32() bool {
	f := strings.ToUpper(b.syntax.Family)
	return strings.HasPrefix(f, "GFX1") && len(f) >= 5
}

func (b *exampleBuilder) vcc() string {
	if b.wave32() {
		return "vcc_lo"
	}
	return "vcc"
}

func (b *exampleBuilder) value(op Operand) (string, bool) {
	n := op.Dwords()
	if n <= 0 {
		n = 1
	}
	var accepts []string
	if op.Doc != nil {
		accepts = op.Doc.Accepts
	}
	has := func(k string) bool { return slices.Contains(accepts, k) }
	if op.Kind == "saddr" && has("off") && vaddrDwords(b.syntax) >= 2 {
		return "off", true // a 64-bit vaddr is the whole address
	}
	switch {
	case has("v"):
		return b.vreg(n), true
	case has("a"):
		return regRange("a", &b.nextA, n, vAlign(n)), true
	case has("s"):
		return regRange("s", &b.nextS, n, sAlign(n)), true
	case has("vcc"), op.Kind == "vcc":
		if n >= 2 {
			return "vcc", true
		}
		return b.vcc(), true
	case has("exec"):
		return "exec", true
	case has("m0"):
		return "m0", true
	case has("ttmp"):
		return "ttmp0", true
	case has("null"):
		return "null", true
	}
	for _, a := range accepts {
		if v := symbolicValue(a); v != "" {
			return v, true
		}
	}
	if v := symbolicValue(op.Kind); v != "" {
		return v, true
	}
	if op.Doc != nil && strings.Contains(op.Doc.Text, "integer_number") {
		return "1", true
	}
	return "", false
}

// symbolicValue gives a representative value for an operand class or an
// accepted-value token that is not a register.
func symbolicValue(kind string) string {
	switch kind {
	case "attr":
		return "attr0.x"
	case "param":
		return "p10"
	case "tgt":
		return "mrt0"
	case "hwreg":
		return "hwreg(HW_REG_MODE)"
	case "msg", "sendmsg":
		return "sendmsg(MSG_INTERRUPT)"
	case "sendmsg_rtn":
		return "sendmsg(MSG_RTN_GET_DOORBELL)"
	case "imask":
		return "gpr_idx(SRC0)"
	case "simm32", "fconst":
		return "1.0"
	case "literal", "uimm32":
		return "0x1234"
	case "waitcnt", "waitcnt_depctr", "delay", "clause", "version", "probe",
		"imm16", "simm16", "ioffset", "label", "iconst", "constant", "ival",
		"uimm8", "simm8", "uimm20", "simm21":
		return "0"
	}
	return ""
}

func (b *exampleBuilder) vreg(n int) string {
	if len(b.fixedV) > 0 {
		r := b.fixedV[0]
		b.fixedV = b.fixedV[1:]
		if n == 1 {
			return fmt.Sprintf("v%d", r)
		}
	}
	return regRange("v", &b.nextV, n, vAlign(n))
}

// regRange allocates n registers of a file from *next, aligned: 64-bit and
// wider tuples must start at an even register on gfx90a and later, and
// scalar tuples of four or more at a multiple of four.
func regRange(file string, next *int, n, align int) string {
	r := *next
	if align > 1 && r%align != 0 {
		r += align - r%align
	}
	*next = r + n
	if n == 1 {
		return fmt.Sprintf("%s%d", file, r)
	}
	return fmt.Sprintf("%s[%d:%d]", file, r, r+n-1)
}

func vAlign(n int) int {
	switch {
	case n >= 4:
		return 4
	case n >= 2:
		return 2
	}
	return 1
}

func sAlign(n int) int {
	switch {
	case n >= 3:
		return 4
	case n == 2:
		return 2
	}
	return 1
}

func vaddrDwords(s Syntax) int {
	for _, op := range s.Operands {
		if op.Kind == "vaddr" {
			return op.Dwords()
		}
	}
	return 0
}

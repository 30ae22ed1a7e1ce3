package encode

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Operand legality without an assembler: how many operands an instruction
// takes and how wide each register operand is come from the decoder's own
// rendering of the instruction's templates (the template's words decoded,
// every operand field zero), so a line is judged by what the listings
// print, for the family in hand. The language server reports these
// without running llvm-mc, and the encoder names them when it fails.
//
// The check is conservative: it speaks only where every template of the
// mnemonic renders fully and is of a kind whose operand count and register
// widths are fixed by the opcode (the VALU and SALU formats below); memory,
// matrix, DPP, SDWA and dual-issue lines are left to the assembler.

// checkedKinds are the formats whose operand list is fixed by the opcode.
var checkedKinds = map[decode.Kind]bool{
	decode.KindVOP1: true, decode.KindVOP2: true, decode.KindVOPC: true, decode.KindVOP3: true,
	decode.KindVOP3B: true, decode.KindVOP3P: true, decode.KindSOP1: true, decode.KindSOP2: true,
	decode.KindSOPC: true, decode.KindSOPK: true,
}

// OperandError is a line whose operands no encoding of its instruction
// takes: the wrong count, or a register of the wrong width.
type OperandError struct {
	Mnemonic string
	// Operand is the 0-based index of the wrong operand; -1 when the
	// count is wrong.
	Operand int
	Written string // the operand as written ("" for a count error)
	Msg     string
}

func (e *OperandError) Error() string { return e.Msg }

// shape is what one template prints: its operands, and each register
// operand's file and register count.
type shape struct {
	text string
	valu bool // a vector instruction: its scalar lane masks follow the wave size
	ops  []regShape
}

type regShape struct {
	file  string // "v", "a", "s", "ttmp"; "" when not a register tuple
	count int
}

// CheckOperands judges asm's operands against every encoding of its
// instruction in the encoder's family. It returns nil where the line fits
// one of them or where the check cannot tell (see above).
func (e *Encoder) CheckOperands(asm string) *OperandError {
	if len(asm) > MaxText {
		return nil
	}
	asm = normalize(asm)
	if asm == "" || strings.Contains(asm, "::") {
		return nil
	}
	mn, rest, _ := strings.Cut(asm, " ")
	base, want := cutAsmSuffix(mn)
	ops, mods := splitOperands(compactBrackets(rest))
	if want == isa.SuffixSDWA || want == isa.SuffixDPP || extOf(mn, mods) != extNone {
		return nil
	}
	shapes, ok := e.shapes(base, want)
	if !ok || len(shapes) == 0 {
		return nil
	}
	var sameCount []shape
	counts := map[int]bool{}
	for _, s := range shapes {
		counts[len(s.ops)] = true
		if len(s.ops) == len(ops) {
			sameCount = append(sameCount, s)
		}
	}
	if len(sameCount) == 0 {
		return &OperandError{Mnemonic: mn, Operand: -1,
			Msg: fmt.Sprintf("%s takes %s (as in %s); this line has %d", mn, operandCounts(counts), shapes[0].text, len(ops))}
	}
	// LLVM assembles GFX10 and later as wave32 unless told otherwise
	// (the decoder's rendering shows vcc_lo and one-SGPR lane masks).
	wave32 := e.info.Gen >= 10
	var first *OperandError
	for _, s := range sameCount {
		bad := mismatch(s, ops, wave32)
		if bad < 0 {
			return nil
		}
		if first == nil {
			w := regOf(ops[bad])
			first = &OperandError{Mnemonic: mn, Operand: bad, Written: ops[bad],
				Msg: fmt.Sprintf("%s is %s; operand %d of %s is %s (as in %s)", ops[bad], regWords(w.count), bad+1, mn, regWords(s.ops[bad].count), s.text)}
		}
	}
	return first
}

// mismatch is the index of the first register operand whose width the
// shape does not take, -1 when every one fits. A scalar lane mask is one
// SGPR under wave32 and two under wave64, and the line does not say which
// wave size it is assembled for, so on wave32 families an SGPR pair is
// taken where a vector instruction's rendering shows one SGPR (a scalar
// instruction's widths are its opcode's: s_and_saveexec_b32 and _b64).
func mismatch(s shape, ops []string, wave32 bool) int {
	for i, o := range ops {
		w, t := regOf(o), s.ops[i]
		if w.file == "" || t.file == "" || w.count == t.count {
			continue
		}
		scalar := func(f string) bool { return f == "s" || f == "ttmp" }
		if wave32 && s.valu && scalar(w.file) && scalar(t.file) && t.count == 1 && w.count == 2 {
			continue
		}
		return i
	}
	return -1
}

// shapes renders every template of the mnemonic that the suffix allows.
// ok is false when one of them cannot be judged (a kind outside
// checkedKinds, a rendering that fails or is partial): the check then
// says nothing.
func (e *Encoder) shapes(base, want string) ([]shape, bool) {
	key := base + " " + want
	if v, ok := e.shapeMemo.Load(key); ok {
		se := v.(shapeEntry)
		return se.shapes, se.ok
	}
	shapes, ok := e.renderShapes(base, want)
	e.shapeMemo.Store(key, shapeEntry{shapes, ok})
	return shapes, ok
}

type shapeEntry struct {
	shapes []shape
	ok     bool
}

func (e *Encoder) renderShapes(base, want string) ([]shape, bool) {
	tmpls := e.d.Templates(base)
	if len(tmpls) == 0 {
		return nil, false
	}
	var out []shape
	for _, t := range tmpls {
		if !checkedKinds[t.Kind] || t.KIndex >= 0 && t.K.Size > 0 {
			return nil, false
		}
		short := t.Format.Width == 32
		if (want == isa.SuffixE32 && !short) || (want == isa.SuffixE64 && (short || t.Kind == decode.KindVOP3P)) {
			continue
		}
		b := make([]byte, 4*len(t.Words))
		for i, w := range t.Words {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		in, n, err := e.d.DecodeOperands(b, 0)
		if err != nil || n != len(b) || in.Partial || in.Name != t.Model && !strings.EqualFold(in.Name, t.Name) {
			return nil, false
		}
		valu := t.Kind != decode.KindSOP1 && t.Kind != decode.KindSOP2 && t.Kind != decode.KindSOPC && t.Kind != decode.KindSOPK
		s, implicit := shape{text: in.Text(), valu: valu}, shape{text: in.Text(), valu: valu}
		for _, o := range in.Operands {
			s.ops = append(s.ops, regOf(o))
			// A 32-bit encoding's vcc is implicit (no field holds it), and
			// llvm-mc takes the line with it left out.
			if !short || !isVCC(o) {
				implicit.ops = append(implicit.ops, regOf(o))
			}
		}
		out = append(out, s)
		if len(implicit.ops) != len(s.ops) {
			out = append(out, implicit)
		}
	}
	return out, true
}

// regOf reads a register operand ("v5", "-|v[2:3]|", "s[4:7]", "v1.h");
// anything else (a constant, vcc, a label) has no file.
func regOf(o string) regShape {
	o = strings.TrimPrefix(o, "-")
	if strings.HasPrefix(o, "neg(") && strings.HasSuffix(o, ")") {
		o = o[4 : len(o)-1]
	}
	if strings.HasPrefix(o, "abs(") && strings.HasSuffix(o, ")") {
		o = o[4 : len(o)-1]
	}
	o = strings.Trim(o, "|")
	m, ok := matchReg(o)
	if !ok {
		return regShape{}
	}
	if m[2] != "" {
		return regShape{file: m[1], count: 1}
	}
	lo, _ := strconv.Atoi(m[3])
	hi, _ := strconv.Atoi(m[4])
	if hi < lo {
		return regShape{}
	}
	return regShape{file: m[1], count: hi - lo + 1}
}

func regWords(n int) string {
	if n == 1 {
		return "one 32-bit register"
	}
	return fmt.Sprintf("%d registers (%d bits)", n, 32*n)
}

func operandCounts(counts map[int]bool) string {
	var ns []string
	for n := 0; n <= 8; n++ {
		if counts[n] {
			ns = append(ns, strconv.Itoa(n))
		}
	}
	word := "operands"
	if len(ns) == 1 && ns[0] == "1" {
		word = "operand"
	}
	return strings.Join(ns, " or ") + " " + word
}

// checkAlignment refuses a VGPR or AGPR tuple that starts at an odd
// register on a family that needs them even (isa.TraitAlignedVGPRs: gfx90a
// on); llvm-mc refuses every such operand, a buffer's address pair
// included. A register list ([v1, v[3:4]]) is looked into.
func (e *Encoder) checkAlignment(ops []string) error {
	if !e.infoOK || !e.info.Has(isa.TraitAlignedVGPRs) {
		return nil
	}
	for _, op := range ops {
		list := []string{op}
		if strings.HasPrefix(op, "[") {
			list = strings.Split(strings.TrimSuffix(op[1:], "]"), ",")
		}
		for _, o := range list {
			o = strings.TrimSpace(o)
			r := regOf(o)
			if (r.file != "v" && r.file != "a") || r.count < 2 {
				continue
			}
			m, _ := matchReg(strings.Trim(strings.TrimLeft(o, "-"), "|"))
			if first, err := strconv.Atoi(m[3]); err == nil && first%2 == 1 {
				return fmt.Errorf("%s: %s needs VGPR and AGPR tuples to start at an even register", o, e.info.Name)
			}
		}
	}
	return nil
}

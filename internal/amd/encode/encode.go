// Package encode assembles one AMD GPU instruction written in LLVM's syntax
// ("v_max_f32 v5, -1, v2") into machine code, using the same model-driven
// templates as package decode. Every encoding it produces is decoded again
// and must print back as the input, so it never returns bytes that mean
// something else; what it cannot place it reports as an error.
//
// Supported: VOP1, VOP2, VOPC, VOP3 (VOP3A/VOP3B/VOP3SD), VOP3P, SOP1, SOP2,
// SOPK, SOPC, SOPP and SMEM (with GFX12's 24-bit IOFFSET and th:/scope:
// cache policy), including the GCN 5 / RDNA 1-2 VOP3 interpolation forms
// ("v_interp_p2_f16 v1, v2, attr0.x, v3 high"), the dual-issue VOPD and
// VOPD3 words ("v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4",
// dual.go), the DPP16, DPP8 and SDWA forms of the VALU encodings,
// VOP3/VOP3P DPP included (ext.go), and the LDS, FLAT/GLOBAL/SCRATCH and
// untyped buffer encodings (memory.go). Typed buffers (format:[...]),
// images, exports, parameter interpolation and LDS direct loads, which
// have no placement rules, are assembled by search (search.go).
package encode

import (
	"encoding/binary"
	"errors"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"sync"

	"fmt"

	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Encoder assembles instructions of one family.
type Encoder struct {
	d   *decode.Decoder
	sym symbols
	// info is the family's entry in isa's table (its generation and
	// traits), looked up once: the checks read it for every line.
	info   isa.ArchInfo
	infoOK bool
	// fieldMaps caches each format's fields by upper-case name (the first
	// of a name wins), read-only once made: format name -> map.
	fieldMaps sync.Map
	// shapeMemo caches CheckOperands' renderings: "mnemonic suffix" ->
	// shapeEntry.
	shapeMemo sync.Map
}

// fieldsByName returns f's fields by upper-case name; the map is shared
// and must not be changed.
func (e *Encoder) fieldsByName(f isa.Format) map[string]isa.Field {
	if m, ok := e.fieldMaps.Load(f.Name); ok {
		return m.(map[string]isa.Field)
	}
	m := make(map[string]isa.Field, len(f.Fields))
	for _, fl := range f.Fields {
		up := strings.ToUpper(fl.Name)
		if _, dup := m[up]; !dup {
			m[up] = fl
		}
	}
	got, _ := e.fieldMaps.LoadOrStore(f.Name, m)
	return got.(map[string]isa.Field)
}

// New builds an encoder for a family from its formats and instructions.
func New(arch isa.Architecture, instrs []isa.Instruction) (*Encoder, error) {
	d, err := decode.New(arch, instrs)
	if err != nil {
		return nil, err
	}
	return FromDecoder(d), nil
}

// FromDecoder makes an encoder that shares a family's decoder (which it
// uses to check every result); both are safe for concurrent use.
func FromDecoder(d *decode.Decoder) *Encoder {
	info, ok := isa.LookupArch(d.Arch().ID)
	return &Encoder{d: d, info: info, infoOK: ok}
}

// Encode assembles asm for the family described by arch and instrs.
func Encode(arch isa.Architecture, instrs []isa.Instruction, asm string) ([]byte, error) {
	e, err := New(arch, instrs)
	if err != nil {
		return nil, err
	}
	return e.Encode(asm)
}

var supported = map[decode.Kind]bool{decode.KindVOP1: true, decode.KindVOP2: true, decode.KindVOPC: true, decode.KindVOP3: true,
	decode.KindVOP3B: true, decode.KindVOP3P: true, decode.KindSOP1: true, decode.KindSOP2: true, decode.KindSOPK: true,
	decode.KindSOPC: true, decode.KindSOPP: true, decode.KindSMEM: true, decode.KindVOPD: true, decode.KindVOPD3: true}

// MaxText bounds an instruction's text: the longest AMD instruction with
// every modifier written is under 200 characters, and the encoder's errors
// quote what they were given (a 50 MB line had been quoted whole, four
// times over).
const MaxText = 1024

// TooLongError is a text longer than MaxText: its words quote only its
// start.
type TooLongError struct {
	Len   int
	Start string // errs.Excerpt of the text
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("%d characters starting %q is longer than any instruction (at most %d)", e.Len, e.Start, MaxText)
}

// Encode assembles one instruction.
func (e *Encoder) Encode(asm string) ([]byte, error) {
	return e.encode(asm, nil)
}

// asmSuffixes are the encoding suffixes (of isa.EncodingSuffixes) that the
// encoder reads: llvm-mc's assembler spells no _dpp8 or _dpp16 (dpp8:[...]
// and the DPP controls choose those), and a mnemonic ends with at most one
// of these four, so _e64_dpp reads as _dpp on the _e64 form (encodeExt
// takes the _e64 off).
var asmSuffixes = []string{isa.SuffixE32, isa.SuffixE64, isa.SuffixSDWA, isa.SuffixDPP}

// cutAsmSuffix splits a mnemonic into its instruction's name and the
// encoding suffix written on it ("" for none).
func cutAsmSuffix(mn string) (base, suffix string) {
	base = mn
	for _, suf := range asmSuffixes {
		if strings.HasSuffix(mn, suf) {
			base, suffix = strings.TrimSuffix(mn, suf), suf
		}
	}
	return base, suffix
}

// encode assembles asm. With candidate non-nil it also hands over every
// encoding it builds, before the decoder's check (the tests use it to tell
// whether the right bytes were among them when the check failed).
func (e *Encoder) encode(asm string, candidate func([]byte)) ([]byte, error) {
	if len(asm) > MaxText {
		return nil, &TooLongError{Len: len(asm), Start: errs.Excerpt(asm)}
	}
	asm = normalize(asm)
	if asm == "" {
		return nil, errors.New("empty instruction")
	}
	if strings.Contains(asm, "::") {
		return e.encodeDual(asm)
	}
	// s_waitcnt vmcnt(0) lgkmcnt(0), s_delay_alu instid0(...) | ...,
	// s_waitcnt_depctr depctr_va_vdst(0): one symbolic immediate.
	if mn, rest, ok := strings.Cut(asm, " "); ok && strings.Contains(rest, "(") {
		if v, ok := e.d.SymbolicImmediate(mn, rest); ok {
			asm = mn + " " + strconv.Itoa(v)
		}
	}
	mn, rest, _ := strings.Cut(asm, " ")
	base, want := cutAsmSuffix(mn)
	if name := isa.BaseMnemonic(mn); name != "" {
		if canon, ok := e.d.AliasOf(name); ok {
			// Another spelling llvm-mc takes on this target: encoded,
			// and read back, as the instruction it spells (suffixes
			// kept: v_cmp_tru_f16_e64_dpp).
			mn = canon + mn[len(name):]
			base, want = cutAsmSuffix(mn)
			asm = strings.TrimSpace(mn + " " + rest)
		}
	}
	compact := compactBrackets(rest)
	ops, mods := splitOperands(compact)
	if want == isa.SuffixSDWA || want == isa.SuffixDPP || extOf(mn, mods) != extNone {
		return e.encodeExt(asm, extOf(mn, mods))
	}
	tmpls := e.d.Templates(base)
	if ps := e.d.PairTemplates(base); len(tmpls) == 0 && len(ps) > 0 {
		return e.encodePair(ps, asm)
	}
	if len(tmpls) == 0 {
		return nil, fmt.Errorf("%s: no such instruction in %s", base, e.d.Arch().ID)
	}
	if canon := e.canonicalSymbols(rest); canon != rest || compact != rest {
		rest = canon
		ops, mods = splitOperands(rest) // else the split above is this one
	}
	asm = strings.TrimSpace(mn + " " + rest)
	if err := e.checkAlignment(ops); err != nil {
		// An operand of the wrong size is the first thing to say.
		if p := e.CheckOperands(asm); p != nil {
			return nil, fmt.Errorf("cannot encode %q: %w", asm, p)
		}
		return nil, fmt.Errorf("%s: %w", asm, err)
	}
	var tried []string
	var busErr error // an encoding that reads back but reads too many scalar values
	kForm := false   // a K-constant instruction (v_fmaak_f32): LLVM has only its 32-bit form
	for _, t := range tmpls {
		kForm = kForm || (t.KIndex >= 0 && t.Format.Width == 32)
	}
	for _, t := range tmpls {
		if kForm && t.Format.Width > 32 && (t.Kind == decode.KindVOP3 || t.Kind == decode.KindVOP3B) {
			tried = append(tried, fmt.Sprintf("%s: a K-constant instruction has no %s form", t.Format.Name, t.Format.Name))
			continue
		}
		if t.ScaleWord {
			b, err := e.encodeScaleWord(t, asm, ops, mods)
			if err == nil {
				return b, nil
			}
			tried = append(tried, fmt.Sprintf("%s: %v", t.Format.Name, err))
			continue
		}
		if t.Kind == decode.KindMAI {
			b, err := e.encodeMAI(t, asm, ops, mods)
			if err == nil {
				return b, nil
			}
			tried = append(tried, fmt.Sprintf("%s: %v", t.Format.Name, err))
			continue
		}
		if !supported[t.Kind] && decode.MemoryFormat(t.Format.Name) {
			b, err := e.encodeMemory(t, asm, ops, mods)
			if err == nil {
				return b, nil
			}
			// A bit the placement rules do not name (gfx90a's scc in
			// the RESERVED bit): the search finds it.
			if b, serr := e.encodeSearch(t, asm, mods); serr == nil {
				return b, nil
			}
			tried = append(tried, fmt.Sprintf("%s: %v", t.Format.Name, err))
			continue
		}
		if !supported[t.Kind] {
			b, err := e.encodeSearch(t, asm, mods)
			if err == nil {
				return b, nil
			}
			tried = append(tried, fmt.Sprintf("%s: %v", t.Format.Name, err))
			continue
		}
		short := t.Format.Width == 32
		if (want == isa.SuffixE32 && !short) || (want == isa.SuffixE64 && (short || t.Kind == decode.KindVOP3P)) {
			continue
		}
		for _, layout := range layouts(t, ops) {
			b, err := e.fill(t, layout, mods)
			if err != nil {
				tried = append(tried, fmt.Sprintf("%s: %v", t.Format.Name, err))
				continue
			}
			if candidate != nil {
				candidate(b)
			}
			in, n, err := e.d.DecodeOperands(b, 0)
			if nt := (*decode.NotOnTargetError)(nil); errors.As(err, &nt) {
				return nil, fmt.Errorf("cannot encode %q: %s is not on %s (llvm-mc assembles it on other %s targets)", asm, nt.Name, nt.Target, nt.Arch)
			}
			if err != nil || n != len(b) {
				continue
			}
			if e.accepts(in, t, layout, mn, asm) {
				if err := e.constantBus(b, in, t); err != nil {
					busErr = err
					continue
				}
				return b, nil
			}
			tried = append(tried, fmt.Sprintf("%s gives %q", t.Format.Name, in.Text()))
		}
	}
	if busErr != nil {
		return nil, fmt.Errorf("%s: %w", asm, busErr)
	}
	// A scalar memory modifier the placement rules do not name (gfx1250's
	// scale_offset): the search finds its field.
	for _, t := range tmpls {
		if t.Kind == decode.KindSMEM {
			if b, err := e.encodeSearch(t, asm, mods); err == nil {
				return b, nil
			}
		}
	}
	// Say what is wrong with the operands where the rule is known, rather
	// than list what each encoding made of them.
	if p := e.CheckOperands(asm); p != nil {
		return nil, fmt.Errorf("cannot encode %q: %w", asm, p)
	}
	if len(tried) > 3 {
		tried = tried[:3]
	}
	return nil, fmt.Errorf("cannot encode %q: %s", asm, strings.Join(tried, "; "))
}

// accepts says whether in, the decoding of what the encoder placed for
// template t and layout l, reads back as asm (mnemonic mn, normalized).
func (e *Encoder) accepts(in decode.Inst, t decode.Template, l layout, mn, asm string) bool {
	got := normalize(in.Text())
	switch {
	case sameText(got, asm):
		return true
	case in.Name == t.Model && sameOperands(got, asm):
		// The same opcode printed under another name LLVM accepts
		// (v_accvgpr_read for v_accvgpr_read_b32).
		return true
	case in.Name == t.Model && t.Kind == decode.KindSMEM && len(l.fields) > 0 && l.fields[0] == "SOFFSET" &&
		len(in.Operands) == len(l.ops)+1 && canonNumbers(in.Operands[0]) == "0" &&
		sameText(normalize(in.Mnemonic+" "+strings.Join(in.Operands[1:], ", ")), asm):
		// s_prefetch_data_pc_rel s2, 0: the offset LLVM lets one leave
		// out is zero; the decoder prints it (0x0, s2, 0) as llvm-mc does.
		return true
	case in.Name == t.Model && plainImmediates(l) && len(in.Operands) == len(l.ops):
		// "s_waitcnt 0": the number is the field's bits, which the
		// decoder prints symbolically (vmcnt(0) expcnt(0) ...).
		return true
	}
	// The decoder prints a K constant or a b32 literal as the hex value
	// placed in the code ("1.0" of an f16 op reads back as 0x3c00).
	alt, ok := literalAsHex(mn, t, l, e.d.Gen())
	return ok && sameText(got, alt)
}

// readsBackAs says whether in, the decoding of some bytes, could be taken
// for asm by the encoder's check: false means the encoder cannot return
// those bytes for asm until the decoder prints them as asm.
func (e *Encoder) readsBackAs(in decode.Inst, asm string) bool {
	asm = normalize(asm)
	if in.Extra != "" {
		return sameExtText(normalize(in.Text()), e.canonicalSymbols(asm), in.Traits.SDWAPad)
	}
	mn, rest, _ := strings.Cut(asm, " ")
	rest = e.canonicalSymbols(rest)
	asm = strings.TrimSpace(mn + " " + rest)
	ops, _ := splitOperands(rest)
	for _, t := range e.d.Templates(in.Name) {
		for _, l := range layouts(t, ops) {
			if e.accepts(in, t, l, mn, asm) {
				return true
			}
		}
	}
	return sameText(normalize(in.Text()), asm)
}

// sameText compares the decoder's text with the input: the same up to the
// _e32/_e64 suffix and the spelling of integers.
func sameText(got, asm string) bool {
	return got == asm || stripSuffix(got) == stripSuffix(asm) ||
		canonNumbers(stripSuffix(got)) == canonNumbers(stripSuffix(asm))
}

// literalAsHex writes the instruction with its K operand (or the 32-bit
// literal of s_setreg_imm32_b32) as the hex literal placed in the code, for
// comparison with the decoder's text.
func literalAsHex(mn string, t decode.Template, l layout, gen int) (string, bool) {
	for i, f := range l.fields {
		var k uint64
		switch f {
		case "K":
			v, wide, err := kConstant(t.K, l.ops[i], gen)
			if err != nil {
				return "", false
			}
			if wide {
				if uint32(v) != 0 {
					return "", false
				}
				v >>= 32 // printed as the 32-bit high half when the low half is zero
			}
			k = v
		case "LIT32":
			v, err := literal32(l.ops[i])
			if err != nil {
				return "", false
			}
			k = uint64(v)
		default:
			continue
		}
		ops := append([]string(nil), l.ops...)
		ops[i] = fmt.Sprintf("0x%x", k)
		return mn + " " + strings.Join(ops, ", "), true
	}
	return "", false
}

// sameOperands compares everything after the mnemonic.
func sameOperands(got, asm string) bool {
	_, g, _ := strings.Cut(got, " ")
	_, a, _ := strings.Cut(asm, " ")
	return g == a || canonNumbers(g) == canonNumbers(a)
}

// plainImmediates reports a layout whose operands are all 16-bit
// immediates written as plain numbers, so the encoding holds exactly them.
func plainImmediates(l layout) bool {
	if len(l.fields) == 0 {
		return false
	}
	for i, f := range l.fields {
		if !strings.HasPrefix(f, "#") {
			return false
		}
		if _, err := strconv.ParseInt(l.ops[i], 0, 64); err != nil {
			return false
		}
	}
	return true
}

func stripSuffix(s string) string {
	mn, rest, _ := strings.Cut(s, " ")
	mn = strings.TrimSuffix(strings.TrimSuffix(mn, isa.SuffixE32), isa.SuffixE64)
	if rest == "" {
		return mn
	}
	return mn + " " + rest
}

// canonNumbers writes every integer token in decimal, so "s_addk_i32 s2, 0"
// and the decoder's "s_addk_i32 s2, 0x0" compare equal: the same bits,
// written two ways LLVM accepts. A token is a run of digits, or 0x and
// lower-case hex digits, with no letter, digit or _ on either side
// (strconv's base 0 reads it, so 017 is octal). Two more spellings of the
// same bits compare equal: a 16-bit operand in the low half, which prints
// as v1.l (true16) where assembly written for the fake16 syntax says v1;
// and gfx12 SMEM's "offset:0x0" beside an SGPR offset, which assembly may
// leave out. It scans by hand: the encoder reads every candidate back
// through it, and regular expressions took a sixth of a file's encoding.
func canonNumbers(s string) string {
	var b []byte // nil while the text is s's own: most candidates change nothing
	differ := func(i int) {
		if b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...) // decimal is seldom longer than the hex it replaces
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if !isWordByte(c) {
			if b != nil {
				b = append(b, c)
			}
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		word := s[i:j]
		switch {
		case c >= '0' && c <= '9' && c != '0' && allDigits(word):
			if b != nil {
				b = append(b, word...) // decimal already (or too large to read, kept as written)
			}
		case c >= '0' && c <= '9':
			v, ok := numberWord(word)
			if !ok {
				if b != nil {
					b = append(b, word...)
				}
				break
			}
			var dec [20]byte
			d := strconv.AppendUint(dec[:0], v, 10)
			if string(d) != word {
				differ(i)
			}
			if b != nil {
				b = append(b, d...)
			}
		case c == 'v' && len(word) > 1 && allDigits(word[1:]) && strings.HasPrefix(s[j:], ".l") && (j+2 == len(s) || !isWordByte(s[j+2])):
			differ(i)
			b = append(b, word...)
			j += 2
		default:
			if b != nil {
				b = append(b, word...)
			}
		}
		i = j
	}
	if b != nil {
		s = string(b)
	}
	return dropZeroOffsets(s)
}

// numberWord reads a whole word as canonNumbers' integer token: decimal
// (or octal with a leading 0), or 0x with lower-case hex digits.
func numberWord(w string) (uint64, bool) {
	if len(w) > 2 && w[0] == '0' && w[1] == 'x' {
		for k := 2; k < len(w); k++ {
			if !(w[k] >= '0' && w[k] <= '9' || w[k] >= 'a' && w[k] <= 'f') {
				return 0, false
			}
		}
	} else if !allDigits(w) {
		return 0, false
	}
	v, err := strconv.ParseUint(w, 0, 64)
	return v, err == nil
}

// dropZeroOffsets removes " offset:0" where no word character follows.
func dropZeroOffsets(s string) string {
	const z = " offset:0"
	if !strings.Contains(s, z) {
		return s
	}
	var b strings.Builder
	for {
		k := strings.Index(s, z)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := k + len(z)
		if end < len(s) && isWordByte(s[end]) {
			b.WriteString(s[:end])
		} else {
			b.WriteString(s[:k])
		}
		s = s[end:]
	}
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func allDigits(s string) bool {
	for k := 0; k < len(s); k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return len(s) > 0
}

// normalize writes an instruction's text one way: without a trailing
// comment, lower case, single spaces, ", " between operands. The
// decoder's text is normal already, which the encoder reads back for
// every candidate: that case returns at once.
func normalize(s string) string {
	if isNormal(s) {
		return s
	}
	return normalizeSlow(s)
}

// isNormal says normalize(s) == s: no comment characters, no upper case or
// space other than single blanks inside, each comma followed by a blank
// and not preceded by one.
func isNormal(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z', c == ';', c == '/', c < ' ', c >= 0x7f:
			return false
		case c == ' ' && s[i+1] == ' ':
			return false
		case c == ',' && (i == 0 || s[i-1] == ' ' || i+1 == len(s) || s[i+1] != ' '):
			return false
		}
	}
	return true
}

func normalizeSlow(s string) string {
	if i := strings.IndexAny(s, ";/"); i >= 0 && !strings.Contains(s[:i], "lit(") {
		s = s[:i]
	}
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	s = strings.ReplaceAll(s, " ,", ",")
	s = strings.ReplaceAll(s, ",", ", ")
	return strings.Join(strings.Fields(s), " ")
}

// splitOperands separates "v5, -1, v2 clamp mul:2" into operands and the
// trailing space-separated modifiers.
func splitOperands(rest string) ([]string, []string) {
	parts := asmtext.Split(rest)
	if len(parts) == 0 {
		return nil, nil
	}
	n := len(parts) - 1
	// The last part is split before an operand of it takes its place:
	// the operands are parts' own array (a copy was an allocation of
	// every line and of every candidate read back).
	last := fieldsOutsideBrackets(parts[n])
	ops := parts[:n]
	var mods []string
	if len(last) > 0 {
		if isModifier(last[0]) {
			mods = last
		} else {
			ops = append(ops, last[0])
			mods = last[1:]
		}
	}
	return ops, mods
}

// fieldsOutsideBrackets splits s at spaces that are not inside (...) or
// [...]: "v3 hwreg(32, 28, 29) neg_lo:[1, 0]" is three words.
func fieldsOutsideBrackets(s string) []string {
	var out []string
	depth, start := 0, -1
	for i, c := range s {
		switch {
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == ' ' && depth <= 0:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// modifierPrefixes begin the modifiers written after the operands.
var modifierPrefixes = []string{"clamp", "mul:", "div:", "glc", "dlc", "nv", "offset:", "op_sel", "neg_lo", "neg_hi", "th:", "scope:", "high", "matrix_",
	"slc", "gds", "lds", "sc0", "sc1", "nt", "idxen", "offen", "addr64", "tfe", "offset0:", "offset1:", "scale_offset", "format:", "byte_sel:"}

// modifiersByFirst are modifierPrefixes by their first byte: most words
// are operands, which no prefix's first byte begins.
var modifiersByFirst = func() (t [256][]string) {
	for _, m := range modifierPrefixes {
		t[m[0]] = append(t[m[0]], m)
	}
	return t
}()

func isModifier(s string) bool {
	if s == "" {
		return false
	}
	for _, m := range modifiersByFirst[s[0]] {
		if strings.HasPrefix(s, m) {
			return true
		}
	}
	return false
}

// layout assigns operands to fields; "" fields are skipped operands.
type layout struct {
	fields []string
	ops    []string
}

// isVCC says whether an operand is the VCC lane mask (vcc, or wave32's vcc_lo).
func isVCC(o string) bool { return o == "vcc" || o == "vcc_lo" }

// layouts lists the plausible operand-to-field assignments for a template;
// the decoder check picks the right one.
func layouts(t decode.Template, ops []string) []layout {
	var out []layout
	add := func(fields []string, ops []string) {
		if len(fields) == len(ops) {
			// Copied when taken, so each list written below stays on
			// the stack: most do not fit the line (every line tries
			// every template's lists).
			out = append(out, layout{slices.Clone(fields), ops})
		}
	}
	noVCC := func() []string {
		var r []string
		for _, o := range ops {
			if !isVCC(o) {
				r = append(r, o)
			}
		}
		return r
	}
	switch t.Kind {
	case decode.KindSOP2:
		add([]string{"SDST", "SSRC0", "SSRC1"}, ops)
		add([]string{"SSRC0", "SSRC1"}, ops)
		add([]string{"SDST", "SSRC0", "K", "SSRC1"}, ops) // s_fmamk_f32
		add([]string{"SDST", "SSRC0", "SSRC1", "K"}, ops) // s_fmaak_f32
	case decode.KindSOP1:
		add([]string{"SDST", "SSRC0"}, ops)
		add([]string{"SSRC0"}, ops)
		add([]string{"SDST"}, ops)
		add(nil, ops)
	case decode.KindSOPC:
		add([]string{"SSRC0", "SSRC1"}, ops)
		add([]string{"SSRC0", "#SSRC1"}, ops)
	case decode.KindSOPK:
		add([]string{"SDST", "#SIMM16"}, ops)
		add([]string{"#SIMM16"}, ops)
		add([]string{"#SIMM16", "SDST"}, ops)
		add([]string{"#SIMM16", "LIT32"}, ops) // s_setreg_imm32_b32 hwreg(...), imm32
	case decode.KindSOPP:
		add(nil, ops)
		add([]string{"#SIMM16"}, ops)
	case decode.KindSMEM:
		add([]string{"SDATA", "SBASE", "@OFFSET"}, ops)
		add([]string{"SBASE", "@OFFSET"}, ops)
		add([]string{"SDATA"}, ops)
		add(nil, ops)
		// GFX12 prefetches: s_prefetch_data s[2:3], 0x10, s4, 3 (base,
		// offset, offset SGPR, length in SDATA) and the PC-relative forms
		// without the base, whose offset LLVM lets one leave out.
		add([]string{"SBASE", "@OFFSET", "SOFFSET", "SDATA"}, ops)
		add([]string{"@OFFSET", "SOFFSET", "SDATA"}, ops)
		add([]string{"SOFFSET", "SDATA"}, ops)
	case decode.KindVOP1:
		add([]string{"VDST", "SRC0"}, ops)
		add(nil, ops)
	case decode.KindVOP2:
		o := noVCC()
		add([]string{"VDST", "SRC0", "VSRC1"}, ops)
		add([]string{"VDST", "SRC0", "VSRC1"}, o)
		add([]string{"VDST", "SRC0", "K", "VSRC1"}, o)
		add([]string{"VDST", "SRC0", "VSRC1", "K"}, o)
	case decode.KindVOPC:
		add([]string{"SRC0", "VSRC1"}, ops)
		if len(ops) == 3 && isVCC(ops[0]) {
			add([]string{"SRC0", "VSRC1"}, ops[1:])
		}
	case decode.KindVOP3, decode.KindVOP3P:
		if t.Interp {
			// GCN 5 / RDNA 1-2 VOP3 interpolation: "v1, v2, attr0.x(, v3)";
			// the VGPR goes in SRC1 and the attribute in SRC0.
			add([]string{"VDST", "SRC1", "@ATTR"}, ops)
			add([]string{"VDST", "SRC1", "@ATTR", "SRC2"}, ops)
		}
		add([]string{"VDST", "SRC0"}, ops)
		add([]string{"VDST", "SRC0", "SRC1"}, ops)
		add([]string{"VDST", "SRC0", "SRC1", "SRC2"}, ops)
		add([]string{"SRC0", "SRC1"}, ops)
	case decode.KindVOP3B:
		add([]string{"VDST", "SDST", "SRC0", "SRC1"}, ops)
		add([]string{"VDST", "SDST", "SRC0", "SRC1", "SRC2"}, ops)
	}
	return out
}

// operand is one parsed source or destination.
type operand struct {
	code     int
	lit      uint32
	hasLit   bool
	neg, abs bool
	hi       bool // v1.h
	// lit64 is a literal that needs 64 bits (source code 254 on
	// isa.TraitLiteral64 families); 0 for none.
	lit64 uint64
}

// matchReg reads the register syntax ^(v|s|ttmp|a)(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?$
// by hand (the encoder reads every operand of every candidate), giving the
// submatches FindStringSubmatch would (canon_test.go holds it to them):
// m[1] the file, m[2] a single register, m[3]:m[4] a range, m[5] ".l"/".h".
func matchReg(s string) (m [6]string, ok bool) {
	var file string
	for _, f := range [...]string{"v", "s", "ttmp", "a"} {
		if strings.HasPrefix(s, f) {
			file = f
			break
		}
	}
	if file == "" {
		return m, false
	}
	rest := s[len(file):]
	digits := func(t string) int {
		k := 0
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		return k
	}
	if k := digits(rest); k > 0 {
		m[2], rest = rest[:k], rest[k:]
	} else if strings.HasPrefix(rest, "[") {
		lo := digits(rest[1:])
		if lo == 0 || 1+lo >= len(rest) || rest[1+lo] != ':' {
			return m, false
		}
		hi := digits(rest[2+lo:])
		if hi == 0 || 2+lo+hi >= len(rest) || rest[2+lo+hi] != ']' {
			return m, false
		}
		m[3], m[4], rest = rest[1:1+lo], rest[2+lo:2+lo+hi], rest[3+lo+hi:]
	} else {
		return m, false
	}
	switch rest {
	case "":
	case ".l", ".h":
		m[5] = rest
	default:
		return m, false
	}
	m[0], m[1] = s, file
	return m, true
}

var (
	floatIn = map[string]int{"0.5": 240, "-0.5": 241, "1.0": 242, "-1.0": 243, "2.0": 244, "-2.0": 245, "4.0": 246, "-4.0": 247}
)

func (e *Encoder) parseOperand(s string) (operand, error) {
	var o operand
	if strings.HasPrefix(s, "neg(") && strings.HasSuffix(s, ")") {
		o.neg = true
		s = s[4 : len(s)-1]
	}
	if strings.HasPrefix(s, "-|") || (strings.HasPrefix(s, "-") && len(s) > 1 && (s[1] == 'v' || s[1] == 's' || s[1] == 't' || s[1] == 'e' || s[1] == 'm')) {
		o.neg = true
		s = s[1:]
	}
	if strings.HasPrefix(s, "|") && strings.HasSuffix(s, "|") && len(s) > 2 {
		o.abs = true
		s = s[1 : len(s)-1]
	}
	if m, ok := matchReg(s); ok {
		n := m[2]
		if n == "" {
			n = m[3]
		}
		v, _ := strconv.Atoi(n)
		o.hi = m[5] == ".h"
		switch m[1] {
		case "v", "a":
			// The instructions that take AGPRs (v_accvgpr_*, MFMA) say
			// so by opcode; the operand field holds them as VGPRs do.
			o.code = 256 + v
		case "s":
			o.code = v
		case "ttmp":
			o.code = 108 + v
		}
		return o, nil
	}
	if c, ok := e.d.ScalarCode(s); ok {
		o.code = c
		return o, nil
	}
	if c, ok := floatIn[s]; ok {
		o.code = c
		return o, nil
	}
	if strings.HasPrefix(s, "0.15915494") {
		o.code = 248
		return o, nil
	}
	forced := false
	if strings.HasPrefix(s, "lit(") && strings.HasSuffix(s, ")") {
		s, forced = s[4:len(s)-1], true
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		if u, uerr := strconv.ParseUint(s, 0, 64); uerr == nil {
			v, err = int64(u), nil // above MaxInt64: a 64-bit literal's bits
		}
	}
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 32); ferr == nil {
			o.code, o.lit, o.hasLit = 255, math.Float32bits(float32(f)), true
			return o, nil
		}
		return o, fmt.Errorf("operand %q not understood", s)
	}
	switch {
	case !forced && v >= 0 && v <= 64:
		o.code = 128 + int(v)
	case !forced && v >= -16 && v < 0:
		o.code = 192 - int(v)
	case v >= math.MinInt32 && v <= math.MaxUint32:
		o.code, o.lit, o.hasLit = 255, uint32(v), true
	case e.literal64():
		// GFX12.5: code 254 announces a 64-bit literal.
		o.code, o.lit64, o.hasLit = 254, uint64(v), true
	default:
		return o, fmt.Errorf("constant %s does not fit 32 bits", s)
	}
	return o, nil
}

// literal64 says whether the family has 64-bit literal constants.
func (e *Encoder) literal64() bool {
	return e.infoOK && e.info.Has(isa.TraitLiteral64)
}

// fill builds the word of template t with layout l: the operands into
// their fields, then the modifiers, then what LLVM fills in unwritten.
func (e *Encoder) fill(t decode.Template, l layout, mods []string) ([]byte, error) {
	w := &wordFill{words: append([]uint32(nil), t.Words...), fields: e.fieldsByName(t.Format)}
	w.set = fieldSetter(t.Format.Name, w.fields, w.words)
	if t.Kind == decode.KindVOP3P {
		e.vop3pDefaults(t, w)
	}
	for i, fname := range l.fields {
		if err := e.placeOperand(t, w, fname, l.ops[i]); err != nil {
			return nil, err
		}
	}
	if err := w.sourceModifiers(t); err != nil {
		return nil, err
	}
	for _, m := range mods {
		if err := e.modifier(t, m, w.fields, w.set, w.words); err != nil {
			return nil, err
		}
	}
	e.implicitFields(t, l, w)
	return w.bytes(), nil
}

// wordFill is an instruction word being filled in: its words, fields, the
// literal constant and the source modifier bits the operands ask for.
type wordFill struct {
	words  []uint32
	fields map[string]isa.Field
	set    func(name string, v uint64) error
	lit    *uint64
	// litWide: a 64-bit literal (GFX12.5 fp64 K constants).
	litWide                 bool
	absBits, negBits, opsel uint64
}

// useLit takes v as the word's literal constant; there is only one.
func (w *wordFill) useLit(v uint64) error {
	if w.lit != nil && *w.lit != v {
		return errors.New("two different literal constants")
	}
	w.lit = &v
	return nil
}

// vop3pDefaults sets the bits a VOP3P word has before any operand.
func (e *Encoder) vop3pDefaults(t decode.Template, w *wordFill) {
	if e.d.Gen() == 9 {
		// GCN 5 and CDNA VOP3P words carry 1 in bit 23, which the
		// guides leave out of both ENCODING and OP; LLVM sets it.
		w.words[0] |= 1 << 23
	}
	if t.OpSelHiDefault && !t.MatrixFormats {
		// op_sel_hi defaults to 1 for every source of a packed op
		// (matrix_b_fmt's FP8, 0, where it holds that).
		if _, ok := w.fields["OPSEL_HI"]; ok {
			_ = w.set("OPSEL_HI", 3)
		}
		if _, ok := w.fields["OPSEL_HI2"]; ok && (!t.MatrixReuse || t.FixedOpSel) {
			_ = w.set("OPSEL_HI2", 1)
		}
	}
}

// sourceIndex is the bit of each source in ABS, NEG and OPSEL.
var sourceIndex = map[string]int{"SRC0": 0, "SRC1": 1, "SRC2": 2}

// placeOperand puts the operand text in the layout's field fname: "#F"
// an immediate in field F, "@ATTR" and "@OFFSET" their special forms,
// "LIT32" and "K" the literal constant, else a register or inline
// constant (its modifiers noted for sourceModifiers).
func (e *Encoder) placeOperand(t decode.Template, w *wordFill, fname, text string) error {
	if strings.HasPrefix(fname, "#") {
		if v, ok := e.symbolicValue(text); ok {
			return w.set(fname[1:], uint64(v))
		}
		v, err := strconv.ParseInt(text, 0, 64)
		if err != nil || v < -32768 || v > 65535 {
			return fmt.Errorf("immediate %q not a 16-bit number", text)
		}
		return w.set(fname[1:], uint64(uint16(v)))
	}
	if fname == "@ATTR" {
		v, err := interpAttr(text)
		if err != nil {
			return err
		}
		return w.set("SRC0", v)
	}
	if fname == "@OFFSET" {
		return e.smemOffset(text, w.fields, w.set)
	}
	if v, ok := e.symbolicValue(text); ok && (t.Kind == decode.KindSOP1 || t.Kind == decode.KindSOPC) {
		// s_sendmsg_rtn_b32 s2, sendmsg(...) and s_set_gpr_idx_on s2,
		// gpr_idx(...): the source field holds the value itself.
		return w.set(fname, uint64(v))
	}
	if fname == "LIT32" {
		v, err := literal32(text)
		if err != nil {
			return err
		}
		return w.useLit(uint64(v))
	}
	if fname == "SDATA" && t.Kind == decode.KindSMEM {
		if v, err := strconv.ParseUint(text, 0, 8); err == nil {
			// s_atc_probe's first operand is an immediate, not an SGPR.
			return w.set(fname, v)
		}
	}
	if fname == "K" {
		// Before the source syntax: a 64-bit K (v_fmamk_f64) is no
		// source operand.
		k, wide, err := kConstant(t.K, text, e.d.Gen())
		if err != nil {
			return err
		}
		w.litWide = wide
		return w.useLit(k)
	}
	o, err := e.parseOperand(text)
	if err != nil {
		return err
	}
	if o.hasLit {
		lit := uint64(o.lit)
		if o.lit64 != 0 {
			lit, w.litWide = o.lit64, true
		}
		if err := w.useLit(lit); err != nil {
			return err
		}
	}
	if k, isSrc := sourceIndex[fname]; isSrc {
		if o.abs {
			w.absBits |= 1 << uint(k)
		}
		if o.neg {
			w.negBits |= 1 << uint(k)
		}
		if o.hi {
			w.opsel |= 1 << uint(k)
		}
	} else if o.neg || o.abs {
		return fmt.Errorf("modifier on %s", fname)
	}
	short := t.Kind == decode.KindVOP1 || t.Kind == decode.KindVOP2 || t.Kind == decode.KindVOPC
	code := o.code
	switch fname {
	case "VDST", "VSRC1":
		if code >= 256 {
			code -= 256
			if o.hi && short {
				code |= 0x80
			}
			if o.hi && fname == "VDST" && (t.Kind == decode.KindVOP3 || t.Kind == decode.KindVOP3B) {
				w.opsel |= 8
			}
		}
	case "SBASE":
		code >>= 1
	case "SRC0":
		if o.hi && code >= 256 && short {
			code |= 0x80
		}
	}
	return w.set(fname, uint64(code))
}

// sourceModifiers sets the ABS, NEG and OPSEL bits the operands asked for.
func (w *wordFill) sourceModifiers(t decode.Template) error {
	if w.absBits != 0 {
		abs := "ABS"
		if t.AbsInNegHi {
			abs = "NEG_HI"
		}
		if err := w.set(abs, w.absBits); err != nil {
			return err
		}
	}
	if w.negBits != 0 {
		if err := w.set("NEG", w.negBits); err != nil {
			return err
		}
	}
	if w.opsel != 0 && (t.Kind == decode.KindVOP3 || t.Kind == decode.KindVOP3B) {
		if err := w.set("OPSEL", w.opsel); err != nil {
			return err
		}
	}
	return nil
}

// implicitFields fills the fields LLVM sets for an operand not written.
func (e *Encoder) implicitFields(t decode.Template, l layout, w *wordFill) {
	if t.ExecDst && !hasField(l, "VDST") {
		// From GFX10 on, the VOP3 form of v_cmpx has no destination operand;
		// LLVM fills VDST with EXEC_LO's code, the register it writes.
		if c, ok := e.d.ScalarCode("exec_lo"); ok {
			_ = w.set("VDST", uint64(c))
		}
	}
	if t.Kind == decode.KindSMEM && e.d.Gen() >= 10 && hasField(l, "SBASE") && !hasField(l, "SOFFSET") {
		// No offset SGPR written: LLVM fills SOFFSET with null.
		if _, ok := w.fields["SOFFSET"]; ok && !hasOffsetSGPR(l) {
			if c, ok := e.d.ScalarCode("null"); ok {
				_ = w.set("SOFFSET", uint64(c))
			}
		}
	}
}

// bytes is the filled word, little-endian, with its literal after it.
func (w *wordFill) bytes() []byte {
	b := make([]byte, 0, 4*len(w.words)+4)
	for _, x := range w.words {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	if w.lit != nil {
		if w.litWide {
			b = binary.LittleEndian.AppendUint64(b, *w.lit)
		} else {
			b = binary.LittleEndian.AppendUint32(b, uint32(*w.lit))
		}
	}
	return b
}

// literal32 reads the 32-bit immediate of s_setreg_imm32_b32. Its operand
// is a plain (untyped) immediate in LLVM, so a floating-point number is kept
// as LLVM's parser holds it, an IEEE double, and the encoder writes the low
// 32 bits of that: "1.0" (0x3ff0000000000000) becomes 0 and "0.1" becomes
// 0x9999999a, as llvm-mc-22 does.
func literal32(text string) (uint32, error) {
	if v, err := strconv.ParseInt(text, 0, 64); err == nil {
		if v < math.MinInt32 || v > math.MaxUint32 {
			return 0, fmt.Errorf("32-bit constant expected, not %q", text)
		}
		return uint32(v), nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, fmt.Errorf("32-bit constant expected, not %q", text)
	}
	return uint32(math.Float64bits(f)), nil
}

// kConstant reads the K operand of v_fmaak/v_fmamk/v_madak/v_madmk and
// s_fmaak/s_fmamk: always a literal, in the instruction's float format k
// (the decoder's type of the result), so "1.0" is 0x3c00 for an f16
// instruction and 0x3f800000 for an f32 one. For f64 (GFX12.5) the literal
// is 64 bits and, as for any fp64 operand, a 32-bit integer gives its high
// half. wide reports a 64-bit literal.
func kConstant(k decode.OperandType, text string, gen int) (v uint64, wide bool, err error) {
	if strings.HasPrefix(text, "lit(") && strings.HasSuffix(text, ")") {
		text = text[4 : len(text)-1]
	}
	f64 := k.Size == 64
	wide = f64 && gen >= 12
	if u, uerr := strconv.ParseUint(text, 0, 64); wide && uerr == nil && u > math.MaxUint32 {
		return u, true, nil // a whole 64-bit K, as written
	}
	if i, ierr := strconv.ParseInt(text, 0, 64); ierr == nil {
		if i < math.MinInt32 || i > math.MaxUint32 {
			return 0, false, fmt.Errorf("K constant %s does not fit 32 bits", text)
		}
		v = uint64(uint32(i))
		if wide {
			v <<= 32
		}
		return v, wide, nil
	}
	f, ferr := strconv.ParseFloat(text, 64)
	if ferr != nil {
		return 0, false, fmt.Errorf("K constant %q is not a number", text)
	}
	switch {
	case f64 && wide:
		return math.Float64bits(f), true, nil
	case f64:
		return math.Float64bits(f) >> 32, false, nil
	case k.Kind == 'h':
		return uint64(math.Float32bits(float32(f)) >> 16), false, nil
	case k.Size == 16:
		h, ok := float16Bits(f)
		if !ok {
			return 0, false, fmt.Errorf("K constant %s is not an f16 value", text)
		}
		return uint64(h), false, nil
	}
	return uint64(math.Float32bits(float32(f))), false, nil
}

// float16Bits converts f to IEEE half precision when it is exactly
// representable (normal or zero); anything else is refused rather than
// rounded, since the assembler's rounding would have to be matched.
func float16Bits(f float64) (uint16, bool) {
	if f == 0 {
		if math.Signbit(f) {
			return 0x8000, true
		}
		return 0, true
	}
	var sign uint16
	if f < 0 {
		sign, f = 0x8000, -f
	}
	frac, exp := math.Frexp(f) // f = frac * 2^exp, frac in [0.5, 1)
	e := exp - 1 + 15
	if e < 1 || e > 30 {
		return 0, false
	}
	m := (frac*2 - 1) * 1024
	if m != math.Trunc(m) {
		return 0, false
	}
	return sign | uint16(e)<<10 | uint16(m), true
}

func hasField(l layout, name string) bool {
	for _, f := range l.fields {
		if f == name {
			return true
		}
	}
	return false
}

func hasOffsetSGPR(l layout) bool {
	for i, f := range l.fields {
		if f == "@OFFSET" && !strings.HasPrefix(l.ops[i], "0x") && !strings.HasPrefix(l.ops[i], "-") && (l.ops[i] == "" || l.ops[i][0] < '0' || l.ops[i][0] > '9') {
			return true
		}
	}
	return false
}

var attrRe = lazyre.New(`^attr(\d+)\.([xyzw])$`)

// interpAttr reads "attr3.w" as the VOP3 interpolation encoding holds it in
// the SRC0 field: the attribute in bits 5:0 and the channel in bits 7:6
// (bit 8 is the "high" modifier). LLVM accepts attributes 0 to 32.
func interpAttr(text string) (uint64, error) {
	m := attrRe.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("interpolation attribute expected, not %q", text)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n > 32 {
		return 0, fmt.Errorf("attribute %s out of range (0 to 32)", m[1])
	}
	return uint64(n) | uint64(strings.IndexByte("xyzw", m[2][0]))<<6, nil
}

// smemOffsetField is the immediate offset field of an SMEM format: OFFSET
// (21 bits, GCN 5 to RDNA 3) or IOFFSET (24 bits, GFX12).
func smemOffsetField(fields map[string]isa.Field) (isa.Field, bool) {
	if f, ok := fields["IOFFSET"]; ok {
		return f, true
	}
	f, ok := fields["OFFSET"]
	return f, ok
}

// setSMEMOffset places a signed byte offset in the format's offset field.
func (e *Encoder) setSMEMOffset(v int64, fields map[string]isa.Field, set func(string, uint64) error) error {
	f, ok := smemOffsetField(fields)
	if !ok {
		return errors.New("SMEM format has no offset field")
	}
	w := uint(f.Width())
	if v < -(1<<(w-1)) || v >= 1<<(w-1) {
		return fmt.Errorf("offset %d does not fit %d signed bits", v, w)
	}
	if e.d.Gen() == 9 {
		if err := set("IMM", 1); err != nil {
			return err
		}
	}
	return set(strings.ToUpper(f.Name), uint64(v)&(1<<w-1))
}

func (e *Encoder) smemOffset(text string, fields map[string]isa.Field, set func(string, uint64) error) error {
	if v, err := strconv.ParseInt(text, 0, 64); err == nil {
		return e.setSMEMOffset(v, fields, set)
	}
	o, err := e.parseOperand(text)
	if err != nil {
		return err
	}
	if e.d.Gen() == 9 {
		// IMM=0: OFFSET[6:0] names the SGPR holding the offset.
		return set("OFFSET", uint64(o.code))
	}
	return set("SOFFSET", uint64(o.code))
}

// matrixFormats are the values of matrix_a_fmt / matrix_b_fmt by LLVM's
// names (lower case: the encoder's input is): "matrix_fmt_fp8" 0, ...
var matrixFormats = func() map[string]uint64 {
	out := map[string]uint64{}
	for _, f := range isa.F8F6F4FormatCodes {
		out["matrix_fmt_"+f.Name] = uint64(f.Code)
	}
	return out
}()

// cachePolicy are the GFX12 SMEM temporal hints and scopes by name; SMEM
// holds only the low two bits of the hint.
var cachePolicy = map[string]map[string]uint64{
	"th:":    {"th_load_rt": 0, "th_load_nt": 1, "th_load_ht": 2, "th_load_lu": 3},
	"scope:": {"scope_cu": 0, "scope_se": 1, "scope_dev": 2, "scope_sys": 3},
}

func (e *Encoder) modifier(t decode.Template, m string, fields map[string]isa.Field, set func(string, uint64) error, words []uint32) error {
	switch {
	case m == "clamp":
		// The guides name the clamp bit CLMP, CLAMP or (RDNA 4 VOP3P) CM.
		for name := range fields {
			if decode.ClampField(name) {
				return set(name, 1)
			}
		}
		return set("CLMP", 1)
	case m == "mul:2":
		return set("OMOD", 1)
	case m == "mul:4":
		return set("OMOD", 2)
	case m == "div:2":
		return set("OMOD", 3)
	case m == "high" && t.Interp:
		f, ok := fields["SRC0"]
		if !ok {
			return errors.New("high: no SRC0 field")
		}
		bit := f.LSB + 8 // SRC0 bit 8 of the attribute operand
		decode.SetField(words, isa.Field{Name: "HIGH", MSB: bit, LSB: bit}, 1)
		return nil
	case strings.HasPrefix(m, "matrix_a_fmt:") && t.MatrixFormats, strings.HasPrefix(m, "matrix_b_fmt:") && t.MatrixFormats:
		// CDNA 5's f8f6f4 WMMA: A's format in OPSEL, B's in OPSEL_HI and
		// OPSEL_HI2 (bit 14) above it.
		key, val, _ := strings.Cut(m, ":")
		v, ok := matrixFormats[val]
		if !ok {
			n, err := strconv.ParseUint(val, 0, 8)
			if err != nil || n > 7 {
				return fmt.Errorf("unknown matrix format %q", val)
			}
			v = n
		}
		if key == "matrix_a_fmt" {
			return set("OPSEL", v)
		}
		if err := set("OPSEL_HI", v&3); err != nil {
			return err
		}
		return set("OPSEL_HI2", v>>2)
	case (m == "matrix_a_reuse" || m == "matrix_b_reuse") && t.MatrixReuse && !t.MatrixFormats && !t.FixedOpSel:
		// GFX12.5 WMMA: bits 13 and 14, where other VOP3P ops keep
		// OPSEL_HI2 (bit 14), say the A or B matrix is reused.
		if m == "matrix_a_reuse" {
			words[0] |= 1 << 13
		} else {
			words[0] |= 1 << 14
		}
		return nil
	case m == "glc" && t.Kind == decode.KindSMEM && e.d.Gen() >= 11:
		words[0] |= 1 << 14 // see decode's SMEM note: LLVM's GFX11 layout
		return nil
	case m == "dlc" && t.Kind == decode.KindSMEM && e.d.Gen() >= 11:
		words[0] |= 1 << 13
		return nil
	case m == "glc", m == "dlc", m == "nv":
		return set(strings.ToUpper(m), 1)
	case strings.HasPrefix(m, "offset:"):
		v, err := strconv.ParseInt(strings.TrimPrefix(m, "offset:"), 0, 64)
		if err != nil {
			return err
		}
		if soe, ok := fields["SOE"]; ok && t.Kind == decode.KindSMEM && e.d.Gen() == 9 {
			// "s_load_dword s5, s[2:3], s4 offset:0x10": the SGPR placed
			// in OFFSET (IMM=0) moves to SOFFSET, with SOE set, and the
			// immediate takes OFFSET.
			if imm, off := fields["IMM"], fields["OFFSET"]; imm.Get(words) == 0 && off.Get(words) != 0 {
				if err := set("SOFFSET", off.Get(words)); err != nil {
					return err
				}
				decode.SetField(words, soe, 1)
			}
		}
		return e.setSMEMOffset(v, fields, set)
	case strings.HasPrefix(m, "th:"), strings.HasPrefix(m, "scope:"):
		key, val, _ := strings.Cut(m, ":")
		key += ":"
		v, ok := cachePolicy[key][val]
		if !ok {
			n, err := strconv.ParseUint(val, 0, 8)
			if err != nil {
				return fmt.Errorf("unknown %s%s", key, val)
			}
			v = n
		}
		return set(strings.ToUpper(strings.TrimSuffix(key, ":")), v)
	case strings.HasPrefix(m, "op_sel:"):
		v, err := bitList(strings.TrimPrefix(m, "op_sel:"), 0)
		if err != nil {
			return fmt.Errorf("%s: %v", m, err)
		}
		if (t.Kind == decode.KindVOP3 || t.Kind == decode.KindVOP3B) && !t.LaneCtl {
			// The list is [src0, src1, (src2,) dst]; dst is OPSEL bit 3.
			n := strings.Count(m, ",") + 1
			dst := v >> uint(n-1) & 1
			v = v&(1<<uint(n-1)-1) | dst<<3
		}
		return set("OPSEL", v)
	case strings.HasPrefix(m, "byte_sel:") && t.ByteSel[0] >= 0:
		v, err := strconv.ParseUint(strings.TrimPrefix(m, "byte_sel:"), 10, 2)
		if err != nil {
			return fmt.Errorf("%s: %v", m, err)
		}
		return set("OPSEL", (v&1)<<uint(t.ByteSel[0])|(v>>1&1)<<uint(t.ByteSel[1]))
	case strings.HasPrefix(m, "op_sel_hi:"):
		v, err := bitList(strings.TrimPrefix(m, "op_sel_hi:"), 0)
		if err != nil {
			return fmt.Errorf("%s: %v", m, err)
		}
		if err := set("OPSEL_HI", v&3); err != nil {
			return err
		}
		if strings.Count(m, ",") < 2 {
			// A two-source list leaves the absent source's bit at its
			// default, as llvm-mc does (1 for packed math).
			return nil
		}
		return set("OPSEL_HI2", v>>2&1)
	case strings.HasPrefix(m, "neg_lo:"):
		v, err := bitList(strings.TrimPrefix(m, "neg_lo:"), 0)
		if err != nil {
			return fmt.Errorf("%s: %v", m, err)
		}
		return set("NEG", v)
	case strings.HasPrefix(m, "neg_hi:"):
		v, err := bitList(strings.TrimPrefix(m, "neg_hi:"), 0)
		if err != nil {
			return fmt.Errorf("%s: %v", m, err)
		}
		return set("NEG_HI", v)
	}
	return fmt.Errorf("modifier %q not supported", m)
}

// fieldSetter returns a function that puts v into the field named name of
// format (fields, Encoder.fieldsByName) in words, failing when the format has no such
// field or v does not fit it.
func fieldSetter(format string, fields map[string]isa.Field, words []uint32) func(name string, v uint64) error {
	return func(name string, v uint64) error {
		fd, ok := fields[name]
		if !ok {
			return fmt.Errorf("format %s has no field %s", format, name)
		}
		if fd.Width() < 64 && v >= 1<<uint(fd.Width()) {
			return fmt.Errorf("%d does not fit %s (%d bits)", v, name, fd.Width())
		}
		decode.SetField(words, fd, v)
		return nil
	}
}

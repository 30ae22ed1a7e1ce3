package encode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// DPP and SDWA. The VALU word is built as usual (the 32-bit form for
// VOP1/VOP2/VOPC, the VOP3/VOP3P form for "_e64_dpp"), then its SRC0 field
// takes the code that announces the extra dword (250 DPP16, 233/234 DPP8,
// 249 SDWA) and the first source moves into that dword with the lane
// controls. Field positions come from the family's DPP/DPP16, DPP8, SDWA and
// SDWAB formats. As everywhere, the result is decoded back and must read as
// the input (up to the defaults LLVM leaves out).

// extKind is the kind of extra dword an instruction asks for.
type extKind int

const (
	extNone extKind = iota
	extDPP
	extDPP8
	extSDWA
)

var sextRe = lazyre.New(`^(-?\|?)sext\((.*)\)(\|?)$`)

// dppCtrlNames are the DPP16 lane controls, written NAME or NAME:VALUE.
var dppCtrlNames = []string{"quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol", "wave_shr", "wave_ror",
	"row_mirror", "row_half_mirror", "row_bcast", "row_share", "row_xmask", "row_newbcast"}

// isDPPCtrl says whether modifier m is a DPP16 lane control. Every
// instruction's modifiers are asked this (extOf), so it compares
// prefixes rather than running a regular expression.
func isDPPCtrl(m string) bool {
	for _, n := range dppCtrlNames {
		if strings.HasPrefix(m, n) && (len(m) == len(n) || m[len(n)] == ':' && !strings.Contains(m, "\n")) {
			return true
		}
	}
	return false
}

// extOf says which extra dword asm asks for, from its mnemonic suffix or,
// where LLVM writes none (gfx11+ VOPC, gfx12 VOP3 dpp8), its modifiers.
func extOf(mn string, mods []string) extKind {
	dpp8 := false
	dpp := false
	for _, m := range mods {
		switch {
		case strings.HasPrefix(m, "dpp8:"):
			dpp8 = true
		case isDPPCtrl(m):
			dpp = true
		}
	}
	switch {
	case strings.HasSuffix(mn, isa.SuffixSDWA):
		return extSDWA
	case dpp8:
		return extDPP8
	case strings.HasSuffix(mn, isa.SuffixDPP) || dpp:
		return extDPP
	}
	return extNone
}

// encodeExt assembles a DPP or SDWA instruction: the plain word, then the
// extra dword, then the check that the whole reads back as asm.
func (e *Encoder) encodeExt(asm string, kind extKind) ([]byte, error) {
	x := e.parseExt(asm, kind)
	word, err := e.plainExtWord(x)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.mn, err)
	}
	in, _, err := e.d.DecodeOperands(word, 0)
	if err != nil {
		return nil, err
	}
	// Which operands are SRC0 and VSRC1: the decoder's reading of the
	// plain word lists them in the same order as the input.
	src0, src1 := sourceIndexes(in.Encoding, len(x.plain), x.plain)
	if src0 < 0 {
		return nil, fmt.Errorf("%s: no first source to move into the %s dword", x.mn, extName(kind))
	}
	words := make([]uint32, (len(word)+3)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(word[4*i:])
	}
	if !x.vop3 && len(word) != 4 {
		return nil, fmt.Errorf("%s: the 32-bit form carries a literal; %s takes a VGPR first source", x.mn, extName(kind))
	}
	srcField := isa.Field{Name: "SRC0", MSB: 8, LSB: 0}
	if x.vop3 {
		srcField = isa.Field{Name: "SRC0", MSB: 40, LSB: 32}
	}
	srcCode := int(srcField.Get(words))
	d := extDword{e: e}
	switch kind {
	case extDPP, extDPP8:
		code, err := d.dpp(x, srcCode, src0, src1)
		if err != nil {
			return nil, err
		}
		srcField.Put(words, uint64(code))
	case extSDWA:
		code, err := d.sdwa(x, in, srcCode, src0, src1)
		if err != nil {
			return nil, err
		}
		srcField.Put(words, uint64(code))
	}
	b := make([]byte, 0, 4*len(words)+4)
	for _, w := range words {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	b = binary.LittleEndian.AppendUint32(b, d.ext[1])
	got, n, err := e.d.DecodeOperands(b, 0)
	if err != nil || n != len(b) {
		return nil, fmt.Errorf("%s: the %s word does not decode: %v", x.mn, extName(kind), err)
	}
	if !sameExtText(normalize(got.Text()), asm, got.Traits.SDWAPad) {
		return nil, fmt.Errorf("cannot encode %q: %s gives %q", asm, extName(kind), got.Text())
	}
	return b, nil
}

// extSrcMods are the source modifiers of a 32-bit form (neg, abs, sext),
// which live in the extra dword.
type extSrcMods struct{ neg, abs, sext bool }

// extAsm is a DPP or SDWA instruction taken apart: what goes into the plain
// word and what into the extra dword.
type extAsm struct {
	kind extKind
	mn   string // as written, with its suffix
	base string // without the encoding suffixes
	vop3 bool   // the VOP3 (or VOP3P) form: it keeps its own NEG/ABS fields
	ops  []string
	// plain are the operands of the plain word, their modifiers (opMods)
	// taken off.
	plain  []string
	opMods []extSrcMods
	ctl    []string // lane controls and selects, for the extra dword
	keep   []string // the other modifiers, for the plain word
	sdst   string   // an SDWA VOPC's own SGPR pair, placed after encoding with VCC
}

// parseExt takes asm apart.
func (e *Encoder) parseExt(asm string, kind extKind) *extAsm {
	mn, rest, _ := strings.Cut(asm, " ")
	ops, mods := splitOperands(compactBrackets(e.canonicalSymbols(rest)))
	base := strings.TrimSuffix(strings.TrimSuffix(mn, isa.SuffixSDWA), isa.SuffixDPP)
	x := &extAsm{kind: kind, mn: mn, vop3: strings.HasSuffix(base, isa.SuffixE64), ops: ops}
	x.base = strings.TrimSuffix(strings.TrimSuffix(base, isa.SuffixE64), isa.SuffixE32)

	// Lane controls and selects go to the extra dword; the rest stay.
	for _, m := range mods {
		if isExtModifier(m) {
			x.ctl = append(x.ctl, m)
		} else {
			x.keep = append(x.keep, m)
		}
	}
	// Source modifiers of the 32-bit forms (neg, abs, sext) live in the
	// extra dword too: take them off the operands.
	x.plain = make([]string, len(ops))
	x.opMods = make([]extSrcMods, len(ops))
	for i, o := range ops {
		x.plain[i] = o
		if x.vop3 {
			continue // VOP3 keeps its own NEG/ABS fields
		}
		var m extSrcMods
		if sm := sextRe.FindStringSubmatch(o); sm != nil {
			m.sext = true
			o = sm[1] + sm[2] + sm[3]
		}
		if strings.HasPrefix(o, "-") && len(o) > 1 && !isNumber(o) {
			m.neg = true
			o = o[1:]
		}
		if strings.HasPrefix(o, "|") && strings.HasSuffix(o, "|") && len(o) > 2 {
			m.abs = true
			o = o[1 : len(o)-1]
		}
		x.plain[i], x.opMods[i] = o, m
	}
	// SDWA VOPC may write any SGPR pair (SDWAB's SDST): encode with VCC,
	// then place it.
	if kind == extSDWA && len(x.plain) == 3 && strings.HasPrefix(x.plain[0], "s") && !isVCC(x.plain[0]) {
		x.sdst, x.plain[0] = x.plain[0], "vcc"
		if e.d.Gen() >= 10 {
			x.plain[0] = "vcc_lo"
		}
	}
	return x
}

// plainExtWord encodes the instruction without its extra dword. Where the
// 32-bit form does not exist it falls back to the VOP3 ones, and then
// x.vop3 and x.plain say so.
func (e *Encoder) plainExtWord(x *extAsm) ([]byte, error) {
	suffix := isa.SuffixE32
	if x.vop3 {
		suffix = isa.SuffixE64
	}
	plainAsm := x.base + suffix
	if len(x.plain) > 0 {
		plainAsm += " " + strings.Join(x.plain, ", ")
	}
	if len(x.keep) > 0 {
		plainAsm += " " + strings.Join(x.keep, " ")
	}
	word, err := e.encode(plainAsm, nil)
	if err != nil && x.vop3 {
		// VOP3P has no _e64 spelling: v_fma_mix_f32_e64_dpp is VOP3P.
		word, err = e.encode(x.base+strings.TrimPrefix(plainAsm, x.base+suffix), nil)
	}
	if err != nil && !x.vop3 && e.d.Gen() >= 11 && x.kind != extSDWA {
		// gfx11+ VOP3 DPP of an instruction with no 32-bit form: LLVM
		// writes it without a suffix ("v_add_max_i32 ... dpp8:[...]").
		x.vop3 = true
		x.plain = append([]string(nil), x.ops...)
		plainAsm = x.base + isa.SuffixE64 + " " + strings.Join(x.plain, ", ")
		if len(x.keep) > 0 {
			plainAsm += " " + strings.Join(x.keep, " ")
		}
		word, err = e.encode(plainAsm, nil)
		if err != nil {
			word, err = e.encode(x.base+strings.TrimPrefix(plainAsm, x.base+isa.SuffixE64), nil)
		}
	}
	return word, err
}

// extDword builds the extra dword.
type extDword struct {
	e   *Encoder
	ext [2]uint32
}

// set places v in the field of format fmtName named by the first of names
// it has; a format without the field takes only 0.
func (d *extDword) set(fmtName string, names []string, v uint64) error {
	f, ok := d.e.extField(fmtName, names...)
	if !ok {
		if v == 0 {
			return nil
		}
		return fmt.Errorf("%s has no %s field", fmtName, names[0])
	}
	if f.Width() < 64 && v >= 1<<uint(f.Width()) {
		return fmt.Errorf("%d does not fit %s", v, names[0])
	}
	f.Put(d.ext[:], v)
	return nil
}

// dpp fills a DPP16 or DPP8 dword and returns the SRC0 code that
// announces it.
func (d *extDword) dpp(x *extAsm, srcCode, src0, src1 int) (int, error) {
	if srcCode < 256 {
		return 0, fmt.Errorf("%s: the first source of a DPP instruction is a VGPR", x.mn)
	}
	d.ext[1] = uint32(srcCode - 256)
	code := 250
	if x.kind == extDPP8 {
		code = 233
	}
	if x.kind == extDPP {
		if err := d.e.dppControls(x.ctl, d.set); err != nil {
			return 0, err
		}
	} else {
		sel, fi, err := dpp8Controls(x.ctl)
		if err != nil {
			return 0, err
		}
		d.ext[1] |= sel << 8
		if fi {
			code = 234
		}
		// DPP8 has no modifier bits: the lane selects fill the dword.
		for _, m := range x.opMods {
			if m.neg || m.abs || m.sext {
				return 0, fmt.Errorf("%s: DPP8 takes no source modifiers", x.mn)
			}
		}
	}
	if !x.vop3 && x.kind == extDPP {
		for _, p := range []struct {
			i        int
			neg, abs string
		}{{src0, "SRC0_NEG", "SRC0_ABS"}, {src1, "SRC1_NEG", "SRC1_ABS"}} {
			if p.i < 0 {
				continue
			}
			m := x.opMods[p.i]
			if m.sext {
				return 0, fmt.Errorf("%q: modifier not available with %s", x.ops[p.i], extName(x.kind))
			}
			if err := d.set("DPP", []string{p.neg}, b2u(m.neg)); err != nil {
				return 0, err
			}
			if err := d.set("DPP", []string{p.abs}, b2u(m.abs)); err != nil {
				return 0, err
			}
		}
	}
	return code, nil
}

// sdwa fills an SDWA (or, for VOPC, SDWAB) dword and returns the SRC0
// code that announces it.
func (d *extDword) sdwa(x *extAsm, in decode.Inst, srcCode, src0, src1 int) (int, error) {
	fmtName := "SDWA"
	if in.Encoding == "VOPC" {
		fmtName = "SDWAB"
	}
	if srcCode >= 256 {
		d.ext[1] = uint32(srcCode - 256)
	} else {
		d.ext[1] = uint32(srcCode)
		if err := d.set(fmtName, []string{"S0"}, 1); err != nil {
			return 0, err
		}
	}
	for _, p := range []struct {
		i               int
		neg, abs, sext_ string
	}{{src0, "SRC0_NEG", "SRC0_ABS", "SRC0_SEXT"}, {src1, "SRC1_NEG", "SRC1_ABS", "SRC1_SEXT"}} {
		if p.i < 0 {
			continue
		}
		m := x.opMods[p.i]
		for _, f := range []struct {
			name string
			on   bool
		}{{p.neg, m.neg}, {p.abs, m.abs}, {p.sext_, m.sext}} {
			if err := d.set(fmtName, []string{f.name}, b2u(f.on)); err != nil {
				return 0, err
			}
		}
	}
	if err := sdwaControls(x.ctl, fmtName, in.Encoding, in.Traits.SDWAPad, d.set); err != nil {
		return 0, err
	}
	if x.sdst != "" {
		o, err := d.e.parseOperand(x.sdst)
		if err != nil {
			return 0, err
		}
		if err := d.set(fmtName, []string{"SDST"}, uint64(o.code)); err != nil {
			return 0, err
		}
		if err := d.set(fmtName, []string{"SD"}, 1); err != nil {
			return 0, err
		}
	}
	return 249, nil
}

func extName(k extKind) string {
	return [...]string{"", "DPP", "DPP8", "SDWA"}[k]
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimPrefix(s, "-"), 64)
	if err == nil {
		return true
	}
	_, err = strconv.ParseInt(s, 0, 64)
	return err == nil
}

// isExtModifier says whether a modifier belongs to the DPP or SDWA dword.
func isExtModifier(m string) bool {
	if isDPPCtrl(m) {
		return true
	}
	for _, p := range []string{"dpp8:", "row_mask:", "bank_mask:", "bound_ctrl:", "fi:", "dst_sel:", "dst_unused:", "src0_sel:", "src1_sel:"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// sourceIndexes finds which operands are SRC0 and VSRC1 of a VOP1, VOP2,
// VOPC or VOP3 word: the first and second operand after the destination
// (and a carry or condition register). -1 when absent.
func sourceIndexes(format string, n int, ops []string) (src0, src1 int) {
	i := 0
	switch format {
	case "VOPC":
		if n > 0 && (isVCC(ops[0]) || strings.HasPrefix(ops[0], "s[") || strings.HasPrefix(ops[0], "s") && n == 3) {
			i = 1
		}
	default:
		i = 1 // the destination
		if n > i && isVCC(ops[i]) && n >= 4 {
			i++ // v_add_co_u32 v1, vcc, v2, v3
		}
	}
	src0, src1 = -1, -1
	if i < n {
		src0 = i
	}
	if i+1 < n && !isVCC(ops[i+1]) {
		src1 = i + 1
	}
	return src0, src1
}

// extField finds a field of the family's DPP/DPP16, DPP8, SDWA or SDWAB
// layout.
func (e *Encoder) extField(format string, names ...string) (isa.Field, bool) {
	want := map[string][]string{"DPP": {"DPP16", "DPP"}, "SDWA": {"SDWA"}, "SDWAB": {"SDWAB"}}[format]
	for _, fname := range want {
		for _, f := range e.d.Arch().Formats {
			if !strings.EqualFold(f.Name, fname) {
				continue
			}
			for _, fd := range f.Fields {
				for _, n := range names {
					if strings.EqualFold(fd.Name, n) {
						return fd, true
					}
				}
			}
		}
	}
	return isa.Field{}, false
}

// dppControls places the DPP16 lane controls: DPP_CTRL, row and bank masks
// (0xf unless given), BOUND_CTRL and FI.
func (e *Encoder) dppControls(ctl []string, set func(string, []string, uint64) error) error {
	rowMask, bankMask := uint64(0xf), uint64(0xf)
	ctrl := -1
	for _, m := range ctl {
		name, val, _ := strings.Cut(m, ":")
		num := func() (int, error) {
			v, err := strconv.ParseInt(val, 0, 32)
			return int(v), err
		}
		var err error
		switch name {
		case "quad_perm":
			var p [4]int
			if _, serr := fmt.Sscanf(val, "[%d,%d,%d,%d]", &p[0], &p[1], &p[2], &p[3]); serr != nil {
				return fmt.Errorf("%s: want quad_perm:[a,b,c,d]", m)
			}
			ctrl = 0
			for i, x := range p {
				if x < 0 || x > 3 {
					return fmt.Errorf("%s: lanes are 0-3", m)
				}
				ctrl |= x << uint(2*i)
			}
		case "row_shl", "row_shr", "row_ror":
			var n int
			if n, err = num(); err == nil && (n < 1 || n > 15) {
				err = errors.New("1-15")
			}
			ctrl = map[string]int{"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120}[name] + n
		case "wave_shl", "wave_rol", "wave_shr", "wave_ror":
			ctrl = map[string]int{"wave_shl": 0x130, "wave_rol": 0x134, "wave_shr": 0x138, "wave_ror": 0x13c}[name]
		case "row_mirror":
			ctrl = 0x140
		case "row_half_mirror":
			ctrl = 0x141
		case "row_bcast":
			ctrl = map[string]int{"15": 0x142, "31": 0x143}[val]
			if ctrl == 0 {
				err = errors.New("15 or 31")
			}
		case "row_share", "row_newbcast", "row_xmask":
			var n int
			if n, err = num(); err == nil && (n < 0 || n > 15) {
				err = errors.New("0-15")
			}
			ctrl = map[string]int{"row_share": 0x150, "row_newbcast": 0x150, "row_xmask": 0x160}[name] + n
		case "row_mask":
			var n int
			n, err = num()
			rowMask = uint64(n)
		case "bank_mask":
			var n int
			n, err = num()
			bankMask = uint64(n)
		case "bound_ctrl":
			// LLVM takes bound_ctrl:0 (older syntax) and bound_ctrl:1 alike
			// for the bit set.
			err = set("DPP", []string{"BOUND_CTRL", "BC"}, 1)
		case "fi":
			var n int
			if n, err = num(); err == nil {
				err = set("DPP", []string{"FI"}, uint64(n))
			}
		default:
			err = errors.New("not a DPP control")
		}
		if err != nil {
			return fmt.Errorf("%s: %v", m, err)
		}
	}
	if ctrl < 0 {
		return errors.New("DPP needs a lane control (quad_perm:[...], row_shl:n, ...)")
	}
	for _, f := range []struct {
		names []string
		v     uint64
	}{{[]string{"DPP_CTRL"}, uint64(ctrl)}, {[]string{"ROW_MASK"}, rowMask}, {[]string{"BANK_MASK"}, bankMask}} {
		if err := set("DPP", f.names, f.v); err != nil {
			return err
		}
	}
	return nil
}

// dpp8Controls reads dpp8:[a,...,h] (and fi:1): eight 3-bit lane selects
// for bits [31:8] of the DPP8 dword.
func dpp8Controls(ctl []string) (sel uint32, fi bool, err error) {
	seen := false
	for _, m := range ctl {
		name, val, _ := strings.Cut(m, ":")
		switch name {
		case "dpp8":
			parts := strings.Split(strings.Trim(val, "[]"), ",")
			if len(parts) != 8 {
				return 0, false, fmt.Errorf("%s: want eight lane selects", m)
			}
			for i, p := range parts {
				v, perr := strconv.Atoi(strings.TrimSpace(p))
				if perr != nil || v < 0 || v > 7 {
					return 0, false, fmt.Errorf("%s: lane selects are 0-7", m)
				}
				sel |= uint32(v) << uint(3*i)
			}
			seen = true
		case "fi":
			fi = val == "1"
		default:
			return 0, false, fmt.Errorf("%s: not a DPP8 control", m)
		}
	}
	if !seen {
		return 0, false, errors.New("DPP8 needs dpp8:[...]")
	}
	return sel, fi, nil
}

var selValues = map[string]uint64{"BYTE_0": 0, "BYTE_1": 1, "BYTE_2": 2, "BYTE_3": 3, "WORD_0": 4, "WORD_1": 5, "DWORD": 6}
var unusedValues = map[string]uint64{"UNUSED_PAD": 0, "UNUSED_SEXT": 1, "UNUSED_PRESERVE": 2}

// sdwaControls places the SDWA selects (DWORD and UNUSED_PAD unless given).
func sdwaControls(ctl []string, fmtName, format string, pad bool, set func(string, []string, uint64) error) error {
	// LLVM's defaults: whole dwords, and the destination's unused bits
	// preserved (padded for the FP8 conversions to f32, whose result is a
	// whole dword).
	vals := map[string]uint64{"DST_SEL": 6, "DST_U": 2, "SRC0_SEL": 6, "SRC1_SEL": 6}
	if pad {
		vals["DST_U"] = 0
	}
	for _, m := range ctl {
		name, val, _ := strings.Cut(m, ":")
		var ok bool
		var v uint64
		switch name {
		case "dst_sel", "src0_sel", "src1_sel":
			v, ok = selValues[strings.ToUpper(val)]
		case "dst_unused":
			v, ok = unusedValues[strings.ToUpper(val)]
		}
		if !ok {
			return fmt.Errorf("%s: not an SDWA select", m)
		}
		vals[map[string]string{"dst_sel": "DST_SEL", "dst_unused": "DST_U", "src0_sel": "SRC0_SEL", "src1_sel": "SRC1_SEL"}[name]] = v
	}
	for _, k := range []string{"DST_SEL", "DST_U", "SRC0_SEL", "SRC1_SEL"} {
		if format == "VOPC" && (k == "DST_SEL" || k == "DST_U") || format == "VOP1" && k == "SRC1_SEL" {
			continue
		}
		names := []string{k}
		if k == "DST_U" {
			names = []string{"DST_U", "DST_UNUSED"}
		}
		if err := set(fmtName, names, vals[k]); err != nil {
			return err
		}
	}
	return nil
}

// extDefaults are the modifiers LLVM prints for a DPP or SDWA word although
// the assembly may leave them out.
var extDefaults = map[string]bool{"row_mask:0xf": true, "bank_mask:0xf": true, "dst_sel:dword": true,
	"dst_unused:unused_preserve": true, "src0_sel:dword": true, "src1_sel:dword": true, "fi:0": true}

// sameExtText compares the decoder's text of a DPP/SDWA word with the
// input, ignoring modifiers at their defaults and their order; padded: the
// destination's default is dst_unused:UNUSED_PAD (decode.Traits.SDWAPad).
func sameExtText(got, asm string, padded bool) bool {
	canon := func(s string) string {
		mn, rest, _ := strings.Cut(s, " ")
		ops, mods := splitOperands(compactBrackets(rest))
		var keep []string
		for _, m := range mods {
			m = strings.ToLower(m)
			if extDefaults[m] && !(padded && m == "dst_unused:unused_preserve") || padded && m == "dst_unused:unused_pad" {
				continue
			}
			if m == "bound_ctrl:0" {
				m = "bound_ctrl:1"
			}
			keep = append(keep, m)
		}
		sortStrings(keep)
		// asmSuffixes outer word first: _e64_dpp loses _dpp, then _e64.
		for _, suf := range []string{isa.SuffixSDWA, isa.SuffixDPP, isa.SuffixE64, isa.SuffixE32} {
			mn = strings.TrimSuffix(mn, suf)
		}
		return canonNumbers(mn + " " + strings.Join(ops, ", ") + " " + strings.Join(keep, " "))
	}
	return canon(got) == canon(asm)
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// bracketsCompact says whether compactBrackets would give s back: ASCII (the
// rune loop rewrites invalid UTF-8) without a space inside [...], as
// most operand lists are.
func bracketsCompact(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return false
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == ' ' && depth > 0:
			return false
		}
	}
	return true
}

// compactBrackets removes the spaces inside [...] ("quad_perm:[0, 1, 2, 3]"
// as normalize writes it), so a bracketed modifier stays one word.
func compactBrackets(s string) string {
	if bracketsCompact(s) {
		return s
	}
	return compactBracketsSlow(s)
}

// compactBracketsSlow is compactBrackets rune by rune.
func compactBracketsSlow(s string) string {
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case ' ':
			if depth > 0 {
				continue
			}
		}
		b.WriteRune(c)
	}
	return b.String()
}

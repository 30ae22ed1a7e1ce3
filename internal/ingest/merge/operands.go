package merge

import (
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

// Operands from LLVM's syntax rows. A row gives the operands in assembly
// order, their class (the page each name links to), type tags and the
// column (DST, SRC0, ...) that says whether an operand is written. Three
// things are filled in beyond what the row states:
//
//   - the data type of untagged data operands, by LLVM's own rule (the
//     mnemonic's type suffix: llvmdoc.SuffixTypes);
//   - wave32 and wave64 sizes where the operand page says they differ;
//   - on a page that carries no type tags and no dst tags at all (LLVM 22's
//     GFX12 page, which also lists every buffer instruction's data under
//     DST), the tags and columns of the same instruction's row on the
//     nearest older family's page, where the rows have the same operands.

// refRow is the row of the same instruction on another family's page that
// fills in what a tagless page leaves out.
type refRow struct {
	row  llvmdoc.Syntax
	file string
}

// plainRow picks the row for the bare mnemonic (else the first) and its file.
func plainRow(name string, rows []llvmdoc.Syntax, files []string) (llvmdoc.Syntax, string, bool) {
	if len(rows) == 0 {
		return llvmdoc.Syntax{}, "", false
	}
	pick := 0
	for i, r := range rows {
		if strings.EqualFold(r.Mnemonic, name) {
			pick = i
			break
		}
	}
	file := ""
	if pick < len(files) {
		file = files[pick]
	}
	return rows[pick], file, true
}

// taglessPages returns the pages (by GFX name) whose rows carry neither a
// type tag nor a dst tag anywhere.
func taglessPages(pages []llvmdoc.Page) map[string]bool {
	out := map[string]bool{}
	for _, p := range pages {
		tags := 0
		for _, s := range p.Instructions {
			for _, o := range s.Operands {
				if o.Type != "" || hasMod(o, "dst") {
					tags++
				}
			}
		}
		// A page of a handful of rows (GFX900: three) says nothing by
		// having no tags.
		out[p.GFX] = tags == 0 && len(p.Instructions) >= 100
	}
	return out
}

func hasMod(o llvmdoc.Operand, m string) bool {
	for _, x := range o.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// access says whether a row's operand is read and written: a DST column
// is written; a "dst" tag (an atomic's data, returned when asked) is read
// and written; the other columns are read.
func access(o llvmdoc.Operand) (in, out bool) {
	switch {
	case hasMod(o, "dst"):
		return true, true
	case o.IsDest():
		return false, true
	}
	return true, false
}

func accessWords(in, out bool) string {
	switch {
	case in && out:
		return "read and written"
	case out:
		return "written"
	}
	return "read"
}

// operandsFromSyntax lists an instruction's operands in assembly order from
// LLVM's syntax row for the plain mnemonic (else the first), for families
// whose operands AMD's machine-readable XML does not give. ref, when not
// nil, is the same instruction's row on another page that fills in the
// tags and columns of a tagless page.
func operandsFromSyntax(arch, name string, rows []llvmdoc.Syntax, files []string, ref *refRow) []isa.Operand {
	row, file, ok := plainRow(name, rows, files)
	if !ok {
		return nil
	}
	same := ref != nil && len(ref.row.Operands) == len(row.Operands)
	dstType, srcType, typed := llvmdoc.SuffixTypes(row.Mnemonic)
	if isa.IsMatrix(name) || strings.HasPrefix(name, "image_") {
		// Matrix and image data are sized by the shape, dmask and
		// modifiers, not by a suffix; their rows tag what they give.
		typed = false
	}
	info, _ := isa.ArchByID(arch)
	wave32 := info.Gen >= 10
	var out []isa.Operand
	for i, op := range row.Operands {
		o := isa.Operand{Name: op.Name, Order: i + 1, OperandType: op.Kind, Prov: isa.Prov{Source: isa.SourceLLVMDoc, File: file, Line: row.Line}}
		o.Input, o.Output = access(op)
		o.Optional = op.Optional
		var r llvmdoc.Operand
		if same {
			r = ref.row.Operands[i]
			o.Optional = o.Optional || r.Optional
			if in, outp := access(r); in != o.Input || outp != o.Output {
				o.Note = fmt.Sprintf("%s: the %s page lists it under %s, the %s page's row for the same instruction (%s:%d) under %s",
					accessWords(in, outp), row.Family, nonEmptyCol(op.Column), ref.row.Family, ref.file, ref.row.Line, nonEmptyCol(r.Column))
				o.Input, o.Output = in, outp
			}
		}
		switch {
		case op.Type != "":
			o.DataFormat, o.TypeFrom = op.Type, isa.TypeFromTag
		case same && r.Type != "" && tagFits(r.Type, op):
			o.DataFormat, o.TypeFrom = r.Type, isa.TypeFromOtherPage
			o.Note = JoinNote(o.Note, fmt.Sprintf("type %s from the %s page's row for the same instruction (%s:%d); the %s page tags no operand", r.Type, ref.row.Family, ref.file, ref.row.Line, row.Family))
		case typed && impliedApplies(name, row, i):
			t := srcType
			if o.Output && !o.Input {
				t = dstType
			}
			if n := op.Dwords(); n == 0 || n == (llvmdoc.TypeBits(t)+31)/32 {
				o.DataFormat, o.TypeFrom = t, isa.TypeFromSuffix
			}
		}
		if n := op.Dwords(); n > 0 {
			o.Size = 32 * n
		}
		if isVCC(op) && op.Kind != "vcc" {
			// GFX12's VOPC rows call the condition code "vdst"; its
			// page accepts only vcc.
			o.OperandType = "vcc"
			o.Note = JoinNote(o.Note, fmt.Sprintf("the condition code: the %s page calls it %s, and its operand page accepts only vcc", row.Family, op.Kind))
		}
		w32, w64, ok := op.WaveDwords()
		if !ok && wave32 && isVCC(op) {
			// VCC is vcc_lo in wave32 (the GFX12 page's "2 dwords" is
			// wave64's size).
			w32, w64, ok = 1, 2, true
		}
		if ok {
			o.SizeWave32, o.SizeWave64 = 32*w32, 32*w64
			o.Size = o.SizeWave64
			if wave32 {
				o.Size = o.SizeWave32
			}
		}
		out = append(out, o)
	}
	return out
}

func nonEmptyCol(c string) string {
	if c == "" {
		return "no column"
	}
	return c
}

// impliedApplies reports whether the mnemonic's implied type applies to
// operand i of row: a data operand that is not a lane mask (a compare's
// result, a VALU carry or condition, an operand sized by the wave).
func impliedApplies(name string, row llvmdoc.Syntax, i int) bool {
	op := row.Operands[i]
	if !llvmdoc.IsDataKind(op.Kind) {
		return false
	}
	if _, _, wave := op.WaveDwords(); wave {
		return false
	}
	if !strings.HasPrefix(name, "v_") {
		return true
	}
	if strings.HasPrefix(name, "v_cmp") && op.IsDest() {
		return false // the result is a lane mask
	}
	if op.Kind == "sdst" {
		// An SGPR result beside a VGPR one is the carry-out or flag mask
		// (v_add_co_u32, v_div_scale_f32, v_mad_u64_u32).
		for _, x := range row.Operands {
			if x.Kind == "vdst" {
				return false
			}
		}
	}
	return true
}

// isVCC reports whether an operand is the vector condition code: LLVM's
// vcc class, or an operand whose page accepts nothing but vcc.
func isVCC(op llvmdoc.Operand) bool {
	if op.Kind == "vcc" {
		return true
	}
	return op.Doc != nil && len(op.Doc.Accepts) == 1 && op.Doc.Accepts[0] == "vcc"
}

// tagFits reports whether a type tag borrowed from another page fits the
// operand's size on its own page: GFX12's WMMA sources are half GFX11's
// (f16x8, not f16x16), so a tag that does not fit is not borrowed.
func tagFits(tag string, op llvmdoc.Operand) bool {
	n := op.Dwords()
	if bits := llvmdoc.TypeBits(tag); bits > 0 {
		return n == 0 || n == (bits+31)/32
	}
	// "f32x4/8": elements under wave64/wave32.
	elem, counts, ok := strings.Cut(tag, "x")
	if !ok {
		return true
	}
	a, b, ok := strings.Cut(counts, "/")
	w32, w64, wave := op.WaveDwords()
	if !ok || !wave {
		return false
	}
	bits := llvmdoc.TypeBits(elem)
	return bits > 0 && fmt.Sprint((bits*atoi(a)+31)/32) == fmt.Sprint(w64) && fmt.Sprint((bits*atoi(b)+31)/32) == fmt.Sprint(w32)
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// AssemblerOperands gives an instruction that has no operands (CDNA 5,
// which LLVM documents on no syntax page; CDNA 4 instructions newer than
// the GFX940 page) the operands of an example llvm-mc accepted on one of
// the family's targets, in the order llvm-mc prints them (printed), with
// their sizes from the registers it printed. row, when not nil, is the
// syntax row (of another family's page) the example was built from: its
// names, classes, columns and tags label the operands when llvm-mc printed
// as many. It returns nil when the operands cannot be told apart.
func AssemblerOperands(arch, name, printed, target, version string, row *llvmdoc.Syntax, file string) []isa.Operand {
	ops := PrintedOperands(printed)
	if len(ops) == 0 {
		return nil
	}
	prov := isa.Prov{Source: isa.SourceLLVMMC}
	var out []isa.Operand
	if row != nil && len(row.Operands) == len(ops) {
		out = operandsFromSyntax(arch, name, []llvmdoc.Syntax{*row}, []string{file}, nil)
		for i := range out {
			out[i].Prov = prov
			if bits := registerBits(ops[i]); bits > 0 && out[i].SizeWave32 == 0 {
				out[i].Size = bits
			}
			out[i].Note = JoinNote(fmt.Sprintf("llvm-mc (%s) accepts and prints %q on %s; this operand is %q there. Name, class and access from LLVM's %s syntax row for the same instruction (%s:%d)",
				version, printed, target, ops[i], row.Family, file, row.Line), out[i].Note)
		}
		return out
	}
	// No row with as many operands: llvm-mc's own order and register
	// classes; whether each is read or written is not documented.
	for i, t := range ops {
		o := isa.Operand{Name: fmt.Sprintf("operand%d", i+1), Order: i + 1,
			OperandType: registerClass(t), Size: registerBits(t), Prov: prov,
			Note: fmt.Sprintf("llvm-mc (%s) accepts and prints %q on %s; this operand is %q there. No LLVM syntax row names it, so whether it is read or written is not documented", version, printed, target, t)}
		out = append(out, o)
	}
	return out
}

// PrintedOperands splits what llvm-mc prints after the mnemonic into its
// operands: commas outside brackets separate them, and the last ends at
// the first space outside brackets (the modifiers follow).
func PrintedOperands(printed string) []string {
	_, rest, ok := strings.Cut(strings.TrimSpace(printed), " ")
	if !ok {
		return nil
	}
	parts := asmtext.Split(rest)
	if len(parts) == 0 {
		return []string{""}
	}
	n := len(parts) - 1
	out, last := parts[:n:n], parts[n]
	depth := 0
	for i := 0; i < len(last); i++ {
		switch last[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ' ':
			if depth == 0 && len(out) > 0 {
				last = last[:i]
				i = len(last)
			}
		}
	}
	return append(out, last)
}

// registerBits is the size of a printed register operand: v1 32, v[2:3]
// 64, s[4:7] 128, v1.l 16; 0 for anything else (constants, "off").
func registerBits(t string) int {
	t = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(t, "-"), "|"), "-")
	t = strings.TrimSuffix(t, "|")
	for _, p := range []string{"neg(", "abs(", "sext("} {
		if strings.HasPrefix(t, p) && strings.HasSuffix(t, ")") {
			t = t[len(p) : len(t)-1]
		}
	}
	for _, cls := range []string{"ttmp", "v", "s", "a"} {
		rest, ok := strings.CutPrefix(t, cls)
		if !ok || rest == "" {
			continue
		}
		if rest[0] == '[' {
			lo, hi, ok := strings.Cut(strings.Trim(rest, "[]"), ":")
			if a, b := atoi(lo), atoi(hi); ok && a >= 0 && b >= a {
				return 32 * (b - a + 1)
			}
			return 0
		}
		if strings.HasSuffix(rest, ".l") || strings.HasSuffix(rest, ".h") {
			if atoi(rest[:len(rest)-2]) >= 0 {
				return 16
			}
		}
		if atoi(rest) >= 0 {
			return 32
		}
	}
	return 0
}

// registerClass names the register file of a printed operand.
func registerClass(t string) string {
	t = strings.TrimLeft(t, "-|")
	switch {
	case strings.HasPrefix(t, "ttmp"):
		return "ttmp"
	case registerBits(t) > 0 && t[0] == 'v':
		return "VGPR"
	case registerBits(t) > 0 && t[0] == 's':
		return "SGPR"
	case registerBits(t) > 0 && t[0] == 'a':
		return "AGPR"
	}
	return "constant or special register"
}

// JoinNote adds note b to an operand's note a ("a; b"); either may be
// empty.
func JoinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// namePrefix is the first two words of a mnemonic: "global_atomic".
func namePrefix(name string) string {
	w := strings.SplitN(name, "_", 3)
	if len(w) < 2 {
		return name
	}
	return w[0] + "_" + w[1]
}

// optionalLikeSiblings marks optional, in instructions of a tagless page
// that no older page documents (RDNA 4's global_atomic_cond_sub_u32), the
// operands every sibling instruction (same first two words, same operand
// names) has optional on the older page: the returned value of an atomic.
func optionalLikeSiblings(noRef []*isa.Instruction, withRef map[string][]*isa.Instruction) {
	for _, in := range noRef {
		sibs := withRef[namePrefix(in.Name)]
		for i := range in.Operands {
			agree, n := true, 0
			var from string
			for _, s := range sibs {
				if len(s.Operands) != len(in.Operands) || s.Operands[i].Name != in.Operands[i].Name {
					continue
				}
				n++
				agree = agree && s.Operands[i].Optional
				if from == "" || s.Name < from { // the first by name: the note is the same every build
					from = s.Name
				}
			}
			if n >= 3 && agree {
				in.Operands[i].Optional = true
				in.Operands[i].Note = JoinNote(in.Operands[i].Note, fmt.Sprintf("optional, as in the %d other %s_ instructions whose older LLVM page marks it so (%s, ...); no older page documents this one", n, namePrefix(in.Name), from))
			}
		}
	}
}

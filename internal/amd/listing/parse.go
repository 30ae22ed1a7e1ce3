// Package listing reads machine code the way people have it — AMDGPU code
// objects, hex words and byte lists, llvm-objdump -d and llvm-mc
// -show-encoding output, Compiler Explorer / RGA / rocgdb listings, plain
// assembly — and turns it into one listing: an instruction per line with
// its address, words and text in LLVM's syntax, symbols and branch targets
// as labels, padding runs collapsed. Instructions are recognised by their
// bytes when the input has them (package decode) and by their text
// otherwise (package encode assembles them, and the bytes are decoded
// back), so a pasted listing can be explained like a code object.
package listing

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/base/errs"
)

// Kinds of input, as Parse recognises them.
const (
	KindObject  = "code object"
	KindBytes   = "machine code"
	KindObjdump = "llvm-objdump listing"
	KindMC      = "llvm-mc listing"
	KindAsm     = "assembly"
)

// MaxText bounds a text input; maxRepeat a collapsed run read back.
const (
	MaxText   = 64 << 20
	maxRepeat = 1 << 16
)

// Input is what Parse read.
type Input struct {
	Kind string
	// Target is the gfx target the input names (a code object's e_flags,
	// an .amdgcn_target directive); "" when it names none. TargetID adds
	// the features ("gfx942:sramecc+:xnack-").
	Target, TargetID string
	// Units are the pieces of code: one per code section of each code
	// object, one for a text input.
	Units []Unit
	// Flags is a code object's e_flags (0 for text), ABI its code object
	// version.
	Flags      uint32
	CodeObject int
}

// Unit is one piece of code: a code section (Code and Symbols) or the
// lines of a text input.
type Unit struct {
	Name    string // ".text", or "bundle-id .text"
	Addr    uint64 // address of Code[0]
	Code    []byte
	Symbols []codeobj.Symbol
	Kernels []codeobj.Kernel
	Lines   []Line
	// Directives are the kernel-descriptor directives of an assembly
	// input, per kernel: ".amdhsa_next_free_vgpr" -> "16".
	Directives map[string]map[string]string
}

// Line is one instruction line, label or both of a text input.
type Line struct {
	Src   int    // 1-based line number in the input
	Addr  int64  // the address the line gives, -1 when none
	Bytes []byte // machine code the line carries
	Text  string // the instruction as written, whitespace-normalised; "" for bytes only
	Label string // a label defined on this line
	// Repeat is how many times the line stands for its instruction: a
	// collapsed padding run of gpuisa's own listing ("s_code_end ×97").
	Repeat int
}

// Parse reads raw (a code object, or text in any of the listing forms).
// machines maps e_flags to targets; a zero value leaves Target empty.
func Parse(raw []byte, machines codeobj.Machines) (*Input, error) {
	if codeobj.IsCodeObject(raw) {
		return parseObject(raw, machines)
	}
	if !isText(raw) {
		return &Input{Kind: KindBytes, Units: []Unit{{Code: append([]byte(nil), raw...)}}}, nil
	}
	if len(raw) > MaxText {
		return nil, fmt.Errorf("input larger than %d MB", MaxText>>20)
	}
	return parseText(raw)
}

func parseObject(raw []byte, machines codeobj.Machines) (*Input, error) {
	objs, err := codeobj.Read(raw)
	if err != nil {
		return nil, err
	}
	in := &Input{Kind: KindObject, Flags: objs[0].Flags, CodeObject: objs[0].CodeObjectVersion()}
	if machines.Targets != nil {
		if p, id, err := machines.Target(objs[0]); err == nil {
			in.Target, in.TargetID = p, id
		}
	}
	for _, o := range objs {
		for _, sec := range o.Code {
			u := Unit{Name: sec.Name, Addr: sec.Addr, Code: sec.Data, Symbols: sec.Symbols}
			if o.Name != "" {
				u.Name = o.Name + " " + sec.Name
			}
			for _, k := range o.Kernels {
				if k.Section == sec.Name {
					u.Kernels = append(u.Kernels, k)
				}
			}
			in.Units = append(in.Units, u)
		}
	}
	return in, nil
}

// isText says whether b is text: valid UTF-8 without control characters
// other than tab, newline and carriage return.
func isText(b []byte) bool {
	// ASCII eight bytes at a time (a hex dump is all ASCII), a byte at a
	// time where a word has a byte below space; UTF-8 from the first byte
	// above 0x7f.
	const highs, spaces = 0x8080808080808080, 0x2020202020202020
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if x&highs != 0 {
			break
		}
		if (x-spaces)&^x&highs != 0 { // some byte is below ' '
			for _, c := range b[:8] {
				if c < 32 && c != '\n' && c != '\r' && c != '\t' {
					return false
				}
			}
		}
		b = b[8:]
	}
	for i, c := range b {
		if c >= 0x80 {
			return isUTF8Text(b[i:])
		}
		if c < 32 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

func isUTF8Text(b []byte) bool {
	for _, r := range string(b) {
		if r == unicode.ReplacementChar || (r < 32 && r != '\n' && r != '\r' && r != '\t') {
			return false
		}
	}
	return true
}

// parseText reads every text form line by line; see parseLine.
func parseText(raw []byte) (*Input, error) {
	in := &Input{}
	u := Unit{}
	var kernel string // the .amdhsa_kernel block being read
	sawObjdump, sawMC, sawText, sawBytes := false, false, false, false
	src := 0
	var scratch []byte
	for len(raw) > 0 {
		var line []byte
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			line, raw = raw, nil
		}
		src++
		// Lines of bare machine code (most of a hex dump) go straight
		// into the current run of bytes.
		if code, ok := bareBytes(line, scratch[:0]); ok {
			scratch = code
			if len(code) == 0 {
				continue
			}
			sawBytes = true
			if n := len(u.Lines); n > 0 && bytesRun(&u.Lines[n-1]) {
				u.Lines[n-1].Bytes = append(u.Lines[n-1].Bytes, code...)
			} else {
				u.Lines = append(u.Lines, Line{Src: src, Addr: -1, Bytes: append([]byte(nil), code...)})
			}
			continue
		}
		l, kind, err := parseLine(string(line))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", src, err)
		}
		switch kind {
		case lineObjdump:
			sawObjdump = true
		case lineMC:
			sawMC = true
		}
		if l.directive != "" {
			name, arg, _ := strings.Cut(l.directive, " ")
			arg = strings.TrimSpace(arg)
			switch {
			case name == ".amdgcn_target":
				t := strings.Trim(arg, `"`)
				if i := strings.LastIndex(t, "--"); i >= 0 {
					t = t[i+2:]
				}
				in.TargetID = t
				in.Target, _, _ = strings.Cut(t, ":")
			case name == ".section" && len(u.Lines) == 0:
				u.Name, _, _ = strings.Cut(arg, ",")
			case name == ".amdhsa_kernel":
				kernel = arg
			case name == ".end_amdhsa_kernel":
				kernel = ""
			case kernel != "" && strings.HasPrefix(name, ".amdhsa_"):
				if u.Directives == nil {
					u.Directives = map[string]map[string]string{}
				}
				if u.Directives[kernel] == nil {
					u.Directives[kernel] = map[string]string{}
				}
				u.Directives[kernel][name] = arg
			}
			continue
		}
		if l.Text == "" && len(l.Bytes) == 0 && l.Label == "" {
			continue
		}
		l.Src = src
		sawText = sawText || l.Text != ""
		sawBytes = sawBytes || len(l.Bytes) > 0
		if len(u.Lines) == cap(u.Lines) && len(u.Lines) < 16 {
			// Text lines: at most one Line per line left, sized once
			// rather than copied as it grows (most of a 10,000-line
			// file's parse); a file of a million lines grows from there.
			u.Lines = slices.Grow(u.Lines, min(bytes.Count(raw, []byte{'\n'})+1, 1<<20))
		}
		u.Lines = append(u.Lines, l.Line)
	}
	switch {
	case sawObjdump:
		in.Kind = KindObjdump
	case sawMC:
		in.Kind = KindMC
	case sawText:
		in.Kind = KindAsm
	case sawBytes:
		in.Kind = KindBytes
	default:
		return nil, fmt.Errorf("no instructions in the input")
	}
	in.Units = []Unit{u}
	return in, nil
}

// bytesRun says whether a line is bare machine code that the next bare
// line continues.
func bytesRun(l *Line) bool {
	return l.Text == "" && l.Label == "" && l.Addr < 0 && l.Repeat == 0 && len(l.Bytes) > 0
}

// bareBytes reads a line of hex bytes and dwords ("0xc1,0x04,0x0a,0x16",
// "[0xc1, 0x04]", "160a04c1 7e020280"), with an optional comment after ';',
// '//' or '#', appending the bytes to dst. ok is false when the line holds
// anything else.
func bareBytes(line, dst []byte) ([]byte, bool) {
	i := 0
	for i < len(line) {
		c := line[i]
		if hexValue[c] == 0xff { // not a digit: a separator or a comment
			switch {
			case c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']' || c == '\r':
				i++
				continue
			case c == ';' || c == '#' || c == '/' && i+1 < len(line) && line[i+1] == '/':
				return dst, true
			}
		}
		if c == '0' && i+1 < len(line) && (line[i+1] == 'x' || line[i+1] == 'X') {
			// llvm-mc's "0xc1": one byte read at once when a separator
			// or the end follows (else the general reading below).
			if i+4 <= len(line) && hexValue[line[i+2]] != 0xff && hexValue[line[i+3]] != 0xff && (i+4 == len(line) || byteEnd(line[i+4])) {
				dst = append(dst, hexValue[line[i+2]]<<4|hexValue[line[i+3]])
				i += 4
				// The rest of a list ("0xc1,0x04,0x0a"): a comma and
				// the next byte read at once while the pattern holds.
				for i+5 <= len(line) && line[i] == ',' && line[i+1] == '0' && line[i+2] == 'x' {
					hi, lo := hexValue[line[i+3]], hexValue[line[i+4]]
					if hi == 0xff || lo == 0xff || i+5 < len(line) && !byteEnd(line[i+5]) {
						break
					}
					dst = append(dst, hi<<4|lo)
					i += 5
				}
				continue
			}
			i += 2
		}
		var v uint32
		n := 0
		for ; i < len(line); i++ {
			x := hexValue[line[i]]
			if x == 0xff {
				break
			}
			v = v<<4 | uint32(x)
			n++
		}
		if n != 2 && n != 8 {
			return dst, false // other lengths: parseLine says what they are
		}
		if i < len(line) && !byteEnd(line[i]) {
			return dst, false // "000048:", "s_nop"
		}
		if n <= 2 {
			dst = append(dst, byte(v))
		} else {
			dst = binary.LittleEndian.AppendUint32(dst, v)
		}
	}
	return dst, true
}

// byteEnd says whether c may follow a byte or word of a bare list.
func byteEnd(c byte) bool {
	switch c {
	case ' ', '\t', ',', ']', '\r', ';', '#', '/':
		return true
	}
	return false
}

// hexValue is each byte's value as a hex digit, 0xff for other bytes.
var hexValue = func() (t [256]byte) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = byte(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			t[c] = byte(c - 'A' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()

type lineKind int

const (
	linePlain lineKind = iota
	lineObjdump
	lineMC
)

type parsedLine struct {
	Line
	directive string
}

// parseLine reads one line of any text form:
//
//	0x160a04c1 7e020280                    hex dwords (little endian, as the guides write them)
//	[0xc1,0x04,0x0a,0x16]                  an llvm-mc byte list
//	v_max_f32 v5, -1, v2                   assembly; "label:" lines; ".directive" lines
//	  v_max ... ; encoding: [0xc1,...]     llvm-mc -show-encoding
//	  v_max ...  // 000048: 160A04C1 <k+0x4c>   llvm-objdump -d, RGA
//	0000000000000000 <saxpy>:              llvm-objdump symbol
//	0x7ffff5a41104 <+4>: 00 00 06 c0 ... s_load ...   rocgdb x/i, disassemble /r
//	000048: 160a04c1   v_max_f32 ...       gpuisa's own listing
//
// Comments after ';' and '//' are dropped once what they carry (an
// encoding, an address) is read.
func parseLine(s string) (parsedLine, lineKind, error) {
	l := parsedLine{Line: Line{Addr: -1}}
	kind := linePlain
	s = strings.TrimRight(s, "\r")
	// llvm-mc: "text ; encoding: [bytes]".
	if i := strings.Index(s, "; encoding:"); i >= 0 {
		enc := s[i+len("; encoding:"):]
		if j := strings.IndexByte(enc, ']'); j >= 0 {
			enc = enc[:j+1]
		}
		b, err := asmtext.ReadBytes(enc)
		if err != nil {
			return l, kind, fmt.Errorf("encoding %s: %w", errs.Excerpt(strings.TrimSpace(enc)), err)
		}
		l.Bytes, kind = b, lineMC
		s = s[:i]
	}
	// llvm-objdump / RGA: "text // ADDR: WORDS [<sym+off>]".
	if i := strings.Index(s, "//"); i >= 0 {
		c := strings.TrimSpace(s[i+2:])
		if addr, words, ok := objdumpComment(c); ok {
			l.Addr, kind = addr, lineObjdump
			if len(l.Bytes) == 0 {
				l.Bytes = words
			}
		}
		s = s[:i]
	}
	if i := strings.IndexByte(s, ';'); i >= 0 {
		s = s[:i]
	}
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "#") {
		s = ""
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return l, kind, nil
	}
	// llvm-objdump's headers: "k.o:	file format elf64-amdgpu",
	// "Disassembly of section .text:".
	if strings.Contains(s, ":\tfile format ") || strings.Contains(s, ": file format ") {
		return l, lineObjdump, nil
	}
	if sec, ok := strings.CutPrefix(s, "Disassembly of section "); ok {
		l.directive = ".section " + strings.TrimSuffix(sec, ":")
		return l, lineObjdump, nil
	}
	// llvm-objdump symbol line: "0000000000000000 <saxpy>:".
	if a, rest, ok := strings.Cut(s, " <"); ok && strings.HasSuffix(rest, ">:") && decode.IsHexDigits(a) {
		if v, err := strconv.ParseUint(a, 16, 63); err == nil {
			l.Addr, l.Label = int64(v), strings.TrimSuffix(rest, ">:")
			return l, lineObjdump, nil
		}
	}
	// "<saxpy>:" (objdump --no-leading-addr).
	if strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">:") {
		l.Label = s[1 : len(s)-2]
		return l, lineObjdump, nil
	}
	if s[0] == '.' && !strings.Contains(strings.Fields(s)[0], ":") {
		l.directive = strings.Join(strings.Fields(s), " ")
		return l, kind, nil
	}
	// A label definition, alone or before an instruction.
	if name, rest, ok := labelDef(s); ok {
		l.Label = name
		s = strings.TrimSpace(rest)
		if s == "" {
			return l, kind, nil
		}
	}
	toks := splitTokens(s)
	i := 0
	// Leading address: "000048:", "0x7fff...", optionally "<+4>:".
	if i < len(toks) {
		t := toks[i]
		if strings.HasSuffix(t, ":") && decode.IsHexDigits(strings.TrimSuffix(strings.TrimPrefix(t, "0x"), ":")) {
			if v, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(t, "0x"), ":"), 16, 63); err == nil && l.Addr < 0 {
				l.Addr = int64(v)
			}
			i++
		} else if strings.HasPrefix(t, "0x") && len(t) > 2 && decode.IsHexDigits(t[2:]) && i+1 < len(toks) && strings.HasPrefix(toks[i+1], "<") && strings.HasSuffix(toks[i+1], ">:") {
			if v, err := strconv.ParseUint(t[2:], 16, 63); err == nil && l.Addr < 0 {
				l.Addr = int64(v)
			}
			i += 2
		}
	}
	// Machine code, until the first token that is not hex (the
	// instruction text): bytes, words and 64-bit words as decode.HexToken
	// reads them; a hex token of another length is an error, not a guess.
	var code []byte
	for ; i < len(toks); i++ {
		if !decode.IsHexDigits(strings.TrimPrefix(strings.TrimPrefix(toks[i], "0x"), "0X")) {
			break
		}
		b, err := decode.HexToken(toks[i])
		if err != nil {
			return l, kind, err
		}
		code = append(code, b...)
	}
	if len(l.Bytes) == 0 {
		l.Bytes = code
	}
	if i < len(toks) {
		text := singleSpaced(strings.Join(toks[i:], " "))
		if j := strings.LastIndex(text, " ×"); j >= 0 {
			if n, err := strconv.Atoi(text[j+len(" ×"):]); err == nil && n > 0 && n <= maxRepeat {
				text, l.Repeat = text[:j], n
			}
		}
		if first, _, _ := strings.Cut(text, " "); !validMnemonic(first) { // text is single-spaced
			return l, kind, fmt.Errorf("%q is neither machine code nor an instruction", errs.Excerpt(first))
		}
		l.Text = text
	}
	return l, kind, nil
}

// singleSpaced is s with its words separated by single spaces
// (strings.Fields joined), and s itself where it is so already, as an
// instruction line nearly always is.
func singleSpaced(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c <= ' ' && (c != ' ' || i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// splitTokens splits at spaces and at the brackets and commas of an
// llvm-mc byte list ("[0xc1,0x04]"), but leaves instruction text whole
// after its first word (operand lists have commas).
func splitTokens(s string) []string {
	var out []string
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t[],")
		if s == "" {
			break
		}
		j := strings.IndexAny(s, " \t[],")
		if j < 0 {
			j = len(s)
		}
		tok := s[:j]
		if !decode.IsHexDigits(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(tok, ":"), "0x"), "0X")) && !strings.HasPrefix(tok, "<") {
			out = append(out, s) // the instruction text, whole
			break
		}
		out = append(out, tok)
		s = s[j:]
	}
	return out
}

// labelDef reads "name:" at the start of s (not an operand such as
// "offset:16", which follows a mnemonic and a space).
func labelDef(s string) (string, string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	name := s[:i]
	c := name[0]
	if !(c == '.' || c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return "", "", false
	}
	for _, r := range name {
		if !(r == '.' || r == '_' || r == '$' || r == '@' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return "", "", false
		}
	}
	return name, s[i+1:], true
}

// objdumpComment reads "000000000048: 160A04C1 00000000 <k+0x4c>".
func objdumpComment(c string) (int64, []byte, bool) {
	a, rest, ok := strings.Cut(c, ":")
	if !ok || a == "" || !decode.IsHexDigits(a) || len(a) > 16 {
		return 0, nil, false
	}
	addr, err := strconv.ParseUint(a, 16, 63)
	if err != nil {
		return 0, nil, false
	}
	var out []byte
	for _, w := range strings.Fields(rest) {
		if strings.HasPrefix(w, "<") {
			break
		}
		if len(w) != 8 || !decode.IsHexDigits(w) {
			return 0, nil, false
		}
		v, _ := strconv.ParseUint(w, 16, 32)
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	return int64(addr), out, true
}

// validMnemonic: letters, digits, '_' and '.', starting with a letter.
func validMnemonic(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

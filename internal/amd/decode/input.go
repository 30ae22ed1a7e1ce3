package decode

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
)

// ParseInput reads what a user pastes or a file holds:
//   - hex words, one or more, with or without 0x: "0x160a04c1 7e020280",
//     each as HexToken reads it (8 digits a little-endian 32-bit word, 16
//     two of them in the order written, 2 a byte);
//   - llvm-mc byte lists: "[0xc1,0x04,0x0a,0x16]": bytes only;
//   - anything else that is not printable text is taken as raw binary.
//
// Comments after ';', '//' or '#' are ignored in the text forms. A token of
// any other length is an error naming its line, never a guess.
func ParseInput(text []byte) ([]byte, error) {
	if !isText(text) {
		return append([]byte(nil), text...), nil
	}
	var out []byte
	for ln, line := range strings.Split(string(text), "\n") {
		for _, c := range []string{";", "//", "#"} {
			if i := strings.Index(line, c); i >= 0 {
				line = line[:i]
			}
		}
		for line != "" {
			open := strings.IndexByte(line, '[')
			head := line
			if open >= 0 {
				head = line[:open]
			}
			for _, tok := range strings.Fields(strings.ReplaceAll(head, ",", " ")) {
				b, err := HexToken(tok)
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", ln+1, err)
				}
				out = append(out, b...)
			}
			if open < 0 {
				break
			}
			end := strings.IndexByte(line[open:], ']')
			if end < 0 {
				return nil, fmt.Errorf("line %d: a byte list without its ']'", ln+1)
			}
			b, err := asmtext.ReadBytes(line[open+1 : open+end])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", ln+1, err)
			}
			out = append(out, b...)
			line = line[open+end+1:]
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no instruction bytes in the input")
	}
	return out, nil
}

// HexToken reads one token of machine code in hex ("0x" optional): 2
// digits are a byte, 8 a little-endian 32-bit word, 16 a 64-bit
// instruction written as its two words in order ("d30400007e020280" is
// d3040000 then 7e020280, as llvm-objdump prints them). Any other length
// is an error that says what was meant to be written.
func HexToken(tok string) ([]byte, error) {
	h := strings.TrimPrefix(strings.TrimPrefix(tok, "0x"), "0X")
	if !IsHexDigits(h) {
		return nil, fmt.Errorf("%q is not hex", tok)
	}
	switch len(h) {
	case 2:
		v, _ := strconv.ParseUint(h, 16, 8)
		return []byte{byte(v)}, nil
	case 8:
		v, _ := strconv.ParseUint(h, 16, 32)
		return binary.LittleEndian.AppendUint32(nil, uint32(v)), nil
	case 16:
		hi, _ := strconv.ParseUint(h[:8], 16, 32)
		lo, _ := strconv.ParseUint(h[8:], 16, 32)
		return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, uint32(hi)), uint32(lo)), nil
	}
	if len(h) < 8 {
		return nil, fmt.Errorf("%q has %d hex digits: a word has 8 (0x%s%s), a byte 2", tok, len(h), strings.Repeat("0", 8-len(h)), h)
	}
	return nil, fmt.Errorf("%q has %d hex digits: a word has 8, a 64-bit instruction 16", tok, len(h))
}

// IsHexDigits says whether s is one or more hex digits.
func IsHexDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func isText(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	for _, r := range string(b) {
		if r == unicode.ReplacementChar || (r < 32 && r != '\n' && r != '\r' && r != '\t') {
			return false
		}
	}
	return true
}

// Symbol is a named offset into a code section.
type Symbol struct {
	Name   string
	Offset int
}

// IsELF says whether b starts with the ELF magic.
func IsELF(b []byte) bool { return bytes.HasPrefix(b, []byte(elf.ELFMAG)) }

// ELFText returns the .text section of an AMDGPU code object and the
// function symbols in it, sorted by offset.
func ELFText(b []byte) ([]byte, []Symbol, error) {
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("not an ELF code object: %w", err)
	}
	defer f.Close()
	if f.Machine != elf.EM_AMDGPU {
		return nil, nil, fmt.Errorf("ELF machine is %v, not AMDGPU", f.Machine)
	}
	sec := f.Section(".text")
	if sec == nil {
		return nil, nil, fmt.Errorf("code object has no .text section")
	}
	text, err := sec.Data()
	if err != nil {
		return nil, nil, fmt.Errorf(".text: %w", err)
	}
	syms, _ := f.Symbols()
	var out []Symbol
	for _, s := range syms {
		if s.Section >= elf.SectionIndex(len(f.Sections)) || f.Sections[s.Section] != sec || s.Name == "" {
			continue
		}
		if t := elf.ST_TYPE(s.Info); t != elf.STT_FUNC && t != elf.STT_NOTYPE {
			continue
		}
		off := int(s.Value - sec.Addr)
		if off < 0 || off >= len(text) {
			continue
		}
		out = append(out, Symbol{s.Name, off})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return text, out, nil
}

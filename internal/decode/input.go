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
)

// ParseInput reads what a user pastes or a file holds:
//   - hex dwords, one or more, with or without 0x: "0x160a04c1 7e020280"
//     (each is a little-endian 32-bit word, as the guides write encodings);
//   - llvm-mc byte lists: "[0xc1,0x04,0x0a,0x16]" or "0xc1,0x04,0x0a,0x16";
//   - anything else that is not printable text is taken as raw binary.
//
// Comments after ';', '//' or '#' are ignored in the text forms.
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
		line = strings.NewReplacer("[", " ", "]", " ", ",", " ").Replace(line)
		for _, tok := range strings.Fields(line) {
			h := strings.TrimPrefix(strings.TrimPrefix(tok, "0x"), "0X")
			if h == "" || len(h) > 8 {
				return nil, fmt.Errorf("line %d: %q is not a hex byte or 32-bit word", ln+1, tok)
			}
			v, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q is not hex", ln+1, tok)
			}
			// A token of at most two digits is a byte of an llvm-mc list;
			// longer tokens are dwords.
			if len(h) <= 2 {
				out = append(out, byte(v))
			} else {
				out = binary.LittleEndian.AppendUint32(out, uint32(v))
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no instruction bytes in the input")
	}
	return out, nil
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

package amdlayout

import (
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// EncodingLayout is what an instruction's encoding in format f holds of the
// layout: the format's width and fields (with the documented sub-fields of
// its immediate, Parts), the identifier opcode yields and the guide's own
// drawing where it differs. It is the one owner of these facts: the merge's
// AMD guide and XML passes and the LLVM pass's fixed-bit check all place
// bits with it.
func EncodingLayout(family, name string, f isa.Format, opcode int) (width int, fields []isa.Field, identifier string, documented *isa.Layout) {
	width, fields = f.Width, WithParts(family, name, f.Fields)
	if id, ok := Identifier(f, opcode); ok {
		identifier = id
	}
	if d := f.Documented; d != nil {
		documented = &isa.Layout{Fields: d.Fields, Changes: d.Changes, Prov: d.Prov}
		if id, ok := Identifier(isa.Format{Name: f.Name, Width: f.Width, Fields: d.Fields}, opcode); ok {
			documented.Identifier = id
		}
	}
	return width, fields, identifier, documented
}

// WithParts gives the SIMM16 field of an instruction whose immediate
// has documented sub-fields (s_waitcnt's counters, hwreg, sendmsg) those
// parts; fs is copied, not changed, when it does.
func WithParts(family, name string, fs []isa.Field) []isa.Field {
	for i, f := range fs {
		if !strings.EqualFold(f.Name, "SIMM16") {
			continue
		}
		if parts := Parts(family, name, f); len(parts) > 0 {
			fs = append([]isa.Field(nil), fs...)
			fs[i].Parts = parts
			return fs
		}
	}
	return fs
}

// Identifier is the first dword of format f with its fixed ENCODING bits and
// opcode placed ("0x16000000"); false when the format has no fixed bits or
// no OP field, or the opcode does not fit it, or OP lies past the first
// dword (CDNA 5's 128-bit VOP3PX2 keeps it in the third): the first dword
// would then be the same for every opcode and identify none.
func Identifier(f isa.Format, opcode int) (string, bool) {
	var id uint64
	var haveOp, haveFixed bool
	for _, fd := range f.Fields {
		switch {
		case fd.Fixed != "":
			haveFixed = true
			v, ok := ParseBinary(fd.Fixed)
			if !ok {
				return "", false
			}
			id |= PlaceBits(fd, v)
		case strings.EqualFold(fd.Name, "OP"):
			if opcode < 0 || (fd.Width() < 63 && opcode >= 1<<fd.Width()) || !inFirstDword(fd) {
				return "", false
			}
			id |= PlaceBits(fd, uint64(opcode))
			haveOp = true
		}
	}
	// Without the fixed ENCODING bits (a guide that omits the row) the OP
	// bits alone identify nothing.
	if !haveOp || !haveFixed {
		return "", false
	}
	if f.Width > 32 {
		id &= 0xffffffff
	}
	return fmt.Sprintf("0x%08X", id), true
}

// inFirstDword reports whether some bit of fd lies in the first dword
// (RDNA 1's MTBUF OP is [53] and [18:16]: it counts).
func inFirstDword(fd isa.Field) bool {
	if len(fd.Ranges) == 0 {
		return fd.LSB < 32
	}
	for _, r := range fd.Ranges {
		if r.LSB < 32 {
			return true
		}
	}
	return false
}

// PlaceBits puts v into the field's bit ranges, most significant range first.
func PlaceBits(fd isa.Field, v uint64) uint64 {
	ranges := fd.Ranges
	if len(ranges) == 0 {
		ranges = []isa.BitRange{{MSB: fd.MSB, LSB: fd.LSB}}
	}
	var out uint64
	remaining := fd.Width()
	for _, r := range ranges {
		w := r.MSB - r.LSB + 1
		remaining -= w
		part := (v >> uint(remaining)) & (1<<uint(w) - 1)
		if r.LSB < 64 {
			out |= part << uint(r.LSB)
		}
	}
	return out
}

// ParseBinary reads a fixed field's value ("0111111"); false for anything
// but up to 64 binary digits.
func ParseBinary(s string) (uint64, bool) {
	if s == "" || len(s) > 64 {
		return 0, false
	}
	var v uint64
	for _, c := range s {
		if c != '0' && c != '1' {
			return 0, false
		}
		v = v<<1 | uint64(c-'0')
	}
	return v, true
}

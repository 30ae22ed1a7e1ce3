package sem

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is what the bits of a value mean.
type Kind uint8

const (
	KBits    Kind = iota // raw bits (.b32): unsigned in arithmetic
	KUint                // unsigned integer (.u32)
	KInt                 // two's-complement signed integer (.i32)
	KFloat               // IEEE-style float (.f32, .bf16, .fp8)
	KBool                // the result of a comparison; one bit
	KInteger             // an integer without a width: unsized literals, loop counters
)

// MaxWidth bounds the width of any value: the widest the guides use is
// 1201 bits (V_TRIG_PREOP's 2/PI).
const MaxWidth = 4096

// Type is a kind with a bit width; floats name their format.
type Type struct {
	Kind  Kind
	Width int          // bits; 0 for KInteger
	Float *FloatFormat // for KFloat
}

func (t Type) String() string {
	switch t.Kind {
	case KBits:
		return "b" + strconv.Itoa(t.Width)
	case KUint:
		return "u" + strconv.Itoa(t.Width)
	case KInt:
		return "i" + strconv.Itoa(t.Width)
	case KFloat:
		return t.Float.Name
	case KBool:
		return "bool"
	}
	return "integer"
}

// IsInt reports whether the type is an integer-like kind (bits, signed,
// unsigned, bool or unsized).
func (t Type) IsInt() bool { return t.Kind != KFloat }

// Signed reports whether arithmetic treats the type as signed.
func (t Type) Signed() bool { return t.Kind == KInt || t.Kind == KInteger }

// Common types.
var (
	TBool    = Type{Kind: KBool, Width: 1}
	TInteger = Type{Kind: KInteger}
	TU32     = Type{Kind: KUint, Width: 32}
	TI32     = Type{Kind: KInt, Width: 32}
	TU64     = Type{Kind: KUint, Width: 64}
	TB32     = Type{Kind: KBits, Width: 32}
	TF16     = Type{Kind: KFloat, Width: 16, Float: &F16}
	TBF16    = Type{Kind: KFloat, Width: 16, Float: &BF16}
	TF32     = Type{Kind: KFloat, Width: 32, Float: &F32}
	TF64     = Type{Kind: KFloat, Width: 64, Float: &F64}
)

// FloatType returns the type of a format.
func FloatType(f *FloatFormat) Type { return Type{Kind: KFloat, Width: f.Bits, Float: f} }

// IntType returns a sized integer type.
func IntType(k Kind, w int) Type { return Type{Kind: k, Width: w} }

// parseSuffix reads a type suffix as the guides write it: b32, u64, i16,
// f32, bf16, fp8, bf8, fp6, bf6, fp4, and the old short forms .f .u .i .b
// (32 bits). ok is false for names that are not types (field names).
func parseSuffix(s string) (Type, bool) {
	switch s {
	case "f":
		return TF32, true
	case "u":
		return TU32, true
	case "i":
		return TI32, true
	case "b":
		return TB32, true
	}
	for _, f := range floatFormats {
		if s == f.Name {
			return FloatType(f), true
		}
	}
	var k Kind
	var rest string
	switch {
	case strings.HasPrefix(s, "b"):
		k, rest = KBits, s[1:]
	case strings.HasPrefix(s, "u"):
		k, rest = KUint, s[1:]
	case strings.HasPrefix(s, "i") && !strings.HasPrefix(s, "iu"):
		k, rest = KInt, s[1:]
	default:
		return Type{}, false
	}
	w, err := strconv.Atoi(rest)
	if err != nil || w <= 0 || w > MaxWidth || rest[0] == '0' {
		return Type{}, false
	}
	return Type{Kind: k, Width: w}, true
}

// castType reads a cast N'T: U, I, B or F with width N.
func castType(width int, letter byte) (Type, error) {
	if width <= 0 || width > MaxWidth {
		return Type{}, fmt.Errorf("cast width %d out of range", width)
	}
	switch letter {
	case 'U':
		return Type{Kind: KUint, Width: width}, nil
	case 'I':
		return Type{Kind: KInt, Width: width}, nil
	case 'B':
		return Type{Kind: KBits, Width: width}, nil
	case 'F':
		switch width {
		case 16:
			return TF16, nil
		case 32:
			return TF32, nil
		case 64:
			return TF64, nil
		}
		return Type{}, fmt.Errorf("no %d-bit float format for %d'F", width, width)
	}
	return Type{}, fmt.Errorf("unknown cast letter %q", letter)
}

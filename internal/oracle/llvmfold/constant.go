package llvmfold

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Float writes a float of IR type ty ("half", "bfloat", "float",
// "double") from its bits as an IR constant operand: half as 0xH…, bfloat
// as 0xR…, float and double as the hexadecimal of the double holding the
// value (a float NaN's payload in the double's top fraction bits, its
// quiet bit kept, as LLVM writes it).
func Float(ty string, bits uint64) string {
	switch ty {
	case "half":
		return fmt.Sprintf("half 0xH%04X", bits&0xffff)
	case "bfloat":
		return fmt.Sprintf("bfloat 0xR%04X", bits&0xffff)
	case "float":
		return fmt.Sprintf("float 0x%016X", widenF32(uint32(bits)))
	case "double":
		return fmt.Sprintf("double 0x%016X", bits)
	}
	return ty + " ?"
}

// Int writes an integer constant of width w from its bits.
func Int(w int, bits uint64) string {
	if w < 64 {
		bits &= 1<<uint(w) - 1
	}
	return fmt.Sprintf("i%d %d", w, bits)
}

// widenF32 returns the double bits holding an f32 exactly; NaNs keep sign,
// quiet bit and payload (shifted up 29 bits).
func widenF32(b uint32) uint64 {
	exp := b >> 23 & 0xff
	frac := uint64(b & 0x7fffff)
	sign := uint64(b>>31) << 63
	if exp == 0xff && frac != 0 {
		return sign | 0x7ff<<52 | frac<<29
	}
	return math.Float64bits(float64(math.Float32frombits(b)))
}

// narrowF64 is widenF32's inverse for doubles that hold an f32.
func narrowF64(d uint64) (uint32, error) {
	exp := d >> 52 & 0x7ff
	frac := d & (1<<52 - 1)
	sign := uint32(d>>63) << 31
	if exp == 0x7ff && frac != 0 {
		if frac&(1<<29-1) != 0 {
			return 0, fmt.Errorf("NaN 0x%x has payload bits an f32 cannot hold", d)
		}
		return sign | 0xff<<23 | uint32(frac>>29), nil
	}
	f := math.Float64frombits(d)
	g := float32(f)
	if float64(g) != f && !math.IsInf(f, 0) {
		return 0, fmt.Errorf("double 0x%x is not an f32 value", d)
	}
	return math.Float32bits(g), nil
}

// Parse reads a folded constant ("float 1.000000e+00", "i1 true",
// "<2 x half> splat (half 0xH3C00)", "<2 x i16> <i16 1, i16 2>",
// "<2 x half> zeroinitializer") into its element bits, lowest element
// first.
func Parse(v string) ([]uint64, error) {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "<") {
		end := strings.Index(v, ">")
		if end < 0 {
			return nil, fmt.Errorf("bad vector constant %q", v)
		}
		var n int
		var elem string
		if _, err := fmt.Sscanf(v[1:end], "%d x %s", &n, &elem); err != nil || n <= 0 || n > 64 {
			return nil, fmt.Errorf("bad vector type in %q", v)
		}
		rest := strings.TrimSpace(v[end+1:])
		switch {
		case rest == "zeroinitializer":
			return make([]uint64, n), nil
		case strings.HasPrefix(rest, "splat (") && strings.HasSuffix(rest, ")"):
			b, err := scalar(strings.TrimSuffix(strings.TrimPrefix(rest, "splat ("), ")"))
			if err != nil {
				return nil, err
			}
			out := make([]uint64, n)
			for i := range out {
				out[i] = b
			}
			return out, nil
		case strings.HasPrefix(rest, "<") && strings.HasSuffix(rest, ">"):
			parts := strings.Split(rest[1:len(rest)-1], ",")
			if len(parts) != n {
				return nil, fmt.Errorf("vector %q has %d elements, want %d", v, len(parts), n)
			}
			out := make([]uint64, n)
			for i, p := range parts {
				b, err := scalar(p)
				if err != nil {
					return nil, err
				}
				out[i] = b
			}
			return out, nil
		}
		return nil, fmt.Errorf("bad vector constant %q", v)
	}
	b, err := scalar(v)
	if err != nil {
		return nil, err
	}
	return []uint64{b}, nil
}

func scalar(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	ty, val, ok := strings.Cut(s, " ")
	if !ok {
		return 0, fmt.Errorf("bad constant %q", s)
	}
	val = strings.TrimSpace(val)
	switch {
	case strings.HasPrefix(ty, "i"):
		switch val {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
		w, err := strconv.Atoi(ty[1:])
		if err != nil {
			return 0, fmt.Errorf("bad integer type in %q", s)
		}
		n, ok := new(big.Int).SetString(val, 10)
		if !ok {
			return 0, fmt.Errorf("bad integer %q", s)
		}
		if n.Sign() < 0 {
			n.Add(n, new(big.Int).Lsh(big.NewInt(1), uint(w)))
		}
		return n.Uint64(), nil
	case ty == "half" || ty == "bfloat":
		if !strings.HasPrefix(val, "0xH") && !strings.HasPrefix(val, "0xR") {
			f, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return 0, fmt.Errorf("bad %s %q", ty, s)
			}
			return 0, fmt.Errorf("%s printed as decimal %v: not read", ty, f)
		}
		b, err := strconv.ParseUint(val[3:], 16, 16)
		return b, err
	case ty == "float" || ty == "double":
		var d uint64
		if strings.HasPrefix(val, "0x") {
			b, err := strconv.ParseUint(val[2:], 16, 64)
			if err != nil {
				return 0, fmt.Errorf("bad %s %q", ty, s)
			}
			d = b
		} else {
			f, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return 0, fmt.Errorf("bad %s %q", ty, s)
			}
			d = math.Float64bits(f)
		}
		if ty == "double" {
			return d, nil
		}
		b, err := narrowF64(d)
		return uint64(b), err
	}
	return 0, fmt.Errorf("constant of type %s not read", ty)
}

package decode

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// ds_swizzle_b32's 16-bit offset is a lane pattern, which LLVM prints and
// reads as swizzle(MODE,...) (AMDGPUInstPrinter::printSwizzle and the
// Swizzle encoding of SIDefines.h; the LDS chapter of the guides describes
// the same modes: QDMode, BitMode, and on gfx9+ FFT and rotate).
const (
	swzQuadPermEnc  = 0x8000
	swzQuadPermMask = 0xff00
	swzBitmaskMask  = 0x8000 // BITMASK_PERM when bit 15 is clear
	swzRotateLo     = 0xc000
	swzFFTLo        = 0xe000
	swzLanes        = 0x1f
)

// swizzleText writes the offset as LLVM prints it: swizzle(...) for a
// pattern it names, else the number.
func swizzleText(imm int) string {
	switch {
	case imm >= swzFFTLo:
		return fmt.Sprintf("swizzle(FFT,%d)", imm&0x1f)
	case imm >= swzRotateLo:
		return fmt.Sprintf("swizzle(ROTATE,%d,%d)", imm>>10&1, imm>>5&0x1f)
	case imm&swzQuadPermMask == swzQuadPermEnc:
		return fmt.Sprintf("swizzle(QUAD_PERM,%d,%d,%d,%d)", imm&3, imm>>2&3, imm>>4&3, imm>>6&3)
	case imm&swzBitmaskMask == 0:
		and, or, xor := imm&swzLanes, imm>>5&swzLanes, imm>>10&swzLanes
		switch {
		case and == swzLanes && or == 0 && bits.OnesCount(uint(xor)) == 1:
			return fmt.Sprintf("swizzle(SWAP,%d)", xor)
		case and == swzLanes && or == 0 && xor > 0 && (xor+1)&xor == 0:
			return fmt.Sprintf("swizzle(REVERSE,%d)", xor+1)
		}
		if group := swzLanes - and + 1; group > 1 && group&(group-1) == 0 && or < group && xor == 0 {
			return fmt.Sprintf("swizzle(BROADCAST,%d,%d)", group, or)
		}
		p0 := (0&and | or) ^ xor
		p1 := (swzLanes&and | or) ^ xor
		var b strings.Builder
		b.WriteString(`swizzle(BITMASK_PERM,"`)
		for m := 1 << 4; m > 0; m >>= 1 {
			switch a, c := p0&m, p1&m; {
			case a == c && a == 0:
				b.WriteByte('0')
			case a == c:
				b.WriteByte('1')
			case a == 0:
				b.WriteByte('p')
			default:
				b.WriteByte('i')
			}
		}
		b.WriteString(`")`)
		return b.String()
	}
	return strconv.Itoa(imm)
}

// ParseSwizzle reads a ds_swizzle offset written as LLVM's swizzle(...)
// (what swizzleText writes, and the modes LLVM's assembler accepts) into
// its 16-bit value.
func ParseSwizzle(s string) (int, error) {
	inner, ok := strings.CutPrefix(strings.TrimSpace(s), "swizzle(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return 0, fmt.Errorf("%q is not swizzle(...)", s)
	}
	args := strings.Split(strings.TrimSuffix(inner, ")"), ",")
	for i := range args {
		args[i] = strings.TrimSpace(args[i])
	}
	nums := func(want int, lo, hi []int) ([]int, error) {
		if len(args) != want+1 {
			return nil, fmt.Errorf("swizzle(%s) takes %d arguments", args[0], want)
		}
		out := make([]int, want)
		for i := range out {
			v, err := strconv.ParseInt(args[i+1], 0, 32)
			if err != nil || int(v) < lo[i] || int(v) > hi[i] {
				return nil, fmt.Errorf("swizzle(%s): argument %d must be %d to %d", args[0], i+1, lo[i], hi[i])
			}
			out[i] = int(v)
		}
		return out, nil
	}
	switch strings.ToUpper(args[0]) {
	case "QUAD_PERM":
		v, err := nums(4, []int{0, 0, 0, 0}, []int{3, 3, 3, 3})
		if err != nil {
			return 0, err
		}
		return swzQuadPermEnc | v[0] | v[1]<<2 | v[2]<<4 | v[3]<<6, nil
	case "BITMASK_PERM":
		if len(args) != 2 {
			return 0, fmt.Errorf("swizzle(BITMASK_PERM) takes one 5-character mask")
		}
		m := strings.Trim(args[1], `"`)
		if len(m) != 5 {
			return 0, fmt.Errorf("swizzle(BITMASK_PERM): the mask has 5 characters of 0, 1, p, i")
		}
		and, or, xor := 0, 0, 0
		for i, c := range m {
			bit := 1 << (4 - i)
			switch c {
			case '0':
			case '1':
				or |= bit
			case 'p':
				and |= bit
			case 'i':
				and |= bit
				xor |= bit
			default:
				return 0, fmt.Errorf("swizzle(BITMASK_PERM): %q is not 0, 1, p or i", c)
			}
		}
		return and | or<<5 | xor<<10, nil
	case "SWAP":
		v, err := nums(1, []int{1}, []int{16})
		if err != nil || bits.OnesCount(uint(v[0])) != 1 {
			return 0, fmt.Errorf("swizzle(SWAP) takes a power of two, 1 to 16")
		}
		return swzLanes | v[0]<<10, nil
	case "REVERSE":
		v, err := nums(1, []int{2}, []int{32})
		if err != nil || bits.OnesCount(uint(v[0])) != 1 {
			return 0, fmt.Errorf("swizzle(REVERSE) takes a power of two, 2 to 32")
		}
		return swzLanes | (v[0]-1)<<10, nil
	case "BROADCAST":
		v, err := nums(2, []int{2, 0}, []int{32, 31})
		if err != nil || bits.OnesCount(uint(v[0])) != 1 || v[1] >= v[0] {
			return 0, fmt.Errorf("swizzle(BROADCAST) takes a group size (a power of two, 2 to 32) and a lane below it")
		}
		return (swzLanes - v[0] + 1) | v[1]<<5, nil
	case "FFT":
		v, err := nums(1, []int{0}, []int{31})
		if err != nil {
			return 0, err
		}
		return swzFFTLo | v[0], nil
	case "ROTATE":
		v, err := nums(2, []int{0, 0}, []int{1, 31})
		if err != nil {
			return 0, err
		}
		return swzRotateLo | v[0]<<10 | v[1]<<5, nil
	}
	return 0, fmt.Errorf("swizzle mode %q is not QUAD_PERM, BITMASK_PERM, SWAP, REVERSE, BROADCAST, FFT or ROTATE", args[0])
}

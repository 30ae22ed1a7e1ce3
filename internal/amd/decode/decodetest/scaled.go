package decodetest

import "encoding/binary"

// ScaledWMMAWords are words for the targeted tests of CDNA 5's scaled WMMAs
// (gfx1250): the four 4-dword instructions (a Load-Scale word pair with
// VOP3P opcode 0x35 or 0x3a, then the f8f6f4 or the f4 WMMA's pair) and
// the Load-Scale words alone, each with every bit flipped in turn and with
// a range of scale operand codes. The base words are what llvm-mc 22
// assembles "v_wmma_scale_f32_16x16x128_f8f6f4 v[0:7], v[8:23], v[24:39],
// v[40:47], v1, v2" and its siblings to (written out here, not read from a
// test file).
func ScaledWMMAWords() [][]byte {
	heads := [][2]uint32{{0xcc350000, 0x04020501}, {0xcc3a0000, 0x04020902}}
	tails := [][2]uint32{{0xcc330000, 0x04a23108}, {0xcc884000, 0x1ca24110}}
	codes := []uint32{0, 1, 2, 3, 104, 105, 106, 107, 124, 125, 126, 127, 128, 129, 193, 240, 242, 248, 251, 253, 254, 256, 257, 258, 300, 511}
	var out [][]byte
	put := func(ws ...uint32) {
		b := make([]byte, 0, 4*len(ws))
		for _, w := range ws {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
		out = append(out, b)
	}
	withCode := func(w1 uint32, shift uint, c uint32) uint32 { return w1&^(0x1ff<<shift) | c<<shift }
	for _, h := range heads {
		for bit := 0; bit < 64; bit++ {
			put(h[0]^lo(bit), h[1]^hi(bit))
		}
		for _, c := range codes {
			put(h[0], withCode(h[1], 0, c))
			put(h[0], withCode(h[1], 9, c))
		}
		for _, t := range tails {
			for bit := 0; bit < 128; bit++ {
				put(h[0]^lo(bit), h[1]^hi(bit), t[0]^lo(bit-64), t[1]^hi(bit-64))
			}
			for _, c := range codes {
				put(h[0], withCode(h[1], 0, c), t[0], t[1])
				put(h[0], withCode(h[1], 9, c), t[0], t[1])
			}
		}
	}
	return out
}

// lo and hi are bit b of a 64-bit word pair, in its low or high dword (0
// for a bit outside the pair).
func lo(b int) uint32 {
	if b < 0 || b >= 32 {
		return 0
	}
	return 1 << uint(b)
}

func hi(b int) uint32 {
	if b < 32 || b >= 64 {
		return 0
	}
	return 1 << uint(b-32)
}

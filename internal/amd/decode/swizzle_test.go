package decode

import (
	"encoding/binary"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

// TestSwizzleAsLLVM decodes ds_swizzle_b32 with offsets of every mode and
// compares the text with llvm-mc-22's; what it prints reads back to the
// same pattern.
func TestSwizzleAsLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH")
	}
	for _, fam := range []struct{ arch, mcpu string }{{"cdna3", "gfx942"}, {"rdna3", "gfx1100"}} {
		d := loadFamily(t, fam.arch)
		// ds_swizzle_b32 v0, v1 offset:0 as llvm-mc encodes it on the target.
		b, _, err := decodetest.Assemble(fam.mcpu, []string{"ds_swizzle_b32 v0, v1"}, t.TempDir())
		if err != nil || len(b) != 1 || len(b[0]) != 8 {
			t.Fatalf("assembling the base word: %v %v", err, b)
		}
		var words [][]byte
		var offs []int
		for off := 1; off < 1<<16; off += 211 {
			offs = append(offs, off)
		}
		offs = append(offs, 31, 0x041f, 0x7c1f, 0x001e, 0x8000|0xe4, 0xc000|5<<5, 0xe000|7, 0xc400|31<<5)
		for _, off := range offs {
			w := append([]byte(nil), b[0]...)
			lo := binary.LittleEndian.Uint32(w)
			binary.LittleEndian.PutUint32(w, lo&^0xffff|uint32(off))
			words = append(words, w)
		}
		ref, err := decodetest.Disassemble(fam.mcpu, words, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range words {
			in, _, err := d.Decode(w, 0)
			if err != nil {
				t.Fatalf("offset 0x%x: %v", offs[i], err)
			}
			if got := in.Text(); !ref[i].OK || got != ref[i].Text {
				t.Errorf("offset 0x%x: %q, llvm-mc %q", offs[i], got, ref[i].Text)
				continue
			}
			s := swizzleText(offs[i])
			if s[0] == 's' {
				v, err := ParseSwizzle(s)
				if err != nil || !sameSwizzle(v, offs[i]) {
					t.Errorf("%s reads back as 0x%x (%v): %s", s, v, err, swizzleText(v))
				}
			}
		}
	}
}

// sameSwizzle: two offsets move lanes the same way (a BITMASK_PERM mask
// spells several and/or/xor triples).
func sameSwizzle(a, b int) bool {
	if a >= swzRotateLo && b >= swzRotateLo {
		return swizzleText(a) == swizzleText(b) // FFT and rotate ignore the other bits
	}
	if a&swzBitmaskMask != 0 || b&swzBitmaskMask != 0 {
		return a == b
	}
	for lane := 0; lane < 32; lane++ {
		f := func(v int) int { return (lane&(v&swzLanes) | v>>5&swzLanes) ^ v>>10&swzLanes }
		if f(a) != f(b) {
			return false
		}
	}
	return true
}

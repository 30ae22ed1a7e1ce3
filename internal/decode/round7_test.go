package decode

import "testing"

// TestOperandShapes pins operand layouts llvm-mc 22 prints for words whose
// shape the mnemonic decides (scalar transcendentals, WMMA tuples and
// hints, 64-bit literals, s_version flags, interpolation VOP3 forms).
func TestOperandShapes(t *testing.T) {
	cases := []struct{ arch, hex, want string }{
		{"cdna5", "0x04,0x64,0x60,0xcc,0x08,0x21,0x62,0x1c", "v_wmma_f32_16x16x32_f16 v[4:11], v[8:15], v[16:23], v[24:31] matrix_a_reuse matrix_b_reuse neg_hi:[0,0,1]"},
		{"rdna4", "0x04,0x49,0x50,0xcc,0x0c,0x21,0x62,0x3c", "v_swmmac_f32_16x16x32_f16 v[4:11], v[12:15], v[16:23], v24 index_key:1 neg_lo:[1,0,0] neg_hi:[1,0,0]"},
		{"cdna5", "0xfe,0x04,0x00,0x04,0x05,0x00,0x00,0x00,0x00,0x00,0x00,0x00", "v_add_f64_e32 v[0:1], lit64(0x5), v[2:3]"},
		{"cdna5", "0xfe,0x01,0x80,0xbe,0x00,0x00,0x00,0x00,0x00,0x00,0xf0,0x3f", "s_mov_b64 s[0:1], 1.0"},
		{"cdna5", "0xfe,0x77,0xca,0x8b,0xe8,0xdc,0xe1,0xe4,0x48,0xcf,0x98,0x01", "s_and_b64 s[74:75], 0x198cf48e4e1dce8, ttmp[10:11]"},
		{"rdna4", "0x01,0x60,0x80,0xb0", "s_version (1|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT"},
		{"rdna4", "0x00,0x10,0x80,0xb0", "s_version 0x1000"},
		{"vega", "0x01,0x82,0x77,0xd2,0x40,0x05,0x0e,0x84", "v_interp_p2_f16 v1, |v2|, attr0.y, -v3 high clamp"},
		{"rdna2", "0x01,0x80,0x43,0xd7,0x20,0x04,0x0e,0x04", "v_interp_p1lv_f16 v1, v2, attr32.x, v3 clamp"},
		{"rdna1", "0x00,0x00,0x04,0xd8,0x01,0x02,0x00,0x00", "ds_sub_u32 v1, v2"},
	}
	var dc []decodeCase
	for _, c := range cases {
		dc = append(dc, decodeCase{arch: c.arch, hex: c.hex, want: c.want})
	}
	checkDecodes(t, dc)
}

// decodeCase is one word a family's real decoder must print as llvm-mc
// does; n is the expected length (0: the whole input) and complete asks
// that no operand be left unrendered.
type decodeCase struct {
	arch, hex, want string
	n               int
	complete        bool
}

// checkDecodes decodes each case with its family's decoder from the real
// model.
func checkDecodes(t *testing.T, cases []decodeCase) {
	t.Helper()
	decoders := map[string]*Decoder{}
	for _, c := range cases {
		d := decoders[c.arch]
		if d == nil {
			d = loadFamily(t, c.arch)
			decoders[c.arch] = d
		}
		b, err := ParseInput([]byte(c.hex))
		if err != nil {
			t.Fatal(err)
		}
		want := c.n
		if want == 0 {
			want = len(b)
		}
		in, n, err := d.Decode(b, 0)
		if err != nil {
			t.Errorf("%s %s: %v", c.arch, c.hex, err)
			continue
		}
		if got := in.Text(); got != c.want || n != want || (c.complete && in.Partial) {
			t.Errorf("%s %s: got %q (%d bytes, partial %v), want %q (%d bytes)", c.arch, c.hex, got, n, in.Partial, c.want, want)
		}
	}
}

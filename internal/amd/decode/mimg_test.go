package decode

import (
	"strings"
	"testing"
)

// imageOf reads an image mnemonic through the rules table as the decoder
// does (every image rule applies from GCN 5 on).
func imageOf(name string) mimgInfo {
	f := rules.lookup(9, KindMIMG, name, "")
	return mimgOf(&f, name)
}

func TestClassifyMIMG(t *testing.T) {
	for _, tc := range []struct {
		name  string
		class mimgClass
		addr  int
	}{
		{"image_load", mimgPlain, 1},
		{"image_store_mip", mimgPlain, 1},
		{"image_atomic_add", mimgAtomic, 1},
		{"image_atomic_cmpswap", mimgCmpswap, 1},
		{"image_sample", mimgSampler, 1},
		{"image_sample_c_cl", mimgSampler, 2},
		{"image_sample_c_d_cl_o", mimgSampler, 4},
		{"image_sample_cd_o", mimgSampler, 3},
		{"image_gather4_c_b_o", mimgGather, 4},
		{"image_gather4h", mimgGather, 1},
		{"image_get_lod", mimgSampler, 1},
	} {
		m := imageOf(tc.name)
		c, a := m.class, m.addr
		if c != tc.class || a != tc.addr {
			t.Errorf("%s: class %d addr %d, want %d %d", tc.name, c, a, tc.class, tc.addr)
		}
	}
}

func TestMIMGAddrWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		dim  int
		a16  bool
		want int
	}{
		{"image_load", 0, false, 1},
		{"image_load_mip", 1, false, 3},
		{"image_get_resinfo", 2, false, 1},
		{"image_sample_c_b", 0, true, 3},                   // c, b, one packed coordinate
		{"image_sample_c_d_cl", 2, true, 9},                // c, 3 coords + clamp packed in 2, 6 gradients
		{"image_sample_d_o", 7, true, 7},                   // o, 4 coords packed in 2, 4 gradients
		{"image_sample_c_d_cl_o_g16", 1, false, 7},         // c, o, 2 coords + clamp, 4 gradients packed in 2
		{"image_gather4_c_lz_o", 5, false, 5},              // c, o, 3 coords
		{"image_sample_d_g16", 2, false, 3 + 4},            // 3 coords, 6 gradients packed in 4
		{"image_atomic_cmpswap", 6, true, 2},               // 3 coords packed in 2
		{"image_store", 3, false, 3},                       // cube: 3 coords
		{"image_gather4h_o", 0, false, 2},                  // o, 1 coord
		{"image_sample_b_cl", 4, false, 4},                 // b, 2 coords + clamp
		{"image_sample_lz", 1, true, 1},                    // 2 coords packed in 1
		{"image_sample_c_lz_o", 1, false, 4},               // c, o, 2 coords
		{"image_sample_cd_cl", 0, false, 4},                // 1 coord + clamp, 2 gradients
		{"image_get_lod", 1, false, 2},                     // 2 coords
		{"image_load_mip_pck_sgn", 4, true, 2},             // 2 coords + mip packed in 2
		{"image_sample_c_d_o", 3, false, 2 + 3 + 4},        // cube: 3 coords, 4 gradients
		{"image_sample_b_o", 2, true, 2 + 2},               // 3 coords packed in 2
		{"image_sample_l", 2, false, 4},                    // 3 coords + lod
		{"image_sample_c_b_cl_o", 6, false, 3 + 4},         // 2D_MSAA: 3 coords + clamp
		{"image_sample_c_cd_cl_o_g16", 0, true, 2 + 1 + 2}, // c, o; coord+clamp packed in 1; 2 gradients packed, rounded up to 2
	} {
		a := imageOf(tc.name).args
		if !a.ok {
			t.Errorf("%s: not understood", tc.name)
			continue
		}
		if got := a.addrWords(tc.dim, tc.a16); got != tc.want {
			t.Errorf("%s dim %d a16 %v: %d address VGPRs, want %d", tc.name, tc.dim, tc.a16, got, tc.want)
		}
	}
	if imageOf("image_bvh_intersect_ray").args.ok {
		t.Error("image_bvh_intersect_ray: its address layout is not modelled, want !ok")
	}
}

func TestMIMGAddrSizes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		want, seq uint32
	}{
		// sample: 1-3 VGPRs; sequential tuples 1, 2, 3 and 4.
		{name: "image_sample", want: 0b1110, seq: 0b11110},
		// _c_b_cl_o: lod/clamp widens to 1-4, three extra arguments: 4-7;
		// 5-7 also get the 8-VGPR tuple.
		{name: "image_sample_c_b_cl_o", want: 0b11110000, seq: 0b111110000},
		// derivatives with clamp and 16-bit derivatives: 2-8, plus c and o: 4-10.
		{name: "image_sample_c_d_cl_o_g16", want: 0b11111110000, seq: 0b11111110000 | 1<<8},
		// derivatives: 2-9; 5-8 share the 8-VGPR tuple.
		{name: "image_sample_d", want: 0b1111111100, seq: 0b1111101100 | 1<<4},
		// loads, stores and atomics: 1-4.
		{name: "image_load_mip", want: 0b11110, seq: 0b11110},
		{name: "image_atomic_add", want: 0b11110, seq: 0b11110},
	} {
		m := imageOf(tc.name)
		got := mimgAddrSizes(m.class, m.args)
		if got != tc.want {
			t.Errorf("%s: address counts %b, want %b", tc.name, got, tc.want)
		}
		if seq := mimgSequentialSizes(got); seq != tc.seq {
			t.Errorf("%s: sequential tuple sizes %b, want %b", tc.name, seq, tc.seq)
		}
	}
}

// TestTruncatedNSA: an RDNA NSA word whose NSA field asks for more
// address dwords than the input holds is an error, not a guess (the words
// llvm-mc decodes are in decodetest/asm.tsv).
func TestTruncatedNSA(t *testing.T) {
	// The NSA field asks for three address dwords; 16 bytes hold two.
	d := loadFamily(t, "rdna2")
	b, _ := ParseInput([]byte("0xde,0x5b,0xa9,0xf2,0x4a,0x31,0xe0,0xc8,0xb3,0x18,0x50,0xc6,0x39,0x86,0x5c,0x55"))
	if _, _, err := d.Decode(b, 0); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("NSA word short of its address dwords: error %v, want truncated", err)
	}
}

func TestMIMGSamplerUnused(t *testing.T) {
	// SSAMP set on an instruction without a sampler: llvm-mc 22 rejects
	// the word (the first two, from the differential test's seed 42); a
	// sampler's SSAMP is its operand.
	for _, tc := range []struct {
		arch, word string
		reject     bool
	}{
		{"cdna2", "0x4e,0x2d,0x20,0xf0,0x52,0x7d,0xa4,0x92", true},  // image_store, SSAMP 21
		{"vega", "0x00,0x01,0x00,0xf0,0x01,0x02,0x20,0x00", true},   // image_load, SSAMP 1
		{"rdna3", "0x00,0x01,0x00,0xf0,0x02,0x01,0x01,0x04", true},  // image_load, SSAMP 1
		{"cdna2", "0x00,0x00,0x80,0xf0,0x02,0x01,0x61,0x00", false}, // image_sample v1, v2, s[4:11], s[12:15]
		{"vega", "0x00,0x01,0x00,0xf0,0x01,0x02,0x00,0x00", false},  // image_load, SSAMP 0
	} {
		d := loadFamily(t, tc.arch)
		b, _ := ParseInput([]byte(tc.word))
		in, _, err := d.Decode(b, 0)
		if (err != nil) != tc.reject {
			t.Errorf("%s %s: %q, error %v; want rejected %v", tc.arch, tc.word, in.Text(), err, tc.reject)
		}
	}
}

func TestMIMGFixed12(t *testing.T) {
	// RDNA 4 image words with a fixed bit changed: llvm-mc 22 rejects them
	// (image_bvh_intersect_ray with DIM 1, with TFE; unchanged it prints).
	d := loadFamily(t, "rdna4")
	for _, tc := range []struct {
		word   string
		reject bool
	}{
		{"0x10,0x40,0xc6,0xd3,0x00,0x00,0x00,0x0c,0x04,0x05,0x06,0x09", false},
		{"0x11,0x40,0xc6,0xd3,0x00,0x00,0x00,0x0c,0x04,0x05,0x06,0x09", true},
		{"0x10,0x40,0xc6,0xd3,0x00,0x00,0x80,0x0c,0x04,0x05,0x06,0x09", true},
		// image_atomic_add_uint v0, v1, s[0:7] dmask:0x1: as it is, with
		// D16, with VADDR4 set.
		{"0x00,0x01,0x43,0xd0,0x00,0x00,0x00,0x00,0x01,0x00,0x00,0x00", false},
		{"0x20,0x01,0x43,0xd0,0x00,0x00,0x00,0x00,0x01,0x00,0x00,0x00", true},
		{"0x00,0x01,0x43,0xd0,0x00,0x00,0x00,0x01,0x01,0x00,0x00,0x00", true},
		// image_sample_lz v1, v52, s[4:11], s[12:15]: as it is, with VADDR3 set.
		{"0x00,0xc0,0x07,0xe4,0x01,0x08,0x00,0x06,0x34,0x00,0x00,0x00", false},
		{"0x00,0xc0,0x07,0xe4,0x01,0x08,0x00,0x06,0x34,0x00,0x00,0x01", true},
	} {
		b, _ := ParseInput([]byte(tc.word))
		in, _, err := d.Decode(b, 0)
		if (err != nil) != tc.reject {
			t.Errorf("%s: %q, error %v; want rejected %v", tc.word, in.Text(), err, tc.reject)
		}
	}
}

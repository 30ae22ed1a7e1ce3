package isa

import "testing"

func TestF8F6F4Line(t *testing.T) {
	for _, c := range []struct {
		name, asm string
		f         F8F6F4Format
		want      string
	}{
		{"v_mfma_f32_16x16x128_f8f6f4", "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[8:15], v[16:23], v[24:27]", F8F6F4Formats[2],
			"v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[8:11], v[16:19], v[24:27] cbsz:4 blgp:4"},
		{"v_mfma_f32_32x32x64_f8f6f4", "v_mfma_f32_32x32x64_f8f6f4 a[0:15], a[16:23], a[24:31], a[32:47] cbsz:1 blgp:1", F8F6F4Formats[1],
			"v_mfma_f32_32x32x64_f8f6f4 a[0:15], a[16:21], a[24:29], a[32:47] cbsz:2 blgp:2"},
		{"v_mfma_f32_16x16x128_f8f6f4", "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[8:11], v[16:19], v[24:27] cbsz:4 blgp:4", F8F6F4Formats[0],
			"v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[8:15], v[16:23], v[24:27]"},
	} {
		s, err := ParseMatrix(c.name, c.asm, "")
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := F8F6F4Line(c.asm, s, c.f); !ok || got != c.want {
			t.Errorf("F8F6F4Line(%q, %s) = %q, %v; want %q", c.asm, c.f.DType, got, ok, c.want)
		}
	}
	s, _ := ParseMatrix("v_mfma_f32_32x32x8_f16", "", "")
	if _, ok := F8F6F4Line("v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]", s, F8F6F4Formats[2]); ok {
		t.Error("an F16 instruction was given F8F6F4 formats")
	}
}

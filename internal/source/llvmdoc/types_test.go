package llvmdoc

import "testing"

func TestSuffixTypes(t *testing.T) {
	for _, tc := range []struct {
		mnemonic, dst, src string
		ok                 bool
	}{
		{"v_add_f32", "f32", "f32", true},
		{"v_add_f32_e64_dpp", "f32", "f32", true},
		{"v_cvt_f32_i32", "f32", "i32", true},
		{"s_bcnt0_i32_b64", "i32", "b64", true},
		{"v_pk_add_f16", "f16x2", "f16x2", true},
		{"v_mov_b32", "b32", "b32", true},
		{"global_load_dwordx4", "b128", "b128", true},
		{"buffer_atomic_add_x2", "b64", "b64", true},
		{"buffer_load_format_xy", "b64", "b64", true},
		{"buffer_load_format_d16_xyz", "b16x3", "b16x3", true},
		{"ds_add_u32", "u32", "u32", true},
		{"s_load_dword", "b32", "b32", true},
		// Not implied: type words not at the end, packed forms other than
		// v_pk_, and typeless instructions that are not memory accesses.
		{"v_mfma_f32_32x32x8_f16", "", "", false},
		{"v_mfma_f32_32x32x8f16", "", "", false},
		{"v_cvt_pk_u8_f32", "", "", false},
		{"s_endpgm", "", "", false},
		{"exp", "", "", false},
	} {
		dst, src, ok := SuffixTypes(tc.mnemonic)
		if dst != tc.dst || src != tc.src || ok != tc.ok {
			t.Errorf("SuffixTypes(%s) = %q, %q, %v; want %q, %q, %v", tc.mnemonic, dst, src, ok, tc.dst, tc.src, tc.ok)
		}
	}
}

func TestTypeBitsAndWaveSizes(t *testing.T) {
	for tag, want := range map[string]int{"f32": 32, "f16x2": 32, "b128": 128, "bf16": 16, "u8x4": 32, "f32x4/8": 0, "fx": 0, "m": 0} {
		if got := TypeBits(tag); got != want {
			t.Errorf("TypeBits(%s) = %d, want %d", tag, got, want)
		}
	}
	for size, want := range map[string][3]int{
		"1 dword if wavefront size is 32, otherwise 2 dwords":  {1, 2, 1},
		"4 dwords if wavefront size is 64, otherwise 8 dwords": {8, 4, 1},
		"2 dwords": {0, 0, 0},
	} {
		w32, w64, ok := Operand{Doc: &OperandDoc{Size: size}}.WaveDwords()
		if w32 != want[0] || w64 != want[1] || ok != (want[2] == 1) {
			t.Errorf("%q: %d, %d, %v", size, w32, w64, ok)
		}
	}
	if !IsDataKind("vdata") || IsDataKind("vaddr") || IsDataKind("vcc") || IsDataKind("label") {
		t.Error("IsDataKind")
	}
}

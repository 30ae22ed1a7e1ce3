package isa

import "testing"

func TestBaseMnemonic(t *testing.T) {
	for in, want := range map[string]string{
		"v_mov_b32_dpp8":    "v_mov_b32",
		"v_mov_b32_dpp16":   "v_mov_b32",
		"v_mov_b32_dpp":     "v_mov_b32",
		"v_add_f32_e64_dpp": "v_add_f32",
		"v_add_f32_e64":     "v_add_f32",
		"v_add_f32_e32":     "v_add_f32",
		"v_add_f32_sdwa":    "v_add_f32",
		"v_add_f32":         "v_add_f32",
		"s_mov_b32":         "s_mov_b32",
		"_e64":              "_e64", // nothing left to strip to
		"_e64_dpp":          "_e64", // _dpp leaves a name; _e64_dpp would not
		"":                  "",
	} {
		if got := BaseMnemonic(in); got != want {
			t.Errorf("BaseMnemonic(%q) = %q, want %q", in, got, want)
		}
	}
	if s := EncodingSuffix("v_add_f32_e64_dpp"); s != SuffixE64DPP {
		t.Errorf("EncodingSuffix(v_add_f32_e64_dpp) = %q", s)
	}
	for i := 1; i < len(EncodingSuffixes); i++ {
		if len(EncodingSuffixes[i]) > len(EncodingSuffixes[i-1]) {
			t.Errorf("EncodingSuffixes not longest first: %q after %q", EncodingSuffixes[i], EncodingSuffixes[i-1])
		}
	}
}

func TestMatrixKindOf(t *testing.T) {
	for in, want := range map[string]MatrixKind{
		"v_mfma_f32_32x32x8_f16":    MatrixXDL,
		"v_smfmac_f32_16x16x32_f16": MatrixXDL,
		"v_wmma_f32_16x16x16_f16":   MatrixWMMA,
		"v_swmmac_f32_16x16x32_f16": MatrixWMMA,
		"v_fma_f32":                 NotMatrix,
		"v_pk_fma_f16":              NotMatrix,
	} {
		if got := MatrixKindOf(in); got != want {
			t.Errorf("MatrixKindOf(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestMemoryKindOf(t *testing.T) {
	for in, want := range map[string]MemoryKind{
		"SMRD": ScalarMemory, "ENC_SMEM": ScalarMemory, "vds": DataShare, "VDSDIR": LDSDirect,
		"MTBUF": BufferMemory, "VSAMPLE": ImageMemory, "VGLOBAL": FlatMemory, "VEXPORT": ExportPath,
		"VOP3": NotMemory, "VINTRP": NotMemory, "": NotMemory,
	} {
		if got := MemoryKindOf(in); got != want {
			t.Errorf("MemoryKindOf(%q) = %d, want %d", in, got, want)
		}
	}
}

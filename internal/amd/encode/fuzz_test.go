package encode

import (
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

// FuzzEncode feeds arbitrary assembly text to the encoders (the hand-made
// fixture family and, with the sources, RDNA 3, CDNA 5 and CDNA 3): they
// must never panic, and whatever bytes they return must decode.
func FuzzEncode(f *testing.F) {
	var encoders []*Encoder
	for _, fam := range decodetest.FuzzFamilies("rdna3", "cdna5", "cdna3") {
		e, err := New(fam.Arch, fam.Instrs)
		if err != nil {
			f.Fatal(err)
		}
		encoders = append(encoders, e)
	}
	for _, s := range []string{
		"v_max_f32 v5, -1, v2", "s_add_u32 s5, 1, s2", "v_dual_add_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4",
		"v_dual_fma_f32 v0, -v1, v2, -v3 :: v_dual_add_f32 v5, v6, -v7", "::", "v_dual_mov_b32 :: ",
		"v_pk_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1] neg_hi:[1,1,1] clamp", "s_waitcnt vmcnt(0) lgkmcnt(",
		"s_load_b32 s1, s[2:3], 0x10 th:TH_LOAD_NT", "v_mov_b32 v1, lit(0x3f800000)", "v_fmaak_f32 v1, v2, v3, 1e400",
		"v_add_f32_dpp v1, -v2, v3 row_share:3 fi:1", "v_add_f32_dpp v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0] fi:1",
		"v_add_f32_sdwa v1, -v2, sext(v3) dst_sel:WORD_1 src0_sel:BYTE_2", "v_cmp_eq_u32_sdwa s[2:3], v1, v2",
		"v_add3_u32_e64_dpp v1, v2, v3, v4 quad_perm:[3,2,1,0]", "v_mov_b32_dpp v1, v2 quad_perm:[9,9,9,9]",
		"ds_write2_b32 v1, v2, v3 offset0:4 offset1:8", "global_load_dword v1, v2, s[2:3] offset:-16 sc0",
		"buffer_load_dword v1, v2, s[4:7], s8 offen offset:4", "global_load_b32 v1, v2, s[2:3] th:TH_LOAD_NT",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, asm string) {
		for _, enc := range encoders {
			b, err := enc.Encode(asm)
			if err != nil {
				continue
			}
			if _, n, derr := enc.d.Decode(b, 0); derr != nil || n != len(b) {
				t.Errorf("%q encodes to % x, which does not decode (%d bytes, %v)", asm, b, n, derr)
			}
		}
	})
}

package isa

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestParseMatrix: shapes, blocks (named, or read from the destination
// where a CDNA 1-2 name leaves them out), data types (the wider of mixed
// operands, F8F6F4's from LLVM's opcode) and the work 2·M·N·K·Blocks.
func TestParseMatrix(t *testing.T) {
	for _, tc := range []struct {
		name, asm, opcode string
		m, n, k, blocks   int
		dtype             DType
		sparse            bool
		ops               int64
	}{
		{"v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "", 32, 32, 8, 1, DTypeFP16, false, 16384},
		{"v_mfma_f32_4x4x4_16b_f16", "", "", 4, 4, 4, 16, DTypeFP16, false, 2048},
		{"v_mfma_f32_16x16x16_f16", "", "", 16, 16, 16, 1, DTypeFP16, false, 8192},
		// CDNA 1-2 spell 4x4x4_16b_f16 without its blocks; D's 4 registers
		// over 64 lanes hold 16 4x4 blocks.
		{"v_mfma_f32_4x4x4f16", "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[0:3]", "", 4, 4, 4, 16, DTypeFP16, false, 2048},
		{"v_mfma_f32_32x32x1f32", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31]", "", 32, 32, 1, 2, DTypeFP32, false, 4096},
		{"v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]", "", 32, 32, 8, 1, DTypeFP16, false, 16384},
		{"v_mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8bf16_1k a[0:15], v[0:1], v[2:3], a[0:15]", "", 32, 32, 8, 1, DTypeBF16, false, 16384},
		{"v_mfma_f64_4x4x4f64", "v_mfma_f64_4x4x4f64 v[0:1], v[0:1], v[2:3], v[0:1]", "", 4, 4, 4, 4, DTypeFP64, false, 512},
		{"v_mfma_f64_4x4x4_4b_f64", "", "", 4, 4, 4, 4, DTypeFP64, false, 512},
		{"v_mfma_f64_16x16x4_f64", "v_mfma_f64_16x16x4_f64 v[0:7], v[0:1], v[2:3], v[0:7]", "", 16, 16, 4, 1, DTypeFP64, false, 2048},
		{"v_mfma_i32_4x4x4i8", "v_mfma_i32_4x4x4i8 a[0:3], v0, v1, a[0:3]", "", 4, 4, 4, 16, DTypeINT8, false, 2048},
		{"v_mfma_i32_16x16x64_i8", "", "", 16, 16, 64, 1, DTypeINT8, false, 32768},
		{"v_mfma_f32_16x16x8_xf32", "v_mfma_f32_16x16x8_xf32 a[0:3], v[0:1], v[2:3], a[0:3]", "", 16, 16, 8, 1, DTypeTF32, false, 4096},
		{"v_mfma_f32_16x16x32_fp8_bf8", "", "", 16, 16, 32, 1, DTypeFP8, false, 16384},
		{"v_smfmac_f32_16x16x32_f16", "", "", 16, 16, 32, 1, DTypeFP16, true, 16384},
		{"v_mfma_f32_16x16x128_f8f6f4", "", "V_MFMA_F32_16X16X128_F8F6F4_f8_f8_gfx940_vcd", 16, 16, 128, 1, DTypeFP8, false, 65536},
		{"v_mfma_f32_16x16x128_f8f6f4", "", "V_MFMA_F32_16X16X128_F8F6F4_f4_f6_gfx940_vcd", 16, 16, 128, 1, DTypeFP6, false, 65536},
		{"v_mfma_f32_16x16x128_f8f6f4", "", "", 16, 16, 128, 1, DTypeF8F6F4, false, 65536},
		{"v_mfma_scale_f32_32x32x64_f8f6f4", "", "", 32, 32, 64, 1, DTypeF8F6F4, false, 131072},
		{"v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]", "", 16, 16, 16, 1, DTypeFP16, false, 8192},
		{"v_wmma_i32_16x16x16_iu4", "", "", 16, 16, 16, 1, DTypeINT4, false, 8192},
		{"v_wmma_bf16f32_16x16x32_bf16", "", "", 16, 16, 32, 1, DTypeBF16, false, 16384},
		{"v_wmma_f32_32x16x128_f4", "", "", 32, 16, 128, 1, DTypeFP4, false, 131072},
		{"v_swmmac_i32_16x16x32_iu8", "", "", 16, 16, 32, 1, DTypeINT8, true, 16384},
		{"V_MFMA_16X16X4_F64", "", "", 16, 16, 4, 1, DTypeFP64, false, 2048}, // the guides' shorthand
	} {
		s, err := ParseMatrix(tc.name, tc.asm, tc.opcode)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s.M != tc.m || s.N != tc.n || s.K != tc.k || s.Blocks != tc.blocks || s.DType != tc.dtype || s.Form.Sparse != tc.sparse || s.Ops() != tc.ops {
			t.Errorf("%s (%q): %dx%dx%d ×%d %s sparse=%v ops %d; want %dx%dx%d ×%d %s sparse=%v ops %d", tc.name, tc.opcode,
				s.M, s.N, s.K, s.Blocks, s.DType, s.Form.Sparse, s.Ops(), tc.m, tc.n, tc.k, tc.blocks, tc.dtype, tc.sparse, tc.ops)
		}
	}
	for _, name := range []string{"v_add_f32", "v_mfma_ld_scale_b32", "v_mfma_f32_", "s_mov_b32", "v_dot2_f32_f16", ""} {
		if _, err := ParseMatrix(name, "", ""); !errors.Is(err, ErrNoMatrixShape) {
			t.Errorf("%s: %v, want ErrNoMatrixShape", name, err)
		}
	}
	for _, name := range []string{"v_mfma_f32_16x16x16_q7", "v_mfma_q9_16x16x16_f16", "v_mfma_f32_0x16x16_f16"} {
		if _, err := ParseMatrix(name, "", ""); err == nil || errors.Is(err, ErrNoMatrixShape) {
			t.Errorf("%s: %v, want an error naming what is not understood", name, err)
		}
	}
}

// TestLookupDType: the spellings users type.
func TestLookupDType(t *testing.T) {
	for in, want := range map[string]DType{"f16": DTypeFP16, "FP16": DTypeFP16, "half": DTypeFP16, "i8": DTypeINT8, "xf32": DTypeTF32, "bf8": DTypeFP8, "fp64": DTypeFP64} {
		if got, ok := LookupDType(in); !ok || got != want {
			t.Errorf("LookupDType(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := LookupDType("colour"); ok {
		t.Error("LookupDType accepted colour")
	}
}

// guideMatrixNameRe finds matrix instruction names with a shape in the
// guides' text.
var guideMatrixNameRe = regexp.MustCompile(`(?i)\bV_(?:S?MFMA|S?WMMAC?|SWMMAC)[A-Z0-9_]*\d+X\d+X\d+[A-Z0-9_]*`)

// TestParseMatrixEveryGuideName parses every matrix instruction name with a
// shape in every AMD guide; names the guides' text breaks are listed, with
// the reason, in testdata/matrix_names_tolerated.tsv.
func TestParseMatrixEveryGuideName(t *testing.T) {
	dir := filepath.Join(testenv.Upstream(t), "amd-isa-manuals")
	tolerated := readTolerated(t, filepath.Join("testdata", "matrix_names_tolerated.tsv"))
	names := map[string]string{} // name -> the guide it is first seen in
	for _, a := range Archs() {
		if a.Vendor != VendorAMD {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, a.ID, "README.md"))
		if err != nil {
			t.Fatalf("%s's guide: %v", a.ID, err)
		}
		for _, n := range guideMatrixNameRe.FindAllString(string(b), -1) {
			n = strings.TrimRight(strings.ToLower(n), "_")
			if _, ok := names[n]; !ok {
				names[n] = a.ID
			}
		}
	}
	if len(names) < 100 {
		t.Fatalf("only %d matrix names in the guides: the pattern no longer finds them", len(names))
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	parsed := 0
	for _, n := range sorted {
		_, err := ParseMatrix(n, "", "")
		if _, ok := tolerated[n]; ok {
			if err == nil {
				t.Errorf("%s (%s) parses now: drop it from matrix_names_tolerated.tsv", n, names[n])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s (%s's guide): %v", n, names[n], err)
			continue
		}
		parsed++
	}
	t.Logf("%d matrix names from the guides parsed, %d tolerated", parsed, len(tolerated))
}

// readTolerated reads "name<TAB>reason" lines ('#' comments); errors name
// file:line.
func readTolerated(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, reason, ok := strings.Cut(l, "\t")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("%s:%d: want name<TAB>reason", path, line)
		}
		out[name] = reason
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzParseMatrix: any name and line parse or fail without panicking, and a
// parsed shape has no zero dimension.
func FuzzParseMatrix(f *testing.F) {
	f.Add("v_mfma_f32_4x4x4f16", "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[0:3]", "")
	f.Add("v_mfma_f32_16x16x128_f8f6f4", "", "V_MFMA_F32_16X16X128_F8F6F4_f8_f4_gfx940_vcd")
	f.Add("v_wmma_f32_16x16x16_f16", "x v[9:1]", "")
	f.Fuzz(func(t *testing.T, name, asm, opcode string) {
		s, err := ParseMatrix(name, asm, opcode)
		if err == nil && (s.M <= 0 || s.N <= 0 || s.K <= 0 || s.Blocks <= 0 || s.DType == "") {
			t.Errorf("%q: %+v", name, s)
		}
	})
}

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
)

// TestEval is issue 21's command: eval rdna4 v_max_num_f32 with a NaN and
// 1.0 returns 1.0; rdna3 v_max_f32 with a signalling NaN in IEEE mode
// returns the quieted NaN.
func TestEval(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "eval", "rdna4", "v_max_num_f32", "--s0", "nan", "--s1", "1.0", "--db", testDB)
	if code != 0 || !strings.Contains(out, "D0 = 1 (0x3f800000) f32") {
		t.Errorf("eval rdna4 v_max_num_f32 nan 1.0: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = run(t, "eval", "rdna3", "v_max_f32", "--s0", "snan", "--s1", "1.0", "--db", testDB, "--json")
	var r sem.Response
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || len(r.Lanes) != 1 || r.Lanes[0].Outputs[0].Bits != "0x7fe00000" {
		t.Errorf("eval rdna3 v_max_f32 snan 1.0: exit %d\n%s", code, out)
	}
	out, _, code = run(t, "eval", "rdna3", "v_max_f32", "--s0", "snan", "--s1", "1.0", "--no-ieee", "--db", testDB)
	if code != 0 || !strings.Contains(out, "D0 = 1 (0x3f800000)") {
		t.Errorf("eval rdna3 v_max_f32 snan 1.0 --no-ieee: exit %d\n%s", code, out)
	}
	// Per lane, with the trace.
	out, _, code = run(t, "eval", "rdna4", "v_add_co_u32", "--s0", "0xffffffff,1", "--s1", "1", "--trace", "--db", testDB)
	if code != 0 || !strings.Contains(out, "lane 1:") || !strings.Contains(out, "VCC = 0x00000001") || !strings.Contains(out, "trace:") {
		t.Errorf("eval rdna4 v_add_co_u32 per lane: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"eval", "rdna4", "global_load_b32"},            // memory: not executable
		{"eval", "rdna4", "v_max_num_f32", "--s0", "x"}, // bad value
		{"eval", "ptx", "max"},                          // PTX has no pseudocode to run
		{"eval", "rdna4", "v_max_num_f33"},              // unknown name
	} {
		if _, errOut, code := run(t, append(args, "--db", testDB)...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
}

// TestEvalAsAMDMeansIt is issue 28's pseudocode item on the real
// database: signed zeros in CDNA's V_MAX/V_MIN, shift amounts taken from
// their low bits, every source flag passed through (a missing source is
// an error naming it, exit 2), and matrix operations over whole matrices.
func TestEvalAsAMDMeansIt(t *testing.T) {
	needDB(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cdna3", "v_max_f32", "--s0", "-0", "--s1", "0"}, "D0 = 0 (0x00000000)"},
		{[]string{"cdna3", "v_max_f32", "--s0", "0", "--s1", "-0"}, "D0 = 0 (0x00000000)"},
		{[]string{"cdna3", "v_min_f32", "--s0", "-0", "--s1", "0"}, "D0 = -0 (0x80000000)"},
		{[]string{"cdna3", "v_min_f32", "--s0", "0", "--s1", "-0"}, "D0 = -0 (0x80000000)"},
		{[]string{"cdna3", "v_lshlrev_b32", "--s0", "33", "--s1", "1"}, "D0 = 2 (0x00000002)"},
		{[]string{"cdna3", "s_lshl_b64", "--s0", "1", "--s1", "0xffffffc1"}, "D0 = 2 (0x0000000000000002)"},
		{[]string{"cdna3", "v_fma_f32", "--s0", "1", "--s1", "2", "--s2", "3"}, "D0 = 5 (0x40a00000)"},
		{[]string{"cdna3", "v_cndmask_b32", "--s0", "1", "--s1", "2", "--vcc", "0x1"}, "D0 = 2 (0x00000002)"},
		{[]string{"cdna3", "s_cselect_b32", "--s0", "1", "--s1", "2", "--scc", "0"}, "D0 = 2 (0x00000002)"},
		{[]string{"cdna3", "v_mfma_f32_4x4x4_16b_f16", "--s0", "1", "--s1", "2", "--s2", "0.5"}, "D (4x4 f32), row by row:\n  8.5 8.5 8.5 8.5\n"},
		{[]string{"rdna3", "v_wmma_i32_16x16x16_iu8", "--s0", "0xff", "--s1", "1", "--s2", "0", "--neg", "0"}, "S0 = A, 16x16 i8"},
	} {
		out, errOut, code := run(t, append(append([]string{"eval"}, c.args...), "--db", testDB)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("eval %v: exit %d, want %q\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cdna3", "v_max_f32", "--s0", "1"}, "no value given for S1"},
		{[]string{"cdna3", "v_max_f32", "--s1", "1"}, "no value given for S0"},
		{[]string{"cdna3", "v_fma_f32", "--s0", "1", "--s1", "2"}, "no value given for S2"},
		{[]string{"cdna3", "v_cndmask_b32", "--s0", "1", "--s1", "2"}, "no value given for VCC"},
		{[]string{"cdna3", "s_cselect_b32", "--s0", "1"}, "no value given for S1, SCC"},
		{[]string{"cdna3", "v_fma_f32", "--s0", "1", "--s1", "2", "--s2", "3", "--s3", "4"}, "does not read S3"},
		{[]string{"cdna3", "v_mfma_f32_4x4x4_16b_f16", "--s0", "1", "--s1", "2"}, "no value given for S2 (C)"},
		{[]string{"cdna3", "v_smfmac_f32_16x16x32_f16", "--s0", "1", "--s1", "2", "--s2", "3"}, "A is sparse"},
	} {
		_, errOut, code := run(t, append(append([]string{"eval"}, c.args...), "--db", testDB)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("eval %v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	out, _, code := run(t, "eval", "cdna3", "v_mfma_f32_4x4x4_16b_f16", "--s0", "1", "--s1", "2", "--s2", "0.5", "--json", "--db", testDB)
	var r sem.Response
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Matrix == nil || len(r.Matrix.Values) != 16 || r.Matrix.Bits[0] != "0x41080000" {
		t.Errorf("eval v_mfma_f32_4x4x4_16b_f16 --json: exit %d\n%s", code, out)
	}
}

// TestPortClaimsNoSignedZeroDifference: port's evaluated differences for
// PTX min/max on CDNA 3 (gfx942) come from the same reading of V_MIN/V_MAX:
// only the signalling-NaN difference, no ±0 one.
func TestPortClaimsNoSignedZeroDifference(t *testing.T) {
	needDB(t)
	for _, stmt := range []string{"min.f32 d, a, b;", "max.f32 d, a, b;", "min.f64 d, a, b;"} {
		out, errOut, code := run(t, "port", stmt, "--to", "gfx942", "--db", testDB)
		if code != 0 || !strings.Contains(out, "evaluated: differs when one input is a signalling NaN") {
			t.Errorf("port %q --to gfx942: exit %d, no evaluated signalling-NaN line\n%s%s", stmt, code, out, errOut)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "evaluated:") && (strings.Contains(l, "-0") || strings.Contains(l, "+0")) {
				t.Errorf("port %q --to gfx942 claims a signed-zero difference: %s", stmt, l)
			}
		}
	}
}

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

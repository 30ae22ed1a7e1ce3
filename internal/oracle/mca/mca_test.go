package mca

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func llvmMCA(t *testing.T) string {
	t.Helper()
	p, err := Find()
	if err != nil {
		t.Skipf("llvm-mca not installed (apt-get install llvm-22): skipping a test of LLVM's scheduling model: %v", err)
	}
	return p
}

func TestCostsAsLLVMMCAPrintsThem(t *testing.T) {
	path := llvmMCA(t)
	lines := map[string][]string{
		"gfx942": {
			"v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]",
			"bogus_thing v1",
			"global_load_dword v1, v[2:3], off",
			"v_max_f32 v5, -1, v2",
		},
		"gfx1100": {"v_max_f32 v5, -1, v2"},
	}
	cache := t.TempDir()
	res, err := Run(context.Background(), lines, Options{LLVMMCA: path, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	g := res.Costs["gfx942"]
	if c := g[0]; !c.OK || c.Unit() != "HWXDL" || c.Resources[0].Cycles == 0 || c.Latency == 0 || c.Opcode == "" {
		t.Errorf("v_mfma_f32_32x32x8_f16 on gfx942: %+v, want HWXDL with a pass count, a latency and LLVM's opcode", c)
	}
	if c := g[1]; c.OK || c.Error == "" {
		t.Errorf("an invalid line: %+v, want llvm-mca's error", c)
	}
	if c := g[2]; !c.OK || c.Unit() != "HWVMEM" || !c.MayLoad || c.MayStore {
		t.Errorf("global_load_dword on gfx942: %+v, want HWVMEM and may-load", c)
	}
	if c := g[3]; !c.OK || c.Unit() != "HWVALU" || c.Latency != 1 {
		t.Errorf("v_max_f32 on gfx942: %+v", c)
	}
	if c := res.Costs["gfx1100"][0]; !c.OK || c.Unit() != "HWVALU" {
		t.Errorf("v_max_f32 on gfx1100: %+v, want HWVALU", c)
	}
	// Again: every answer from the cache, no process.
	again, err := Run(context.Background(), lines, Options{LLVMMCA: path, CacheDir: cache})
	if err != nil || again.Processes != 0 || again.CacheHits != 5 {
		t.Fatalf("second run: %v, %d processes, %d hits; want 0 and 5", err, again.Processes, again.CacheHits)
	}
}

// TestLineThatCrashesIsRunAloneOnLaterTargets: a line llvm-mca aborts on
// (as llvm-mca 22 does on gfx9's buffer_load_*_d16) is found by bisecting
// the first target's batch; every later target runs it alone beside one
// batch of the rest, two processes, and the other lines keep their costs.
func TestLineThatCrashesIsRunAloneOnLaterTargets(t *testing.T) {
	real := llvmMCA(t)
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	wrapper := filepath.Join(dir, "llvm-mca")
	script := "#!/bin/sh\nfor a; do f=\"$a\"; done\necho \"$*\" >> " + calls + "\n" +
		"if [ -f \"$f\" ] && grep -q CRASH \"$f\"; then kill -ABRT $$; fi\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var batch []string
	for i := range 40 {
		batch = append(batch, fmt.Sprintf("v_add_f32 v%d, v1, v2", i))
	}
	batch = append(batch[:17], append([]string{"v_max_f32 v5, v1, v2 ; CRASH"}, batch[17:]...)...)
	targets := []string{"gfx900", "gfx906", "gfx908"}
	lines := map[string][]string{}
	for _, tg := range targets {
		lines[tg] = batch
	}
	res, err := Run(context.Background(), lines, Options{LLVMMCA: wrapper, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		for i, c := range res.Costs[tg] {
			if crash := strings.Contains(batch[i], "CRASH"); c.OK == crash {
				t.Errorf("%s %q: %+v, want ok=%v", tg, batch[i], c, !crash)
			}
		}
	}
	b, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		for _, tg := range targets {
			if strings.Contains(l, "-mcpu="+tg+" ") {
				per[tg]++
			}
		}
	}
	bisected := 0
	for _, tg := range targets {
		switch n := per[tg]; {
		case n > 2:
			bisected++
		case n != 2:
			t.Errorf("%s: %d llvm-mca processes, want 2 (the line alone, the rest) or a bisection", tg, n)
		}
	}
	if bisected != 1 {
		t.Errorf("processes per target %v: want one target bisected and the others 2 each", per)
	}
}

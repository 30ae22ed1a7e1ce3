package mca

import (
	"context"
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

package web

import (
	"strings"
	"testing"
)

// FuzzRealRequests sends arbitrary paths and queries to the handlers over
// the real database (realDB): no panic, no 500, and every answer carries the
// build id. Run it with
//
//	go test ./internal/serve/web -run XXX -fuzz FuzzRealRequests -fuzztime 60s
func FuzzRealRequests(f *testing.F) {
	for _, seed := range []string{
		"/amdgpu/cdna4/v_max_f32", "/amdgpu/rdna3.5/v_max_f32_e64", "/amdgpu/gfx942/V_MFMA_F32_32X32X8_F16",
		"/ptx/max", "/ptx/ld.global.v4.f32", "/ptx/%25tid", "/compare/v_max_f32", "/compare/nope", "/concepts/max",
		"/quality/cdna4", "/quality/ptx", "/search?q=0x160a04c1", "/search?q=fused+multiply&arch=rdna4",
		"/decode?arch=cdna4&hex=%5B0xc1%2C0x04%2C0x0a%2C0x16%5D", "/api/v1/decode?arch=rdna3&hex=7e020280",
		"/api/v1/encode?arch=rdna3&asm=v_max_f32+v5%2C+-1%2C+v2", "/api/v1/search?q=max&limit=200",
		"/api/v1/archs/ptx/instructions/mma", "/amdgpu/cdna4/%00", "/static/../../go.mod", "/search?q=" + strings.Repeat("a", 300),
	} {
		f.Add(seed)
	}
	s := realServer(f)
	f.Fuzz(func(t *testing.T, target string) {
		rec := fuzzGet(s, target)
		if rec == nil {
			return
		}
		if rec.Code >= 500 {
			t.Fatalf("GET %q: %d %.300s", target, rec.Code, rec.Body)
		}
		if rec.Header().Get(BuildHeader) == "" {
			t.Fatalf("GET %q: no %s", target, BuildHeader)
		}
	})
}

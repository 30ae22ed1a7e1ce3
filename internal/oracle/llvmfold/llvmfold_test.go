package llvmfold

import (
	"context"
	"testing"
)

func TestConstants(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []uint64
	}{
		{"float 1.000000e+00", []uint64{0x3f800000}},
		{"float 0x7FF4000000000000", []uint64{0x7fa00000}}, // a signalling NaN stays one
		{"float 0xFFF8000000000000", []uint64{0xffc00000}},
		{"double -2.500000e-01", []uint64{0xbfd0000000000000}},
		{"half 0xH3C00", []uint64{0x3c00}},
		{"bfloat 0xR7FC0", []uint64{0x7fc0}},
		{"i32 -1", []uint64{0xffffffff}},
		{"i1 true", []uint64{1}},
		{"<2 x half> splat (half 0xH3C00)", []uint64{0x3c00, 0x3c00}},
		{"<2 x half> <half 0xH0001, half 0xH8000>", []uint64{1, 0x8000}},
		{"<2 x i16> zeroinitializer", []uint64{0, 0}},
	} {
		got, err := Parse(c.in)
		if err != nil || len(got) != len(c.want) {
			t.Errorf("Parse(%q) = %v, %v", c.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Parse(%q)[%d] = %#x, want %#x", c.in, i, got[i], c.want[i])
			}
		}
	}
	// Written and read back, NaN payloads included.
	for _, b := range []uint64{0, 0x80000000, 0x7f800001, 0xffc00001, 0x00000001, 0x7f7fffff} {
		got, err := Parse(Float("float", b))
		if err != nil || got[0] != b {
			t.Errorf("float %#x: %s reads back as %v, %v", b, Float("float", b), got, err)
		}
	}
	for _, bad := range []string{"float", "float 1.1", "i32 x", "<3 x half> <half 0xH0>", "ptr null"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestRun(t *testing.T) {
	path, err := Find()
	if err != nil {
		t.Skipf("no opt: %v", err)
	}
	qs := []Query{
		{Ret: "float", Body: "%r = call float @llvm.fma.f32(float 2.0, float 3.0, float 1.0)"},
		{Ret: "i32", Body: "%r = call i32 @llvm.amdgcn.ubfe.i32(i32 305419896, i32 4, i32 8)"},
		{Ret: "float", Body: "%r = call float @llvm.amdgcn.rsq.f32(float 4.0)"}, // LLVM does not fold rsq
	}
	dir := t.TempDir()
	ans, st, err := Run(context.Background(), "gfx1200", qs, Options{Opt: path, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if st.Processes != 1 || !ans[0].Folded || ans[0].Value != "float 7.000000e+00" || ans[1].Value != "i32 103" || ans[2].Folded {
		t.Errorf("answers %+v, stats %+v", ans, st)
	}
	// The same queries again come from the cache.
	if _, st, err := Run(context.Background(), "gfx1200", qs, Options{Opt: path, CacheDir: dir}); err != nil || st.Processes != 0 || st.CacheHits != 3 {
		t.Errorf("second run: %+v, %v", st, err)
	}
}

// TestRunCachesEachQuery: a corpus that gains a query asks opt only the new
// one, and every answer is the one a cold run gives (instcombine folds each
// function alone, so a query's neighbours do not change its answer).
func TestRunCachesEachQuery(t *testing.T) {
	path, err := Find()
	if err != nil {
		t.Skipf("no opt: %v", err)
	}
	ctx := context.Background()
	a := Query{Ret: "float", Body: "%r = call float @llvm.fma.f32(float 2.0, float 3.0, float 1.0)"}
	b := Query{Ret: "i32", Body: "%r = call i32 @llvm.amdgcn.ubfe.i32(i32 305419896, i32 4, i32 8)"}
	c := Query{Ret: "float", Body: "%r = call float @llvm.minnum.f32(float 0x7FF8000000000000, float 2.0)"}
	dir := t.TempDir()
	if _, _, err := Run(ctx, "gfx1200", []Query{a, b}, Options{Opt: path, CacheDir: dir}); err != nil {
		t.Fatal(err)
	}
	warm, st, err := Run(ctx, "gfx1200", []Query{c, a, c, b}, Options{Opt: path, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if st.Processes != 1 || st.Folded != 1 || st.CacheHits != 2 {
		t.Errorf("stats %+v, want one process folding the one new query", st)
	}
	cold, _, err := Run(ctx, "gfx1200", []Query{c, a, c, b}, Options{Opt: path})
	if err != nil {
		t.Fatal(err)
	}
	for i := range cold {
		if warm[i] != cold[i] {
			t.Errorf("query %d: cached %+v, cold %+v", i, warm[i], cold[i])
		}
	}
	if !warm[0].Folded || warm[0] != warm[2] {
		t.Errorf("the repeated query: %+v, %+v", warm[0], warm[2])
	}
}

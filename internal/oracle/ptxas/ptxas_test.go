package ptxas_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func session(t *testing.T) *ptxas.Session {
	t.Helper()
	return ptxas.NewSession(testenv.PTXAS(t), t.TempDir())
}

func TestTargets(t *testing.T) {
	s := session(t)
	infos, err := s.Targets(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	min := map[string]string{}
	for _, i := range infos {
		min[i.Target] = i.MinPTX
		t.Logf("%s: ptxas %s, PTX %s..%s", i.Target, i.Tool, i.MinPTX, i.Versions[len(i.Versions)-1])
	}
	// NVIDIA's release notes: sm_90 came with PTX 7.8, sm_80 with 7.0,
	// sm_100 with 8.6, sm_75 with 6.3.
	for target, want := range map[string]string{"sm_75": "6.3", "sm_80": "7.0", "sm_90": "7.8", "sm_100": "8.6"} {
		if min[target] != want {
			t.Errorf("%s: min PTX %q, want %s", target, min[target], want)
		}
	}
	if _, ok := min["sm_50"]; !ok {
		t.Errorf("sm_50 missing: the CUDA 12.9 ptxas (nvidia-cuda-nvcc-cu12) should provide it")
	}
}

func unit(body string) ptxas.Unit {
	return ptxas.Unit{Entry: ".visible .entry $U()\n{\n" + body + "\nret;\n}"}
}

func TestAssembleMapsMessagesToUnits(t *testing.T) {
	s := session(t)
	units := []ptxas.Unit{
		unit(".reg .f32 d, a, b;\nmax.NaN.f32 d, a, b;"),
		unit(".reg .f32 d, a, b;\nmax.f32 d, a, b;"),
		unit(".reg .f32 d, a, b;\nmax.f32 d, a b;"), // a syntax error: fatal
		unit(".reg .f32 d, a, b;\nbogus.f32 d, a, b;"),
		unit(".reg .f32 d, a, b;\nmin.f32 d, a, b;"),
	}
	res, err := s.Assemble(context.Background(), "9.1", "sm_75", units)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		ok    bool
		error string
	}{
		{false, "requires .target sm_80"},
		{true, ""},
		{false, "syntax error"},
		{false, "Not a name of any known instruction"},
		{true, ""},
	}
	for i, w := range want {
		if res[i].OK != w.ok || !strings.Contains(res[i].Message(), w.error) {
			t.Errorf("unit %d: %+v, want ok=%v error containing %q", i, res[i], w.ok, w.error)
		}
	}
	if !res[2].Fatal {
		t.Errorf("unit 2: the syntax error should be marked fatal")
	}
	st := s.Stats()
	// Again: every answer from the cache, no process.
	if _, err := s.Assemble(context.Background(), "9.1", "sm_75", units); err != nil {
		t.Fatal(err)
	}
	if s2 := s.Stats(); s2.Processes != st.Processes || s2.CacheHits != st.CacheHits+int64(len(units)) {
		t.Errorf("second run: %+v after %+v, want no process and %d hits", s2, st, len(units))
	}
}

func TestDisassembleSplitsFunctions(t *testing.T) {
	s := session(t)
	if s.Tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed: skipping the SASS listing test")
	}
	io := ".visible .entry $U(.param .u64 io)\n{\n.reg .b64 p;\n.reg .b32 a, b, d;\nld.param.u64 p, [io];\nld.global.b32 a, [p+4];\nld.global.b32 b, [p+8];\n"
	units := []ptxas.Unit{
		{Entry: io + "max.NaN.f32 d, a, b;\nst.global.b32 [p], d;\nret;\n}"},
		{Entry: io + "min.f32 d, a, b;\nst.global.b32 [p], d;\nret;\n}"},
		{Entry: io + "max.NaN.f32 d, a b;\nret;\n}"}, // rejected: no listing, but the others still compile
		{Entry: io + "max.NaN.f32 d, a, b;\nst.global.b32 [p+4], d;\nret;\n}"},
	}
	s.ParseOnly = true // the grid's mode; listings still generate code
	res, err := s.Disassemble(context.Background(), "9.1", "sm_90", units)
	if err != nil {
		t.Fatal(err)
	}
	has := func(l ptxas.Listing, op string) bool {
		for _, x := range l.Lines {
			if strings.HasPrefix(x.Text, op) {
				return true
			}
		}
		return false
	}
	if !res[0].OK || !has(res[0], "FMNMX.NAN") {
		t.Errorf("max.NaN.f32 on sm_90: %+v, want an FMNMX.NAN", res[0])
	}
	if !res[1].OK || !has(res[1], "FMNMX") || has(res[1], "FMNMX.NAN") {
		t.Errorf("min.f32 on sm_90: %+v, want a plain FMNMX", res[1])
	}
	if res[2].OK || res[2].Error == "" {
		t.Errorf("a rejected unit: %+v, want ptxas's error", res[2])
	}
	if !res[3].OK || !has(res[3], "FMNMX.NAN") {
		t.Errorf("the unit after a rejected one: %+v, want its listing", res[3])
	}
	for _, l := range res[0].Lines {
		if l.Control == "" || !strings.HasPrefix(l.Control, "S") {
			t.Errorf("%q: control %q, want the decoded stall/barrier bits", l.Text, l.Control)
		}
	}
}

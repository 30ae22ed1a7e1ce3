package ptxoracle

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func engine(t *testing.T) *Engine {
	t.Helper()
	s := ptxas.NewSession(testenv.PTXAS(t), ptxas.DefaultCacheDir())
	s.ParseOnly = true
	e, err := New(context.Background(), s, ptxharness.NewHarness(nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func target(v Verdict, t string) TargetResult {
	for _, r := range v.Targets {
		if r.Target == t {
			return r
		}
	}
	return TargetResult{}
}

func TestMaxNaNNeedsSM80(t *testing.T) {
	e := engine(t)
	vs, err := e.Check(context.Background(), []Item{
		{Stmt: ptx.Statement{Text: "max.NaN.f32 d, a, b;"}},
		{Stmt: ptx.Statement{Text: "max.f32 d, a, b, c;"}},
		{Stmt: ptx.Statement{Text: "max.NaN.f32 d, a;"}},
		// The harness's first typing is wrong on purpose (a 16-bit d):
		// the search must find the 32-bit one.
		{Stmt: ptx.Statement{Text: "max.f32 d, a, b;", OperandTypes: map[int]string{0: ".b16"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	nan := vs[0]
	if r := target(nan, "sm_80"); !r.OK || r.MinPTX != "7.0" {
		t.Errorf("max.NaN.f32 on sm_80: %+v, want accepted from PTX 7.0", r)
	}
	if r := target(nan, "sm_75"); r.OK || !strings.Contains(r.Message, "sm_80") {
		t.Errorf("max.NaN.f32 on sm_75: %+v, want rejected, naming sm_80", r)
	}
	if tg, v, _ := nan.MinTarget(); tg != "sm_80" || v != "7.0" {
		t.Errorf("max.NaN.f32: lowest %s / PTX %s, want sm_80 / 7.0", tg, v)
	}
	if tg, _, _ := vs[1].MinTarget(); tg != "sm_100" {
		t.Errorf("three-input max.f32: lowest target %q, want sm_100", tg)
	}
	if vs[2].Status != Rejected {
		t.Errorf("max.NaN.f32 with two operands: %s, want rejected", vs[2].Status)
	}
	if vs[3].Status != Accepted || !vs[3].Searched {
		t.Errorf("max.f32 typed wrong at first: %s searched=%v (%s), want accepted after the search", vs[3].Status, vs[3].Searched, vs[3].Message)
	}
}

func TestSASSNamesTheMaxInstruction(t *testing.T) {
	e := engine(t)
	if e.Session.Tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed: skipping the SASS test")
	}
	vs, err := e.Check(context.Background(), []Item{{Stmt: ptx.Statement{Text: "max.f32 d, a, b;"}}})
	if err != nil {
		t.Fatal(err)
	}
	sass, err := e.SASS(context.Background(), vs, map[int]bool{0: true}, []string{"sm_90"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sass[0]) != 1 || len(sass[0][0].Lines) != 1 || !strings.HasPrefix(sass[0][0].Lines[0].Text, "FMNMX ") {
		t.Fatalf("max.f32 on sm_90: %+v, want one FMNMX and none of the harness's loads and stores", sass[0])
	}
}

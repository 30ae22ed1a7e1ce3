package ptxbench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestKernelsAssemble builds both kernels of every default statement and
// has ptxas (code generation for sm_90) accept them: at least 20 forms.
func TestKernelsAssemble(t *testing.T) {
	tools := testenv.PTXAS(t)
	h := ptxharness.NewHarness(nil)
	var units []ptxas.Unit
	var names []string
	for _, s := range DefaultStatements {
		b, err := Make(h, s, "8.0", "sm_90")
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		for _, mod := range []string{b.Latency, b.Throughput} {
			units = append(units, Unit(mod))
			names = append(names, s)
		}
	}
	if len(units) < 40 {
		t.Fatalf("%d kernels, want both kernels of at least 20 statements", len(units))
	}
	s := ptxas.NewSession(tools, t.TempDir())
	res, err := s.Assemble(context.Background(), "8.0", "sm_90", units)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range res {
		if !o.OK {
			t.Errorf("%s: ptxas rejects its kernel: %s", names[i], o.Message())
		}
	}
	// The compiler keeps the chain: the latency kernel's SASS holds at
	// least Chain instructions of its own for most statements.
	if tools.NVDisasm != "" {
		var lat []ptxas.Unit
		for i := 0; i < len(units); i += 2 {
			lat = append(lat, units[i])
		}
		ls, err := s.Disassemble(context.Background(), "8.0", "sm_90", lat)
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		for i, l := range ls {
			if n := Unrolled(l.Lines); n >= Chain {
				kept++
			} else {
				t.Logf("%s: the compiler folds the chain to %d instructions", names[2*i], n)
			}
		}
		if kept < 20 {
			t.Errorf("only %d latency kernels keep their %d-instruction chain, want at least 20", kept, Chain)
		}
	}
	if !strings.Contains(HostProgram([]Bench{{Statement: "add.s32 d, a, b;", Latency: ".x", Throughput: ".y"}}), "cuModuleLoadData") {
		t.Errorf("the host program does not load the kernels")
	}
}

func TestMakeRefusesWhatCannotChain(t *testing.T) {
	h := ptxharness.NewHarness(nil)
	for _, s := range []string{"setp.lt.f32 p, a, b;", "ld.global.f32 d, [a];", "cvt.f64.f32 d, a;"} {
		if _, err := Make(h, s, "8.0", "sm_90"); err == nil {
			t.Errorf("%s: a benchmark was made; its result cannot feed its next input", s)
		}
	}
}

// TestHostProgramCompiles checks the host program's C++ against CUDA's
// headers (g++ -fsyntax-only) where the runtime wheel put them.
func TestHostProgramCompiles(t *testing.T) {
	inc := ptxas.CUDAInclude(ptxas.DefaultCacheDir())
	gxx, err := exec.LookPath("g++")
	if inc == "" || err != nil {
		t.Skip("no cuda.h (gpuisa tools install puts it into the cache) or no g++: skipping the host program's compile check")
	}
	b, err := Make(ptxharness.NewHarness(nil), "fma.rn.f32 d, a, b, c;", "8.0", "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "bench.cu")
	if err := os.WriteFile(src, []byte(HostProgram([]Bench{b})), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gxx, "-fsyntax-only", "-x", "c++", "-I"+inc, src).CombinedOutput(); err != nil {
		t.Fatalf("g++ -fsyntax-only: %v\n%s", err, out)
	}
}

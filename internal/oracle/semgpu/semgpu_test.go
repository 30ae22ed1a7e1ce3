package semgpu

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx/semptx"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestKernelsAssemble has ptxas (sm_90) accept the kernel of nearly every
// PTX model, and the whole module of the accepted ones. No GPU is needed;
// running them is for a lent one (gpuisa semgpu).
func TestKernelsAssemble(t *testing.T) {
	tools := testenv.PTXAS(t)
	b, err := Generate(semptx.Models(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var units []ptxas.Unit
	for _, k := range b.Kernels {
		units = append(units, ptxas.Unit{Entry: k.EntryText()})
	}
	s := ptxas.NewSession(tools, t.TempDir())
	res, err := s.Assemble(context.Background(), Version, Target, units)
	if err != nil {
		t.Fatal(err)
	}
	keep := make([]bool, len(res))
	accepted := 0
	for i, o := range res {
		keep[i] = o.OK
		if o.OK {
			accepted++
		} else {
			t.Logf("ptxas rejects %s: %s", b.Kernels[i].Stmt, o.Message())
		}
	}
	if accepted < len(res)-4 {
		t.Errorf("ptxas accepts %d of %d kernels", accepted, len(res))
	}
	kept := b.Keep(keep)
	msgs, err := s.AssembleModule(context.Background(), Target, kept.Module)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Severity != "warning" {
			t.Errorf("the module: line %d: %s", m.Line, m.Message)
		}
	}
	t.Logf("%d kernels, %d accepted; the module has %d cases", len(res), accepted, cases(kept))
}

func cases(b *Bundle) int {
	n := 0
	for _, k := range b.Kernels {
		n += len(k.Inputs)
	}
	return n
}

// TestHostProgramCompiles checks the host program against CUDA's headers.
func TestHostProgramCompiles(t *testing.T) {
	inc := ptxas.CUDAInclude(ptxas.DefaultCacheDir())
	gxx, err := exec.LookPath("g++")
	if inc == "" || err != nil {
		t.Skip("no cuda.h (gpuisa tools install puts it into the cache) or no g++: skipping the host program's compile check")
	}
	b, err := Generate(semptx.Models()[:5], Options{Random: 3})
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "semgpu.cu")
	if err := os.WriteFile(src, []byte(b.Host), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gxx, "-fsyntax-only", "-x", "c++", "-I"+inc, src).CombinedOutput(); err != nil {
		t.Fatalf("g++ -fsyntax-only: %v\n%s", err, out)
	}
}

// TestCompare reads a results file as the host program prints it and
// holds the models to it: agreeing values, an unspecified NaN, a mismatch.
func TestCompare(t *testing.T) {
	m := semptx.Lookup("max", ".f32")
	b, err := Generate([]*semptx.Model{m}, Options{Random: 1})
	if err != nil {
		t.Fatal(err)
	}
	k := b.Kernels[0]
	var file strings.Builder
	file.WriteString("# gpuisa semgpu results\n# gpu\tNVIDIA H200\n# target\tsm_90\n# driver\t13000\n")
	for i, in := range k.Inputs {
		want := m.Eval(in)
		switch i {
		case 0:
			want ^= 1 // a wrong answer
		case 1:
			if m.Ret.Float.IsNaN(want) {
				want = 0x7fc00001 // another NaN: agrees
			}
		}
		fmt.Fprintf(&file, "%s\t%d\t%s\t0x%x\n", k.Entry, i, inputKey(in), want)
	}
	r, err := Read(strings.NewReader(file.String()), "results.tsv")
	if err != nil {
		t.Fatal(err)
	}
	c := Compare(b, r)
	if c.GPU != "NVIDIA H200" || c.Statements != 1 || c.Cases != len(k.Inputs) || c.Agree != len(k.Inputs)-1 || len(c.Mismatches) != 1 {
		t.Errorf("comparison %+v", c)
	}
	if _, err := Read(strings.NewReader("k\t1\n"), "bad.tsv"); err == nil {
		t.Error("a malformed line was accepted")
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func TestPTXSASSNamesTheMaxInstruction(t *testing.T) {
	needDB(t)
	tools := testenv.PTXAS(t)
	if tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed: skipping the SASS test")
	}
	out, errOut, code := run(t, "ptx", "sass", "max.f32 d, a, b;", "--target", "sm_90", "--db", testDB)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if !strings.Contains(out, "sm_90:") || !strings.Contains(out, "FMNMX") {
		t.Errorf("ptx sass max.f32 on sm_90:\n%s\nwant a FMNMX line", out)
	}
	if strings.Contains(out, "STG") || strings.Contains(out, "LDG") {
		t.Errorf("the harness's loads and stores are listed:\n%s", out)
	}
	out, _, code = run(t, "ptx", "sass", "max.NaN.f32 d, a, b;", "--target", "sm_75,sm_80", "--db", testDB)
	if code != 0 || !strings.Contains(out, "sm_75: not supported: Modifier '.NaN' requires .target sm_80") || !strings.Contains(out, "FMNMX.NAN") {
		t.Errorf("ptx sass max.NaN.f32 on sm_75 and sm_80 (exit %d):\n%s", code, out)
	}
}

func TestPTXCheckWithPTXAS(t *testing.T) {
	needDB(t)
	testenv.PTXAS(t)
	out, _, code := run(t, "ptx", "check", "--ptxas", "max.NaN.f32 d, a, b;", "--db", testDB)
	if code != 0 || !strings.Contains(out, "ptxas: accepted from sm_80 with PTX ISA 7.0") {
		t.Errorf("ptx check --ptxas max.NaN.f32 (exit %d):\n%s", code, out)
	}
	// A file whose .target is too low for one line: both verdicts are given.
	file := filepath.Join(t.TempDir(), "k.ptx")
	src := ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .f32 d, a, b;\nmax.NaN.f32 d, a, b;\nmax.f32 d, a, b;\nret;\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = run(t, "ptx", "check", "--ptxas", file, "--db", testDB)
	if code != 1 || !strings.Contains(out, "ptxas sm_75: 1 errors") || !strings.Contains(out, "k.ptx:7: ptxas sm_75 and the checker reject") {
		t.Errorf("ptx check --ptxas on a file (exit %d):\n%s", code, out)
	}
}

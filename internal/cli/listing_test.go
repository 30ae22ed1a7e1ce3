package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeCodeObject: a code object decodes without --arch (the target
// from e_flags through LLVM's table), with its kernel and descriptor;
// explain annotates it; encode assembles a file with labels.
func TestDecodeCodeObject(t *testing.T) {
	needDB(t)
	if _, err := exec.LookPath("llc-22"); err != nil {
		t.Skip("llc-22 not on PATH")
	}
	dir := t.TempDir()
	ll := filepath.Join("..", "amd", "decode", "testdata", "kernels.ll")
	obj := filepath.Join(dir, "k.o")
	if out, err := exec.Command("llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o", obj, ll).CombinedOutput(); err != nil {
		t.Fatalf("llc-22: %v %s", err, out)
	}
	out := runOut(t, "decode", obj, "--db", testDB)
	for _, w := range []string{"gfx942", "saxpy:  // kernel: LDS 1024 B", "s_cbranch_execz .LBB0_1", "<saxpy+0x104>", "s_nop 0 ×"} {
		if !strings.Contains(out, w) {
			t.Errorf("decode lacks %q:\n%s", w, firstLines(out, 12))
		}
	}
	var doc struct {
		Target       string `json:"target"`
		Instructions []struct {
			Text string `json:"text"`
		} `json:"instructions"`
		Sections []struct {
			Kernels []struct{ Name string } `json:"kernels"`
		} `json:"sections"`
	}
	if err := json.Unmarshal([]byte(runOut(t, "decode", obj, "--json", "--db", testDB)), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Target != "gfx942" || len(doc.Instructions) < 50 || len(doc.Sections) != 1 || len(doc.Sections[0].Kernels) != 3 {
		t.Errorf("JSON: target %q, %d instructions, sections %+v", doc.Target, len(doc.Instructions), doc.Sections)
	}
	out = runOut(t, "explain", obj, "--also", "gfx1100", "--db", testDB)
	for _, w := range []string{"// kernel saxpy:", "by unit: VALU", "VMEM +vmcnt", "on gfx1100", "model estimate (LLVM's scheduling model), not a measurement"} {
		if !strings.Contains(out, w) {
			t.Errorf("explain lacks %q", w)
		}
	}
	// The dump llvm-objdump writes, pasted: the same instructions.
	dump, err := exec.Command("llvm-objdump-22", "-d", obj).Output()
	if err != nil {
		t.Skip("llvm-objdump-22:", err)
	}
	dumpFile := filepath.Join(dir, "k.dump")
	os.WriteFile(dumpFile, dump, 0o644)
	// (Only the instruction lines: a dump carries no kernel descriptors.)
	got, want := instLines(runOut(t, "decode", "--arch", "gfx942", dumpFile, "--db", testDB)), instLines(runOut(t, "decode", obj, "--db", testDB))
	if got != want || len(got) < 1000 {
		t.Errorf("the pasted dump lists differently:\n%s\nvs\n%s", firstLines(got, 8), firstLines(want, 8))
	}
	// A file of assembly with a label and a comment.
	asm := filepath.Join(dir, "k.s")
	os.WriteFile(asm, []byte("; a loop\nloop:\n  v_max_f32 v5, -1, v2\n  s_cbranch_scc1 loop\n  v_nosuch v1\n"), 0o644)
	out, errOut, code := run(t, "encode", "--arch", "cdna3", asm, "--show-encoding", "--db", testDB)
	if code != 1 || !strings.Contains(out, "v_max_f32_e32 v5, -1, v2") || !strings.Contains(out, "; encoding: [0xfe,0xff,0x85,0xbf]") ||
		!strings.Contains(errOut, "k.s:5: error:") {
		t.Errorf("encode file: exit %d\n%s%s", code, out, errOut)
	}
}

func firstLines(s string, n int) string {
	ls := strings.SplitN(s, "\n", n+1)
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "\n")
}

// instLines keeps a listing's instruction lines.
func instLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "  ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

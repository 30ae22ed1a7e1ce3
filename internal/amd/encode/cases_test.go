package encode

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// encodeCase is one case of the shared table the encoder checks.
type encodeCase struct {
	arch, asm, want string // want: llvm-mc's bytes, or "error: MSG"
	line            int
}

// readCases reads the cases of the shared table (decodetest/asm.tsv) the
// encoder checks: the assembly and llvm-mc's bytes.
func readCases(t *testing.T) []encodeCase {
	t.Helper()
	cases, err := decodetest.Cases()
	if err != nil {
		t.Fatal(err)
	}
	var out []encodeCase
	for _, c := range cases {
		if c.Encodes() {
			out = append(out, encodeCase{arch: c.Arch, asm: c.Asm, want: c.Hex, line: c.Line})
		}
	}
	return out
}

// TestCases encodes every line of decodetest/asm.tsv with the family's
// encoder built from the real model.
func TestCases(t *testing.T) {
	if testenv.FindUpstream() == "" {
		t.Skip("shared/upstream not found (set GPUISA_SOURCES); the cases need the real model")
	}
	encoders := map[string]*Encoder{}
	for _, c := range readCases(t) {
		e := encoders[c.arch]
		if e == nil {
			e = familyEncoder(t, c.arch)
			encoders[c.arch] = e
		}
		got, err := e.Encode(c.asm)
		if msg, ok := strings.CutPrefix(c.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("decodetest/asm.tsv:%d: %s %q: got %s, %v; want an error saying %q", c.line, c.arch, c.asm, hexs(got), err, msg)
			}
			continue
		}
		want, perr := decode.ParseInput([]byte(c.want))
		if perr != nil {
			t.Fatalf("decodetest/asm.tsv:%d: %v", c.line, perr)
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("decodetest/asm.tsv:%d: %s %q: got %s, %v; want %s", c.line, c.arch, c.asm, hexs(got), err, hexs(want))
		}
	}
}

// TestCasesMatchLLVM checks the table against llvm-mc 22: the bytes it
// gives for each line, and its refusal of the lines the encoder refuses.
func TestCasesMatchLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to check decodetest/asm.tsv against it")
	}
	mcpu := map[string]string{}
	for _, f := range familiesLLVM {
		mcpu[f.Arch] = f.MCPU
	}
	for _, c := range readCases(t) {
		encs, errs, err := decodetest.Assemble(mcpu[c.arch], []string{c.asm}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(c.want, "error: ") {
			if errs[0] == "" {
				t.Errorf("decodetest/asm.tsv:%d: llvm-mc -mcpu=%s assembles %q to %s; the table says it is refused", c.line, mcpu[c.arch], c.asm, hexs(encs[0]))
			}
			continue
		}
		want, _ := decode.ParseInput([]byte(c.want))
		if !bytes.Equal(encs[0], want) {
			t.Errorf("decodetest/asm.tsv:%d: llvm-mc -mcpu=%s gives %s (%s) for %q; the table says %s", c.line, mcpu[c.arch], hexs(encs[0]), errs[0], c.asm, hexs(want))
		}
	}
}

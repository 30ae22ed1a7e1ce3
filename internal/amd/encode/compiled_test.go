package encode

import (
	"encoding/binary"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// objdumpLine is one instruction line of llvm-objdump -d: the text, then
// "// ADDRESS: WORD WORD...".
var objdumpLine = regexp.MustCompile(`^\s+(\S.*?)\s*// [0-9A-F]+: ((?:[0-9A-F]{8} ?)+)`)

// lossyText lists what llvm-objdump prints without the bits that make llc's
// bytes: the text alone assembles (with llvm-mc too) to other bytes.
var lossyText = map[string]string{
	"cdna2 buffer_wbl2": "llc sets GLC and SCC (a system-scope write-back), which gfx90a's disassembly does not print",
}

// TestCompiledKernels assembles, with the encoder, every instruction
// llvm-objdump-22 prints for the decoder's test kernels compiled by llc-22
// (../decode/testdata/kernels.ll) on every family, and wants llvm's bytes:
// real compiler output, not examples.
func TestCompiledKernels(t *testing.T) {
	if !decodetest.HaveCompiler() || testenv.FindUpstream() == "" {
		t.Skip("llc-22 / llvm-objdump-22 not on PATH or no upstream sources: nothing to compile the test kernels with")
	}
	for _, f := range familiesLLVM {
		t.Run(f.Arch, func(t *testing.T) {
			enc := familyEncoder(t, f.Arch)
			_, out, err := decodetest.CompileKernels("../decode/testdata/kernels.ll", f.MCPU, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			ok, total := 0, 0
			var bad []string
			for _, l := range strings.Split(out, "\n") {
				m := objdumpLine.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				var want []byte
				for _, w := range strings.Fields(m[2]) {
					v, _ := strconv.ParseUint(w, 16, 32)
					want = binary.LittleEndian.AppendUint32(want, uint32(v))
				}
				if why, ok := lossyText[f.Arch+" "+m[1]]; ok {
					t.Logf("skipped %q: %s", m[1], why)
					continue
				}
				total++
				if p := enc.CheckOperands(m[1]); p != nil {
					t.Errorf("the operand check flags compiled code: %s: %v", m[1], p)
				}
				got, err := enc.Encode(m[1])
				if err == nil && string(got) == string(want) {
					ok++
				} else if len(bad) < 8 {
					bad = append(bad, m[1]+" -> "+hexs(got)+" want "+hexs(want)+" "+errText(err))
				}
			}
			t.Logf("%s (%s): %d of %d compiled instructions re-encode to llvm's bytes", f.Arch, f.MCPU, ok, total)
			for _, b := range bad {
				t.Log("   ", b)
			}
			if ok != total {
				t.Errorf("%s: %d of %d compiled instructions re-encode", f.Arch, total-ok, total)
			}
		})
	}
}

// familyEncoder builds the encoder of one family of the real model.
func familyEncoder(t *testing.T, arch string) *Encoder {
	t.Helper()
	fam, err := decodetest.Load(arch)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := New(fam.Arch, fam.Instrs)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

package decode

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

// objdumpLine is one instruction line of llvm-objdump -d: the text, then
// "// ADDRESS: WORDS".
var objdumpLine = regexp.MustCompile(`^\s+(\S.*?)\s*// ([0-9A-F]+):`)

// TestCompiledKernels compiles testdata/kernels.ll with llc-22 for one
// target of every family and compares the decoder's reading of the code
// object (ELF .text, with symbols) with llvm-objdump-22's, instruction by
// instruction: real compiler output rather than random words.
func TestCompiledKernels(t *testing.T) {
	if !decodetest.HaveCompiler() {
		t.Skip("llc-22 / llvm-objdump-22 not on PATH: install llvm-22 to compile the test kernels")
	}
	for _, fam := range allFamilies {
		t.Run(fam.Arch, func(t *testing.T) {
			d := loadFamily(t, fam.Arch)
			raw, out, err := decodetest.CompileKernels("testdata/kernels.ll", fam.MCPU, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, l := range strings.Split(out, "\n") {
				if m := objdumpLine.FindStringSubmatch(l); m != nil {
					want = append(want, strings.Join(strings.Fields(commentRe.ReplaceAllString(m[1], "")), " "))
				}
			}
			code, syms, err := ELFText(raw)
			if err != nil {
				t.Fatal(err)
			}
			if len(syms) < 2 {
				t.Errorf("symbols %v, want saxpy and reduce", syms)
			}
			insts, errs := d.DecodeAll(code)
			if len(errs) > 0 {
				t.Errorf("%d words do not decode, first: %v", len(errs), errs[0])
			}
			if len(insts) != len(want) {
				t.Fatalf("%d instructions, llvm-objdump has %d", len(insts), len(want))
			}
			bad := 0
			for i, in := range insts {
				if got := strings.Join(strings.Fields(in.Text()), " "); got != want[i] {
					bad++
					if bad <= 5 {
						t.Errorf("offset 0x%x: %q, llvm-objdump %q", in.Offset, got, want[i])
					}
				}
			}
			t.Logf("%s (%s): %d instructions, %d differ", fam.Arch, fam.MCPU, len(insts), bad)
		})
	}
}

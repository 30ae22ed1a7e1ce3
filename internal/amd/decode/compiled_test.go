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

// TestCompiledKernels compiles the kernels in testdata (*.ll, each for the
// targets its header allows) with llc-22 for one target of every family and
// compares the decoder's reading of each code object (ELF .text, with
// symbols) with llvm-objdump-22's, instruction by instruction: real
// compiler output rather than random words.
func TestCompiledKernels(t *testing.T) {
	if !decodetest.HaveCompiler() {
		t.Skip("llc-22 / llvm-objdump-22 not on PATH: install llvm-22 to compile the test kernels")
	}
	for _, fam := range allFamilies {
		t.Run(fam.Arch, func(t *testing.T) {
			d := loadFamily(t, fam.Arch)
			files, err := decodetest.KernelFiles("testdata", fam.MCPU)
			if err != nil {
				t.Fatal(err)
			}
			total, bad := 0, 0
			for _, ll := range files {
				n, b := compareCompiled(t, d, ll, fam.MCPU)
				total += n
				bad += b
			}
			t.Logf("%s (%s): %d files, %d instructions, %d differ", fam.Arch, fam.MCPU, len(files), total, bad)
		})
	}
}

// compareCompiled compiles one kernel file for mcpu and compares every
// instruction's text with llvm-objdump-22's; it returns the instruction
// count and how many differ.
func compareCompiled(t *testing.T, d *Decoder, ll, mcpu string) (int, int) {
	t.Helper()
	raw, out, err := decodetest.CompileKernels(ll, mcpu, t.TempDir())
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
	if len(syms) == 0 {
		t.Errorf("%s: no kernel symbols", ll)
	}
	insts, errs := d.DecodeAll(code)
	if len(errs) > 0 {
		t.Errorf("%s: %d words do not decode, first: %v", ll, len(errs), errs[0])
	}
	if len(insts) != len(want) {
		t.Fatalf("%s: %d instructions, llvm-objdump has %d", ll, len(insts), len(want))
	}
	bad := 0
	for i, in := range insts {
		if got := strings.Join(strings.Fields(in.Text()), " "); got != want[i] {
			bad++
			if bad <= 5 {
				t.Errorf("%s offset 0x%x: %q, llvm-objdump %q", ll, in.Offset, got, want[i])
			}
		}
	}
	return len(insts), bad
}

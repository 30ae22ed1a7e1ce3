package decode

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
)

// TestGeneratedExamples: the examples gpuisa writes from llvm-mc's own
// disassembly of AMD's opcodes (internal/ingest/generate.go) are llvm-mc's
// text for their bytes, one for nearly every instruction that had none,
// so the decoder must print each of them exactly as llvm-mc did: operand
// counts and tuple widths the mnemonic does not say (the model's operands
// do), matrix formats, prefetch shapes, LDS tuples, 8-byte image words.
// Words the decoder marks Partial (shapes not rendered yet) are counted,
// not compared.
func TestGeneratedExamples(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: without it the build generates no examples")
	}
	for _, fam := range allFamilies {
		t.Run(fam.Arch, func(t *testing.T) {
			f := loadModel(t, fam.Arch)
			d, err := New(f.Arch, f.Instrs)
			if err != nil {
				t.Fatal(err)
			}
			all, partial := 0, 0
			for _, in := range f.Instrs {
				for _, ex := range in.Examples {
					if ex.Target != fam.MCPU || ex.Encoding == "" || !strings.HasPrefix(ex.Source, merge.GeneratedProvenance) {
						continue
					}
					b, err := ParseInput([]byte(ex.Encoding))
					if err != nil {
						t.Errorf("%s %s: encoding %q: %v", in.Name, ex.Asm, ex.Encoding, err)
						continue
					}
					all++
					di, n, err := d.Decode(b, 0)
					if err == nil && di.Partial {
						partial++
						continue
					}
					want := strings.Join(strings.Fields(commentRe.ReplaceAllString(ex.Asm, "")), " ")
					got := ""
					if err == nil {
						got = strings.Join(strings.Fields(commentRe.ReplaceAllString(di.Text(), "")), " ")
					}
					if err != nil || got != want || n != len(b) {
						t.Errorf("%s %s (%s):\n   llvm-mc: %s\n   decoder: %s (%d of %d bytes) %v", in.Name, ex.Encoding, di.Encoding, want, got, n, len(b), err)
					}
				}
			}
			t.Logf("%s (%s): %d generated examples, %d not rendered yet (Partial)", fam.Arch, fam.MCPU, all, partial)
		})
	}
}

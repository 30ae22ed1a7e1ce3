package encode

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/gpuisa/gpuisa/internal/decode"
	"github.com/gpuisa/gpuisa/internal/decode/decodetest"
)

func TestDumpFailuresTmp(t *testing.T) {
	out, _ := os.Create("/tmp/encfail.txt")
	defer out.Close()
	for _, f := range familiesLLVM {
		fam, err := decodetest.Load(f.arch)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := New(fam.Arch, fam.Instrs)
		dec, _ := decode.New(fam.Arch, fam.Instrs)
		seen := map[string]bool{}
		ok, total := 0, 0
		for _, in := range fam.Instrs {
			for _, ex := range in.Examples {
				if ex.Target != f.mcpu || ex.Encoding == "" || seen[ex.Asm] {
					continue
				}
				seen[ex.Asm] = true
				want, err := decode.ParseInput([]byte(ex.Encoding))
				if err != nil {
					continue
				}
				di, _, err := dec.Decode(want, 0)
				if err != nil || !supported[kindOfFormat(di.Encoding)] || di.Extra != "" {
					continue
				}
				total++
				got, err := enc.Encode(ex.Asm)
				if err == nil && bytes.Equal(got, want) {
					ok++
					continue
				}
				fmt.Fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\n", f.arch, di.Encoding, ex.Asm, hexs(got), hexs(want), errText(err))
			}
		}
		fmt.Fprintf(out, "#TOTAL %s %d/%d %.1f\n", f.arch, ok, total, 100*float64(ok)/float64(total))
	}
}

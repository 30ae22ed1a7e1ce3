package decode

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/decode/decodetest"
)

func TestZZDump(t *testing.T) {
	arch := os.Getenv("ZZ_ARCH")
	if arch == "" {
		t.Skip()
	}
	f, err := decodetest.Load(arch)
	if err != nil {
		t.Fatal(err)
	}
	for _, fm := range f.Arch.Formats {
		var fs []string
		for _, fl := range fm.Fields {
			s := fmt.Sprintf("%s[%d:%d]", fl.Name, fl.MSB, fl.LSB)
			if len(fl.Ranges) > 1 {
				s = fmt.Sprintf("%s%v", fl.Name, fl.Ranges)
			}
			if fl.Fixed != "" {
				s += "=" + fl.Fixed
			}
			fs = append(fs, s)
		}
		fmt.Printf("%s w=%d: %s\n", fm.Name, fm.Width, strings.Join(fs, " "))
	}
	if n := os.Getenv("ZZ_INSTR"); n != "" {
		for _, in := range f.Instrs {
			if strings.Contains(in.Name, n) {
				fmt.Printf("%s enc=%+v syntax=%+v ops=%+v\n", in.Name, in.Encodings, in.Syntax, in.Operands)
			}
		}
	}
}

package listing_test

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/amd/encode"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestBranchOperandsKept: a listing of machine code writes a branch's
// destination as a label in place of the offset alone — s_call_b64 keeps
// its register pair — and s_cbranch_g_fork, whose operands are registers,
// is no branch. The words are llvm-mc-22's, on every family that has them.
func TestBranchOperandsKept(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH")
	}
	if testenv.FindUpstream() == "" {
		t.Skip("shared/upstream not found (set GPUISA_SOURCES)")
	}
	cases := []struct{ asm, wantHead string }{
		{"s_call_b64 s[30:31], 1", "s_call_b64 s[30:31], "},
		{"s_cbranch_i_fork s[2:3], 1", "s_cbranch_i_fork s[2:3], "},
		{"s_cbranch_g_fork s[2:3], s[0:1]", ""},
	}
	ran := 0
	for _, fam := range decodetest.Families() {
		f, err := decodetest.Load(fam.Arch)
		if err != nil {
			t.Fatal(err)
		}
		d, err := decode.New(f.Arch, f.Instrs)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			enc, _, err := decodetest.Assemble(fam.MCPU, []string{c.asm}, t.TempDir())
			if err != nil || len(enc) != 1 || len(enc[0]) != 4 {
				continue // not on this family
			}
			code := append(append([]byte{}, enc[0]...), 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x81, 0xbf) // s_nop 0, s_endpgm
			p, err := listing.Parse([]byte(strings.Join(hexWords(code), " ")), codeobj.Machines{})
			if err != nil {
				t.Fatal(err)
			}
			l := listing.Build(p, fam.Arch, listing.Codec{Dec: d, Enc: encode.FromDecoder(d)}, listing.Options{})
			e := l.Sections[0].Entries[0]
			// llvm-mc may assemble an alias (s_call_i64 on CDNA 5):
			// compare the operands.
			_, got, _ := strings.Cut(e.Display(), " ")
			_, asm, _ := strings.Cut(c.asm, " ")
			_, head, _ := strings.Cut(c.wantHead, " ")
			ran++
			switch {
			case e.Err() != "":
				t.Errorf("%s: %s: %s", fam.Arch, c.asm, e.Err())
			case c.wantHead == "" && got != asm:
				t.Errorf("%s: %q lists as %q", fam.Arch, c.asm, got)
			case c.wantHead != "" && (!strings.HasPrefix(got, head) || e.TargetLabel() == "" || got == head+"1"):
				t.Errorf("%s: %q lists as %q (label %q)", fam.Arch, c.asm, got, e.TargetLabel())
			}
		}
	}
	if ran == 0 {
		t.Fatal("llvm-mc-22 assembled none of the branch words on any family")
	}
}

func hexWords(code []byte) []string {
	var out []string
	for i := 0; i+4 <= len(code); i += 4 {
		w := uint32(code[i]) | uint32(code[i+1])<<8 | uint32(code[i+2])<<16 | uint32(code[i+3])<<24
		out = append(out, "0x"+hex32(w))
	}
	return out
}

func hex32(w uint32) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[w&0xf]
		w >>= 4
	}
	return string(b)
}

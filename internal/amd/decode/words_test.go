package decode

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

// decodeCase is one word a family's real decoder must print as llvm-mc
// does; n is the expected length (0: the whole input).
type decodeCase struct {
	arch, hex, want string
	n               int
	line            int // in decodetest/asm.tsv
}

// readWords reads the cases of the shared table (decodetest/asm.tsv) the
// decoder checks: the bytes, the length and llvm-mc's text.
func readWords(t *testing.T) []decodeCase {
	t.Helper()
	cases, err := decodetest.Cases()
	if err != nil {
		t.Fatal(err)
	}
	var out []decodeCase
	for _, c := range cases {
		if c.Decodes() {
			out = append(out, decodeCase{arch: c.Arch, hex: c.Hex, want: c.Asm, n: c.Len, line: c.Line})
		}
	}
	return out
}

// eachWord calls fn for each case of readWords with its family's decoder,
// built from the real model once per family, and the case's bytes.
func eachWord(t *testing.T, fn func(c decodeCase, d *Decoder, b []byte)) {
	t.Helper()
	decoders := map[string]*Decoder{}
	for _, c := range readWords(t) {
		d := decoders[c.arch]
		if d == nil {
			d = loadFamily(t, c.arch)
			decoders[c.arch] = d
		}
		b, err := ParseInput([]byte(c.hex))
		if err != nil {
			t.Fatalf("decodetest/asm.tsv:%d: %v", c.line, err)
		}
		fn(c, d, b)
	}
}

// TestWords decodes every word of decodetest/asm.tsv with its family's
// decoder, built from the real model, and wants llvm-mc's text and length
// with every operand rendered.
func TestWords(t *testing.T) {
	eachWord(t, func(c decodeCase, d *Decoder, b []byte) {
		want := c.n
		if want == 0 {
			want = len(b)
		}
		in, n, err := d.Decode(b, 0)
		if msg, ok := strings.CutPrefix(c.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("decodetest/asm.tsv:%d: %s %s: got %q, error %v; want an error saying %q", c.line, c.arch, c.hex, in.Text(), err, msg)
			}
			return
		}
		if err != nil {
			t.Errorf("decodetest/asm.tsv:%d: %s %s: %v", c.line, c.arch, c.hex, err)
			return
		}
		if got := in.Text(); got != c.want || n != want || in.Partial {
			t.Errorf("decodetest/asm.tsv:%d: %s: got %q (%d bytes, partial %v), want %q (%d bytes)", c.line, c.arch, got, n, in.Partial, c.want, want)
		}
	})
}

// TestWordsMatchLLVM checks the table itself: llvm-mc 22 prints each word
// as the table says (without its /*...*/ annotations). Lengths are pinned by
// TestWords only: -show-encoding prints llvm-mc's re-encoding, which can be
// shorter than the word (a 64-bit literal 1.0 comes back as an inline
// constant).
func TestWordsMatchLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to check decodetest/asm.tsv against it")
	}
	mcpu := map[string]string{}
	for _, f := range allFamilies {
		mcpu[f.Arch] = f.MCPU
	}
	byArch := map[string][]decodeCase{}
	var order []string
	for _, c := range readWords(t) {
		if byArch[c.arch] == nil {
			order = append(order, c.arch)
		}
		byArch[c.arch] = append(byArch[c.arch], c)
	}
	for _, arch := range order {
		cases := byArch[arch]
		lines := make([][]byte, len(cases))
		for i, c := range cases {
			b, err := ParseInput([]byte(c.hex))
			if err != nil {
				t.Fatalf("decodetest/asm.tsv:%d: %v", c.line, err)
			}
			lines[i] = b
		}
		ref, err := decodetest.Disassemble(mcpu[arch], lines, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			got := strings.Join(strings.Fields(commentRe.ReplaceAllString(ref[i].Text, "")), " ")
			if strings.HasPrefix(c.want, "error: ") {
				// llvm-mc rejects the word, or flags an operand (an
				// /*Invalid ...*/ comment): both are invalid words.
				if ref[i].OK && !strings.Contains(strings.ToLower(ref[i].Text), "/*invalid") {
					t.Errorf("decodetest/asm.tsv:%d: llvm-mc -mcpu=%s decodes %q, the table says the word is invalid", c.line, mcpu[arch], got)
				}
				continue
			}
			if !ref[i].OK || got != c.want {
				t.Errorf("decodetest/asm.tsv:%d: llvm-mc -mcpu=%s prints %q (ok %v), the table says %q", c.line, mcpu[arch], got, ref[i].OK, c.want)
			}
		}
	}
}

// TestLLVMNamePrinted: where llvm-mc rejects AMD's name and disassembles the
// opcode under its own (CDNA's V_MAD_MIX_F32 is v_fma_mix_f32), the build
// records LLVM's name and the decoder prints it, as llvm-mc does.
func TestLLVMNamePrinted(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: LLVM's names are found by running it")
	}
	d := loadFamily(t, "cdna3")
	b, _ := ParseInput([]byte("0xe8,0x1e,0xa0,0xd3,0x85,0x93,0xd9,0x2f"))
	in, _, err := d.Decode(b, 0)
	const want = "v_fma_mix_f32 v232, -v133, |-9|, |v246| op_sel:[1,1,0] op_sel_hi:[1,0,0]"
	if err != nil || in.Text() != want || in.Name != "v_mad_mix_f32" {
		t.Errorf("got %q (model name %q), %v; want %q for AMD's v_mad_mix_f32", in.Text(), in.Name, err, want)
	}
}

package decode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// fixture is the shared hand-written family (see decodetest.Fixture).
func fixture() (isa.Architecture, []isa.Instruction) { return decodetest.Fixture() }

func words(ws ...uint32) []byte {
	var b []byte
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

func TestDecodeFixture(t *testing.T) {
	a, ins := fixture()
	d, err := New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		code []byte
		text string
		n    int
		enc  string
	}{
		{words(0x160a04c1), "v_max_f32_e32 v5, -1, v2", 4, "VOP2"},
		{words(0x160a04ff, 0x3f800000), "v_max_f32_e32 v5, lit(0x3f800000), v2", 8, "VOP2"},
		{words(0x160a04ff, 0x12345678), "v_max_f32_e32 v5, 0x12345678, v2", 8, "VOP2"},
		{words(0x160a04f8), "v_max_f32_e32 v5, 0.15915494, v2", 4, "VOP2"},
		{words(0x7e0a0202 | 0x100), "v_mov_b32_e32 v5, v2", 4, "VOP1"}, // src0 258 = v2; VOP3 form by the promotion rule
		{words(0x7e0a026a), "v_mov_b32_e32 v5, vcc_lo", 4, "VOP1"},
		{words(0x80050281), "s_add_u32 s5, 1, s2", 4, "SOP2"},
		{words(0x86847e6a), "s_and_b64 s[4:5], vcc, exec", 4, "SOP2"},
		{words(0xbe84017e), "s_mov_b64 s[4:5], exec", 4, "SOP1"},
		{words(0xbf810000), "s_endpgm", 4, "SOPP"},
		{words(0xd2800004, 0x00020902), "v_add_f64 v[4:5], v[2:3], v[4:5]", 8, "VOP3A"},
		{words(0xd10b8005, 0x20020501), "v_max_f32_e64 v5, -v1, v2 clamp", 8, "VOP3A"},
		{words(0xd10b0105, 0x000204c1), "v_max_f32_e64 v5, |-1|, v2", 8, "VOP3A"},
		{words(0xd10b0005, 0x200204c1), "v_max_f32_e64 v5, neg(-1), v2", 8, "VOP3A"},
	}
	for _, c := range cases {
		in, n, err := d.Decode(c.code, 0)
		if err != nil {
			t.Errorf("% x: %v", c.code, err)
			continue
		}
		if in.Text() != c.text || n != c.n || in.Encoding != c.enc {
			t.Errorf("% x: got %q (%d bytes, %s), want %q (%d, %s)", c.code, in.Text(), n, in.Encoding, c.text, c.n, c.enc)
		}
	}
}

// TestDecodeRejectsFixture: words llvm-mc 22 rejects on gfx900 come out
// as errors, not text.
func TestDecodeRejectsFixture(t *testing.T) {
	a, ins := fixture()
	d, err := New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		code []byte
		why  string
	}{
		{words(0xbe84017c), "m0 is no 64-bit operand (s_mov_b64 s[4:5], m0)"},
		{words(0xbe84017f), "exec_hi is no 64-bit operand"},
	} {
		if in, _, err := d.Decode(c.code, 0); err == nil {
			t.Errorf("% x: decoded %q; want a rejection: %s", c.code, in.Text(), c.why)
		}
	}
}

func TestDecodeFields(t *testing.T) {
	a, ins := fixture()
	d, _ := New(a, ins)
	in, _, err := d.Decode(words(0x160a04c1), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"SRC0": 193, "VSRC1": 2, "VDST": 5, "OP": 11, "ENCODING": 0}
	for _, f := range in.Fields {
		if w, ok := want[f.Name]; !ok || w != f.Value {
			t.Errorf("field %s = %d, want %d", f.Name, f.Value, w)
		}
	}
	if in.Fields[0].Bits != "011000001" {
		t.Errorf("SRC0 bits %q", in.Fields[0].Bits)
	}
}

func TestDecodeErrors(t *testing.T) {
	a, ins := fixture()
	d, _ := New(a, ins)
	cases := []struct {
		code []byte
		off  int
		msg  string
	}{
		{words(0x160a04ff), 0, "truncated literal"},
		{words(0xd2800005), 0, "truncated VOP3A"},
		// v[5:6]: the fixture family is cdna4, whose VGPR tuples start at an even register.
		{words(0xd2800005, 0x00020501), 0, "register tuple at v5/a5 is misaligned"},
		{[]byte{1, 2}, 0, "truncated"},
		{words(0x7e000000 | 200<<9), 0, "no instruction with opcode 200"},
		{words(0xf8000000), 0, "matches no encoding"},
		{words(0xbf810000, 0x160a04ff), 4, "offset 4"},
	}
	for _, c := range cases {
		_, _, err := d.Decode(c.code, c.off)
		var de *Error
		if err == nil || !errors.As(err, &de) || de.Offset != c.off || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("% x @%d: err %v, want offset %d and %q", c.code, c.off, err, c.off, c.msg)
		}
	}
	insts, errs := d.DecodeAll(words(0xbf810000, 0xf8000000, 0x160a04c1))
	if len(insts) != 2 || len(errs) != 1 {
		t.Errorf("DecodeAll: %d instructions, %d errors; want 2, 1", len(insts), len(errs))
	}
}

// TestWideFormatIsNoWord: a 128-bit format (CDNA 5's VOP3PX2: two word
// pairs, fixed bits in the first and third dwords) is no word the first
// dword identifies; New takes the family with it and decodes as before.
func TestWideFormatIsNoWord(t *testing.T) {
	a, ins := fixture()
	d0, err := New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	wide := isa.Format{Name: "WIDEX2", Width: 128, Fields: []isa.Field{
		{Name: "ENCODING", MSB: 31, LSB: 20, Fixed: "110100101000"},
		{Name: "CONSTANT", MSB: 58, LSB: 50, Fixed: "100000000"},
		{Name: "OP", MSB: 87, LSB: 80},
		{Name: "ENCODING", MSB: 95, LSB: 88, Fixed: "11010010"},
	}}
	a.Formats = append(a.Formats, wide)
	d, err := New(a, ins)
	if err != nil {
		t.Fatalf("New with a 128-bit format: %v", err)
	}
	code := words(0xd2800004, 0x00020902, 0xd2800004, 0x00020902)
	for off := 0; off < len(code); off += 8 {
		want, wn, werr := d0.Decode(code, off)
		got, gn, gerr := d.Decode(code, off)
		if got.Text() != want.Text() || gn != wn || (gerr == nil) != (werr == nil) {
			t.Errorf("offset %d: got %q (%d, %v), want %q (%d, %v)", off, got.Text(), gn, gerr, want.Text(), wn, werr)
		}
	}
}

func TestNewRejectsBadFormats(t *testing.T) {
	_, err := New(isa.Architecture{ID: "cdna4", Formats: []isa.Format{{Name: "X", Width: 32,
		Fields: []isa.Field{{Name: "ENCODING", MSB: 31, LSB: 30, Fixed: "1x"}}}}}, nil)
	if err == nil {
		t.Error("non-binary fixed value accepted")
	}
	if _, err := New(isa.Architecture{ID: "ptx"}, nil); err == nil {
		t.Error("family without operand table accepted")
	}
	if _, err := New(isa.Architecture{ID: "cdna4"}, nil); err == nil {
		t.Error("family without formats accepted")
	}
}

func TestParseInput(t *testing.T) {
	want := []byte{0xc1, 0x04, 0x0a, 0x16}
	for _, in := range []string{"0x160a04c1", "160a04c1\n", "[0xc1,0x04,0x0a,0x16]", "0xc1,0x04,0x0a,0x16 ; v_max", "# comment\n0xc1 0x04 0x0a 0x16"} {
		got, err := ParseInput([]byte(in))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%q: % x, %v", in, got, err)
		}
	}
	raw := []byte{0xc1, 0x04, 0x0a, 0x16, 0x00, 0x00, 0x81, 0xbf}
	if got, err := ParseInput(raw); err != nil || !bytes.Equal(got, raw) {
		t.Errorf("raw binary: % x, %v", got, err)
	}
	for _, bad := range []string{"", "0xzz", "v_max_f32", "0x123456789"} {
		if _, err := ParseInput([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestELF assembles a tiny kernel with llvm-mc into a code object and
// checks that the symbol and the instructions come back.
func TestELF(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: needed to build an ELF code object")
	}
	d := loadFamily(t, "cdna4")
	dir := t.TempDir()
	src := dir + "/k.s"
	obj := dir + "/k.o"
	os.WriteFile(src, []byte(".text\n.globl my_kernel\n.type my_kernel,@function\nmy_kernel:\n v_max_f32 v5, -1, v2\n s_endpgm\n"), 0o644)
	if out, err := exec.Command(decodetest.LLVMMC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx950", "-filetype=obj", "-o", obj, src).CombinedOutput(); err != nil {
		t.Fatalf("llvm-mc: %v %s", err, out)
	}
	b, _ := os.ReadFile(obj)
	if !IsELF(b) {
		t.Fatal("not ELF")
	}
	text, syms, err := ELFText(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(syms) == 0 || syms[0].Name != "my_kernel" || syms[0].Offset != 0 {
		t.Errorf("symbols %v", syms)
	}
	insts, errs := d.DecodeAll(text)
	if len(errs) != 0 || len(insts) != 2 || insts[0].Text() != "v_max_f32_e32 v5, -1, v2" || insts[1].Text() != "s_endpgm" {
		t.Errorf("decoded %v %v", insts, errs)
	}
}

func FuzzDecode(f *testing.F) {
	var decoders []*Decoder
	for _, fam := range decodetest.FuzzFamilies("rdna3", "cdna4", "rdna4") {
		d, err := New(fam.Arch, fam.Instrs)
		if err != nil {
			f.Fatal(err)
		}
		decoders = append(decoders, d)
	}
	f.Add(words(0x160a04c1))
	f.Add(words(0x160a04ff))
	f.Add(words(0xd2800005, 0x00020501))
	f.Add([]byte{0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var buf []byte
		for _, dec := range decoders {
			for off := 0; off < len(b); off += 4 {
				buf, _, _ = dec.AppendText(buf[:0], b, off)
			}
			insts, errs := dec.DecodeAll(b)
			for _, in := range insts {
				_ = in.Text()
			}
			_ = errs
			if _, err := ParseInput(b); err != nil {
				_ = err.Error()
			}
		}
	})
}

// BenchmarkDecodeVsLLVM decodes the same instruction stream with AppendText
// (the allocation-free path), with Decode (the full Inst with fields) and
// with llvm-mc-22 --disassemble (one process per iteration, as a user runs
// it), and reports instructions per second for each. The stream is the
// CDNA 4 corpus of the differential test: verified examples' encodings and
// format-forced random words, keeping the ones both decoders accept.
func BenchmarkDecodeVsLLVM(b *testing.B) {
	d := loadFamily(b, "cdna4")
	lines, _ := corpus(d, 20000, 1, "gfx950", 10000, true)
	var stream []byte
	count := 0
	for _, l := range lines {
		if _, n, err := d.Decode(l, 0); err == nil {
			stream = append(stream, l[:n]...)
			count++
		}
	}
	b.Run("gpuisa-text", func(b *testing.B) {
		buf := make([]byte, 0, 256)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for off := 0; off < len(stream); {
				var n int
				var err error
				buf, n, err = d.AppendText(buf[:0], stream, off)
				if err != nil {
					n = 4
				}
				off += n
			}
		}
		b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "instr/s")
	})
	b.Run("gpuisa-inst", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			insts, _ := d.DecodeAll(stream)
			for _, in := range insts {
				_ = in.Text()
			}
		}
		b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "instr/s")
	})
	if !decodetest.HaveLLVM() {
		b.Skip("llvm-mc-22 not on PATH")
	}
	var txt strings.Builder
	for i, c := range stream {
		switch {
		case i > 0 && i%8 == 0:
			txt.WriteByte('\n')
		case i > 0:
			txt.WriteByte(',')
		}
		txt.WriteString("0x")
		txt.WriteByte("0123456789abcdef"[c>>4])
		txt.WriteByte("0123456789abcdef"[c&15])
	}
	file := b.TempDir() + "/in.txt"
	if err := os.WriteFile(file, []byte(txt.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("llvm-mc", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command(decodetest.LLVMMC, "-triple=amdgcn", "-mcpu=gfx950", "--disassemble", "-o", os.DevNull, file)
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "instr/s")
	})
}

// TestAppendText checks that the allocation-free path prints what Decode's
// Inst.Text prints, and allocates nothing.
func TestAppendText(t *testing.T) {
	a, ins := fixture()
	d, err := New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	code := words(0x160a04c1, 0x160a04ff, 0x12345678, 0xd10b8005, 0x20020501, 0x86847e6a, 0xbf810000)
	buf := make([]byte, 0, 256)
	for off := 0; off < len(code); {
		in, n, err := d.Decode(code, off)
		if err != nil {
			t.Fatal(err)
		}
		var n2 int
		buf, n2, err = d.AppendText(buf[:0], code, off)
		if err != nil || n2 != n || string(buf) != in.Text() {
			t.Errorf("offset %d: AppendText %q (%d, %v), Decode %q (%d)", off, buf, n2, err, in.Text(), n)
		}
		off += n
	}
	allocs := testing.AllocsPerRun(100, func() {
		for off := 0; off < len(code); {
			var n int
			buf, n, _ = d.AppendText(buf[:0], code, off)
			off += n
		}
	})
	if allocs != 0 {
		t.Errorf("AppendText allocates %.1f times per run", allocs)
	}
	if _, _, err := d.AppendText(nil, words(0xf8000000), 0); err == nil {
		t.Error("AppendText accepted a word of no encoding")
	}
}

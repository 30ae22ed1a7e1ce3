package listing_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/amd/encode"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
)

// fixtureCodec is the hand-made GCN-style family of decodetest.
func fixtureCodec(t *testing.T) listing.Codec {
	t.Helper()
	a, ins := decodetest.Fixture()
	d, err := decode.New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	return listing.Codec{Dec: d, Enc: encode.FromDecoder(d)}
}

func build(t *testing.T, in string) *listing.Listing {
	t.Helper()
	p, err := listing.Parse([]byte(in), codeobj.Machines{})
	if err != nil {
		t.Fatalf("Parse(%q): %v", in, err)
	}
	return listing.Build(p, "cdna4", fixtureCodec(t), listing.Options{Fields: true})
}

func texts(l *listing.Listing) []string {
	var out []string
	for _, s := range l.Sections {
		for _, e := range s.Entries {
			t := e.Display()
			if e.Err() != "" {
				t = "<error>"
			}
			if e.Repeat > 1 {
				t += " ×" + string(rune('0'+e.Repeat%10))
			}
			out = append(out, t)
		}
	}
	return out
}

// TestParseForms reads the same two instructions in every form a user may
// paste: the decoded text must be the same each time.
func TestParseForms(t *testing.T) {
	want := []string{"v_max_f32_e32 v5, -1, v2", "s_endpgm"}
	forms := map[string]string{
		"hex dwords":     "0x160a04c1 0xbf810000",
		"bare dwords":    "160a04c1\nbf810000\n",
		"byte list":      "[0xc1,0x04,0x0a,0x16]\n[0x00,0x00,0x81,0xbf]",
		"bytes":          "c1 04 0a 16 00 00 81 bf",
		"llvm-mc":        "\tv_max_f32_e32 v5, -1, v2                ; encoding: [0xc1,0x04,0x0a,0x16]\n\ts_endpgm ; encoding: [0x00,0x00,0x81,0xbf]\n",
		"llvm-objdump":   "k.o:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n0000000000000000 <k>:\n\tv_max_f32_e32 v5, -1, v2 // 000000000000: 160A04C1\n\ts_endpgm // 000000000004: BF810000\n",
		"gpuisa listing": "// cdna4\nk:\n  000000: 160a04c1                   v_max_f32_e32 v5, -1, v2\n  000004: bf810000                   s_endpgm\n",
		"rocgdb":         "   0x7ffff5a41000 <+0>:\tc1 04 0a 16\tv_max_f32_e32 v5, -1, v2\n   0x7ffff5a41004 <+4>:\t00 00 81 bf\ts_endpgm\n",
		"assembly":       "; a comment\n.text\nk: ; a label\n\tv_max_f32 v5, -1, v2\n\ts_endpgm\n",
		"commented hex":  "0x160a04c1 // v_max\n0xbf810000 ; end\n",
	}
	for name, in := range forms {
		got := texts(build(t, in))
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// A 64-bit word over two lines of a hex dump is one instruction.
func TestBytesAcrossLines(t *testing.T) {
	// v_add_f64 v[0:1], v[2:3], v[4:5] (VOP3A opcode 640) in two lines.
	l := build(t, "0xd2800000\n0x00020902\n0xbf810000")
	if got := texts(l); len(got) != 2 || !strings.HasPrefix(got[0], "v_add_f64") {
		t.Errorf("%q", got)
	}
}

// TestLabelsAndPadding: a backward branch gets a label at its target, the
// padding after s_endpgm folds into one line, and the text listing says
// both.
func TestLabelsAndPadding(t *testing.T) {
	// s_branch -2 (SOPP opcode 2 is not in the fixture: use s_endpgm's
	// format with the fixture's branch-free opcodes and a real branch
	// word from the model instead).
	f, err := decodetest.Load("cdna3")
	if err != nil {
		t.Skip(err)
	}
	d, err := decode.New(f.Arch, f.Instrs)
	if err != nil {
		t.Fatal(err)
	}
	fam := listing.Codec{Dec: d, Enc: encode.FromDecoder(d)}
	// k: v_mov_b32 v0, 0; loop: s_nop 0x1; s_cbranch_scc1 -2; s_endpgm; s_nop 0 x3
	src := "k:\n0x7e000280\n0xbf800001\n0xbf85fffe\n0xbf810000\n0xbf800000 0xbf800000 0xbf800000\n"
	p, err := listing.Parse([]byte(src), codeobj.Machines{})
	if err != nil {
		t.Fatal(err)
	}
	l := listing.Build(p, "cdna3", fam, listing.Options{})
	var out bytes.Buffer
	if err := listing.WriteText(&out, l, listing.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, w := range []string{".LBB0_1:\n  000004: bf800001", "s_cbranch_scc1 .LBB0_1", "s_nop 0 ×3"} {
		if !strings.Contains(s, w) {
			t.Errorf("listing lacks %q:\n%s", w, s)
		}
	}
	// The listing reads back as itself.
	p2, err := listing.Parse(out.Bytes(), codeobj.Machines{})
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	listing.WriteText(&again, listing.Build(p2, "cdna3", fam, listing.Options{}), listing.WriteOptions{})
	if body(again.String()) != body(s) {
		t.Errorf("listing read back differs:\n%s\nvs\n%s", again.String(), s)
	}
	// Assembly with labels: the branch offset comes from the label.
	asm := "k:\n v_mov_b32 v0, 0\nloop:\n s_nop 1\n s_cbranch_scc1 loop\n s_endpgm\n"
	p3, err := listing.Parse([]byte(asm), codeobj.Machines{})
	if err != nil {
		t.Fatal(err)
	}
	l3 := listing.Build(p3, "cdna3", fam, listing.Options{})
	es := l3.Sections[0].Entries
	if len(es) != 4 || string(es[2].Bytes) != "\xfe\xff\x85\xbf" || es[2].Target != 4 || es[2].Display() != "s_cbranch_scc1 loop" {
		t.Errorf("assembled branch: % x target %d %q", es[2].Bytes, es[2].Target, es[2].Display())
	}
}

// body drops the header line (it counts the input kind).
func body(s string) string {
	_, b, _ := strings.Cut(s, "\n")
	return b
}

func TestErrorsAndJSON(t *testing.T) {
	l := build(t, "0x160a04ff\n") // VOP2 with a literal that is not there
	if l.Errors != 1 {
		t.Errorf("errors %d", l.Errors)
	}
	var out bytes.Buffer
	if err := listing.WriteJSON(&out, l); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if errs, _ := doc["errors"].([]any); len(errs) != 1 {
		t.Errorf("JSON errors %v", doc["errors"])
	}
	if ins, ok := doc["instructions"].([]any); !ok || len(ins) != 0 {
		t.Errorf("JSON instructions %v (want [])", doc["instructions"])
	}
	// Unknown text is kept, unchecked, with the encoder's reason.
	l = build(t, "v_nosuch_f32 v1, v2\n")
	e := l.Sections[0].Entries[0]
	if e.How != listing.FromTextAlone || e.Err() == "" {
		t.Errorf("unknown instruction: %+v", e)
	}
	for _, bad := range []string{"", "; only a comment\n", "v1, v2 are not an instruction ::"} {
		if _, err := listing.Parse([]byte(bad), codeobj.Machines{}); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

// FuzzParse: any input parses or fails cleanly, and builds a listing.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0x160a04c1", "[0xc1,0x04]", "k:\n s_nop 0\n s_branch k", "\tv_max ; encoding: [0xc1]",
		"x // 00: 160A04C1 <k+0x4>", "0000 <k>:", "  000000: 160a04c1   v_max_f32 ×3", "\x7fELF\x02\x01"} {
		f.Add([]byte(s))
	}
	fam := func() listing.Codec {
		a, ins := decodetest.Fixture()
		d, _ := decode.New(a, ins)
		return listing.Codec{Dec: d, Enc: encode.FromDecoder(d)}
	}()
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		p, err := listing.Parse(b, codeobj.Machines{})
		if err != nil {
			return
		}
		l := listing.Build(p, "cdna4", fam, listing.Options{Fields: true})
		var out bytes.Buffer
		if err := listing.WriteText(&out, l, listing.WriteOptions{Fields: true}); err != nil {
			t.Fatal(err)
		}
		if err := listing.WriteJSON(&out, l); err != nil {
			t.Fatal(err)
		}
	})
}

// TestOverlongLineIsShownByItsStart: a text line longer than any
// instruction is listed by its start, with an error that quotes only
// that, so a one-line 50 MB input is not echoed into the listing or its
// errors.
func TestOverlongLineIsShownByItsStart(t *testing.T) {
	long := "v_max_f32 v5, -1, " + strings.Repeat("v2", encode.MaxText)
	l := build(t, "s_nop 0\n"+long+"\n")
	es := l.Sections[0].Entries
	if len(es) != 2 {
		t.Fatalf("%d entries; want 2", len(es))
	}
	e := es[1]
	if len(e.Text) > 64 || len(e.Err()) > 200 || !strings.Contains(e.Err(), "longer than any instruction") || e.Name != "v_max_f32" {
		t.Errorf("overlong line: text %.100q (%d bytes), name %q, error %.300q; want its start and a short error", e.Text, len(e.Text), e.Name, e.Err())
	}
	var out bytes.Buffer
	if err := listing.WriteText(&out, l, listing.WriteOptions{}); err != nil || out.Len() > 1024 {
		t.Errorf("listing of the overlong line: %d bytes, %v; want it short", out.Len(), err)
	}
}

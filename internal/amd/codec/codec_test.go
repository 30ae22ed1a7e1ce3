package codec_test

import (
	"encoding/binary"
	"math/rand"
	"reflect"
	"testing"

	. "github.com/gpuisa/gpuisa/internal/amd/codec"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/isa"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// codecFields says, per model type the decoder table carries, which fields
// it writes and which it leaves out on purpose. A field in neither list is
// one nobody decided about: the decoder may start reading it and the
// prepared table would silently lack it.
var codecFields = map[reflect.Type]struct{ kept, dropped []string }{
	reflect.TypeOf(isa.Operand{}): {
		kept:    []string{"Name", "Order", "Input", "Output", "Implicit", "DataFormat", "OperandType", "Size", "Optional", "SizeWave32", "SizeWave64", "Prov", "TypeFrom"},
		dropped: []string{"Description", "Note"},
	},
	reflect.TypeOf(isa.Encoding{}): {
		kept:    []string{"Name", "Format", "Width", "Opcode", "Operands", "Fields"},
		dropped: []string{"Identifier", "IdentifierCheck", "Prov", "Documented", "Assembler"},
	},
	reflect.TypeOf(isa.Field{}): {
		kept:    []string{"Name", "MSB", "LSB", "Ranges", "Fixed", "Parts"},
		dropped: []string{"Description"},
	},
	reflect.TypeOf(isa.Format{}): {
		kept:    []string{"Name", "Width", "Fields", "IdentifierMask"},
		dropped: []string{"Description", "Notes", "Prov", "Documented"},
	},
	// Of Text only the mnemonic is kept (the variant the row describes).
	reflect.TypeOf(isa.Syntax{}): {kept: []string{"GFX", "Text", "Operands", "Modifiers"}, dropped: []string{"Prov"}},
	reflect.TypeOf(isa.Alias{}):  {kept: []string{"Name", "LLVMName", "Targets"}, dropped: []string{"Note", "Prov"}},
}

func TestCodecCoversModel(t *testing.T) {
	for typ, f := range codecFields {
		known := map[string]bool{}
		for _, n := range append(append([]string(nil), f.kept...), f.dropped...) {
			known[n] = true
		}
		for i := 0; i < typ.NumField(); i++ {
			if n := typ.Field(i).Name; !known[n] {
				t.Errorf("%s.%s is new: add it to the decoder table (binary.go, Facts) or to the dropped list", typ, n)
			}
		}
	}
}

// TestTableRoundTrip: the fixture family comes back field for field.
func TestTableRoundTrip(t *testing.T) {
	a, ins := decodetest.Fixture()
	ins[0].Aliases = []isa.Alias{{Name: "v_max_num_f32", LLVMName: true}, {Name: "v_max_f32", Targets: []string{"gfx1200", "gfx1201"}}}
	ins[0].Syntax = []isa.Syntax{{GFX: "GFX9", Operands: []string{"vdst:v32", "src0"}, Modifiers: []string{"clamp"}}}
	ins[0].Operands = []isa.Operand{{Name: "vdst", Output: true, Size: 32, DataFormat: "FMT_NUM_F32", Prov: isa.Prov{Source: isa.SourceLLVMDoc}, TypeFrom: isa.TypeFromTag}}
	// Verdicts that differ between targets travel (a decoder for one target
	// reads them); where every target agrees they are dropped.
	a.Targets = []string{"gfx900", "gfx904", "gfx906"}
	ins[0].Targets = map[string]string{"gfx900": "supported", "gfx904": "unsupported", "gfx906": "supported"}
	ins[1].Targets = map[string]string{"gfx900": "supported", "gfx904": "supported", "gfx1100": "unsupported"}
	ptrs := make([]*isa.Instruction, len(ins))
	for i := range ins {
		ins[i].Arch = a.ID
		ptrs[i] = &ins[i]
	}
	b, err := PrepareTable(a, ptrs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadTable(b)
	if err != nil {
		t.Fatal(err)
	}
	want := &Table{Arch: a}
	for i, in := range ptrs {
		f := Facts(in)
		if i == 0 {
			f.Targets = in.Targets // mixed on the family's targets
		}
		want.Instrs = append(want.Instrs, f)
	}
	if len(got.Instrs) != len(want.Instrs) || len(got.Arch.Formats) != len(a.Formats) {
		t.Fatalf("formats or count differ: %d vs %d", len(got.Instrs), len(want.Instrs))
	}
	for i, f := range a.Formats {
		if g := got.Arch.Formats[i]; g.Name != f.Name || g.Width != f.Width || !reflect.DeepEqual(g.Fields, f.Fields) {
			t.Errorf("format %s: got %+v", f.Name, g)
		}
	}
	for i := range want.Instrs {
		g, w := got.Instrs[i], want.Instrs[i]
		for j := range w.Encodings {
			if len(w.Encodings[j].Operands) == 0 {
				w.Encodings[j].Operands = nil
			}
		}
		if g.Name != w.Name || !reflect.DeepEqual(g.Aliases, w.Aliases) || !reflect.DeepEqual(g.Syntax, w.Syntax) || !reflect.DeepEqual(g.Targets, w.Targets) ||
			!reflect.DeepEqual(g.Operands, w.Operands) || len(g.Encodings) != len(w.Encodings) {
			t.Errorf("%s: got %+v\nwant %+v", w.Name, g, w)
		}
	}
	if got.Instrs[0].Targets["gfx904"] != "unsupported" || got.Instrs[1].Targets != nil {
		t.Errorf("targets: %v and %v; want the first's three verdicts and none for the second (all agree)", got.Instrs[0].Targets, got.Instrs[1].Targets)
	}
	for _, bad := range [][]byte{nil, []byte("x"), b[:len(b)/2]} {
		if _, err := LoadTable(bad); err == nil {
			t.Errorf("LoadTable(%d bytes) succeeded", len(bad))
		}
	}
}

// TestPreparedDecodesAsModel builds every family's decoder from the
// prepared table and from the whole model and decodes the same words with
// both: every answer must be the same, text and fields.
func TestPreparedDecodesAsModel(t *testing.T) {
	if testenv.FindUpstream() == "" {
		t.Skip("shared/upstream not found (set GPUISA_SOURCES): the real-data tests need the AMD sources")
	}
	m, err := decodetest.Model()
	if err != nil {
		t.Fatal(err)
	}
	for arch, f := range m {
		if f.Arch.Kind != isa.KindNative {
			continue
		}
		ptrs := make([]*isa.Instruction, len(f.Instrs))
		for i := range f.Instrs {
			ptrs[i] = &f.Instrs[i]
		}
		b, err := PrepareTable(f.Arch, ptrs)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := LoadTable(b)
		if err != nil {
			t.Fatal(err)
		}
		full, err := decode.New(f.Arch, f.Instrs)
		if err != nil {
			t.Fatal(err)
		}
		prep, err := decode.New(tab.Arch, tab.Instrs)
		if err != nil {
			t.Fatal(err)
		}
		var words [][]byte
		for _, in := range f.Instrs {
			for _, ex := range in.Examples {
				if bs, ok := exampleBytes(ex.Encoding); ok {
					words = append(words, bs)
				}
			}
		}
		rng := rand.New(rand.NewSource(1))
		for i := 0; i < 3000; i++ {
			w := make([]byte, 16)
			for j := 0; j < 4; j++ {
				binary.LittleEndian.PutUint32(w[4*j:], rng.Uint32())
			}
			words = append(words, w)
		}
		bad := 0
		for _, w := range words {
			a, na, ea := full.Decode(w, 0)
			b, nb, eb := prep.Decode(w, 0)
			if (ea == nil) != (eb == nil) || na != nb || a.Text() != b.Text() || !reflect.DeepEqual(a.Fields, b.Fields) {
				bad++
				if bad <= 3 {
					t.Errorf("%s % x: model %q %v, prepared %q %v", arch, w, a.Text(), ea, b.Text(), eb)
				}
			}
		}
		t.Logf("%s: %d words, %d differ", arch, len(words), bad)
	}
}

// exampleBytes reads llvm-mc's "[0xc1,0x04,0x0a,0x16]".
func exampleBytes(s string) ([]byte, bool) {
	var out []byte
	var v, n int
	for _, c := range s + "," {
		switch {
		case c == '[' || c == ']' || c == ' ' || c == 'x':
		case c >= '0' && c <= '9':
			v, n = v*16+int(c-'0'), n+1
		case c >= 'a' && c <= 'f':
			v, n = v*16+int(c-'a'+10), n+1
		case c == ',':
			if n > 0 {
				out = append(out, byte(v))
			}
			v, n = 0, 0
		default:
			return nil, false
		}
	}
	return out, len(out) >= 4
}

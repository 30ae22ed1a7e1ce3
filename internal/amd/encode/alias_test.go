package encode

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestEncodeAliases: an alias is encoded as its instruction exactly on the
// targets the build saw llvm-mc take it (isa.Alias.Targets), a whole-family
// encoder answering for the family's first target; an alias with no
// verified target, or one on another target only, is refused; an
// instruction's own name is never taken for another's alias.
func TestEncodeAliases(t *testing.T) {
	a, ins := fixture()
	a.Targets = []string{"gfx950", "gfx951"}
	for i := range ins {
		if ins[i].Name == "v_max_f32" {
			ins[i].Aliases = []isa.Alias{
				{Name: "v_max_num_f32", Targets: []string{"gfx950", "gfx951"}},
				{Name: "v_max_later_f32", Targets: []string{"gfx951"}},
				{Name: "v_max_doc_f32"}, // documented only
				{Name: "v_mov_b32", Targets: []string{"gfx950"}},
			}
		}
	}
	d, err := decode.New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	fam := FromDecoder(d)
	d951, err := d.ForTarget("gfx951")
	if err != nil {
		t.Fatal(err)
	}
	later := FromDecoder(d951)
	same := func(e *Encoder, alias, canon string) {
		t.Helper()
		want, err := e.Encode(canon)
		if err != nil {
			t.Fatalf("%s: %v", canon, err)
		}
		got, err := e.Encode(alias)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: % x, %v; want % x (%s)", alias, got, err, want, canon)
		}
	}
	refused := func(e *Encoder, asm string) {
		t.Helper()
		if got, err := e.Encode(asm); err == nil || !strings.Contains(err.Error(), "no such instruction") {
			t.Errorf("%s: % x, %v; want no such instruction", asm, got, err)
		}
	}
	same(fam, "v_max_num_f32 v5, -1, v2", "v_max_f32 v5, -1, v2")
	same(fam, "v_max_num_f32_e64 v5, v1, v2", "v_max_f32_e64 v5, v1, v2")
	same(later, "v_max_later_f32 v5, v1, v2", "v_max_f32 v5, v1, v2")
	refused(fam, "v_max_later_f32 v5, v1, v2")
	refused(fam, "v_max_doc_f32 v5, v1, v2")
	refused(later, "v_max_doc_f32 v5, v1, v2")
	// v_mov_b32 is its own instruction, whatever v_max_f32's aliases say.
	same(fam, "v_mov_b32 v1, v2", "v_mov_b32 v1, v2")
	got, _ := fam.Encode("v_mov_b32 v1, v2")
	if in, _, err := d.Decode(got, 0); err != nil || in.Name != "v_mov_b32" {
		t.Errorf("v_mov_b32 encodes as %s, %v", in.Name, err)
	}
}

// TestTargetLacksInstruction: an instruction llvm-mc verified on some of
// the family's targets and not on another is refused there, by the
// encoder (saying why) and the decoder, unless an alias of it is verified
// on that target (the opcode is there under LLVM's other name).
func TestTargetLacksInstruction(t *testing.T) {
	a, ins := fixture()
	a.Targets = []string{"gfx950", "gfx951"}
	for i := range ins {
		switch ins[i].Name {
		case "v_max_f32":
			ins[i].Targets = map[string]string{"gfx950": "supported", "gfx951": "unsupported"}
		case "v_mov_b32":
			ins[i].Targets = map[string]string{"gfx950": "supported", "gfx951": "unsupported"}
			ins[i].Aliases = []isa.Alias{{Name: "v_mov_other_b32", Targets: []string{"gfx951"}}}
		}
	}
	d, err := decode.New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	d951, err := d.ForTarget("gfx951")
	if err != nil {
		t.Fatal(err)
	}
	word, err := FromDecoder(d).Encode("v_max_f32 v5, v1, v2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromDecoder(d951).Encode("v_max_f32 v5, v1, v2"); err == nil || !strings.Contains(err.Error(), "v_max_f32 is not on gfx951") {
		t.Errorf("encoding v_max_f32 on gfx951: %v; want it is not on gfx951", err)
	}
	var nt *decode.NotOnTargetError
	if _, _, err := d951.Decode(word, 0); !errors.As(err, &nt) || nt.Name != "v_max_f32" {
		t.Errorf("decoding v_max_f32's word on gfx951: %v; want a NotOnTargetError", err)
	}
	if _, err := FromDecoder(d951).Encode("v_mov_b32 v1, v2"); err != nil {
		t.Errorf("v_mov_b32, whose alias gfx951 has: %v", err)
	}
}

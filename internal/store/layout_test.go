package store

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestLayoutsAreStoredOnceAndDerived: an encoding whose layout is what its
// family's format gives is stored without it and read back with it (the API
// document byte for byte as the build made it); one whose layout the model
// states otherwise (here: no identifier) keeps its own.
func TestLayoutsAreStoredOnceAndDerived(t *testing.T) {
	ctx := context.Background()
	format := isa.Format{Name: "SOP1", Width: 32, Fields: []isa.Field{
		{Name: "SDST", MSB: 22, LSB: 16}, {Name: "OP", MSB: 15, LSB: 8}, {Name: "SSRC0", MSB: 7, LSB: 0},
		{Name: "ENCODING", MSB: 31, LSB: 23, Fixed: "101111101"},
	}}
	enc := func(op int) isa.Encoding {
		e := isa.Encoding{Name: "SOP1", Format: "SOP1", Opcode: op}
		l := derivedLayout("cdna4", "s_mov_b32", format, op)
		e.Width, e.Fields, e.Identifier, e.Documented = l.Width, l.Fields, l.Identifier, l.Documented
		return e
	}
	derivable, own := enc(0), enc(1)
	own.Identifier = "" // the model withdrew it
	in := &isa.Instruction{Arch: "cdna4", Name: "s_mov_b32", Vendor: isa.VendorAMD, Encodings: []isa.Encoding{derivable, own}}
	isa.FillLists(in)
	want, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	db := writeOpen(t, &Build{Info: isa.BuildInfo{Version: "test"}, Instructions: []*isa.Instruction{in},
		Archs: []isa.Architecture{{ID: "cdna4", Name: "CDNA 4", Vendor: isa.VendorAMD, Formats: []isa.Format{format}}}})
	var derived int
	var packed []byte
	if err := db.db.QueryRow("SELECT derived, doc FROM instructions").Scan(&derived, &packed); err != nil || derived != 1 {
		t.Fatalf("derived = %d (%v), want the one encoding the format gives", derived, err)
	}
	stored, _ := decompress(packed)
	var raw isa.Instruction
	json.Unmarshal(stored, &raw)
	if raw.Encodings[0].Width != 0 || len(raw.Encodings[0].Fields) != 0 || raw.Encodings[1].Width != 32 {
		t.Errorf("stored encodings %+v, want the first without its layout and the second with", raw.Encodings)
	}
	doc, err := db.InstructionDoc(ctx, "cdna4", "s_mov_b32")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := doc.JSON(); string(got) != string(want) {
		t.Errorf("API document\n%s\nwant\n%s", got, want)
	}
	got, err := db.Instruction(ctx, "cdna4", "s_mov_b32")
	if err != nil {
		t.Fatal(err)
	}
	if same, _ := sameJSON(got, in); !same {
		t.Errorf("Instruction = %+v, want %+v", got.Encodings, in.Encodings)
	}
	// A reader's change to its copy is not another reader's.
	got.Encodings[0].Fields[0].Name = "CHANGED"
	again, _ := db.Instruction(ctx, "cdna4", "s_mov_b32")
	if again.Encodings[0].Fields[0].Name == "CHANGED" {
		t.Error("derived fields are shared between readers")
	}
}

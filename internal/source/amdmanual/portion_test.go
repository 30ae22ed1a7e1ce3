package amdmanual

import (
	"reflect"
	"strings"
	"testing"
)

// A format described in portions: the first table's caption names bits
// [63:0], the second's [127:64] with its fields numbered from 0, and an
// uncaptioned continuation numbered like the table it continues. One
// field is split over two rows (NAME[2], NAME[1:0]) and one row is named
// by a plain word with a hexadecimal fixed value. The format is invented.
func TestPortionTables(t *testing.T) {
	hdr := mdRow{"Field Name", "Bits", "Format or Description"}
	doc := blocks(
		heading(1, bold("Chapter 1. Microcode Formats")),
		heading(2, bold("1.1. TOYX2")),
		`Table 1. TOYX2 Fields for bits [63:0] (the "head" portion)`,
		table(hdr,
			mdRow{"SEL[2]", "[14]", "high bit"},
			mdRow{"HOP", "[19:16]", "head opcode"},
			mdRow{"ENCODING", "[31:20]", "'b11001100_0011"},
			mdRow{"Constant", "[58:50]", "Must be set to 0x100"},
			mdRow{"SEL[1:0]", "[60:59]", "low bits"}),
		`Table 2. TOYX2 Fields for bits [127:64] (the "body" portion)`,
		table(hdr,
			mdRow{"VDST", "[7:0]", "destination"},
			mdRow{"OP", "[23:16]", "opcode"},
			mdRow{"ENCODING", "[31:24]", "'b11001100"}),
		table(hdr,
			mdRow{"SRC0", "[40:32]", "source"}),
	)
	g, err := Parse(strings.NewReader(doc), "toy.md", "toy")
	if err != nil {
		t.Fatal(err)
	}
	f := g.FormatByName("TOYX2")
	if f == nil {
		t.Fatalf("no TOYX2 format; problems %v", g.Problems)
	}
	type got struct {
		name   string
		ranges []BitRange
		fixed  string
	}
	var have []got
	for _, fl := range f.Fields {
		have = append(have, got{fl.Name, fl.Ranges, fl.Fixed})
	}
	want := []got{
		{"SEL", []BitRange{{14, 14}, {60, 59}}, ""},
		{"HOP", []BitRange{{19, 16}}, ""},
		{"ENCODING", []BitRange{{31, 20}}, "110011000011"},
		{"CONSTANT", []BitRange{{58, 50}}, "100000000"},
		{"VDST", []BitRange{{71, 64}}, ""},
		{"OP", []BitRange{{87, 80}}, ""},
		{"ENCODING", []BitRange{{95, 88}}, "11001100"},
		{"SRC0", []BitRange{{104, 96}}, ""},
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("fields\n got %v\nwant %v", have, want)
	}
	if f.Width != 128 {
		t.Errorf("width %d, want 128", f.Width)
	}
	if len(g.Problems) != 0 {
		t.Errorf("problems: %v", g.Problems)
	}
}

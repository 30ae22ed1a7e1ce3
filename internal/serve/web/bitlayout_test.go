package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func vop2(opcode int) isa.Encoding {
	return isa.Encoding{Name: "VOP2", Format: "VOP2", Width: 32, Opcode: opcode, Fields: []isa.Field{
		{Name: "ENCODING", MSB: 31, LSB: 31, Fixed: "0"},
		{Name: "OP", MSB: 30, LSB: 25},
		{Name: "VDST", MSB: 24, LSB: 17},
		{Name: "VSRC1", MSB: 16, LSB: 9},
		{Name: "SRC0", MSB: 8, LSB: 0},
	}}
}

func TestDiagramProportionalWithBinaryValues(t *testing.T) {
	d := buildDiagram(vop2(11), 32)
	if len(d.Rows) != 1 {
		t.Fatalf("%d rows", len(d.Rows))
	}
	row := d.Rows[0]
	type want struct {
		name     string
		msb, lsb int
		bits     string
	}
	wants := []want{{"ENCODING", 31, 31, "0"}, {"OP", 30, 25, "001011"}, {"VDST", 24, 17, ""}, {"VSRC1", 16, 9, ""}, {"SRC0", 8, 0, ""}}
	if len(row.Segments) != len(wants) {
		t.Fatalf("%d segments", len(row.Segments))
	}
	x := 1
	for i, w := range wants {
		s := row.Segments[i]
		if s.Name != w.name || s.MSB != w.msb || s.LSB != w.lsb || s.Bits != w.bits {
			t.Errorf("segment %d = %+v, want %+v", i, s, w)
		}
		if s.W != (w.msb-w.lsb+1)*bitUnit || s.X != x {
			t.Errorf("segment %s at x=%d w=%d, want x=%d w=%d", s.Name, s.X, s.W, x, (w.msb-w.lsb+1)*bitUnit)
		}
		x += s.W
	}
	if !row.Segments[0].Vertical {
		t.Error("a one-bit ENCODING box should get a rotated name")
	}

	narrow := buildDiagram(vop2(11), 16)
	if len(narrow.Rows) != 2 {
		t.Fatalf("16-bit rows: %d", len(narrow.Rows))
	}
	// VSRC1 (16:9) crosses no boundary; a field crossing 16 would be split.
	if first := narrow.Rows[0].Segments; first[len(first)-1].LSB != 16 {
		t.Errorf("first narrow row ends at bit %d", first[len(first)-1].LSB)
	}
}

func TestDiagramSplitsFieldsAcrossRowsAndMarksGaps(t *testing.T) {
	enc := isa.Encoding{Name: "X", Width: 32, Opcode: 5, Fields: []isa.Field{
		{Name: "ENCODING", MSB: 31, LSB: 28, Fixed: "1010"},
		{Name: "OP", MSB: 20, LSB: 12}, // crosses bit 16, bits 27:21 uncovered
		{Name: "LO", MSB: 11, LSB: 0},
	}}
	d := buildDiagram(enc, 16)
	top := d.Rows[0].Segments
	if top[1].Name != "" || top[1].Class != "gap" || top[1].MSB != 27 || top[1].LSB != 21 {
		t.Errorf("gap segment = %+v", top[1])
	}
	if top[2].Name != "OP" || top[2].Bits != "00000" || top[2].LSB != 16 {
		t.Errorf("upper OP piece = %+v", top[2])
	}
	low := d.Rows[1].Segments[0]
	if low.Name != "OP" || low.MSB != 15 || low.Bits != "0101" {
		t.Errorf("lower OP piece = %+v", low)
	}
}

func TestSplitFieldRanges(t *testing.T) {
	enc := isa.Encoding{Name: "S", Width: 32, Opcode: 0b101101, Fields: []isa.Field{
		{Name: "OP", MSB: 31, LSB: 29, Ranges: []isa.BitRange{{MSB: 31, LSB: 29}, {MSB: 2, LSB: 0}}},
	}}
	d := buildDiagram(enc, 32)
	segs := d.Rows[0].Segments
	if segs[0].Bits != "101" || segs[len(segs)-1].Bits != "101" || segs[len(segs)-1].LSB != 0 {
		t.Errorf("split OP pieces: first %+v last %+v", segs[0], segs[len(segs)-1])
	}
}

func TestIdentifierCheck(t *testing.T) {
	enc := vop2(11)
	enc.Identifier = "0x16000000"
	msg, ok := identifierCheck(enc)
	if !ok || !strings.Contains(msg, "Opcode 11 in OP rebuilds 0x16000000") {
		t.Errorf("check = %q, %v", msg, ok)
	}
	enc.Identifier = "0x18000000"
	if msg, ok := identifierCheck(enc); ok || !strings.Contains(msg, "differs") {
		t.Errorf("mismatch check = %q, %v", msg, ok)
	}
	enc.Identifier = "zz"
	if _, ok := identifierCheck(enc); ok {
		t.Error("bad identifier accepted")
	}
	// 64-bit encodings listed by their low dword
	vop3 := isa.Encoding{Name: "VOP3A", Width: 64, Opcode: 267, Identifier: "0xD10B0000", Fields: []isa.Field{
		{Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110100"}, {Name: "OP", MSB: 25, LSB: 16}, {Name: "SRC0", MSB: 40, LSB: 32},
	}}
	if msg, ok := identifierCheck(vop3); !ok {
		t.Errorf("VOP3A check = %q", msg)
	}
	// opcode too wide for its field: no bits shown, no claim made
	big := vop2(1 << 7)
	big.Identifier = "0x16000000"
	if d := buildDiagram(big, 32); d.Rows[0].Segments[1].Bits != "" {
		t.Errorf("overflowing opcode drawn as %q", d.Rows[0].Segments[1].Bits)
	}
}

func TestDiagramRejectsNonsenseWidths(t *testing.T) {
	for _, w := range []int{0, -4, 4096} {
		if d := buildDiagram(isa.Encoding{Width: w}, 32); len(d.Rows) != 0 {
			t.Errorf("width %d gave rows", w)
		}
	}
	// fields outside the width are ignored, not a panic
	d := buildDiagram(isa.Encoding{Width: 8, Fields: []isa.Field{{Name: "A", MSB: 40, LSB: -3}}}, 32)
	if len(d.Rows) != 1 {
		t.Errorf("rows %d", len(d.Rows))
	}
}

func TestSVGEscapesNames(t *testing.T) {
	enc := isa.Encoding{Name: `V<"&>`, Width: 32, Fields: []isa.Field{{Name: `A<b>&"`, MSB: 31, LSB: 0}}}
	out := string(buildDiagram(enc, 32).SVG())
	if strings.Contains(out, "<b>") || strings.Contains(out, `V<"`) {
		t.Errorf("unescaped name in %s", out)
	}
	if !strings.Contains(out, "A&lt;b&gt;&amp;&#34;") {
		t.Errorf("escaped name missing in %s", out)
	}
	if n := strings.Count(out, "<rect"); n != 1 {
		t.Errorf("%d boxes, want 1", n)
	}
}

// The identifier check never ticks a value llvm-mc contradicts.
func TestIdentifierCheckFollowsTheAssembler(t *testing.T) {
	enc := vop2(11)
	enc.Identifier = "0x16000000"
	enc.Assembler = &isa.AssemblerCheck{Agrees: true, Identifier: "0x16000000", Asm: "v_max_f32 v5, -1, v2", Target: "gfx950", Encoding: "0xc1,0x04,0x0a,0x16"}
	if msg, ok := identifierCheck(enc); !ok || !strings.Contains(msg, "llvm-mc encodes v_max_f32 v5, -1, v2 on gfx950") {
		t.Errorf("agreeing check = %q, %v", msg, ok)
	}
	enc.Assembler = &isa.AssemblerCheck{Agrees: false, Identifier: "0x18000000", Asm: "v_max_f32 v5, -1, v2", Target: "gfx950"}
	if msg, ok := identifierCheck(enc); ok || !strings.Contains(msg, "0x18000000") {
		t.Errorf("contradicted check = %q, %v", msg, ok)
	}
}

// An immediate with documented sub-fields is drawn as those, its other
// bits under its own name.
func TestDiagramDrawsImmediateParts(t *testing.T) {
	enc := isa.Encoding{Name: "SOPP", Width: 32, Opcode: 12, Fields: []isa.Field{
		{Name: "SIMM16", MSB: 15, LSB: 0, Parts: []isa.Field{
			{Name: "vmcnt", MSB: 15, LSB: 14, Ranges: []isa.BitRange{{MSB: 15, LSB: 14}, {MSB: 3, LSB: 0}}},
			{Name: "expcnt", MSB: 6, LSB: 4}, {Name: "lgkmcnt", MSB: 11, LSB: 8}}},
		{Name: "OP", MSB: 22, LSB: 16}, {Name: "ENCODING", MSB: 31, LSB: 23, Fixed: "101111111"}}}
	var got []string
	for _, s := range buildDiagram(enc, 32).Rows[0].Segments {
		got = append(got, fmt.Sprintf("%s[%d:%d]", s.Name, s.MSB, s.LSB))
	}
	want := "ENCODING[31:23] OP[22:16] vmcnt[15:14] SIMM16[13:12] lgkmcnt[11:8] SIMM16[7:7] expcnt[6:4] vmcnt[3:0]"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("segments %s\nwant     %s", g, want)
	}
}

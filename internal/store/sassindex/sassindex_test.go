package sassindex

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func TestParse(t *testing.T) {
	cases := []struct {
		text                   string
		guard, op, mods, shape string
		reuse                  bool
	}{
		{"FFMA R4, R0, R3, R2", "", "FFMA", "", "R, R, R, R", false},
		{"@!P0 FMNMX.NAN R5, R0.reuse, R5, !PT", "@!P0", "FMNMX", ".NAN", "R, R, R, P", true},
		{"IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]", "", "IMAD", ".MOV.U32", "R, R, R, c[imm][imm]", false},
		{"LDG.E R2, desc[UR4][R2.64+0x10]", "", "LDG", ".E", "R, desc[UR][R+imm]", false},
		{"ST.E [R2.64], R5", "", "ST", ".E", "[R], R", false},
		{"FADD R0, -|R3|, 1.5", "", "FADD", "", "R, R, fimm", false},
		{"FSETP.GEU.AND P0, PT, R0, +INF, PT", "", "FSETP", ".GEU.AND", "P, P, R, fimm, P", false},
		{"S2R R0, SR_LANEID", "", "S2R", "", "R, SR", false},
		{"BRA `(.L_x_0)", "", "BRA", "", "label", false},
		{"HADD2 R0, -RZ.H0_H0, R2.H1_H1", "", "HADD2", "", "R, R, R", false},
		{"CALL.REL.NOINC R2 `(gpuisa_u0)", "", "CALL", ".REL.NOINC", "R label", false},
		{"IADD3 R0, P0, PT, R2, 0x10, RZ", "", "IADD3", "", "R, P, P, R, imm, R", false},
		{"UIADD3 UR4, UPT, UPT, UR4, -0x1, URZ", "", "UIADD3", "", "UR, UP, UP, UR, imm, UR", false},
		{"EXIT", "", "EXIT", "", "", false},
		{"TEX.SCR.LL R0, R0, R0, 0x0, 0x58, ARRAY_ND, 0x1", "", "TEX", ".SCR.LL", "R, R, R, imm, imm, ARRAY_ND, imm", false},
	}
	for _, c := range cases {
		p, ok := Parse(c.text)
		if !ok {
			t.Errorf("Parse(%q) failed", c.text)
			continue
		}
		if p.Guard != c.guard || p.Opcode != c.op || p.Modifiers != c.mods || p.Shape != c.shape || p.Reuse != c.reuse {
			t.Errorf("Parse(%q) = %+v, want guard %q op %q mods %q shape %q reuse %v", c.text, p, c.guard, c.op, c.mods, c.shape, c.reuse)
		}
	}
	for _, bad := range []string{"", "  ", "{", "0x1234", "ffma r0"} {
		if p, ok := Parse(bad); ok {
			t.Errorf("Parse(%q) = %+v, want no opcode", bad, p)
		}
	}
}

func TestParseControl(t *testing.T) {
	c, ok := ParseControl("S04 y1 W1 R2 B05")
	if !ok || c.Stall != 4 || c.Yield != 1 || c.Write != 1 || c.Read != 2 || len(c.Wait) != 2 || c.Wait[0] != 0 || c.Wait[1] != 5 {
		t.Errorf("ParseControl = %+v, %v", c, ok)
	}
	c, ok = ParseControl("S03 y0")
	if !ok || c.Write != -1 || c.Read != -1 || c.Wait != nil {
		t.Errorf("ParseControl(S03 y0) = %+v, %v", c, ok)
	}
	for _, bad := range []string{"", "S03", "S0x y0", "S01 y0 B9", "S01 Q0"} {
		if _, ok := ParseControl(bad); ok {
			t.Errorf("ParseControl(%q) accepted", bad)
		}
	}
}

func line(text, ctrl string) isa.SASSLine { return isa.SASSLine{Text: text, Control: ctrl} }

func fixture() []*isa.Instruction {
	fma := &isa.Instruction{Arch: "ptx", Name: "fma", Kind: isa.KindVirtual,
		Forms: []isa.Form{{Syntax: "fma.rnd.f32 d, a, b, c;", Check: &isa.PTXCheck{Statement: "fma.rn.f32 d, a, b, c;",
			SASS: []isa.SASS{
				{Target: "sm_90", Lines: []isa.SASSLine{line("FFMA R7, R5, R0, R4", "S03 y0 B4")}},
				{Target: "sm_75", Lines: []isa.SASSLine{line("FFMA R4, R0.reuse, R3, R2", "S03 y0 B4")}},
			}}}},
		Examples: []isa.Example{{Checks: []isa.PTXCheck{
			// The form's statement again, spaced otherwise: one listing.
			{Statement: "fma.rn.f32  d,a,b,c", SASS: []isa.SASS{{Target: "sm_90", Lines: []isa.SASSLine{line("FFMA R7, R5, R0, R4", "S03 y0 B4")}}}},
			{Statement: "fma.rn.ftz.f32 d, a, b, c", SASS: []isa.SASS{{Target: "sm_90", Lines: []isa.SASSLine{line("FFMA.FTZ R7, R5, R0, R4", "S05 y1 W2 B0")}}}},
			// Another instruction's statement in fma's example is add's.
			{Statement: "@p add.f32 d, a, b", SASS: []isa.SASS{{Target: "sm_90", Lines: []isa.SASSLine{line("@P0 FADD R7, R5, R0", "S04 y0 B4"), line("not sass", "")}}}},
		}}}}
	add := &isa.Instruction{Arch: "ptx", Name: "add", Kind: isa.KindVirtual}
	amd := &isa.Instruction{Arch: "rdna3", Name: "v_fma_f32", Kind: ""}
	return []*isa.Instruction{fma, add, amd}
}

func TestBuild(t *testing.T) {
	x := Build(fixture(), Provenance{Tools: []string{"ptxas 12.9"}})
	if got := x.Targets; len(got) != 2 || got[0] != "sm_75" || got[1] != "sm_90" {
		t.Fatalf("targets %v, want [sm_75 sm_90]", got)
	}
	if p := x.Provenance; p.ListingsOf["sm_90"] != 3 || p.ListingsOf["sm_75"] != 1 || p.Statements != 4 || p.Lines != 5 || p.Unread != 1 || p.Tools[0] != "ptxas 12.9" {
		t.Errorf("provenance %+v: want 4 listings, 5 lines, 1 unread", p)
	}
	if len(x.Opcodes) != 2 || x.Opcodes[0].Name != "FADD" || x.Opcodes[1].Name != "FFMA" {
		t.Fatalf("opcodes %+v", x.Opcodes)
	}
	ffma := x.Opcode("FFMA")
	on := ffma.On("sm_90")
	if on == nil || on.Lines != 2 || len(on.Modifiers) != 2 || on.Modifiers[0].N != 1 {
		t.Fatalf("FFMA on sm_90: %+v", on)
	}
	if len(on.Statements) != 2 || on.Statements[0].From != "form fma.rnd.f32 d, a, b, c;" || on.Instructions[0] != (Count{"fma", 2}) {
		t.Errorf("FFMA on sm_90 statements %+v instructions %+v", on.Statements, on.Instructions)
	}
	if len(on.Controls) != 2 || on.Shapes[0] != (Count{"R, R, R, R", 2}) {
		t.Errorf("FFMA on sm_90 controls %+v shapes %+v", on.Controls, on.Shapes)
	}
	if old := ffma.On("sm_75"); old == nil || old.Reuse != 1 {
		t.Errorf("FFMA on sm_75: %+v, want one reuse", old)
	}
	if fadd := x.Opcode("FADD").On("sm_90"); fadd == nil || fadd.Statements[0].Instruction != "add" {
		t.Errorf("FADD on sm_90: %+v, want add's statement", fadd)
	}
	if x.Opcode("HMMA") != nil || ffma.On("sm_80") != nil {
		t.Error("found what was not seen")
	}
}

type extras map[string][]byte

func (e extras) Extra(_ context.Context, key string) ([]byte, error) {
	if b, ok := e[key]; ok {
		return b, nil
	}
	return nil, errors.New("not found")
}

func TestLoadRoundTrips(t *testing.T) {
	x := Build(fixture(), Provenance{Tools: []string{"ptxas 12.9"}})
	raw, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(context.Background(), extras{Key: raw})
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Opcodes) != len(x.Opcodes) || back.Opcode("FFMA").On("sm_90").Lines != 2 {
		t.Errorf("loaded %+v", back)
	}
	if _, err := Load(context.Background(), extras{}); err == nil {
		t.Error("Load of a database without the index succeeded")
	}
}

// TestControlRoundTrips: the fields decoded from an encoding re-encode to
// its control bits; a made-up one of every field, and a two-word encoding
// in nvdisasm's shape.
func TestControlRoundTrips(t *testing.T) {
	for _, c := range []struct{ ctrl, enc string }{
		{"S03 y0 B4", "0x0000000300047223 0x010fc60000000002"},
		{"S01 y1", "0x0 0x" + strconv.FormatUint((1|1<<4|7<<5|7<<8)<<41, 16)},
		{"S15 y0 W2 R5 B0135", "0x0 0x" + strconv.FormatUint((15|2<<5|5<<8|(1|1<<1|1<<3|1<<5)<<11)<<41, 16)},
	} {
		d, ok := ParseControl(c.ctrl)
		bits, eok := EncodedControl(c.enc)
		if !ok || !eok || d.Bits() != bits {
			t.Errorf("%q: decoded %+v re-encodes to %#x, the encoding %s has %#x", c.ctrl, d, d.Bits(), c.enc, bits)
		}
	}
	if _, ok := EncodedControl("0x1234"); ok {
		t.Error("a one-word encoding has control bits")
	}
}

package amdlayout

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func layout(fs []isa.Field) string {
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("%s[%d:%d]", f.Name, f.MSB, f.LSB)
		if f.Fixed != "" {
			s += "=" + f.Fixed
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestVerified(t *testing.T) {
	for _, tc := range []struct {
		family string
		in     isa.Format
		want   string // "" for unchanged
	}{
		{"rdna4", isa.Format{Name: "VGLOBAL", Width: 96, Fields: []isa.Field{
			{Name: "SADDR", MSB: 6, LSB: 0}, {Name: "OP", MSB: 20, LSB: 13}, {Name: "ENCODING", MSB: 31, LSB: 24, Fixed: "11101110"},
			{Name: "VADDR", MSB: 71, LSB: 64}}},
			"SADDR[6:0] OP[21:14] ENCODING[31:24]=11101110 VADDR[71:64] IOFFSET[95:72]"},
		{"rdna2", isa.Format{Name: "DS", Width: 64, Fields: []isa.Field{
			{Name: "OFFSET1", MSB: 15, LSB: 8}, {Name: "GDS", MSB: 16, LSB: 16}, {Name: "OP", MSB: 24, LSB: 17},
			{Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110110"}}},
			"OFFSET1[15:8] GDS[17:17] OP[25:18] ENCODING[31:26]=110110"},
		{"cdna4", isa.Format{Name: "DS", Width: 64, Fields: []isa.Field{
			{Name: "OFFSET1", MSB: 15, LSB: 8}, {Name: "OP", MSB: 24, LSB: 17}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110110"}}},
			"OFFSET1[15:8] GDS[16:16] OP[24:17] ENCODING[31:26]=110110"},
		// gfx12's DS has no GDS bit.
		{"cdna5", isa.Format{Name: "DS", Width: 64, Fields: []isa.Field{
			{Name: "OFFSET1", MSB: 15, LSB: 8}, {Name: "OP", MSB: 25, LSB: 18}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110110"}}}, ""},
		// GCN 5's DS is right as drawn.
		{"vega", isa.Format{Name: "DS", Width: 64, Fields: []isa.Field{
			{Name: "GDS", MSB: 16, LSB: 16}, {Name: "OP", MSB: 24, LSB: 17}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "110110"}}}, ""},
		{"cdna1", isa.Format{Name: "VOP3P-MAI", Width: 64, Fields: []isa.Field{
			{Name: "OP", MSB: 22, LSB: 16}, {Name: "ENCODING", MSB: 31, LSB: 24, Fixed: "11010011"}}},
			"OP[22:16] ENCODING[31:23]=110100111"},
		{"cdna3", isa.Format{Name: "VOP3P", Width: 64, Fields: []isa.Field{
			{Name: "OP", MSB: 22, LSB: 16}, {Name: "ENCODING", MSB: 31, LSB: 23, Fixed: "110100111"}}}, ""},
		{"rdna3", isa.Format{Name: "SOPK", Width: 32, Fields: []isa.Field{
			{Name: "SDST", MSB: 22, LSB: 16}, {Name: "OP", MSB: 27, LSB: 23}, {Name: "ENCODING", MSB: 31, LSB: 28, Fixed: "1011"}}},
			"SIMM16[15:0] SDST[22:16] OP[27:23] ENCODING[31:28]=1011"},
		{"vega", isa.Format{Name: "MTBUF", Width: 64, Fields: []isa.Field{
			{Name: "OFFEN", MSB: 12, LSB: 12}, {Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "111010"}, {Name: "SRSRC", MSB: 52, LSB: 48}}},
			"OFFSET[11:0] OFFEN[12:12] ENCODING[31:26]=111010 SRSRC[52:48] SOFFSET[63:56]"},
		{"cdna5", isa.Format{Name: "VOP2", Width: 32, Fields: []isa.Field{
			{Name: "SRC0", MSB: 8, LSB: 0}, {Name: "OP", MSB: 30, LSB: 25}}},
			"SRC0[8:0] OP[30:25] ENCODING[31:31]=0"},
	} {
		got, changes := Verified(tc.family, tc.in)
		if tc.want == "" {
			if len(changes) != 0 || layout(got.Fields) != layout(tc.in.Fields) {
				t.Errorf("%s %s changed: %s (%v)", tc.family, tc.in.Name, layout(got.Fields), changes)
			}
			continue
		}
		if layout(got.Fields) != tc.want || len(changes) == 0 {
			t.Errorf("%s %s = %s (%v), want %s", tc.family, tc.in.Name, layout(got.Fields), changes, tc.want)
		}
		// The caller's layout stays as the guide drew it.
		if layout(tc.in.Fields) == layout(got.Fields) {
			t.Errorf("%s %s: input modified", tc.family, tc.in.Name)
		}
		// Applying the corrections twice changes nothing more.
		if _, again := Verified(tc.family, got); len(again) != 0 {
			t.Errorf("%s %s: not idempotent: %v", tc.family, tc.in.Name, again)
		}
	}
}

func TestImmediateParts(t *testing.T) {
	simm := isa.Field{Name: "SIMM16", MSB: 15, LSB: 0}
	for _, tc := range []struct {
		family, name string
		want         string
	}{
		{"vega", "s_waitcnt", "vmcnt[15:14,3:0] expcnt[6:4] lgkmcnt[11:8]"},
		{"rdna2", "s_waitcnt", "vmcnt[15:14,3:0] expcnt[6:4] lgkmcnt[13:8]"},
		{"rdna3", "s_waitcnt", "vmcnt[15:10] expcnt[2:0] lgkmcnt[9:4]"},
		{"rdna3", "s_delay_alu", "instid0[3:0] instskip[6:4] instid1[10:7]"},
		{"cdna4", "s_delay_alu", ""},
		{"rdna1", "s_waitcnt_depctr", "depctr_sa_sdst[0:0] depctr_va_vdst[15:12] depctr_va_sdst[11:9] depctr_va_ssrc[8:8] depctr_va_vcc[1:1] depctr_vm_vsrc[4:2]"},
		{"rdna4", "s_getreg_b32", "id[5:0] offset[10:6] size[15:11]"},
		{"cdna3", "s_sendmsg", "msg[3:0] op[6:4] stream[9:8]"},
		{"rdna3", "s_sendmsg", "msg[7:0]"},
		{"rdna3", "s_add_u32", ""},
	} {
		var got []string
		for _, p := range Parts(tc.family, tc.name, simm) {
			rs := []string{fmt.Sprintf("%d:%d", p.MSB, p.LSB)}
			if len(p.Ranges) > 0 {
				rs = rs[:0]
				for _, r := range p.Ranges {
					rs = append(rs, fmt.Sprintf("%d:%d", r.MSB, r.LSB))
				}
			}
			got = append(got, p.Name+"["+strings.Join(rs, ",")+"]")
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.family, tc.name, g, tc.want)
		}
	}
	// s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3) is 0x0321 on gfx900 and
	// 0x0432 on gfx1100 (llvm-mc -show-encoding).
	for _, tc := range []struct {
		family string
		want   uint32
	}{{"vega", 0x0321}, {"rdna3", 0x0432}} {
		w := []uint32{0}
		for i, f := range ImmediateFields(tc.family, ImmWaitcnt) {
			f.Put(w, uint64(i+1))
		}
		if w[0] != tc.want {
			t.Errorf("%s waitcnt = %#x, want %#x", tc.family, w[0], tc.want)
		}
	}
}

func TestUsesMAI(t *testing.T) {
	for name, want := range map[string]bool{"v_mfma_f32_32x32x8f16": true, "v_smfmac_f32_16x16x32_f16": true,
		"v_pk_fma_f16": false, "v_accvgpr_read_b32": false, "v_wmma_f32_16x16x16_f16": false} {
		if UsesMAI(name) != want {
			t.Errorf("UsesMAI(%s) = %v", name, !want)
		}
	}
}

// TestEveryFamilyHasImmediates: every AMD family of isa's table has the
// s_waitcnt, hwreg and sendmsg layouts of its generation.
func TestEveryFamilyHasImmediates(t *testing.T) {
	for _, id := range isa.AMDArchIDs() {
		for _, kind := range []string{ImmWaitcnt, ImmHwreg, ImmSendmsg} {
			if len(ImmediateFields(id, kind)) == 0 {
				t.Errorf("%s: no %s layout", id, kind)
			}
		}
	}
}

// TestIdentifierNeedsOPInFirstDword: an identifier is the first dword; a
// format whose OP lies past it (a 128-bit format made of two word pairs,
// CDNA 5's VOP3PX2) has none, where a 64-bit one with OP in its first
// dword has.
func TestIdentifierNeedsOPInFirstDword(t *testing.T) {
	vop3p := isa.Format{Width: 64, Fields: []isa.Field{
		{Name: "OP", MSB: 22, LSB: 16},
		{Name: "ENCODING", MSB: 31, LSB: 23, Fixed: "110100111"},
	}}
	if id, ok := Identifier(vop3p, 44); !ok || id != "0xD3AC0000" {
		t.Errorf("64-bit format: got %q, %v; want 0xD3AC0000", id, ok)
	}
	split := isa.Format{Width: 64, Fields: []isa.Field{ // RDNA 1 MTBUF: OP[3] at 53, OP[2:0] at 18:16
		{Name: "OP", MSB: 53, LSB: 53, Ranges: []isa.BitRange{{MSB: 53, LSB: 53}, {MSB: 18, LSB: 16}}},
		{Name: "ENCODING", MSB: 31, LSB: 26, Fixed: "111010"},
	}}
	if id, ok := Identifier(split, 1); !ok || id != "0xE8010000" {
		t.Errorf("OP split over dwords: got %q, %v; want 0xE8010000", id, ok)
	}
	wide := isa.Format{Width: 128, Fields: []isa.Field{
		{Name: "ENCODING", MSB: 31, LSB: 20, Fixed: "110011000011"},
		{Name: "OP", MSB: 87, LSB: 80},
		{Name: "ENCODING", MSB: 95, LSB: 88, Fixed: "11001100"},
	}}
	if id, ok := Identifier(wide, 51); ok {
		t.Errorf("OP in the third dword: got identifier %s, want none", id)
	}
}

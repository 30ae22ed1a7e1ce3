package decode

import (
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestSymbolicImmediates checks hwreg(...), sendmsg(...), gpr_idx(...) and
// MTBUF format:[...] against what llvm-mc 22 prints for the same values.
func TestSymbolicImmediates(t *testing.T) {
	cases := []struct {
		arch string
		kind string
		v    int
		want string
	}{
		{"vega", "hwreg", 0xf801, "hwreg(HW_REG_MODE)"},
		{"vega", "hwreg", 0x0000, "hwreg(0, 0, 1)"},
		{"vega", "hwreg", 24 | 16<<6 | 2<<11, "hwreg(24, 16, 3)"},
		{"cdna3", "hwreg", 0xf814, "hwreg(HW_REG_XCC_ID)"},
		{"rdna1", "hwreg", 0xf816, "hwreg(HW_REG_XNACK_MASK)"},
		{"rdna2", "hwreg", 0xf816, "hwreg(22)"},
		{"rdna3", "hwreg", 0xf81b, "hwreg(HW_REG_PERF_SNAPSHOT_DATA)"},
		{"rdna4", "hwreg", 0xf801 | 3<<6, "hwreg(HW_REG_WAVE_MODE, 3, 32)"},
		{"cdna5", "hwreg", 0xf822, "hwreg(HW_REG_XNACK_MASK)"},
		{"vega", "sendmsg", 0, "sendmsg(0, 0, 0)"},
		{"vega", "sendmsg", 1, "sendmsg(MSG_INTERRUPT)"},
		{"vega", "sendmsg", 3, "sendmsg(MSG_GS_DONE, GS_OP_NOP)"},
		{"vega", "sendmsg", 2, "sendmsg(2, 0, 0)"},
		{"vega", "sendmsg", 0x22 | 2<<8, "sendmsg(MSG_GS, GS_OP_EMIT, 2)"},
		{"vega", "sendmsg", 0x4f, "sendmsg(MSG_SYSMSG, SYSMSG_OP_TTRACE_PC)"},
		{"vega", "sendmsg", 0x11, "sendmsg(1, 1, 0)"},
		{"vega", "sendmsg", 128, "128"},
		{"vega", "sendmsg", 139, "139"},
		{"rdna1", "sendmsg", 139, "sendmsg(MSG_GET_DDID)"},
		{"rdna3", "sendmsg", 257, "sendmsg(MSG_INTERRUPT)"},
		{"rdna3", "sendmsg", 256, "256"},
		{"rdna3", "sendmsg", 255, "sendmsg(255, 0, 0)"},
		{"rdna3", "sendmsg", 5, "sendmsg(MSG_STALL_WAVE_GEN)"},
		{"rdna4", "sendmsg", 5, "sendmsg(5, 0, 0)"},
		{"cdna5", "sendmsg", 136, "sendmsg(MSG_RTN_GET_CLUSTER_BARRIER_STATE)"},
		{"vega", "gpr_idx", 0, "gpr_idx()"},
		{"vega", "gpr_idx", 5, "gpr_idx(SRC0,SRC2)"},
		{"vega", "gpr_idx", 15, "gpr_idx(SRC0,SRC1,SRC2,DST)"},
		{"vega", "gpr_idx", 0x1f, "0x1f"},
	}
	for _, c := range cases {
		fam, err := newFamily(c.arch)
		if err != nil {
			t.Fatal(err)
		}
		r := &renderer{d: &Decoder{fam: fam, arch: isa.Architecture{ID: c.arch}}}
		switch c.kind {
		case "hwreg":
			r.hwreg(c.v)
		case "sendmsg":
			r.sendmsg(c.v)
		case "gpr_idx":
			r.gprIdx(c.v)
		}
		if got := string(r.buf); got != c.want {
			t.Errorf("%s %s(%#x) = %q, want %q", c.arch, c.kind, c.v, got, c.want)
		}
	}
}

// TestUnifiedFormats spot-checks the RDNA buffer-format numbering, which
// RDNA 3 changed (values read back from llvm-mc 22 on gfx1010 / gfx1100).
func TestUnifiedFormats(t *testing.T) {
	for _, c := range []struct {
		tab  *[128]string
		v    int
		want string
	}{
		{&unifiedFormats10, 0, "BUF_FMT_INVALID"}, {&unifiedFormats10, 22, "BUF_FMT_32_FLOAT"},
		{&unifiedFormats10, 43, "BUF_FMT_11_11_10_FLOAT"}, {&unifiedFormats10, 77, "BUF_FMT_32_32_32_32_FLOAT"},
		{&unifiedFormats10, 78, ""}, {&unifiedFormats11, 30, "BUF_FMT_10_11_11_FLOAT"},
		{&unifiedFormats11, 34, "BUF_FMT_10_10_10_2_UINT"}, {&unifiedFormats11, 63, "BUF_FMT_32_32_32_32_FLOAT"},
		{&unifiedFormats11, 64, ""},
	} {
		if got := c.tab[c.v]; got != c.want {
			t.Errorf("format %d = %q, want %q", c.v, got, c.want)
		}
	}
}

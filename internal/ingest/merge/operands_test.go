package merge

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

func TestPrintedOperands(t *testing.T) {
	for printed, want := range map[string]string{
		"v_add_f32_e32 v1, v2, v3":                                     "v1|v2|v3",
		"buffer_load_b32 v1, v2, s[4:7], s3 offen offset:16":           "v1|v2|s[4:7]|s3",
		"v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3] cbsz:1 abid:1":     "a[0:3]|v0|v1|a[0:3]",
		"v_pk_fma_f16 v1, v2, v3, v4 op_sel:[1,0,0] op_sel_hi:[0,1,1]": "v1|v2|v3|v4",
		"s_waitcnt vmcnt(0) lgkmcnt(0)":                                "vmcnt(0) lgkmcnt(0)", // one symbolic operand
		"s_endpgm":                                                     "",
	} {
		if got := strings.Join(PrintedOperands(printed), "|"); got != want {
			t.Errorf("%q: %q, want %q", printed, got, want)
		}
	}
	for tok, want := range map[string]int{"v1": 32, "v[2:3]": 64, "s[4:7]": 128, "a[0:15]": 512, "v1.l": 16, "-v2": 32, "|v3|": 32, "off": 0, "0x3f800000": 0, "vcc_lo": 0} {
		if got := registerBits(tok); got != want {
			t.Errorf("registerBits(%s) = %d, want %d", tok, got, want)
		}
	}
}

// A syntax row's untagged data operands get the mnemonic's types; masks,
// addresses and tagged operands do not.
func TestOperandsFromSyntaxTypes(t *testing.T) {
	row := llvmdoc.Syntax{Mnemonic: "v_add_co_u32", Family: "GFX9", Operands: []llvmdoc.Operand{
		{Name: "vdst", Kind: "vdst", Column: "DST"}, {Name: "sdst", Kind: "sdst", Column: "DST1"},
		{Name: "src0", Kind: "src", Column: "SRC0"}, {Name: "src1", Kind: "src", Column: "SRC1", Type: "i32"}}}
	ops := operandsFromSyntax("vega", "v_add_co_u32", []llvmdoc.Syntax{row}, []string{"p.html"}, nil)
	got := []string{}
	for _, o := range ops {
		got = append(got, o.Name+":"+o.DataFormat)
	}
	if g := strings.Join(got, " "); g != "vdst:u32 sdst: src0:u32 src1:i32" {
		t.Errorf("types %s", g)
	}
	// A tagless page's row borrows the older page's tags and columns.
	own := llvmdoc.Syntax{Mnemonic: "buffer_store_b32", Family: "GFX12", Operands: []llvmdoc.Operand{
		{Name: "vdata", Kind: "vdata", Column: "DST"}, {Name: "vaddr", Kind: "vaddr", Column: "SRC0"}}}
	older := llvmdoc.Syntax{Mnemonic: "buffer_store_b32", Family: "GFX11", Line: 820, Operands: []llvmdoc.Operand{
		{Name: "vdata", Kind: "vdata", Column: "SRC0"}, {Name: "vaddr", Kind: "vaddr", Column: "SRC1"}}}
	ops = operandsFromSyntax("rdna4", "buffer_store_b32", []llvmdoc.Syntax{own}, []string{"g12.html"}, &refRow{row: older, file: "g11.html"})
	if !ops[0].Input || ops[0].Output || !strings.Contains(ops[0].Note, "GFX11") {
		t.Errorf("vdata %+v: want read, with a note naming the GFX11 row", ops[0])
	}
}

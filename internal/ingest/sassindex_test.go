package ingest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
)

// TestSASSIndexProvenance: the index names the ptxas that compiled each
// target and the nvdisasm that listed it; without nvdisasm, or without a
// listing, there is none (no empty SASS pages).
func TestSASSIndexProvenance(t *testing.T) {
	insts := []*isa.Instruction{{Arch: "ptx", Name: "fma", Kind: isa.KindVirtual, Forms: []isa.Form{{Syntax: "fma.rn.f32 d, a, b, c;",
		Check: &isa.PTXCheck{Statement: "fma.rn.f32 d, a, b, c;", SASS: []isa.SASS{
			{Target: "sm_60", Lines: []isa.SASSLine{{Text: "FFMA R0, R1, R2, R3"}}},
			{Target: "sm_90", Lines: []isa.SASSLine{{Text: "FFMA R0, R1, R2, R3", Control: "S04 y0"}}},
		}}}}}}
	tools := &ptxas.Tools{NVDisasm: "/x/nvdisasm", NVDisasmVersion: "13.0.1", PTXAS: []ptxas.Tool{
		{Version: "13.0.1", Release: "13.0", Targets: []string{"sm_75", "sm_90"}},
		{Version: "12.9.1", Release: "12.9", Targets: []string{"sm_50", "sm_60", "sm_90"}},
	}}
	raw, err := sassIndex(tools, insts)
	if err != nil || raw == nil {
		t.Fatalf("sassIndex: %v, %d bytes", err, len(raw))
	}
	var x sassindex.Index
	if err := json.Unmarshal(raw, &x); err != nil {
		t.Fatal(err)
	}
	p := x.Provenance
	if p.ToolOf["sm_60"] != "ptxas 12.9.1" || p.ToolOf["sm_90"] != "ptxas 13.0.1" || len(p.Tools) != 3 || p.Tools[2] != "nvdisasm 13.0.1" ||
		!strings.Contains(p.Tools[0], "sm_75 to sm_90") || strings.Contains(strings.Join(p.Tools, " "), "/x/") {
		t.Errorf("provenance %+v", p)
	}
	if x.Opcode("FFMA") == nil || len(x.Opcode("FFMA").Targets) != 2 {
		t.Errorf("index %+v", x.Opcodes)
	}
	if raw, _ := sassIndex(&ptxas.Tools{PTXAS: tools.PTXAS}, insts); raw != nil {
		t.Error("an index without nvdisasm")
	}
	if raw, _ := sassIndex(tools, []*isa.Instruction{{Arch: "ptx", Name: "bar", Kind: isa.KindVirtual}}); raw != nil {
		t.Error("an index without listings")
	}
}

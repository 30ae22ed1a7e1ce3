package lsp_test

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestVerifyRunsTheAssemblers: with gpuisa.verify, llvm-mc's and ptxas's
// own errors arrive at their lines after gpuisa's diagnostics (one message
// per problem where both report it); llvm-mc
// gets .amdgcn_target's features, and a target only the older ptxas knows
// (sm_70) is checked with that one.
func TestVerifyRunsTheAssemblers(t *testing.T) {
	db := realDB(t)
	c := start(t, db, map[string]any{"gpuisa": map[string]any{"verify": true}})
	t.Run("llvm-mc", func(t *testing.T) {
		testenv.LLVMMC(t)
		uri := "file:///work/verify.s"
		c.open(uri, "", "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-\"\n\tv_max_f32 v1, v2, s300\n\tv_add_f32 v1, v2\n")
		ds := c.waitDiagnostics(uri, 2)
		if len(ds) != 2 {
			// The directive's features went to llvm-mc too: no error on it.
			t.Errorf("want two errors alone, got %s", messages(ds))
		}
		// Line 3's missing operand gpuisa finds itself (issue 29: without
		// --verify too); llvm-mc's "too few operands" is folded into it.
		want := map[int]string{1: "llvm-mc: register index is out of range", 2: "gpuisa: v_add_f32 takes 3 operands"}
		for _, d := range ds {
			if w, ok := want[int(d.Range.Start.Line)]; ok && d.Source != nil && strings.HasPrefix(w, *d.Source+": ") && strings.Contains(d.Message, strings.TrimPrefix(w, *d.Source+": ")) {
				delete(want, int(d.Range.Start.Line))
			}
		}
		if len(want) > 0 {
			t.Errorf("errors missing %v; got %s", want, messages(ds))
		}
	})
	t.Run("ptxas", func(t *testing.T) {
		testenv.PTXAS(t)
		uri := "file:///work/verify.ptx"
		// Line 7 needs a newer file (gpuisa says so; ptxas's message on the
		// same range is folded into it); line 8 reads an undeclared
		// variable name, which only ptxas reports (gpuisa reports an
		// undeclared register, not names without a %).
		c.open(uri, "", ".version 6.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\t.reg .f32 %f<4>;\n\tmax.NaN.f32 %f3, %f1, %f2;\n\tadd.f32 %f3, %f1, undeclared_x;\n\tret;\n}\n")
		ds := c.waitDiagnostics(uri, 2)
		fromPTXAS, onNaN := false, 0
		for _, d := range ds {
			fromPTXAS = fromPTXAS || d.Range.Start.Line == 7 && d.Source != nil && strings.HasPrefix(*d.Source, "ptxas") && strings.Contains(d.Message, "undeclared_x")
			if d.Range.Start.Line == 6 {
				onNaN++
			}
		}
		if !fromPTXAS {
			t.Errorf("no ptxas error on line 8: %s", messages(ds))
		}
		if onNaN != 1 {
			t.Errorf("line 7: %d diagnostics, want one (gpuisa's and ptxas's folded): %s", onNaN, messages(ds))
		}
	})
}

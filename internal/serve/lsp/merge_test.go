package lsp

import (
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestAssemblerMessagesAreNotRepeated: with gpuisa.verify the assembler's
// diagnostics join gpuisa's once per problem (issue 29: messages came
// twice, with contradicting suggestions).
func TestAssemblerMessagesAreNotRepeated(t *testing.T) {
	at := func(line, from, to uint32) protocol.Range {
		return protocol.Range{Start: protocol.Position{Line: line, Character: from}, End: protocol.Position{Line: line, Character: to}}
	}
	dg := func(r protocol.Range, sev protocol.DiagnosticSeverity, src, msg string) protocol.Diagnostic {
		return protocol.Diagnostic{Range: r, Severity: &sev, Source: &src, Message: msg}
	}
	const e, w = protocol.DiagnosticSeverityError, protocol.DiagnosticSeverityWarning
	base := []protocol.Diagnostic{
		dg(at(1, 1, 14), e, "gpuisa", "v_max_num_f32 is not supported on gfx942 (llvm-mc rejects it); gfx942 assembles v_max_f32"),
		dg(at(3, 1, 10), w, "gpuisa", "a warning"),
	}
	found := []protocol.Diagnostic{
		dg(at(1, 1, 14), e, "llvm-mc", "instruction not supported on this GPU"), // the same problem as gpuisa's error
		dg(at(2, 15, 17), e, "llvm-mc", "invalid operand for instruction"),
		dg(at(2, 15, 17), e, "llvm-mc", "invalid operand for instruction"), // said twice
		dg(at(3, 1, 10), w, "llvm-mc", "a warning"),                        // the same words on the same range
		dg(at(3, 12, 14), e, "llvm-mc", "operand 2 is wrong"),              // beside a warning: kept
	}
	got := mergeAssembler(base, found)
	var msgs []string
	for _, d := range got {
		msgs = append(msgs, *d.Source+": "+d.Message)
	}
	want := []string{
		"gpuisa: " + base[0].Message,
		"gpuisa: a warning",
		"llvm-mc: invalid operand for instruction",
		"llvm-mc: operand 2 is wrong",
	}
	if len(msgs) != len(want) {
		t.Fatalf("got %q, want %q", msgs, want)
	}
	for i := range want {
		if msgs[i] != want[i] {
			t.Errorf("diagnostic %d: %q, want %q", i, msgs[i], want[i])
		}
	}
}

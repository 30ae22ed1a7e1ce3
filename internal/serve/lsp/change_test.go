package lsp

import (
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestApplyChange: ranges count UTF-16 code units (an astral character is
// two), lines end at \n whatever precedes it, and positions past a line's
// end stop at it.
func TestApplyChange(t *testing.T) {
	text := "a𝄞b\r\nv_max_f32 v1\nlast"
	for _, c := range []struct {
		start, end protocol.Position
		with, want string
	}{
		{protocol.Position{Line: 0, Character: 3}, protocol.Position{Line: 0, Character: 4}, "X", "a𝄞X\r\nv_max_f32 v1\nlast"},
		{protocol.Position{Line: 1, Character: 2}, protocol.Position{Line: 1, Character: 5}, "min", "a𝄞b\r\nv_min_f32 v1\nlast"},
		{protocol.Position{Line: 1, Character: 99}, protocol.Position{Line: 2, Character: 0}, " ", "a𝄞b\r\nv_max_f32 v1 last"},
		{protocol.Position{Line: 9, Character: 0}, protocol.Position{Line: 9, Character: 0}, "!", "a𝄞b\r\nv_max_f32 v1\nlast!"},
	} {
		got := applyChange(text, protocol.TextDocumentContentChangeEvent{Range: &protocol.Range{Start: c.start, End: c.end}, Text: c.with})
		if got != c.want {
			t.Errorf("%v-%v %q: got %q, want %q", c.start, c.end, c.with, got, c.want)
		}
	}
	d := parse("f.s", langAMD, text, 1)
	if col := d.byteCol(0, 3); col != 5 || d.utf16Col(0, 5) != 3 {
		t.Errorf("byteCol(0, 3) = %d, utf16Col(0, 5) = %d", col, d.utf16Col(0, 5))
	}
}

package decode

import (
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestEveryFamilyHasOperandTables: every AMD family of isa's table gets
// operand codes, hardware-register and message names from its generation
// and traits; a family whose generation the decoder does not know fails
// here, not by decoding with empty tables.
func TestEveryFamilyHasOperandTables(t *testing.T) {
	for _, id := range isa.AMDArchIDs() {
		f, err := newFamily(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if f.hwreg[1] == "" || f.msg[1] == "" || f.n32[126] == "" {
			t.Errorf("%s: empty names (hwreg 1 %q, msg 1 %q, code 126 %q)", id, f.hwreg[1], f.msg[1], f.n32[126])
		}
	}
	if _, err := newFamily("ptx"); err == nil {
		t.Error("newFamily(ptx) made an AMD operand table")
	}
}

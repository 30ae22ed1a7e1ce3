package ptxas

import "testing"

// TestSASSOpcode: the opcode keeps its modifiers and drops a predicate
// guard and a closing semicolon.
func TestSASSOpcode(t *testing.T) {
	for text, want := range map[string]string{
		"@!P0 FMNMX.NAN R5, R0, R5, !PT":        "FMNMX.NAN",
		"IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]": "IMAD.MOV.U32",
		"EXIT;":                                 "EXIT",
		"@P1":                                   "",
		"":                                      "",
	} {
		if got := (SASSLine{Text: text}).Opcode(); got != want {
			t.Errorf("Opcode(%q) = %q, want %q", text, got, want)
		}
	}
}

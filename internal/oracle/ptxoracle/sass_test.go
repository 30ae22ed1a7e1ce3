package ptxoracle

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
)

// TestStatementSASS: what the harness alone compiles to is removed from a
// statement's SASS by opcode, whatever predicate guards either side, and
// so are the parameter-bank reads and the kernel's tail; the statement's
// own instructions stay, in order.
func TestStatementSASS(t *testing.T) {
	lines := func(texts ...string) []ptxas.SASSLine {
		out := make([]ptxas.SASSLine, len(texts))
		for i, s := range texts {
			out[i] = ptxas.SASSLine{Text: s}
		}
		return out
	}
	base := lines("LDC R1, c[0x0][0x28] ;", "@P0 STG.E [R2.64], R0 ;", "EXIT ;")
	full := lines(
		"LDC R1, c[0x0][0x28] ;",
		"IMAD.MOV.U32 R4, RZ, RZ, c[0x0][0x210] ;",
		"@!P1 FMNMX.NAN R5, R0, R5, !PT ;",
		"STG.E [R2.64], R5 ;",
		"FMNMX R6, R0, R5, PT ;",
		"EXIT ;",
		"BRA `(.L_x_0) ;",
		"NOP;",
	)
	var got []string
	for _, l := range StatementSASS(full, base) {
		got = append(got, l.Text)
	}
	want := "@!P1 FMNMX.NAN R5, R0, R5, !PT ; | FMNMX R6, R0, R5, PT ;"
	if strings.Join(got, " | ") != want {
		t.Errorf("StatementSASS =\n %s\nwant\n %s", strings.Join(got, " | "), want)
	}
}

package ptx

import (
	"os"
	"testing"
)

func TestBuildRealCopy(t *testing.T) {
	secs, instrs, problems := realDocs(t)
	forms, mnemonics := 0, 0
	for _, in := range instrs {
		if in.Kind == KindInstruction {
			mnemonics++
			forms += len(in.Forms)
		}
		if os.Getenv("PTX_DUMP") != "" {
			for _, f := range in.Forms {
				t.Logf("%s | %s | v%s %s | req %d | %v %v", in.Name, f.Syntax, f.PTXVersion, f.MinTarget, len(f.Requirements), f.Types, f.Modifiers)
			}
			for _, n := range in.Notes {
				t.Logf("%s NOTE %s", in.Name, n)
			}
		}
	}
	t.Logf("%d sections, %d instruction mnemonics, %d forms, %d entries in all", len(secs), mnemonics, forms, len(instrs))
	for _, p := range problems {
		t.Logf("problem: %s", p)
	}
}

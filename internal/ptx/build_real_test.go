package ptx

import "testing"

// TestBuildRealCopy builds the PTX model from NVIDIA's documentation and
// holds it to floors just under what it reads today (260 sections, 197
// instruction mnemonics, 2,466 forms, no problem): a reader change that
// loses sections, mnemonics or forms fails here. The forms themselves are
// on the /ptx pages, and `gpuisa ptx check 'INSTRUCTION;'` shows which one
// accepts a statement.
func TestBuildRealCopy(t *testing.T) {
	secs, instrs, problems := realDocs(t)
	forms, mnemonics := 0, 0
	for _, in := range instrs {
		if in.Kind == KindInstruction {
			mnemonics++
			forms += len(in.Forms)
		}
	}
	t.Logf("%d sections, %d instruction mnemonics, %d forms, %d entries in all", len(secs), mnemonics, forms, len(instrs))
	for _, f := range []struct {
		what      string
		got, want int
	}{{"sections", len(secs), 255}, {"instruction mnemonics", mnemonics, 195}, {"forms", forms, 2400}, {"entries", len(instrs), 260}} {
		if f.got < f.want {
			t.Errorf("%d %s, want at least %d", f.got, f.what, f.want)
		}
	}
	for _, p := range problems {
		t.Errorf("problem: %s", p)
	}
}

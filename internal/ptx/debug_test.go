//go:build debug

package ptx

// Debugging aids for the PTX reader, compiled only with -tags debug:
//
//	go test -tags debug ./internal/ptx -run TestDumpForms -v
//	PTX_CHECK='max.f32 d, a, b' go test -tags debug ./internal/ptx -run TestCheckEnv -v

import (
	"os"
	"strings"
	"testing"
)

// TestDumpForms lists every form and note the reader builds.
func TestDumpForms(t *testing.T) {
	_, instrs, _ := realDocs(t)
	for _, in := range instrs {
		for _, f := range in.Forms {
			t.Logf("%s | %s | v%s %s | req %d | %v %v", in.Name, f.Syntax, f.PTXVersion, f.MinTarget, len(f.Requirements), f.Types, f.Modifiers)
		}
		for _, n := range in.Notes {
			t.Logf("%s NOTE %s", in.Name, n)
		}
	}
}

// TestListLacking lists the mnemonics with a form lacking a PTX version or
// a minimum target.
func TestListLacking(t *testing.T) {
	secs, instrs, _ := realDocs(t)
	for _, l := range noteCoverage(secs, instrs).lacking {
		t.Logf("lacking: %s", l)
	}
}

// TestDumpUnparsedNotes lists the note sentences kept as text.
func TestDumpUnparsedNotes(t *testing.T) {
	secs, _, _ := realDocs(t)
	for _, s := range secs {
		if s.Kind != KindInstruction {
			continue
		}
		n := parseNotes(s.PTXISANotes, s.PTXISANotesLine, s.TargetISANotes, s.TargetISANotesLine, s.Mnemonics)
		for _, u := range n.unparsed {
			t.Logf("%s: %s", s.Mnemonics[0], u)
		}
	}
}

// TestCheckEnv checks the instructions in $PTX_CHECK (";"-separated) and logs
// the verdicts, for looking into one case by hand.
func TestCheckEnv(t *testing.T) {
	in := os.Getenv("PTX_CHECK")
	if in == "" {
		t.Skip("set PTX_CHECK='instr; instr' to log verdicts")
	}
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	for _, s := range strings.Split(in, ";") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		r := c.Check(s + ";")
		t.Logf("%s => valid=%v %s %s alts=%v raised=%v syntax=%s reason=%s", r.Text, r.Valid, r.PTXVersion, r.MinTarget, r.Alternatives, r.RaisedBy, r.Syntax, r.Reason)
	}
}

package ptx

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// TestNoteCoverage reports how many instruction mnemonics have a base PTX
// version and target, and how many note sentences became rules versus text.
// Set PTX_LIST=1 to list the mnemonics still lacking either.
func TestNoteCoverage(t *testing.T) {
	secs, instrs, _ := realDocs(t)
	total, withVersion, withTarget := 0, 0, 0
	var lacking []string
	formsNoVersion, formsNoTarget, lackingForms, forms := 0, 0, 0, 0
	for _, in := range instrs {
		if in.Kind != KindInstruction {
			continue
		}
		total++
		forms += len(in.Forms)
		if in.PTXVersion != "" {
			withVersion++
		}
		if in.MinTarget != "" {
			withTarget++
		}
		noVersion, noTarget := 0, 0
		for _, f := range in.Forms {
			if f.PTXVersion == "" {
				noVersion++
			}
			if f.MinTarget == "" {
				noTarget++
			}
		}
		formsNoVersion += noVersion
		formsNoTarget += noTarget
		if noVersion+noTarget > 0 {
			lackingForms++
			lacking = append(lacking, in.Name+" ("+itoa(noVersion)+" forms without version, "+itoa(noTarget)+" without target, of "+itoa(len(in.Forms))+")")
		}
	}
	parsed, text := 0, 0
	for _, s := range secs {
		if s.Kind != KindInstruction {
			continue
		}
		n := parseNotes(s.PTXISANotes, s.PTXISANotesLine, s.TargetISANotes, s.TargetISANotesLine, s.Mnemonics)
		parsed += n.parsed
		text += len(n.unparsed)
	}
	kept := 0
	for _, in := range instrs {
		if in.Kind == KindInstruction {
			kept += len(in.Notes)
		}
	}
	sort.Strings(lacking)
	t.Logf("%d instruction mnemonics: %d with a base PTX version, %d with a base target", total, withVersion, withTarget)
	t.Logf("%d forms: %d without a PTX version, %d without a target; %d mnemonics have such a form", forms, formsNoVersion, formsNoTarget, lackingForms)
	t.Logf("note sentences in instruction sections: %d parsed into rules, %d kept as text; %d notes shown as text on pages", parsed, text, kept)
	if os.Getenv("PTX_LIST") != "" {
		for _, l := range lacking {
			t.Logf("lacking: %s", l)
		}
	}
}

func TestDumpUnparsedNotes(t *testing.T) {
	if os.Getenv("PTX_NOTES") == "" {
		t.Skip("set PTX_NOTES=1 to list the note sentences kept as text")
	}
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

func TestOperandsOfMax(t *testing.T) {
	_, instrs, _ := realDocs(t)
	in := findInstr(instrs, "max")
	if in == nil || len(in.Operands) != 4 { // d, a, b and the three-input form's c
		t.Fatalf("max operands: %+v", in)
	}
	d, a := in.Operands[0], in.Operands[1]
	if d.Name != "d" || !d.Output || a.Name != "a" || a.Output {
		t.Errorf("max operands %+v", in.Operands)
	}
	withDesc := 0
	for _, x := range instrs {
		for _, o := range x.Operands {
			if o.Description != "" {
				withDesc++
			}
		}
	}
	t.Logf("max operands: %+v; %d operands in all have a description sentence", in.Operands, withDesc)
}

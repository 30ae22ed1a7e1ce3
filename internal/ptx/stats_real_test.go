package ptx

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// TestNoteCoverage holds the share of instruction mnemonics and forms with
// a PTX version and a minimum target, and of note sentences turned into
// rules, to floors just under what the reader reaches today (197 of 197
// mnemonics with a version, 196 with a target; 26 of 2,466 forms without a
// target; 893 note sentences parsed, 105 kept as text). A failure lists the
// mnemonics still lacking either, or the sentences kept as text.
func TestNoteCoverage(t *testing.T) {
	secs, instrs, _ := realDocs(t)
	c := noteCoverage(secs, instrs)
	t.Logf("%d instruction mnemonics: %d with a base PTX version, %d with a base target", c.total, c.withVersion, c.withTarget)
	t.Logf("%d forms: %d without a PTX version, %d without a target; %d mnemonics have such a form", c.forms, c.formsNoVersion, c.formsNoTarget, len(c.lacking))
	t.Logf("note sentences in instruction sections: %d parsed into rules, %d kept as text; %d notes shown as text on pages", c.parsed, c.text, c.kept)
	if c.total < 195 || c.withVersion < c.total || c.withTarget < c.total-2 {
		t.Errorf("%d mnemonics, %d with a PTX version, %d with a target: want at least 195, every one, all but 2", c.total, c.withVersion, c.withTarget)
	}
	if c.formsNoVersion > 0 || c.formsNoTarget > 40 || c.formsNoTarget*100 > c.forms*2 {
		t.Errorf("%d of %d forms without a PTX version, %d without a target: want none and at most 40 (2%%); lacking:\n  %s",
			c.formsNoVersion, c.forms, c.formsNoTarget, strings.Join(c.lacking, "\n  "))
	}
	if c.parsed < 850 || c.text*100 > (c.parsed+c.text)*12 {
		t.Errorf("%d note sentences parsed, %d kept as text: want at least 850 parsed and at most 12%% kept; kept:\n  %s",
			c.parsed, c.text, strings.Join(c.unparsed, "\n  "))
	}
}

// coverage counts what TestNoteCoverage holds to floors.
type coverage struct {
	total, withVersion, withTarget       int
	forms, formsNoVersion, formsNoTarget int
	parsed, text, kept                   int
	lacking                              []string // mnemonics with a form lacking a version or target
	unparsed                             []string // "mnemonic: sentence" kept as text
}

func noteCoverage(secs []ptxdoc.Section, instrs []Instruction) coverage {
	var c coverage
	for _, in := range instrs {
		if in.Kind != KindInstruction {
			continue
		}
		c.total++
		c.forms += len(in.Forms)
		if in.PTXVersion != "" {
			c.withVersion++
		}
		if in.MinTarget != "" {
			c.withTarget++
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
		c.formsNoVersion += noVersion
		c.formsNoTarget += noTarget
		if noVersion+noTarget > 0 {
			c.lacking = append(c.lacking, in.Name+" ("+strconv.Itoa(noVersion)+" forms without version, "+strconv.Itoa(noTarget)+" without target, of "+strconv.Itoa(len(in.Forms))+")")
		}
		c.kept += len(in.Notes)
	}
	for _, s := range secs {
		if s.Kind != KindInstruction {
			continue
		}
		n := parseNotes(s.PTXISANotes, s.PTXISANotesLine, s.TargetISANotes, s.TargetISANotesLine, s.Mnemonics)
		c.parsed += n.parsed
		c.text += len(n.unparsed)
		for _, u := range n.unparsed {
			c.unparsed = append(c.unparsed, s.Mnemonics[0]+": "+u)
		}
	}
	sort.Strings(c.lacking)
	return c
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

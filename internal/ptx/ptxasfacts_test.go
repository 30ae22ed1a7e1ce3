package ptx

import (
	"strings"
	"testing"
)

// TestPTXASFactsCoverTheTables: every row of ptxas's facts beyond the
// documents (ptxasForms, ptxasRejectedChoices) bears on the documents'
// model as it stands — a row matching nothing is stale and fails here —
// and each fact carries statements of the forms it is about, which the
// build hands to ptxas (what pages and /quality show is that verdict).
func TestPTXASFactsCoverTheTables(t *testing.T) {
	_, instrs, _ := realDocs(t)
	byName := map[string]*Instruction{}
	for i := range instrs {
		byName[instrs[i].Name] = &instrs[i]
	}
	seen := map[string]int{}
	for _, pf := range ptxasForms {
		for _, name := range pf.instructions {
			in := byName[name]
			if in == nil {
				t.Errorf("ptxasForms names %s, which the documents' model lacks", name)
				continue
			}
			for _, f := range PTXASFacts(in) {
				if !f.Accepts || f.Docs != pf.docs {
					continue
				}
				seen["form "+name]++
				for _, p := range f.Statements {
					first := strings.Fields(p.Text)[0]
					switch {
					case pf.with != "" && !strings.Contains(first, pf.with):
						t.Errorf("%s: statement %q lacks %s", name, p.Text, pf.with)
					case pf.with == "" && strings.Contains(first, pf.token):
						t.Errorf("%s: statement %q still has %s", name, p.Text, pf.token)
					}
					if p.Form >= len(f.Of.Forms) || p.Form < len(in.Forms) {
						t.Errorf("%s: statement %q indexes form %d of %d (the derived ones start at %d)", name, p.Text, p.Form, len(f.Of.Forms), len(in.Forms))
					}
				}
				if f.File == "" || f.Line == 0 || f.What == "" {
					t.Errorf("%s: fact without its documented form: %+v", name, f)
				}
			}
		}
	}
	for _, pc := range ptxasRejectedChoices {
		for _, f := range PTXASFacts(byName[pc.instruction]) {
			if f.Accepts {
				continue
			}
			seen["choice "+pc.instruction]++
			for _, p := range f.Statements {
				if !strings.Contains(strings.Fields(p.Text)[0], pc.choice) {
					t.Errorf("%s: statement %q lacks the choice %s", pc.instruction, p.Text, pc.choice)
				}
			}
		}
		if seen["choice "+pc.instruction] == 0 {
			t.Errorf("ptxasRejectedChoices row %s %s %s matches no documented form", pc.instruction, pc.variable, pc.choice)
		}
	}
	for _, pf := range ptxasForms {
		for _, name := range pf.instructions {
			if seen["form "+name] == 0 {
				t.Errorf("ptxasForms row for %s (%s → %q) derives no form from the documents", name, pf.token, pf.with)
			}
		}
	}
}

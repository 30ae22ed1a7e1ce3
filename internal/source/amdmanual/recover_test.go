package amdmanual

import (
	"strings"
	"testing"
)

// TestRecoverLostHeadings checks each shape of a lost heading on made-up
// guides: what is attributed to whom, what stays, and what is reported.
func TestRecoverLostHeadings(t *testing.T) {
	type want struct {
		name        string
		opcode      int
		line        int
		description string // exact
		pseudocode  string // exact
		notes       string // exact
		repaired    bool
	}
	tests := []struct {
		file     string
		entries  []want
		problems []string // substrings, one problem each, in order
		absent   []string // names that must have no section entry
	}{{
		file: "testdata/lostheadings.md",
		entries: []want{
			// mid-sentence orphan after the pseudocode: the original keeps only its own text
			{"S_TOY_ONE", 0, 9, "Copy the first toy into a toy register and set SCC iff the toy is shiny.", "D0.u32 = S0.u32;\nSCC = shiny(D0)", "", false},
			{"S_TOY_TWO", 1, 20, "…result into a toy register and set SCC iff the toy is dull.", "D0.u32 = S1.u32;\nSCC = dull(D0)", "", true},
			// capitalised text after the pseudocode, then a second Expression label
			{"S_TOY_THREE", 2, 29, "Copy the second toy into a toy register.", "D0.u32 = S1.u32", "", false},
			{"S_TOY_FOUR", 3, 37, "Set SCC to 1 iff both toys are equal.", "SCC = S0.u32 == S1.u32", "", true},
			// two undocumented opcodes in the gap: ambiguous, text stays
			{"S_TOY_SEVEN", 7, 43, "Copy both toys into a toy register.\n\ntoy register and leave SCC alone.", "D0.u64 = {S1.u32, S0.u32}\n\nD0.u64 = {S0.u32, S1.u32}", "", false},
			// lost text inside the Notes, found by its opening word
			{"S_TOY_TEN", 10, 57, "Copy nothing into the toy register.", "D0.u32 = 0", "Toys are fun.", false},
			{"S_TOY_ELEVEN", 11, 69, "Copy the toy twice into a toy register.", "D0.u32 = S0.u32 + S0.u32", "", true},
			// second label after Notes without an opening paragraph: stays, reported
			{"S_TOY_TWELVE", 12, 75, "Copy a toy and paint it.", "D0.u32 = paint(S0.u32)", "Paint dries slowly.\n\nToys may be painted twice.\n\n`D0.u32 = paint(paint(S0.u32))`", false},
		},
		problems: []string{
			"S_TOY_SEVEN: text that starts mid-sentence or a second pseudocode block after the pseudocode: probably a heading lost in conversion, but the opcode table lists S_TOY_EIGHT 8, S_TOY_NINE 9 between opcodes 7 and 10",
			"line 89: S_TOY_TWELVE: a second pseudocode block labelled Expression follows the Notes",
		},
		absent: []string{"S_TOY_EIGHT", "S_TOY_NINE", "S_TOY_THIRTEEN"},
	}, {
		file: "testdata/lostheadings_plain.md",
		entries: []want{
			{"V_TOY_MED3_F32", 512, 9, "Return the median toy of three toys.", "D0.f = median(S0.f, S1.f, S2.f)", "", false},
			{"V_TOY_MED3_I32", 513, 17, "Return the median integer toy of three toys.", "D0.i = median(S0.i, S1.i, S2.i)", "", true},
			// capitalised prose between two code blocks with nothing missing is ordinary text
			{"V_TOY_MIX", 514, 23, "Mix two toys.\n\nMixing is done in two steps.", "D0.u = mix(S0.u, S1.u)\n\nD0.u = mix(D0.u, S1.u)", "", false},
			{"V_TOY_LAST", 515, 33, "The last toy.", "D0.u = last()", "", false},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			g, err := ParseFile(tc.file, "toy")
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			for _, e := range g.Instructions {
				if !e.FromOpcodeTable {
					order = append(order, e.Name)
				}
			}
			var wantOrder []string
			for _, w := range tc.entries {
				wantOrder = append(wantOrder, w.name)
			}
			if strings.Join(order, " ") != strings.Join(wantOrder, " ") {
				t.Errorf("section entries in order:\n got %v\nwant %v", order, wantOrder)
			}
			for _, w := range tc.entries {
				var e *Entry
				for i := range g.Instructions {
					if g.Instructions[i].Name == w.name && !g.Instructions[i].FromOpcodeTable {
						e = &g.Instructions[i]
					}
				}
				if e == nil {
					continue // reported by the order check
				}
				if e.Opcode != w.opcode || e.Line != w.line || e.Encoding == "" || e.Section == "" {
					t.Errorf("%s: opcode %d line %d encoding %q section %q; want opcode %d line %d", w.name, e.Opcode, e.Line, e.Encoding, e.Section, w.opcode, w.line)
				}
				if e.Description != w.description {
					t.Errorf("%s: description %q\nwant %q", w.name, e.Description, w.description)
				}
				if e.Pseudocode != w.pseudocode {
					t.Errorf("%s: pseudocode %q\nwant %q", w.name, e.Pseudocode, w.pseudocode)
				}
				if e.Notes != w.notes {
					t.Errorf("%s: notes %q\nwant %q", w.name, e.Notes, w.notes)
				}
				if got := e.Repair != ""; got != w.repaired {
					t.Errorf("%s: repaired %v (%q), want %v", w.name, got, e.Repair, w.repaired)
				}
				if w.repaired && (!strings.Contains(e.Repair, "lost in the conversion") || !strings.Contains(e.Repair, "opcode order")) {
					t.Errorf("%s: repair note does not say what was done: %q", w.name, e.Repair)
				}
			}
			for _, n := range tc.absent {
				for _, e := range g.Lookup(n) {
					if !e.FromOpcodeTable {
						t.Errorf("%s got a section entry: %+v", n, e)
					}
				}
			}
			if len(g.Problems) != len(tc.problems) {
				t.Errorf("problems %v, want %d", g.Problems, len(tc.problems))
			}
			for i, p := range g.Problems {
				if i < len(tc.problems) && !strings.Contains(p.String(), tc.problems[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, p, tc.problems[i])
				}
			}
		})
	}
}

func TestFirstWord(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Multiply two toys.", "Multiply"},
		{"Select", "Select"},
		{"0.5ULP precision.", ""},
		{"result into a register.", ""},
		{"Floating-point addition.", ""},
		{"", ""},
	}
	for _, tc := range tests {
		if got := firstWord(tc.in); got != tc.want {
			t.Errorf("firstWord(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPageBreakJoinStopsAtCode checks that a paragraph is joined to the one
// before it (a sentence split by a page break) only when no code block lies
// between: after code a lower-case paragraph is a lost heading's text.
func TestPageBreakJoinStopsAtCode(t *testing.T) {
	b := newEntryBuilder(Entry{Name: "S_TOY"})
	for i, l := range []string{"Store the toy", "", "into a toy register.", "", "`D0 = S0`", "", "rest of another toy"} {
		b.add(l, i+1)
	}
	e := b.finish()
	if want := "Store the toy into a toy register.\n\nrest of another toy"; e.Description != want {
		t.Errorf("description %q, want %q", e.Description, want)
	}
}

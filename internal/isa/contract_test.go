package isa

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFillLists(t *testing.T) {
	in := &Instruction{Arch: "rdna3", Name: "v_x", Encodings: []Encoding{{Name: "VOP1"}},
		Concepts: []ConceptRef{{ID: "c"}}, Opcodes: map[string]map[string]int{"rdna3": nil}}
	FillLists(in)
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if strings.Contains(doc, "null") {
		t.Errorf("null left in %s", doc)
	}
	for _, want := range []string{`"examples":[]`, `"operands":[]`, `"aliases":[]`, `"sources":[]`, `"targets":{}`,
		`"fields":[]`, `"members":[]`, `"rdna3":{}`} {
		if !strings.Contains(doc, want) {
			t.Errorf("%s missing from %s", want, doc)
		}
	}
	// Optional lists stay out.
	for _, absent := range []string{`"forms"`, `"conflicts"`, `"repairs"`} {
		if strings.Contains(doc, absent) {
			t.Errorf("%s should be omitted: %s", absent, doc)
		}
	}
	FillLists(nil)
	FillLists(Instruction{}) // not a pointer: nothing to fill, no panic
}

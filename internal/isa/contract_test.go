package isa

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
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

// TestFillListsOnSharedMaps: documents that share a map (one opcode table
// for several families' copies of an instruction) are filled on several
// goroutines at once by the database writer. Filling what already honours
// the contract writes nothing, so this neither races nor changes the map;
// FillLists used to store every map element back, which the Go runtime
// stops with "concurrent map read and map write".
func TestFillListsOnSharedMaps(t *testing.T) {
	shared := map[string]map[string]int{}
	for i := range 64 {
		shared[fmt.Sprint("family", i)] = map[string]int{"VOP2": i}
	}
	var docs []*Instruction
	for i := 0; i < 8; i++ {
		docs = append(docs, &Instruction{Name: "v_max_f32", Opcodes: shared})
	}
	FillLists(docs[0]) // the first fill may add lists elsewhere in the document
	var wg sync.WaitGroup
	for _, d := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				FillLists(d)
			}
		}()
	}
	wg.Wait()
	for i := range 64 {
		if m := shared[fmt.Sprint("family", i)]; len(m) != 1 || m["VOP2"] != i {
			t.Fatalf("the shared map changed: %v", shared)
		}
	}
}

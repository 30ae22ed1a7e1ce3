package store

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestEncodeDocsInOrderAndStops: every document is handed on in the
// instructions' order, inflating to what it was; an error from the
// consumer ends the write with that error, and nothing after it is handed
// on (docsAhead and the workers still finish: the call returns).
func TestEncodeDocsInOrderAndStops(t *testing.T) {
	var insts []*isa.Instruction
	for i := range 3*docsAhead + 7 {
		insts = append(insts, &isa.Instruction{Arch: "rdna3", Name: fmt.Sprintf("v_test_%d", i), Summary: "test"})
	}
	next := 0
	err := encodeDocs(insts, nil, func(i int, d encodedDoc) error {
		if i != next {
			t.Fatalf("document %d handed on where %d was next", i, next)
		}
		next++
		raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(d.packed)))
		if err != nil || !bytes.Equal(raw, d.doc) || !bytes.Contains(d.doc, []byte(insts[i].Name)) {
			t.Fatalf("document %d: %v; packed %q, doc %q", i, err, raw, d.doc)
		}
		return nil
	})
	if err != nil || next != len(insts) {
		t.Fatalf("encodeDocs: %v after %d of %d documents", err, next, len(insts))
	}
	stop := errors.New("the writer failed")
	calls := 0
	err = encodeDocs(insts, nil, func(i int, d encodedDoc) error {
		calls++
		if i == docsAhead/2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != docsAhead/2+1 {
		t.Errorf("encodeDocs after a failing write: %v, %d calls; want the write's error after %d", err, calls, docsAhead/2+1)
	}
}

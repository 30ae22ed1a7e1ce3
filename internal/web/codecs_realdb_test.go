package web

import (
	"context"
	"math/rand"
	"reflect"
	"testing"

	"github.com/gpuisa/gpuisa/internal/decode"
	"github.com/gpuisa/gpuisa/internal/encode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestCodecFactsDecodeAsTheDocuments: a decoder (and encoder) built from
// the compact codec facts the build stores (store.Codecs) decodes machine
// code exactly as one built from the whole instruction documents — every
// example's encoding (on a database built with llvm-mc) and a few thousand
// random words per family — and encodes what they decode to the same
// bytes: the facts leave out nothing the decoder or encoder reads.
func TestCodecFactsDecodeAsTheDocuments(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	for _, a := range s.nativeArchs() {
		docs, err := s.store.Instructions(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		full := make([]isa.Instruction, len(docs))
		for i, in := range docs {
			full[i] = *in
		}
		facts, err := s.store.Codecs(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		dFull, err := decode.New(a, full)
		if err != nil {
			t.Fatal(err)
		}
		dFacts, err := decode.New(a, facts)
		if err != nil {
			t.Fatal(err)
		}
		eFull, eFacts := encode.FromDecoder(dFull), encode.FromDecoder(dFacts)
		var codes [][]byte
		for _, in := range docs {
			for _, ex := range in.Examples {
				if code, err := decode.ParseInput([]byte(ex.Encoding)); ex.Encoding != "" && err == nil && len(code) > 0 {
					codes = append(codes, code)
				}
			}
		}
		rng := rand.New(rand.NewSource(int64(len(a.ID))))
		for i := 0; i < 3000; i++ {
			code := make([]byte, 16)
			rng.Read(code)
			codes = append(codes, code)
		}
		decoded := 0
		for _, code := range codes {
			i1, n1, err1 := dFull.Decode(code, 0)
			i2, n2, err2 := dFacts.Decode(code, 0)
			if n1 != n2 || (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(i1, i2) {
				t.Errorf("%s % x: decodes as %+v (%v) from the documents, %+v (%v) from the codec facts", a.ID, code, i1, err1, i2, err2)
				continue
			}
			if err1 != nil || i1.Partial {
				continue
			}
			decoded++
			asm := i1.Text()
			b1, err1 := eFull.Encode(asm)
			b2, err2 := eFacts.Encode(asm)
			if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(b1, b2) {
				t.Errorf("%s %q: encodes as % x (%v) from the documents, % x (%v) from the codec facts", a.ID, asm, b1, err1, b2, err2)
			}
		}
		if decoded < 100 {
			t.Errorf("%s: only %d of %d inputs decoded", a.ID, decoded, len(codes))
		}
	}
}

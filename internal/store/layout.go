package store

import (
	"reflect"

	"github.com/gpuisa/gpuisa/internal/amdlayout"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// An instruction document leaves out what its family's formats say: an
// encoding whose width, fields, identifier and documented layout are what
// amdlayout.EncodingLayout gives for its format and opcode is written
// without them ("fields": null), and the instruction's operands when they
// are its first encoding's ("operands": null). Reading fills them in again,
// so every reader sees the documents the build wrote (the JSON contract is
// unchanged) while each fact is stored once, with its format.

// formatsByArch indexes the families' formats by name.
func formatsByArch(archs []isa.Architecture) map[string]map[string]isa.Format {
	out := map[string]map[string]isa.Format{}
	for _, a := range archs {
		m := map[string]isa.Format{}
		for _, f := range a.Formats {
			m[f.Name] = f
		}
		out[a.ID] = m
	}
	return out
}

// stored is the document written for in: a shallow copy without what
// complete derives again. in itself is not changed.
func stored(in *isa.Instruction, formats map[string]isa.Format) *isa.Instruction {
	out := *in
	// A copy of the same length keeps an empty list empty, not null.
	out.Encodings = make([]isa.Encoding, len(in.Encodings))
	copy(out.Encodings, in.Encodings)
	for i := range out.Encodings {
		e := &out.Encodings[i]
		f, ok := formats[e.Format]
		if !ok {
			continue
		}
		w, fields, id, doc := amdlayout.EncodingLayout(in.Arch, in.Name, f, e.Opcode)
		if w == e.Width && id == e.Identifier && reflect.DeepEqual(fields, e.Fields) && reflect.DeepEqual(doc, e.Documented) {
			e.Width, e.Fields, e.Identifier, e.Documented = 0, nil, "", nil
		}
	}
	if len(in.Operands) > 0 && len(in.Encodings) > 0 && reflect.DeepEqual(in.Operands, in.Encodings[0].Operands) {
		out.Operands = nil
	}
	return &out
}

// complete fills in what stored left out of a document read back.
func complete(in *isa.Instruction, formats map[string]isa.Format) {
	for i := range in.Encodings {
		e := &in.Encodings[i]
		if e.Fields != nil {
			continue
		}
		if f, ok := formats[e.Format]; ok {
			e.Width, e.Fields, e.Identifier, e.Documented = amdlayout.EncodingLayout(in.Arch, in.Name, f, e.Opcode)
			// Each document read gets its own lists, as a decoded one
			// would: a reader that edits one changes no other.
			e.Fields = append(make([]isa.Field, 0, len(e.Fields)), e.Fields...)
			if d := e.Documented; d != nil {
				d.Fields = append(make([]isa.Field, 0, len(d.Fields)), d.Fields...)
			}
		} else {
			e.Fields = []isa.Field{}
		}
	}
	if in.Operands == nil {
		in.Operands = []isa.Operand{}
		if len(in.Encodings) > 0 {
			in.Operands = append(in.Operands, in.Encodings[0].Operands...)
		}
	}
}

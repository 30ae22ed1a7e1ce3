package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// An AMD encoding's width, fields, identifier and documented layout follow
// from its family's format and its opcode (amdlayout.EncodingLayout owns
// them). The database keeps them once, with the family's formats (archs),
// and each instruction's document without them wherever they are what the
// format gives; Instruction, Instructions and InstructionDoc derive them
// again, so every reader sees the JSON the build made (InstructionDoc checks
// its length and CRC against the build's).

// familyFormats indexes each family's formats by name.
func familyFormats(archs []isa.Architecture) map[string]map[string]isa.Format {
	out := map[string]map[string]isa.Format{}
	for _, a := range archs {
		if len(a.Formats) == 0 {
			continue
		}
		m := map[string]isa.Format{}
		for _, f := range a.Formats {
			m[f.Name] = f
		}
		out[a.ID] = m
	}
	return out
}

// encodingLayout is the part of an encoding the format gives.
type encodingLayout struct {
	Width      int         `json:"width"`
	Identifier string      `json:"identifier,omitempty"`
	Fields     []isa.Field `json:"fields"`
	Documented *isa.Layout `json:"documented,omitempty"`
}

func layoutOf(e *isa.Encoding) encodingLayout {
	return encodingLayout{Width: e.Width, Identifier: e.Identifier, Fields: e.Fields, Documented: e.Documented}
}

// derivedLayout is what the format gives an encoding, as the build stores
// it (lists never null), in fresh slices a reader may change.
func derivedLayout(arch, name string, f isa.Format, opcode int) encodingLayout {
	var l encodingLayout
	l.Width, l.Fields, l.Identifier, l.Documented = amdlayout.EncodingLayout(arch, name, f, opcode)
	l.Fields = cloneFields(l.Fields)
	if d := l.Documented; d != nil {
		c := *d
		c.Fields, c.Changes = cloneFields(d.Fields), slices.Clone(d.Changes)
		l.Documented = &c
	}
	isa.FillLists(&l)
	return l
}

func cloneFields(fs []isa.Field) []isa.Field {
	out := slices.Clone(fs)
	for i := range out {
		out[i].Ranges = slices.Clone(out[i].Ranges)
		out[i].Parts = cloneFields(out[i].Parts)
	}
	return out
}

// stripLayouts returns a copy of in without the layouts its family's
// formats give (in is not changed) and how many encodings it stripped; an
// encoding whose layout differs from its format's keeps it.
func stripLayouts(in *isa.Instruction, formats map[string]isa.Format) (*isa.Instruction, int, error) {
	if len(formats) == 0 {
		return in, 0, nil
	}
	var out *isa.Instruction
	n := 0
	for i := range in.Encodings {
		e := &in.Encodings[i]
		f, ok := formats[e.Format]
		if !ok || e.Width == 0 {
			continue
		}
		same, err := sameJSON(derivedLayout(in.Arch, in.Name, f, e.Opcode), layoutOf(e))
		if err != nil || !same {
			continue
		}
		if out == nil {
			c := *in
			c.Encodings = slices.Clone(in.Encodings)
			out = &c
		}
		s := &out.Encodings[i]
		s.Width, s.Identifier, s.Fields, s.Documented = 0, "", nil, nil
		n++
	}
	if out == nil {
		return in, 0, nil
	}
	return out, n, nil
}

// deriveLayouts gives the encodings stripLayouts stripped (width 0) their
// format's layout.
func deriveLayouts(in *isa.Instruction, formats map[string]isa.Format) {
	for i := range in.Encodings {
		e := &in.Encodings[i]
		f, ok := formats[e.Format]
		if !ok || e.Width != 0 {
			continue
		}
		l := derivedLayout(in.Arch, in.Name, f, e.Opcode)
		e.Width, e.Identifier, e.Fields, e.Documented = l.Width, l.Identifier, l.Fields, l.Documented
	}
}

func sameJSON(a, b any) (bool, error) {
	x, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	y, err := json.Marshal(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(x, y), nil
}

// apiDoc is the JSON document of an instruction whose layouts the reader
// derived: the build's bytes, which its length and CRC vouch for.
func apiDoc(in *isa.Instruction, wantLen int, wantCRC uint32) ([]byte, error) {
	doc, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	doc = append(doc, '\n')
	if len(doc) != wantLen || crc32.ChecksumIEEE(doc) != wantCRC {
		return nil, fmt.Errorf("%s/%s: the document with its layouts derived (%d bytes) is not the one the build wrote (%d bytes)",
			in.Arch, in.Name, len(doc), wantLen)
	}
	return doc, nil
}

// Package codec prepares, at build time, what reading and writing machine
// code needs per AMD family, so a command or a request loads it in
// milliseconds instead of reading every instruction document (package
// codecache builds the decoders from it, once).
//
// The prepared tables are Build.Extras of the database: "codec:ARCH" (the
// family's formats and each instruction's decoder facts), "notes:ARCH" (each
// instruction's summary, unit, target verdicts, cost model and counterparts)
// and "amdgpu_machines" (what e_flags mean, read from LLVM's AMDGPUUsage).
package codec

import (
	"bytes"
	"compress/flate"
	"encoding/gob"
	"fmt"
	"io"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Keys of the prepared tables in the database.
const (
	keyCodec = "codec:"
	keyNotes = "notes:"
	// KeyMachines is the e_flags table (codeobj.Machines, JSON).
	KeyMachines = "amdgpu_machines"
)

// CodecKey and NotesKey name a family's prepared tables.
func CodecKey(arch string) string { return keyCodec + arch }

// NotesKey names a family's annotation table.
func NotesKey(arch string) string { return keyNotes + arch }

// Table is a family's decoder facts: its formats and, per instruction, what
// packages decode and encode read.
type Table struct {
	Arch   isa.Architecture
	Instrs []isa.Instruction
}

// Facts keeps what the decoder and encoder read from an instruction —
// names, encodings with their operands, the instruction's operands, LLVM's
// syntax operands and each syntax row's mnemonic — and drops the rest (documents, target matrices,
// examples, provenance). TestPreparedDecodesAsModel holds the decoder built
// from it to the decoder built from the whole model.
func Facts(in *isa.Instruction) isa.Instruction {
	encs := make([]isa.Encoding, len(in.Encodings))
	for i, e := range in.Encodings {
		encs[i] = isa.Encoding{Name: e.Name, Format: e.Format, Width: e.Width, Opcode: e.Opcode, Operands: slimOperands(e.Operands)}
		if e.Width > 96 {
			// Two word pairs (CDNA 4's scaled MFMAs): the decoder reads
			// which words they are from the layout's fixed fields.
			encs[i].Fields = e.Fields
		}
	}
	var syn []isa.Syntax
	for _, s := range in.Syntax {
		// Of the text, the mnemonic: the variant (_e64, _dpp, _sdwa) the
		// row describes, which the decoder's modifier rules read.
		mn, _, _ := strings.Cut(strings.TrimSpace(s.Text), " ")
		syn = append(syn, isa.Syntax{GFX: s.GFX, Text: mn, Operands: s.Operands, Modifiers: s.Modifiers})
	}
	var al []isa.Alias
	for _, a := range in.Aliases {
		al = append(al, isa.Alias{Name: a.Name, LLVMName: a.LLVMName, Targets: a.Targets})
	}
	return isa.Instruction{Arch: in.Arch, Name: in.Name, Vendor: in.Vendor, Kind: in.Kind, Unit: in.Unit, Category: in.Category,
		Aliases: al, Encodings: encs, Operands: slimOperands(in.Operands), Syntax: syn, Flags: in.Flags}
}

// mixedVerdicts keeps llvm-mc's verdicts on the family's own targets of
// an instruction that some of them have and others lack (v_mad_mix_f32:
// gfx900, not gfx904), which a decoder or encoder for one target reads
// (decode.Decoder.ForTarget); nil where they all agree.
func mixedVerdicts(targets map[string]string, family []string) map[string]string {
	own := map[string]string{}
	for _, t := range family {
		if v, ok := targets[t]; ok {
			own[t] = v
		}
	}
	sup, uns := verdictLists(own)
	if len(sup) == 0 || len(uns) == 0 {
		return nil
	}
	out := make(map[string]string, len(sup)+len(uns))
	for _, t := range sup {
		out[t] = "supported"
	}
	for _, t := range uns {
		out[t] = "unsupported"
	}
	return out
}

func slimOperands(ops []isa.Operand) []isa.Operand {
	if ops == nil {
		return nil
	}
	out := make([]isa.Operand, len(ops))
	for i, o := range ops {
		// The decoder weighs a type or size by where it came from
		// (Prov.Source, TypeFrom); the file and line are the document's
		// business.
		o.Prov, o.Description, o.Note = isa.Prov{Source: o.Prov.Source}, "", ""
		out[i] = o
	}
	return out
}

// slimArch keeps the family's identity, targets and formats (the bit
// layouts the decoder compiles); documents and descriptions stay in the
// database's own arch row.
func slimArch(a isa.Architecture) isa.Architecture {
	fs := make([]isa.Format, len(a.Formats))
	for i, f := range a.Formats {
		fs[i] = isa.Format{Name: f.Name, Width: f.Width, Fields: f.Fields, IdentifierMask: f.IdentifierMask}
	}
	return isa.Architecture{ID: a.ID, Name: a.Name, Vendor: a.Vendor, Kind: a.Kind, Order: a.Order, Targets: a.Targets, Formats: fs, Count: a.Count}
}

// PrepareTable encodes a family's decoder facts for the database.
func PrepareTable(a isa.Architecture, ins []*isa.Instruction) ([]byte, error) {
	t := Table{Arch: slimArch(a), Instrs: make([]isa.Instruction, 0, len(ins))}
	for _, in := range ins {
		if in.Arch == a.ID {
			f := Facts(in)
			f.Targets = mixedVerdicts(in.Targets, a.Targets)
			t.Instrs = append(t.Instrs, f)
		}
	}
	return encodeTable(&t)
}

// LoadTable decodes what PrepareTable wrote.
func LoadTable(b []byte) (*Table, error) {
	t, err := decodeTable(b)
	if err != nil {
		return nil, fmt.Errorf("prepared decoder table: %w", err)
	}
	return t, nil
}

// gob numbers the types a process encodes in the order it first meets
// them, and the numbers are in the bytes: a build that had read a gob
// cache of another type first wrote other bytes for the same notes. Meeting
// the notes' types while the package initialises gives them the same
// numbers in every run of a binary.
func init() {
	if err := gob.NewEncoder(io.Discard).Encode(&Notes{Notes: []Note{{Cost: []TargetCost{{}}, Counterparts: []Counterpart{{}}}}}); err != nil {
		panic(err)
	}
}

// pack writes v as gob, deflate-compressed: a family's table is a few
// tens of kilobytes and decodes in milliseconds.
func pack(v any) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if err := gob.NewEncoder(zw).Encode(v); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// maxUnpacked bounds a prepared table after inflation.
const maxUnpacked = 256 << 20

func unpack(b []byte, v any) error {
	zr := flate.NewReader(bytes.NewReader(b))
	defer zr.Close()
	return gob.NewDecoder(io.LimitReader(zr, maxUnpacked)).Decode(v)
}

// Package amdmanual reads AMD's GPU ISA reference guides in their Markdown
// conversion (one README.md per architecture family) and extracts two kinds of
// facts: per-instruction facts (name, encoding, opcode, description,
// pseudocode) and microcode formats (fields with bit ranges and the fixed
// ENCODING bits that identify a format).
//
// Two layouts exist. Newer guides (CDNA 3-5, RDNA 3-4) give every instruction
// its own heading ("S_ADD_U32 0") followed by prose and a pseudocode block;
// older guides (CDNA 1-2, RDNA 1-2, Vega) use "| Opcode | Name | Description |"
// tables. Every guide ends with a "Microcode Formats" chapter holding field
// tables and per-format opcode tables.
//
// The reader keeps one Entry per fact and never merges or resolves conflicts:
// that is the merge step's job. Conversion noise that the reader repairs is
// recorded in Format.Notes; what it cannot recover is listed in Guide.Problems.
package amdmanual

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Guide is everything read from one reference guide.
type Guide struct {
	Family       string // our architecture id, e.g. "cdna4"
	File         string // the path given to ParseFile/Parse, for provenance
	Title        string // the guide's title line, e.g. "CDNA4 Instruction Set Architecture"
	Instructions []Entry
	Formats      []Format
	Problems     []Problem
	// Gaps are what a complete guide holds that this one lacks, found from
	// the guide's own structure (see gaps.go): an instruction an opcode
	// table lists with no section of its own, a section cut short. The
	// build's source gate fails on them.
	Gaps []Problem
	// Promotions are the rules that give VOP1/VOP2/VOPC opcodes in VOP3.
	Promotions []Promotion
}

// Entry is one (name, encoding, opcode) fact with the text that documents it.
type Entry struct {
	Name            string // upper case as AMD writes it, unescaped: "V_MAX_F32"
	Encoding        string // format name as the guide names it: "VOP2", "VOP3A", "DS", "GLOBAL"
	Slot            string // "X" or "Y" for dual-issue (VOPD) opcodes, "" otherwise
	Opcode          int
	Section         string // instruction section title, "" when the fact comes only from an opcode table
	Chapter         string // chapter title the fact comes from ("Instructions", "Microcode Formats")
	Description     string // prose, unescaped, paragraphs separated by blank lines
	Pseudocode      string // semantics code (newer guides) or the code part of an old table cell
	Notes           string
	Line            int  // 1-based line where the fact starts
	FromOpcodeTable bool // true when the fact comes from a microcode-format opcode table
	// Repair says how the reader reconstructed this entry when the guide's
	// conversion damaged it (a heading lost at a page break, text attributed
	// by opcode order), for the page to show; "" for entries read as written.
	Repair string
}

// Format is one microcode format (encoding) with its fields.
type Format struct {
	Name        string // "VOP2"
	Width       int    // bits: 32, 64 or 96
	Description string
	Fields      []Field
	Line        int
	Notes       []string // repairs applied and oddities noticed, for the page to show
}

// Field is one field of a microcode format.
type Field struct {
	Name        string     // "OP", "ENCODING", "SRC0"
	Ranges      []BitRange // most significant first; usually one
	Fixed       string     // binary string for fixed fields ("110100111"), "" otherwise
	Description string
	Line        int
	// part is set on a row that holds some bits of a field the guide
	// splits over rows ("SCL_OPSEL_HI[2]"); lsb is the lowest value bit
	// the row holds. finish joins the parts into one Field.
	part bool
	lsb  int
}

// BitRange is an inclusive range of bit positions, MSB >= LSB.
type BitRange struct{ MSB, LSB int }

// Width is the number of bits in the range.
func (r BitRange) Width() int { return r.MSB - r.LSB + 1 }

// Problem is something the reader could not recover.
type Problem struct {
	Line int
	Name string
	Why  string
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s: %s", p.Line, p.Name, p.Why) }

// ParseFile reads one guide from disk. family is our id ("cdna4"); path is
// recorded in provenance as given.
func ParseFile(path, family string) (*Guide, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("amdmanual: %w", err)
	}
	return parseBytes(data, path, family)
}

// Parse reads one guide from r. file names the input in provenance and errors.
func Parse(r io.Reader, file, family string) (*Guide, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("amdmanual: reading %s: %w", file, err)
	}
	return parseBytes(data, file, family)
}

func parseBytes(data []byte, file, family string) (*Guide, error) {
	text := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	p := newParser(text, file, family)
	p.run()
	g := p.guide
	g.Promotions = findPromotions(p.lines, g.Formats)
	if len(g.Instructions) == 0 && len(g.Formats) == 0 {
		last := len(p.lines)
		if last > 1 && p.lines[last-1] == "" {
			last-- // the text ends with a newline
		}
		return g, fmt.Errorf("amdmanual: %s:%d: no instruction sections or microcode formats found (is this an AMD ISA guide?)", file, last)
	}
	return g, nil
}

// FormatByName returns the format named name, or nil.
func (g *Guide) FormatByName(name string) *Format {
	for i := range g.Formats {
		if g.Formats[i].Name == name {
			return &g.Formats[i]
		}
	}
	return nil
}

// Lookup returns every entry for the instruction name (upper case).
func (g *Guide) Lookup(name string) []Entry {
	var out []Entry
	for _, e := range g.Instructions {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// FieldByName returns the field named name, or nil.
func (f *Format) FieldByName(name string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Name == name {
			return &f.Fields[i]
		}
	}
	return nil
}

// opcodeField is the field that carries the opcode: "OP", or "OPX" for the
// dual-issue formats whose X opcode is the one AMD's identifiers use.
func (f *Format) opcodeField() *Field {
	for _, n := range []string{"OP", "OPX"} {
		if fl := f.FieldByName(n); fl != nil {
			return fl
		}
	}
	return nil
}

// Identifier computes the instruction word bits that identify (format,
// opcode): every fixed field (ENCODING and the like) and the OP field, all
// other bits zero. Bits keep their positions in the instruction, so for a
// 64-bit format the identifier is its first 32-bit word, as AMD lists them
// (CDNA 4: VOP2 + 11 -> 0x16000000, VOP3P + 32 -> 0xD3A00000). mask has a one
// for every bit the identifier fixes.
func (f Format) Identifier(opcode int) (id uint64, mask uint64, err error) {
	op := f.opcodeField()
	if op == nil {
		return 0, 0, fmt.Errorf("format %s has no OP field", f.Name)
	}
	opBits := 0
	for _, r := range op.Ranges {
		opBits += r.Width()
	}
	if opcode < 0 || opBits < 63 && opcode >= 1<<opBits {
		return 0, 0, fmt.Errorf("format %s: opcode %d does not fit in the %d-bit OP field", f.Name, opcode, opBits)
	}
	put := func(fl *Field, value uint64, width int) error {
		// value's bits are laid out over the ranges, most significant range first.
		remaining := width
		for _, r := range fl.Ranges {
			if r.MSB > 63 {
				return fmt.Errorf("format %s: field %s reaches bit %d, beyond a 64-bit identifier", f.Name, fl.Name, r.MSB)
			}
			remaining -= r.Width()
			part := (value >> uint(remaining)) & (1<<uint(r.Width()) - 1)
			id |= part << uint(r.LSB)
			mask |= (1<<uint(r.Width()) - 1) << uint(r.LSB)
		}
		return nil
	}
	fixedSeen := false
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.Fixed == "" {
			continue
		}
		w := 0
		for _, r := range fl.Ranges {
			w += r.Width()
		}
		if w != len(fl.Fixed) {
			return 0, 0, fmt.Errorf("format %s: field %s fixes %d bits in a %d-bit range", f.Name, fl.Name, len(fl.Fixed), w)
		}
		var v uint64
		for _, c := range fl.Fixed {
			v = v<<1 | uint64(c-'0')
		}
		if err := put(fl, v, w); err != nil {
			return 0, 0, err
		}
		fixedSeen = true
	}
	if !fixedSeen {
		return 0, 0, fmt.Errorf("format %s has no fixed ENCODING bits", f.Name)
	}
	if err := put(op, uint64(opcode), opBits); err != nil {
		return 0, 0, err
	}
	return id, mask, nil
}

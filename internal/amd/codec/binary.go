package codec

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The decoder table is written in a small binary form of its own rather
// than gob: a string table (each distinct string once, read back as slices
// of one string, so loading allocates little) and the facts as varints.
// Loading a family takes about a millisecond where gob took ten; the
// decoder is on the start-up path of every `gpuisa decode`. codecFields
// lists what it writes per model type, and TestCodecCoversModel fails when
// the model gains a field nobody decided about.

const tableMagic = "gpuisa-codec-5\n"

// tableMagic4, 3 and 2 are the previous versions: 4 without the targets
// an instruction is verified on where the family's disagree (a database
// written by it encodes them on every target of the family), 3 also
// without the targets an alias is verified on (a database written by it
// loads with no alias the encoder takes), 2 also without an encoding's
// own fields (a 4-dword layout, Facts).
const (
	tableMagic4 = "gpuisa-codec-4\n"
	tableMagic3 = "gpuisa-codec-3\n"
	tableMagic2 = "gpuisa-codec-2\n"
)

// tableWriter accumulates the body and the string table.
type tableWriter struct {
	body  []byte
	strs  map[string]int
	order []string
}

func (w *tableWriter) uint(v uint64) { w.body = binary.AppendUvarint(w.body, v) }
func (w *tableWriter) int(v int)     { w.body = binary.AppendVarint(w.body, int64(v)) }
func (w *tableWriter) bool(b bool) {
	if b {
		w.body = append(w.body, 1)
	} else {
		w.body = append(w.body, 0)
	}
}

func (w *tableWriter) str(s string) {
	i, ok := w.strs[s]
	if !ok {
		i = len(w.order)
		w.strs[s] = i
		w.order = append(w.order, s)
	}
	w.uint(uint64(i))
}

func (w *tableWriter) strList(ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

func (w *tableWriter) field(f isa.Field) {
	w.str(f.Name)
	w.int(f.MSB)
	w.int(f.LSB)
	w.uint(uint64(len(f.Ranges)))
	for _, r := range f.Ranges {
		w.int(r.MSB)
		w.int(r.LSB)
	}
	w.str(f.Fixed)
	w.uint(uint64(len(f.Parts)))
	for _, p := range f.Parts {
		w.field(p)
	}
}

func (w *tableWriter) operands(ops []isa.Operand) {
	if ops == nil {
		w.uint(0)
		return
	}
	w.uint(uint64(len(ops)) + 1)
	for _, o := range ops {
		w.str(o.Name)
		w.int(o.Order)
		w.bool(o.Input)
		w.bool(o.Output)
		w.bool(o.Implicit)
		w.str(o.DataFormat)
		w.str(o.OperandType)
		w.int(o.Size)
		w.bool(o.Optional)
		w.int(o.SizeWave32)
		w.int(o.SizeWave64)
		w.str(o.Prov.Source)
		w.str(o.TypeFrom)
	}
}

func (w *tableWriter) table(t *Table) {
	a := &t.Arch
	w.str(a.ID)
	w.str(a.Name)
	w.str(a.Vendor)
	w.str(a.Kind)
	w.int(a.Order)
	w.strList(a.Targets)
	w.uint(uint64(len(a.Formats)))
	for _, f := range a.Formats {
		w.str(f.Name)
		w.int(f.Width)
		w.str(f.IdentifierMask)
		w.uint(uint64(len(f.Fields)))
		for _, fl := range f.Fields {
			w.field(fl)
		}
	}
	w.uint(uint64(len(t.Instrs)))
	for i := range t.Instrs {
		in := &t.Instrs[i]
		w.str(in.Arch)
		w.str(in.Name)
		w.str(in.Vendor)
		w.str(in.Kind)
		w.str(in.Unit)
		w.str(in.Category)
		w.uint(uint64(len(in.Aliases)))
		for _, al := range in.Aliases {
			w.str(al.Name)
			w.bool(al.LLVMName)
			w.strList(al.Targets)
		}
		w.uint(uint64(len(in.Encodings)))
		for _, e := range in.Encodings {
			w.str(e.Name)
			w.str(e.Format)
			w.int(e.Width)
			w.int(e.Opcode)
			w.operands(e.Operands)
			w.uint(uint64(len(e.Fields)))
			for _, fl := range e.Fields {
				w.field(fl)
			}
		}
		w.operands(in.Operands)
		w.uint(uint64(len(in.Syntax)))
		for _, s := range in.Syntax {
			w.str(s.GFX)
			w.str(s.Text) // the mnemonic only (Facts)
			w.strList(s.Operands)
			w.strList(s.Modifiers)
		}
		w.strList(in.Flags)
		sup, uns := verdictLists(in.Targets)
		w.strList(sup)
		w.strList(uns)
	}
}

// verdictLists are the targets targets marks supported and unsupported,
// sorted.
func verdictLists(targets map[string]string) (sup, uns []string) {
	for t, v := range targets {
		switch v {
		case "supported":
			sup = append(sup, t)
		case "unsupported":
			uns = append(uns, t)
		}
	}
	slices.Sort(sup)
	slices.Sort(uns)
	return sup, uns
}

// encodeTable writes t: magic, string table, body, deflate-compressed.
func encodeTable(t *Table) ([]byte, error) {
	w := &tableWriter{strs: map[string]int{}}
	w.table(t)
	var raw []byte
	raw = append(raw, tableMagic...)
	raw = binary.AppendUvarint(raw, uint64(len(w.order)))
	for _, s := range w.order {
		raw = binary.AppendUvarint(raw, uint64(len(s)))
	}
	for _, s := range w.order {
		raw = append(raw, s...)
	}
	raw = append(raw, w.body...)
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// tableReader reads what tableWriter wrote; the first error sticks.
// Slices are cut from chunked pools, so a family takes tens of
// allocations, not tens of thousands.
type tableReader struct {
	b    []byte
	strs []string
	err  error
	v3   bool // encodings carry their fields (tableMagic3 on)
	v4   bool // aliases carry their verified targets (tableMagic4 on)
	v5   bool // instructions carry theirs where the family's differ (tableMagic)

	opPool  []isa.Operand
	strPool []string
	encPool []isa.Encoding
}

const poolChunk = 4096

func (r *tableReader) takeOps(n int) []isa.Operand {
	if n > poolChunk {
		return make([]isa.Operand, n)
	}
	if len(r.opPool) < n {
		r.opPool = make([]isa.Operand, poolChunk)
	}
	out := r.opPool[:n:n]
	r.opPool = r.opPool[n:]
	return out
}

func (r *tableReader) takeStrs(n int) []string {
	if n > poolChunk {
		return make([]string, n)
	}
	if len(r.strPool) < n {
		r.strPool = make([]string, poolChunk)
	}
	out := r.strPool[:n:n]
	r.strPool = r.strPool[n:]
	return out
}

func (r *tableReader) takeEncs(n int) []isa.Encoding {
	if n > poolChunk {
		return make([]isa.Encoding, n)
	}
	if len(r.encPool) < n {
		r.encPool = make([]isa.Encoding, poolChunk)
	}
	out := r.encPool[:n:n]
	r.encPool = r.encPool[n:]
	return out
}

var errShort = errors.New("truncated table")

func (r *tableReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *tableReader) int() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *tableReader) bool() bool {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShort
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v == 1
}

func (r *tableReader) str() string {
	i := r.uint()
	if r.err != nil {
		return ""
	}
	if i >= uint64(len(r.strs)) {
		r.err = fmt.Errorf("string %d of %d", i, len(r.strs))
		return ""
	}
	return r.strs[i]
}

// count reads a length and checks it against what is left (every element
// takes at least one byte), so a damaged table cannot ask for gigabytes.
func (r *tableReader) count() int {
	n := r.uint()
	if r.err == nil && n > uint64(len(r.b)) {
		r.err = errShort
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

func (r *tableReader) strList() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := r.takeStrs(n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *tableReader) field(depth int) isa.Field {
	var f isa.Field
	f.Name = r.str()
	f.MSB = r.int()
	f.LSB = r.int()
	if n := r.count(); n > 0 {
		f.Ranges = make([]isa.BitRange, n)
		for i := range f.Ranges {
			f.Ranges[i] = isa.BitRange{MSB: r.int(), LSB: r.int()}
		}
	}
	f.Fixed = r.str()
	if n := r.count(); n > 0 {
		if depth > 4 {
			r.err = errors.New("fields nested too deep")
			return f
		}
		f.Parts = make([]isa.Field, n)
		for i := range f.Parts {
			f.Parts[i] = r.field(depth + 1)
		}
	}
	return f
}

func (r *tableReader) operands() []isa.Operand {
	n := r.count()
	if n == 0 {
		return nil
	}
	ops := r.takeOps(n - 1)
	for i := range ops {
		o := &ops[i]
		o.Name = r.str()
		o.Order = r.int()
		o.Input = r.bool()
		o.Output = r.bool()
		o.Implicit = r.bool()
		o.DataFormat = r.str()
		o.OperandType = r.str()
		o.Size = r.int()
		o.Optional = r.bool()
		o.SizeWave32 = r.int()
		o.SizeWave64 = r.int()
		o.Prov.Source = r.str()
		o.TypeFrom = r.str()
	}
	return ops
}

func (r *tableReader) table() *Table {
	t := &Table{}
	a := &t.Arch
	a.ID, a.Name, a.Vendor, a.Kind = r.str(), r.str(), r.str(), r.str()
	a.Order = r.int()
	a.Targets = r.strList()
	a.Formats = make([]isa.Format, r.count())
	for i := range a.Formats {
		f := &a.Formats[i]
		f.Name = r.str()
		f.Width = r.int()
		f.IdentifierMask = r.str()
		f.Fields = make([]isa.Field, r.count())
		for j := range f.Fields {
			f.Fields[j] = r.field(0)
		}
	}
	t.Instrs = make([]isa.Instruction, r.count())
	for i := range t.Instrs {
		in := &t.Instrs[i]
		in.Arch, in.Name, in.Vendor, in.Kind, in.Unit, in.Category = r.str(), r.str(), r.str(), r.str(), r.str(), r.str()
		if n := r.count(); n > 0 {
			in.Aliases = make([]isa.Alias, n)
			for j := range in.Aliases {
				in.Aliases[j] = isa.Alias{Name: r.str(), LLVMName: r.bool()}
				if r.v4 {
					in.Aliases[j].Targets = r.strList()
				}
			}
		}
		in.Encodings = r.takeEncs(r.count())
		for j := range in.Encodings {
			e := &in.Encodings[j]
			e.Name, e.Format = r.str(), r.str()
			e.Width, e.Opcode = r.int(), r.int()
			e.Operands = r.operands()
			if r.v3 {
				if n := r.count(); n > 0 {
					e.Fields = make([]isa.Field, n)
					for k := range e.Fields {
						e.Fields[k] = r.field(0)
					}
				}
			}
		}
		in.Operands = r.operands()
		if n := r.count(); n > 0 {
			in.Syntax = make([]isa.Syntax, n)
			for j := range in.Syntax {
				s := &in.Syntax[j]
				s.GFX = r.str()
				s.Text = r.str()
				s.Operands = r.strList()
				s.Modifiers = r.strList()
			}
		}
		in.Flags = r.strList()
		if r.v5 {
			sup, uns := r.strList(), r.strList()
			if len(sup)+len(uns) > 0 {
				in.Targets = make(map[string]string, len(sup)+len(uns))
				for _, t := range sup {
					in.Targets[t] = "supported"
				}
				for _, t := range uns {
					in.Targets[t] = "unsupported"
				}
			}
		}
		if r.err != nil {
			return nil
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the table", len(r.b))
	}
	return t
}

// decodeTable reads what encodeTable wrote.
func decodeTable(packed []byte) (*Table, error) {
	zr := flate.NewReader(bytes.NewReader(packed))
	defer zr.Close()
	raw, err := io.ReadAll(io.LimitReader(zr, maxUnpacked+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxUnpacked {
		return nil, fmt.Errorf("table larger than %d MB", maxUnpacked>>20)
	}
	v5 := bytes.HasPrefix(raw, []byte(tableMagic))
	v4 := v5 || bytes.HasPrefix(raw, []byte(tableMagic4))
	v3 := v4 || bytes.HasPrefix(raw, []byte(tableMagic3))
	if !v3 && !bytes.HasPrefix(raw, []byte(tableMagic2)) {
		return nil, fmt.Errorf("not a decoder table (written by another gpuisa version?)")
	}
	r := &tableReader{b: raw[len(tableMagic):], v3: v3, v4: v4, v5: v5}
	n := r.count()
	lens := make([]int, n)
	total := 0
	for i := range lens {
		lens[i] = int(r.uint())
		total += lens[i]
	}
	if r.err != nil || total < 0 || total > len(r.b) {
		return nil, errShort
	}
	all := string(r.b[:total]) // one allocation for every string
	r.b = r.b[total:]
	r.strs = make([]string, n)
	off := 0
	for i, l := range lens {
		r.strs[i] = all[off : off+l]
		off += l
	}
	t := r.table()
	if r.err != nil {
		return nil, r.err
	}
	return t, nil
}

// Package amdxml reads AMD's machine-readable GPU ISA specification: the XML
// files of the official zip (amdgpu_isa_cdna1.xml ... amdgpu_isa_rdna4.xml,
// schema 1.1.1) and abridged excerpts of them. It turns each file into a
// Spec (encodings with their bit fields and identifiers, instructions with
// their opcodes and operands per encoding, data formats, operand types and
// functional groups), keeping each encoding's and instruction's source line
// so that facts can cite where they came from. It knows nothing of the
// project's model; the merge step maps Specs onto it.
//
// The reader streams: it tokenizes the input through a small window and
// builds one element at a time, so memory holds the result, not the
// document.
package amdxml

import (
	"bytes"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ParseFile reads one XML file.
func ParseFile(path string) (*Spec, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads one XML document from r; file names it in errors and in
// Spec.File. Malformed input returns an *Error naming file:line:column.
func Parse(r io.Reader, file string) (*Spec, error) {
	return parse(r, file, initialWindow)
}

// parse is Parse with a chosen initial window size; tests use tiny windows
// to push every kind of token across the window's edge.
func parse(r io.Reader, file string, window int) (*Spec, error) {
	p := &parser{s: newScanner(r, file, window), strs: interner{}}
	spec := &Spec{File: file}
	if err := p.document(spec); err != nil {
		return nil, err
	}
	return spec, nil
}

type parser struct {
	s    *scanner
	strs interner // short strings: names repeat a lot
	text []byte   // text accumulated by leafText
}

// errorf reports a problem at the current token.
func (p *parser) errorf(format string, args ...any) error {
	return p.s.errAt(p.s.tokPos, format, args...)
}

func (p *parser) document(spec *Spec) error {
	// Before the root: only whitespace.
	for {
		kind, err := p.s.next()
		if err != nil {
			return err
		}
		switch kind {
		case tokEOF:
			return p.errorf("no root element")
		case tokText:
			if !isBlank(p.s.text) {
				return p.errorf("text before the root element")
			}
			continue
		case tokStart:
			if string(p.s.name) != "Spec" {
				return p.errorf("root element is <%s>, want <Spec>", p.s.name)
			}
		}
		break
	}
	if err := p.children(func(name []byte) error {
		switch string(name) {
		case "Document":
			return p.documentInfo(&spec.Document)
		case "ISA":
			return p.isa(spec)
		}
		return p.skip()
	}); err != nil {
		return err
	}
	// After the root: only whitespace (the scanner refuses a second root).
	for {
		kind, err := p.s.next()
		if err != nil {
			return err
		}
		switch kind {
		case tokEOF:
			return nil
		case tokText:
			if !isBlank(p.s.text) {
				return p.errorf("text after the root element")
			}
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// children calls fn for each child element of the element whose start tag
// was just read, with the scanner on the child's start tag; fn must consume
// the child through its end tag. Text between children is ignored.
func (p *parser) children(fn func(name []byte) error) error {
	for {
		kind, err := p.s.next()
		if err != nil {
			return err
		}
		switch kind {
		case tokStart:
			if err := fn(p.s.name); err != nil {
				return err
			}
		case tokEnd:
			return nil
		case tokEOF:
			return p.errorf("unexpected end of file")
		}
	}
}

// skip consumes the current element.
func (p *parser) skip() error {
	for depth := 1; depth > 0; {
		kind, err := p.s.next()
		if err != nil {
			return err
		}
		switch kind {
		case tokStart:
			depth++
		case tokEnd:
			depth--
		case tokEOF:
			return p.errorf("unexpected end of file")
		}
	}
	return nil
}

// leafText reads the text of the current element, which must have no child
// elements, with surrounding space trimmed. The result is valid until the
// next read.
func (p *parser) leafText() ([]byte, error) {
	// Text tokens point into the scanner's window, which the next read may
	// move, so they are copied; leaf texts are short.
	p.text = p.text[:0]
	for {
		kind, err := p.s.next()
		if err != nil {
			return nil, err
		}
		switch kind {
		case tokText:
			p.text = append(p.text, p.s.text...)
		case tokEnd:
			return bytes.TrimSpace(p.text), nil
		case tokStart:
			return nil, p.errorf("unexpected element <%s> in <%s>", p.s.name, p.s.stack[len(p.s.stack)-2])
		case tokEOF:
			return nil, p.errorf("unexpected end of file")
		}
	}
}

// str reads the current element's text as a string, interning short ones.
func (p *parser) str() (string, error) {
	b, err := p.leafText()
	if err != nil {
		return "", err
	}
	return p.intern(b), nil
}

func (p *parser) intern(b []byte) string {
	if len(b) > 48 {
		return string(b)
	}
	return p.strs.intern(b)
}

// interner keeps one string per distinct text, so that the many copies of
// a name share their bytes.
type interner map[string]string

func (m interner) intern(b []byte) string {
	if v, ok := m[string(b)]; ok {
		return v
	}
	v := string(b)
	m[v] = v
	return v
}

// prose reads a Description: its text and the text of any markup inside it
// (such as <p> or <br/>), with paragraph and line-break elements turned
// into newlines and surrounding space trimmed.
func (p *parser) prose() (string, error) {
	p.text = p.text[:0]
	for depth := 1; ; {
		kind, err := p.s.next()
		if err != nil {
			return "", err
		}
		switch kind {
		case tokText:
			p.text = append(p.text, p.s.text...)
		case tokStart:
			depth++
			if isBreak(p.s.name) {
				p.lineBreak()
			}
		case tokEnd:
			depth--
			if depth == 0 {
				return string(bytes.TrimSpace(p.text)), nil
			}
			if isBreak(p.s.name) {
				p.lineBreak()
			}
		case tokEOF:
			return "", p.errorf("unexpected end of file")
		}
	}
}

// lineBreak ends the prose line being built, once.
func (p *parser) lineBreak() {
	if n := len(p.text); n > 0 && p.text[n-1] != '\n' {
		p.text = append(p.text, '\n')
	}
}

func isBreak(name []byte) bool {
	switch string(name) {
	case "p", "br", "li", "div", "ul", "ol":
		return true
	}
	return false
}

func (p *parser) integer() (int, error) {
	b, err := p.leafText()
	if err != nil {
		return 0, err
	}
	return p.atoi(b)
}

func (p *parser) atoi(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil // as encoding/xml: empty means zero
	}
	// Small non-negative decimals are the norm; take them without strconv.
	if len(b) <= 9 {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				goto slow
			}
			n = n*10 + int(c-'0')
		}
		return n, nil
	}
slow:
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return 0, p.errorf("%q is not an integer", b)
	}
	return int(n), nil
}

func (p *parser) boolean() (bool, error) {
	b, err := p.leafText()
	if err != nil {
		return false, err
	}
	return p.parseBool(b)
}

func (p *parser) parseBool(b []byte) (bool, error) {
	switch string(b) {
	case "TRUE", "true", "True", "1":
		return true, nil
	case "FALSE", "false", "False", "0":
		return false, nil
	}
	v, err := strconv.ParseBool(string(b))
	if err != nil {
		return false, p.errorf("%q is not a boolean", b)
	}
	return v, nil
}

// attrInt reads an integer attribute of the current start tag; absent means 0.
func (p *parser) attrInt(name string) (int, error) {
	v, ok := p.s.attr(name)
	if !ok {
		return 0, nil
	}
	n, err := p.atoi(bytes.TrimSpace(v))
	if err != nil {
		return 0, p.errorf("attribute %s: %q is not an integer", name, v)
	}
	return n, nil
}

// attrBool reads a boolean attribute of the current start tag; absent means false.
func (p *parser) attrBool(name string) (bool, error) {
	v, ok := p.s.attr(name)
	if !ok {
		return false, nil
	}
	b, err := p.parseBool(bytes.TrimSpace(v))
	if err != nil {
		return false, p.errorf("attribute %s: %q is not a boolean", name, v)
	}
	return b, nil
}

// number reads an element with a Radix attribute and digits as text.
func (p *parser) number() (Number, error) {
	radix, err := p.attrInt("Radix")
	if err != nil {
		return Number{}, err
	}
	b, err := p.leafText()
	if err != nil {
		return Number{}, err
	}
	n := Number{Radix: radix, Raw: p.intern(b)}
	if err := n.parse(); err != nil {
		return Number{}, p.errorf("%v", err)
	}
	return n, nil
}

// parse sets Value and Wide from Raw and Radix. A missing Radix means 10.
func (n *Number) parse() error {
	radix := n.Radix
	if radix == 0 {
		radix = 10
	}
	if radix < 2 || radix > 36 {
		return fmt.Errorf("radix %d is not supported", n.Radix)
	}
	if n.Raw == "" {
		return fmt.Errorf("empty number")
	}
	if radix == 2 && len(n.Raw) <= 64 {
		var v uint64
		for i := 0; i < len(n.Raw); i++ {
			c := n.Raw[i]
			if c != '0' && c != '1' {
				return fmt.Errorf("%q is not a binary number", n.Raw)
			}
			v = v<<1 | uint64(c-'0')
		}
		n.Value, n.Wide = v, false
		return nil
	}
	if v, err := strconv.ParseUint(n.Raw, radix, 64); err == nil {
		n.Value, n.Wide = v, false
		return nil
	}
	big, ok := new(big.Int).SetString(n.Raw, radix)
	if !ok || big.Sign() < 0 {
		return fmt.Errorf("%q is not a base-%d number", n.Raw, radix)
	}
	n.Value, n.Wide = big.Uint64(), true // Uint64 keeps the low 64 bits
	return nil
}

func (p *parser) documentInfo(d *Document) error {
	return p.children(func(name []byte) error {
		var dst *string
		switch string(name) {
		case "Copyright":
			dst = &d.Copyright
		case "Sensitivity":
			dst = &d.Sensitivity
		case "License":
			dst = &d.License
		case "ReleaseDate":
			dst = &d.ReleaseDate
		case "SchemaVersion":
			dst = &d.SchemaVersion
		default:
			return p.skip()
		}
		var err error
		*dst, err = p.prose()
		return err
	})
}

func (p *parser) isa(spec *Spec) error {
	return p.children(func(name []byte) error {
		switch string(name) {
		case "Architecture":
			return p.children(func(name []byte) error {
				var err error
				switch string(name) {
				case "ArchitectureName":
					spec.ArchitectureName, err = p.str()
				case "ArchitectureId":
					spec.ArchitectureID, err = p.integer()
				default:
					err = p.skip()
				}
				return err
			})
		case "Encodings":
			return appendEach(p, "Encoding", &spec.Encodings, p.encoding)
		case "Instructions":
			return appendEach(p, "Instruction", &spec.Instructions, p.instruction)
		case "DataFormats":
			return appendEach(p, "DataFormat", &spec.DataFormats, p.dataFormat)
		case "OperandTypes":
			return appendEach(p, "OperandType", &spec.OperandTypes, p.operandType)
		case "FunctionalGroups":
			return p.list("FunctionalGroup", func() error {
				var g FunctionalGroup
				err := p.nameDescription(&g.Name, &g.Description)
				spec.FunctionalGroups = append(spec.FunctionalGroups, g)
				return err
			})
		case "FunctionalSubgroups":
			return p.list("FunctionalSubgroup", func() error {
				var g FunctionalSubgroup
				err := p.nameDescription(&g.Name, &g.Description)
				spec.FunctionalSubgroups = append(spec.FunctionalSubgroups, g)
				return err
			})
		}
		return p.skip()
	})
}

// list calls fn for each child element named item and skips other children.
func (p *parser) list(item string, fn func() error) error {
	return p.children(func(name []byte) error {
		if string(name) != item {
			return p.skip()
		}
		return fn()
	})
}

// appendEach reads each child element named item with read and appends
// what it gives to dst; other children are skipped.
func appendEach[T any](p *parser, item string, dst *[]T, read func() (T, error)) error {
	return p.list(item, func() error {
		v, err := read()
		*dst = append(*dst, v)
		return err
	})
}

// strings reads the text of each child element named item.
func (p *parser) strings(item string) ([]string, error) {
	var out []string
	err := appendEach(p, item, &out, p.str)
	return out, err
}

func (p *parser) nameDescription(name, description *string) error {
	return p.children(func(el []byte) error {
		var err error
		switch string(el) {
		case "Name":
			*name, err = p.str()
		case "Description":
			*description, err = p.prose()
		default:
			err = p.skip()
		}
		return err
	})
}

func (p *parser) encoding() (Encoding, error) {
	e := Encoding{Line: p.s.tokenLine()}
	var err error
	if e.Order, err = p.attrInt("Order"); err != nil {
		return e, err
	}
	err = p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "EncodingName":
			e.Name, err = p.str()
		case "BitCount":
			e.BitCount, err = p.integer()
		case "EncodingIdentifierMask":
			e.IdentifierMask, err = p.number()
		case "EncodingIdentifiers":
			err = appendEach(p, "EncodingIdentifier", &e.Identifiers, p.number)
		case "EncodingConditions":
			err = appendEach(p, "EncodingCondition", &e.Conditions, p.encodingCondition)
		case "Description":
			e.Description, err = p.prose()
		case "MicrocodeFormat":
			e.Fields, err = p.microcodeFormat()
		default:
			err = p.skip()
		}
		return err
	})
	return e, err
}

func (p *parser) encodingCondition() (EncodingCondition, error) {
	var c EncodingCondition
	err := p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "ConditionName":
			c.Name, err = p.str()
		case "CondtionExpression", "ConditionExpression": // upstream spells it without the i
			err = p.children(func([]byte) error {
				x, err := p.expr()
				if c.Expression == nil {
					c.Expression = x
				}
				return err
			})
		default:
			err = p.skip()
		}
		return err
	})
	return c, err
}

// expr reads the current element as an expression tree node.
func (p *parser) expr() (*Expr, error) {
	x := &Expr{Name: p.intern(p.s.name)}
	if len(p.s.attrs) > 0 {
		x.Attrs = make([]Attr, len(p.s.attrs))
		for i, a := range p.s.attrs {
			x.Attrs[i] = Attr{Name: p.intern(a.name), Value: p.intern(a.value)}
		}
	}
	var text []byte
	for {
		kind, err := p.s.next()
		if err != nil {
			return x, err
		}
		switch kind {
		case tokText:
			if len(text) > 0 || !isBlank(p.s.text) { // skip indentation
				text = append(text, p.s.text...)
			}
		case tokStart:
			c, err := p.expr()
			x.Children = append(x.Children, c)
			if err != nil {
				return x, err
			}
		case tokEnd:
			x.Text = p.intern(bytes.TrimSpace(text))
			return x, nil
		case tokEOF:
			return x, p.errorf("unexpected end of file")
		}
	}
}

// microcodeFormat reads <MicrocodeFormat><BitMap><Field>...
func (p *parser) microcodeFormat() ([]Field, error) {
	var fields []Field
	err := p.list("BitMap", func() error {
		return appendEach(p, "Field", &fields, p.field)
	})
	return fields, err
}

func (p *parser) field() (Field, error) {
	var f Field
	var err error
	if f.IsConditional, err = p.attrBool("IsConditional"); err != nil {
		return f, err
	}
	if v, ok := p.s.attr("Signedness"); ok {
		f.Signedness = p.intern(bytes.TrimSpace(v))
	}
	err = p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "FieldName":
			f.Name, err = p.str()
		case "Description":
			f.Description, err = p.prose()
		case "BitLayout":
			err = appendEach(p, "Range", &f.Ranges, p.bitRange)
		case "FieldPredefinedValues":
			f.PredefinedValues, err = p.predefinedValues()
		default:
			err = p.skip()
		}
		return err
	})
	placeRanges(f.Ranges)
	return f, err
}

// placeRanges sorts a field's ranges by Order and sets their ValueShift.
func placeRanges(rs []Range) {
	if len(rs) > 1 {
		slices.SortStableFunc(rs, func(a, b Range) int { return a.Order - b.Order })
	}
	shift := 0
	for i := range rs {
		rs[i].ValueShift = shift
		shift += rs[i].BitCount
	}
}

func (p *parser) bitRange() (Range, error) {
	var r Range
	var err error
	if r.Order, err = p.attrInt("Order"); err != nil {
		return r, err
	}
	err = p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "BitCount":
			r.BitCount, err = p.integer()
		case "BitOffset":
			r.BitOffset, err = p.integer()
		case "Padding":
			r.Padding = &Padding{}
			err = p.children(func(name []byte) error {
				var err error
				switch string(name) {
				case "BitCount":
					r.Padding.BitCount, err = p.integer()
				case "Value":
					r.Padding.Value, err = p.number()
					if err == nil && r.Padding.Value.Radix == 0 {
						// AMD's reader takes padding values as binary.
						r.Padding.Value.Radix = 2
						err = r.Padding.Value.parse()
						if err != nil {
							err = p.errorf("padding value: %v", err)
						}
					}
				default:
					err = p.skip()
				}
				return err
			})
		default:
			err = p.skip()
		}
		return err
	})
	return r, err
}

func (p *parser) predefinedValues() ([]PredefinedValue, error) {
	var out []PredefinedValue
	err := p.list("PredefinedValue", func() error {
		var v PredefinedValue
		err := p.children(func(name []byte) error {
			var err error
			switch string(name) {
			case "Name":
				v.Name, err = p.str()
			case "Description":
				v.Description, err = p.prose()
			case "Value":
				var b []byte
				if b, err = p.leafText(); err == nil && len(b) > 0 {
					if v.Value, err = strconv.ParseInt(string(b), 10, 64); err != nil {
						err = p.errorf("predefined value %q is not an integer", b)
					}
				}
			default:
				err = p.skip()
			}
			return err
		})
		out = append(out, v)
		return err
	})
	return out, err
}

func (p *parser) instruction() (Instruction, error) {
	in := Instruction{Line: p.s.tokenLine()}
	err := p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "InstructionName":
			in.Name, err = p.str()
		case "AliasedInstructionNames":
			in.Aliases, err = p.strings("InstructionName")
		case "Description":
			in.Description, err = p.prose()
		case "InstructionFlags":
			err = p.flags(&in.Flags)
		case "InstructionEncodings":
			err = appendEach(p, "InstructionEncoding", &in.Encodings, p.instructionEncoding)
		case "FunctionalGroup":
			err = p.children(func(name []byte) error {
				var err error
				switch string(name) {
				case "Name":
					in.FunctionalGroup, err = p.str()
				case "FunctionalSubgroups":
					in.FunctionalSubgroups, err = p.strings("Subgroup")
				default:
					err = p.skip()
				}
				return err
			})
		default:
			err = p.skip()
		}
		return err
	})
	return in, err
}

func (p *parser) flags(f *Flags) error {
	return p.children(func(name []byte) error {
		var dst *bool
		switch string(name) {
		case "IsBranch":
			dst = &f.IsBranch
		case "IsConditionalBranch":
			dst = &f.IsConditionalBranch
		case "IsIndirectBranch":
			dst = &f.IsIndirectBranch
		case "IsProgramTerminator":
			dst = &f.IsProgramTerminator
		case "IsImmediatelyExecuted":
			dst = &f.IsImmediatelyExecuted
		default:
			return p.skip()
		}
		var err error
		*dst, err = p.boolean()
		return err
	})
}

func (p *parser) instructionEncoding() (InstructionEncoding, error) {
	var ie InstructionEncoding
	err := p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "EncodingName":
			ie.EncodingName, err = p.str()
		case "EncodingCondition":
			ie.Condition, err = p.str()
		case "Opcode":
			ie.Opcode, err = p.number()
		case "Operands":
			err = appendEach(p, "Operand", &ie.Operands, p.operand)
		default:
			err = p.skip()
		}
		return err
	})
	return ie, err
}

func (p *parser) operand() (Operand, error) {
	var o Operand
	var err error
	if o.Order, err = p.attrInt("Order"); err != nil {
		return o, err
	}
	for _, a := range []struct {
		name string
		dst  *bool
	}{{"Input", &o.Input}, {"Output", &o.Output}, {"IsImplicit", &o.IsImplicit}, {"IsBinaryMicrocodeRequired", &o.IsBinaryMicrocodeRequired}} {
		if *a.dst, err = p.attrBool(a.name); err != nil {
			return o, err
		}
	}
	err = p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "FieldName":
			o.FieldName, err = p.str()
		case "DataFormatName":
			o.DataFormat, err = p.str()
		case "OperandType":
			o.OperandType, err = p.str()
		case "OperandSize":
			o.Size, err = p.integer()
		default:
			err = p.skip()
		}
		return err
	})
	return o, err
}

func (p *parser) dataFormat() (DataFormat, error) {
	d := DataFormat{Line: p.s.tokenLine()}
	err := p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "DataFormatName":
			d.Name, err = p.str()
		case "Description":
			d.Description, err = p.prose()
		case "DataType":
			d.DataType, err = p.str()
		case "BitCount":
			d.BitCount, err = p.integer()
		case "ComponentCount":
			d.ComponentCount, err = p.integer()
		case "DataAttributes":
			err = p.list("BitMap", func() error {
				var a DataAttributes
				var err error
				if a.Order, err = p.attrInt("Order"); err != nil {
					return err
				}
				err = appendEach(p, "Field", &a.Fields, p.field)
				d.Attributes = append(d.Attributes, a)
				return err
			})
		default:
			err = p.skip()
		}
		return err
	})
	return d, err
}

func (p *parser) operandType() (OperandType, error) {
	t := OperandType{Line: p.s.tokenLine()}
	var err error
	if t.IsPartitioned, err = p.attrBool("IsPartitioned"); err != nil {
		return t, err
	}
	err = p.children(func(name []byte) error {
		var err error
		switch string(name) {
		case "OperandTypeName":
			t.Name, err = p.str()
		case "Description":
			t.Description, err = p.prose()
		case "OperandPredefinedValues":
			t.PredefinedValues, err = p.predefinedValues()
		case "MicrocodeFormat":
			t.Fields, err = p.microcodeFormat()
		default:
			err = p.skip()
		}
		return err
	})
	return t, err
}

// Family maps an ArchitectureName such as "AMD CDNA 4" or "AMD RDNA 3.5" to
// the project's architecture id ("cdna4", "rdna3.5"). It reports false for
// names it does not know.
func Family(architectureName string) (string, bool) {
	s := strings.ToLower(architectureName)
	s = strings.TrimPrefix(strings.TrimSpace(s), "amd")
	s = strings.NewReplacer(" ", "", "-", "", "_", ".", "instinct", "", "radeon", "").Replace(s)
	switch s {
	case "cdna", "cdna1", "cdna2", "cdna3", "cdna4", "cdna5",
		"rdna", "rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4":
		if s == "cdna" || s == "rdna" {
			s += "1"
		}
		return s, true
	case "vega", "gcn5", "gcn5.0":
		return "vega", true
	case "vega7", "vega7nm", "gcn5.1":
		return "vega7", true
	}
	return "", false
}

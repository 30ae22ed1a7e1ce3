package amdxml

// The types below mirror the elements of AMD's machine-readable ISA XML
// (schema 1.1.1, documented in GPUOpen-Tools/isa_spec_manager,
// documentation/spec_documentation.md). The xml tags name the upstream
// elements and attributes with their upstream spellings, including
// "CondtionExpression". The package's own reader (parse.go) fills these
// types without reflection; the tags are the written-down mapping, and the
// tests decode the same documents through encoding/xml with them to check
// that both agree. Fields tagged "-" are not in the XML: they are provenance
// or values derived from the upstream text.

// Spec is one XML file: <Spec>.
type Spec struct {
	// File names where the document was read from (a path, or
	// "archive.zip/member.xml" for a zip member).
	File             string            `xml:"-"`
	Document         Document          `xml:"Document"`
	ArchitectureName string            `xml:"ISA>Architecture>ArchitectureName"`
	ArchitectureID   int               `xml:"ISA>Architecture>ArchitectureId"`
	Encodings        []Encoding        `xml:"ISA>Encodings>Encoding"`
	Instructions     []Instruction     `xml:"ISA>Instructions>Instruction"`
	DataFormats      []DataFormat      `xml:"ISA>DataFormats>DataFormat"`
	OperandTypes     []OperandType     `xml:"ISA>OperandTypes>OperandType"`
	FunctionalGroups []FunctionalGroup `xml:"ISA>FunctionalGroups>FunctionalGroup"`
	// FunctionalSubgroups is the ISA-wide list of subgroup names.
	FunctionalSubgroups []FunctionalSubgroup `xml:"ISA>FunctionalSubgroups>FunctionalSubgroup"`
}

// Document is <Spec><Document>: facts about the file itself.
type Document struct {
	Copyright     string `xml:"Copyright"`
	Sensitivity   string `xml:"Sensitivity"`
	License       string `xml:"License"`
	ReleaseDate   string `xml:"ReleaseDate"`
	SchemaVersion string `xml:"SchemaVersion"`
}

// Number is an element whose text is an integer written in the radix its
// Radix attribute names (EncodingIdentifier, EncodingIdentifierMask, Opcode).
type Number struct {
	Radix int    `xml:"Radix,attr"`
	Raw   string `xml:",chardata"` // the digits as written, spaces trimmed
	// Value is Raw's value. When Raw needs more than 64 bits, Wide is set and
	// Value holds the low 64 bits.
	Value uint64 `xml:"-"`
	Wide  bool   `xml:"-"`
}

// Encoding is <Encoding>: one instruction format such as ENC_VOP2.
type Encoding struct {
	Line int `xml:"-"` // line of the <Encoding> start tag
	// Order is the decoding priority: try encodings in ascending Order and
	// stop at the first identifier match. It can be negative.
	Order          int                 `xml:"Order,attr"`
	Name           string              `xml:"EncodingName"`
	BitCount       int                 `xml:"BitCount"`
	IdentifierMask Number              `xml:"EncodingIdentifierMask"`
	Identifiers    []Number            `xml:"EncodingIdentifiers>EncodingIdentifier"`
	Conditions     []EncodingCondition `xml:"EncodingConditions>EncodingCondition"`
	Description    string              `xml:"Description"`
	Fields         []Field             `xml:"MicrocodeFormat>BitMap>Field"`
}

// EncodingCondition is <EncodingCondition>: a named condition under which an
// instruction uses an extended form of the encoding (literal, DPP, SDWA...).
type EncodingCondition struct {
	Name string `xml:"ConditionName"`
	// Expression is the single child of <CondtionExpression> (sic), an
	// expression tree of <op>, <id>, <lit> and <ty> elements; nil when empty.
	Expression *Expr `xml:"-"`
}

// Expr is one element of an expression tree, kept generically: its element
// name (op, id, lit, ty, t, ...), its attributes in document order, its
// text (schema 1.1.1 puts none there; older schemas kept values in text)
// and its child elements.
type Expr struct {
	Name     string
	Attrs    []Attr
	Text     string
	Children []*Expr
}

// Attr is one attribute of an Expr element.
type Attr struct {
	Name, Value string
}

// Field is <Field>: a named bit field of an encoding's microcode format, of
// a partitioned operand type, or of a data format's attributes.
type Field struct {
	Name          string `xml:"FieldName"`
	Description   string `xml:"Description"`
	IsConditional bool   `xml:"IsConditional,attr"`
	// Signedness is set on data format fields only.
	Signedness string `xml:"Signedness,attr"`
	// Ranges are the field's pieces sorted by their Order attribute. Most
	// fields have one; a field split across the word has several.
	Ranges []Range `xml:"BitLayout>Range"`
	// PredefinedValues are named values of this field (FieldPredefinedValues).
	PredefinedValues []PredefinedValue `xml:"FieldPredefinedValues>PredefinedValue"`
}

// Range is <Range>: bits [BitOffset, BitOffset+BitCount) of the instruction
// or value that hold part of a field.
type Range struct {
	Order     int `xml:"Order,attr"`
	BitCount  int `xml:"BitCount"`
	BitOffset int `xml:"BitOffset"`
	// Padding, when present, says the range's bits are shifted left by
	// Padding.BitCount in the field value and the freed low bits hold
	// Padding.Value.
	Padding *Padding `xml:"Padding"`
	// ValueShift is where the range lands in the field value: the sum of the
	// BitCounts of the ranges before it in Order. This follows AMD's own
	// decoder (isa_spec_manager), which also adds Padding below the range's
	// bits without counting it in later ranges' shifts.
	ValueShift int `xml:"-"`
}

// Padding is <Padding> inside a Range. Value is written in binary upstream.
type Padding struct {
	BitCount int    `xml:"BitCount"`
	Value    Number `xml:"Value"`
}

// Instruction is <Instruction>.
type Instruction struct {
	Line int `xml:"-"` // line of the <Instruction> start tag
	// Name is the mnemonic as AMD writes it (upper case, e.g. V_MAX_F32).
	Name string `xml:"InstructionName"`
	// Aliases are other names of the instruction (AliasedInstructionNames).
	Aliases     []string              `xml:"AliasedInstructionNames>InstructionName"`
	Description string                `xml:"Description"`
	Flags       Flags                 `xml:"InstructionFlags"`
	Encodings   []InstructionEncoding `xml:"InstructionEncodings>InstructionEncoding"`
	// FunctionalGroup is the instruction's <FunctionalGroup><Name>, e.g. VALU.
	FunctionalGroup string `xml:"FunctionalGroup>Name"`
	// FunctionalSubgroups are its <FunctionalSubgroups><Subgroup> names.
	FunctionalSubgroups []string `xml:"FunctionalGroup>FunctionalSubgroups>Subgroup"`
}

// Flags is <InstructionFlags>.
type Flags struct {
	IsBranch              bool `xml:"IsBranch"`
	IsConditionalBranch   bool `xml:"IsConditionalBranch"`
	IsIndirectBranch      bool `xml:"IsIndirectBranch"`
	IsProgramTerminator   bool `xml:"IsProgramTerminator"`
	IsImmediatelyExecuted bool `xml:"IsImmediatelyExecuted"`
}

// InstructionEncoding is <InstructionEncoding>: how an instruction is
// written in one encoding.
type InstructionEncoding struct {
	EncodingName string `xml:"EncodingName"`
	// Condition names the encoding condition that selects this form
	// ("default", "has_lit", ...).
	Condition string    `xml:"EncodingCondition"`
	Opcode    Number    `xml:"Opcode"`
	Operands  []Operand `xml:"Operands>Operand"`
}

// Operand is <Operand>.
type Operand struct {
	Order int `xml:"Order,attr"`
	// Input and Output say whether the operand is read and written.
	Input  bool `xml:"Input,attr"`
	Output bool `xml:"Output,attr"`
	// IsImplicit operands are not in the encoding and not written in
	// assembly.
	IsImplicit bool `xml:"IsImplicit,attr"`
	// IsBinaryMicrocodeRequired is false for operands that appear in
	// assembly but not in the binary encoding.
	IsBinaryMicrocodeRequired bool   `xml:"IsBinaryMicrocodeRequired,attr"`
	FieldName                 string `xml:"FieldName"`
	DataFormat                string `xml:"DataFormatName"`
	OperandType               string `xml:"OperandType"`
	Size                      int    `xml:"OperandSize"` // bits
}

// DataFormat is <DataFormat>, such as FMT_NUM_F32.
type DataFormat struct {
	Line           int              `xml:"-"`
	Name           string           `xml:"DataFormatName"`
	Description    string           `xml:"Description"`
	DataType       string           `xml:"DataType"`
	BitCount       int              `xml:"BitCount"`
	ComponentCount int              `xml:"ComponentCount"`
	Attributes     []DataAttributes `xml:"DataAttributes>BitMap"`
}

// DataAttributes is one <BitMap> of a data format's <DataAttributes>: the
// layout of one component.
type DataAttributes struct {
	Order  int     `xml:"Order,attr"`
	Fields []Field `xml:"Field"`
}

// OperandType is <OperandType>, such as OPR_VGPR.
type OperandType struct {
	Line          int    `xml:"-"`
	Name          string `xml:"OperandTypeName"`
	Description   string `xml:"Description"`
	IsPartitioned bool   `xml:"IsPartitioned,attr"`
	// PredefinedValues map encoded values to assembly names (vcc, m0, ...).
	PredefinedValues []PredefinedValue `xml:"OperandPredefinedValues>PredefinedValue"`
	// Fields is the sub-field layout of a partitioned operand type.
	Fields []Field `xml:"MicrocodeFormat>BitMap>Field"`
}

// PredefinedValue is <PredefinedValue>: an encoded Value and its assembly
// Name.
type PredefinedValue struct {
	Name        string `xml:"Name"`
	Description string `xml:"Description"`
	Value       int64  `xml:"Value"`
}

// FunctionalGroup is an ISA-level <FunctionalGroup> (SALU, VALU, ...).
type FunctionalGroup struct {
	Name        string `xml:"Name"`
	Description string `xml:"Description"`
}

// FunctionalSubgroup is an ISA-level <FunctionalSubgroup>.
type FunctionalSubgroup struct {
	Name        string `xml:"Name"`
	Description string `xml:"Description"`
}

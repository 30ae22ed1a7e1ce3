package amdxml

import (
	"archive/zip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRichFixture(t *testing.T) {
	path := writeFixture(t, "rich.xml")
	s, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.File != path {
		t.Errorf("File = %q, want %q", s.File, path)
	}
	if id, ok := Family(s.ArchitectureName); id != "rdna3.5" || !ok || s.ArchitectureID != 7 {
		t.Errorf("architecture %q %d -> %q", s.ArchitectureName, s.ArchitectureID, id)
	}
	e := s.Encodings[0]
	if e.Order != -2 || e.BitCount != 64 || e.Line != 17 || e.IdentifierMask.Value != 0xfc00000000000000 {
		t.Errorf("encoding = order %d bits %d line %d mask %#x", e.Order, e.BitCount, e.Line, e.IdentifierMask.Value)
	}
	// A hexadecimal identifier, and a binary one too wide for 64 bits.
	wantIDs := []Number{
		{Radix: 16, Raw: "A400000000000000", Value: 0xa400000000000000},
		{Radix: 2, Raw: "1010110000000000000000000000000000000000000000000000000000000000" + "0001", Value: 0xc000000000000001, Wide: true},
	}
	if !reflect.DeepEqual(e.Identifiers, wantIDs) {
		t.Errorf("identifiers = %+v", e.Identifiers)
	}
	wantConds := map[string]string{
		"default":   "(INST.WIDE == 0) && .bitneg(FLAG)",
		"has_extra": "!EXTRA",
	}
	for _, c := range e.Conditions {
		if c.Expression.String() != wantConds[c.Name] {
			t.Errorf("condition %s = %s, want %s", c.Name, c.Expression, wantConds[c.Name])
		}
		delete(wantConds, c.Name)
	}
	if len(wantConds) != 0 {
		t.Errorf("conditions missing: %v", wantConds)
	}

	imm, ok := e.Field("IMM")
	if !ok || !imm.IsConditional {
		t.Fatalf("IMM = %+v", imm)
	}
	// Ranges come back sorted by Order, each shifted past the ones before.
	wantRanges := []Range{{Order: 0, BitCount: 4, BitOffset: 0}, {Order: 1, BitCount: 3, BitOffset: 20, ValueShift: 4}, {Order: 2, BitCount: 2, BitOffset: 40, ValueShift: 7}}
	if !reflect.DeepEqual(imm.Ranges, wantRanges) {
		t.Errorf("IMM ranges = %+v", imm.Ranges)
	}
	if want := []PredefinedValue{{Name: "IMM_MAX", Description: "All ones.", Value: 511}}; !reflect.DeepEqual(imm.PredefinedValues, want) {
		t.Errorf("IMM predefined = %+v", imm.PredefinedValues)
	}
	// 0b10_101_1001: low 4 bits at 0, next 3 at 20, top 2 at 40.
	word := imm.Insert(0, 0x159)
	if word != 0x9|0x5<<20|0x2<<40 || imm.Extract(word) != 0x159 {
		t.Errorf("IMM.Insert(0x159) = %#x, Extract = %#x", word, imm.Extract(word))
	}
	off, _ := e.Field("OFFSET")
	if p := off.Ranges[0].Padding; p == nil || p.BitCount != 2 || p.Value.Value != 1 || p.Value.Radix != 2 {
		t.Errorf("OFFSET padding = %+v", p)
	}
	// The padding supplies the two low bits of the value.
	if got := off.Extract(0xab << 8); got != 0xab<<2|1 {
		t.Errorf("OFFSET.Extract = %#x", got)
	}
	if got := off.Insert(0, 0xab<<2|1); got != 0xab<<8 {
		t.Errorf("OFFSET.Insert = %#x", got)
	}

	in := s.Instructions[0]
	wantFlags := Flags{IsBranch: true, IsConditionalBranch: true, IsImmediatelyExecuted: true}
	if in.Flags != wantFlags || in.Line != 122 || !reflect.DeepEqual(in.Aliases, []string{"T_JMP_IF", "T_BRANCH_IF"}) ||
		in.FunctionalGroup != "BRANCH" || !reflect.DeepEqual(in.FunctionalSubgroups, []string{"JUMP", "CONDITIONAL"}) {
		t.Errorf("instruction = %+v", in)
	}
	ie := in.Encodings[0]
	if ie.Opcode != (Number{Radix: 16, Raw: "1F", Value: 31}) || ie.Condition != "has_extra" {
		t.Errorf("instruction encoding = %+v", ie)
	}
	// Operands stay in document order; Order says AMD's order.
	wantOps := []Operand{
		{Order: 2, Input: true, IsImplicit: true, FieldName: "OFFSET", DataFormat: "FMT_TOY_B8", OperandType: "OPR_TOY_COUNT", Size: 8},
		{Order: 1, Output: true, IsBinaryMicrocodeRequired: true, FieldName: "IMM", DataFormat: "FMT_TOY_B8", OperandType: "OPR_TOY_COUNT", Size: 9},
	}
	if !reflect.DeepEqual(ie.Operands, wantOps) {
		t.Errorf("operands = %+v", ie.Operands)
	}

	df := s.DataFormats[0]
	if df.Name != "FMT_TOY_B8" || df.DataType != "bits" || df.BitCount != 8 || df.ComponentCount != 1 || df.Line != 167 ||
		len(df.Attributes) != 1 || len(df.Attributes[0].Fields) != 2 ||
		df.Attributes[0].Fields[0].Signedness != "Unsigned" || df.Attributes[0].Fields[1].Signedness != "Signed" ||
		df.Attributes[0].Fields[1].Ranges[0].BitOffset != 4 {
		t.Errorf("data format = %+v", df)
	}
	reg, count := s.OperandTypes[0], s.OperandTypes[1]
	wantPre := []PredefinedValue{{Name: "toy_zero", Description: "Reads as zero.", Value: 124}, {Name: "toy_minus", Value: -3}}
	if reg.IsPartitioned || !reflect.DeepEqual(reg.PredefinedValues, wantPre) || reg.Fields != nil {
		t.Errorf("OPR_TOY_REG = %+v", reg)
	}
	if !count.IsPartitioned || len(count.Fields) != 1 || len(count.Fields[0].Ranges) != 2 || count.Fields[0].Ranges[1].ValueShift != 3 {
		t.Errorf("OPR_TOY_COUNT = %+v", count)
	}
}

func TestMarkupFixture(t *testing.T) {
	s, err := ParseFile("testdata/markup.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := "First & invented paragraph <here>.\nSecond one, with a \u2264 sign\nand a raw <cdata> part."
	if got := s.Instructions[0].Description; got != want {
		t.Errorf("description = %q\nwant          %q", got, want)
	}
	if s.Instructions[0].Name != "T_MARKED_UP" || s.Document != (Document{}) {
		t.Errorf("spec = %+v", s)
	}
}

func TestTruncated(t *testing.T) {
	// The error is on the truncated input's last line, which is 77.
	if n := strings.Count(truncatedXML(), "\n") + 1; n != 77 {
		t.Fatalf("truncated fixture ends on line %d, want 77", n)
	}
	path := writeFixture(t, "truncated.xml")
	_, err := ParseFile(path)
	var pe *Error
	if !errors.As(err, &pe) || pe.File != path || pe.Line != 77 {
		t.Fatalf("err = %v, want an *Error at %s:77", err, path)
	}
	if !strings.Contains(err.Error(), path+":77:") || !strings.Contains(err.Error(), "end of file") {
		t.Errorf("err = %v", err)
	}
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"mismatched end", "<Spec>\n<ISA></Spec>", "2:6: end tag </Spec> does not match <ISA>"},
		{"wrong root", "<Other/>", "1:1: root element is <Other>"},
		{"empty", "  ", "no root element"},
		{"two roots", "<Spec/><Spec/>", "second root element"},
		{"text after root", "<Spec/>x", "text after the root element"},
		{"bad entity", "<Spec>&bogus;</Spec>", "1:7: unknown character reference"},
		{"bare ampersand", "<Spec a=\"x & y\"/>", "'&' does not start a character reference"},
		{"unquoted", "<Spec a=1/>", "not quoted"},
		{"doctype", "<!DOCTYPE Spec><Spec/>", "document type declarations are refused"},
		{"bad number", "<Spec><ISA><Encodings><Encoding><BitCount>3x</BitCount></Encoding></Encodings></ISA></Spec>", "1:45: \"3x\" is not an integer"},
		{"bad binary", "<Spec><ISA><Encodings><Encoding>\n <EncodingIdentifierMask Radix=\"2\">102</EncodingIdentifierMask></Encoding></Encodings></ISA></Spec>", "2:39: \"102\" is not a binary number"},
		{"bad bool", "<Spec><ISA><Instructions><Instruction><InstructionFlags><IsBranch>maybe</IsBranch></InstructionFlags></Instruction></Instructions></ISA></Spec>", "is not a boolean"},
		{"element in leaf", "<Spec><ISA><Architecture><ArchitectureName>A<b/></ArchitectureName></Architecture></ISA></Spec>", "unexpected element <b> in <ArchitectureName>"},
		{"bad utf8", "<Spec>\xff</Spec>", "invalid UTF-8"},
		{"cut in tag", "<Spec><ISA", "1:11: unexpected end of file in markup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.doc), "doc.xml")
			var pe *Error
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "doc.xml:") {
				t.Errorf("err = %v, want an *Error containing %q", err, tc.want)
			}
		})
	}
}

// A document read one byte per Read call through a 16-byte window parses
// the same as with the usual window: tokens cross the window's edge
// everywhere.
func TestTinyReads(t *testing.T) {
	data := fixture(t, "rich.xml")
	whole, err := Parse(strings.NewReader(string(data)), "rich.xml")
	if err != nil {
		t.Fatal(err)
	}
	bytewise, err := parse(&oneByteReader{data: data}, "rich.xml", 16)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, bytewise) {
		t.Error("byte-at-a-time parse differs")
	}
}

type oneByteReader struct{ data []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	p[0] = r.data[0]
	r.data = r.data[1:]
	return 1, nil
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "isa.zip")
	f, err := os.Create(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, name := range []string{"rich.xml", "small.xml"} {
		data := fixture(t, name)
		w, err := zw.Create("isa/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	w, _ := zw.Create("isa/README.txt")
	w.Write([]byte("not xml"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	specs, err := Load(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range specs {
		got = append(got, s.File+"="+s.ArchitectureName)
	}
	want := []string{zipPath + "/isa/rich.xml=AMD RDNA 3.5", zipPath + "/isa/small.xml=AMD CDNA 3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("zip: %v", got)
	}
	if specs[1].Instructions[0].Encodings[0].Operands != nil {
		t.Errorf("empty <Operands/> gave %v", specs[1].Instructions[0].Encodings[0].Operands)
	}

	// A directory: its .xml files, a bad one failing the load with its name.
	xmlDir := t.TempDir()
	for _, name := range []string{"small.xml", "rich.xml"} {
		os.WriteFile(filepath.Join(xmlDir, name), fixture(t, name), 0o644)
	}
	specs, err = Load(xmlDir)
	if err != nil || len(specs) != 2 || specs[0].ArchitectureName != "AMD RDNA 3.5" {
		t.Fatalf("dir: %v %v", specs, err)
	}
	os.WriteFile(filepath.Join(xmlDir, "z.xml"), fixture(t, "truncated.xml"), 0o644)
	if _, err := Load(xmlDir); err == nil || !strings.Contains(err.Error(), "z.xml:77:") {
		t.Errorf("dir with a truncated file: %v", err)
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("empty directory loaded")
	}
	// A single file.
	specs, err = Load("testdata/small.xml")
	if err != nil || len(specs) != 1 || specs[0].File != "testdata/small.xml" {
		t.Errorf("file: %v %v", specs, err)
	}
}

func TestFamily(t *testing.T) {
	for name, want := range map[string]string{
		"AMD CDNA 1": "cdna1", "AMD CDNA 2": "cdna2", "AMD CDNA 3": "cdna3", "AMD CDNA 4": "cdna4", "AMD CDNA 5": "cdna5",
		"AMD RDNA 1": "rdna1", "AMD RDNA 2": "rdna2", "AMD RDNA 3": "rdna3", "AMD RDNA 3.5": "rdna3.5", "AMD RDNA 4": "rdna4",
		"RDNA3_5": "rdna3.5", "amd cdna": "cdna1", "AMD Vega": "vega", "Vega 7nm": "vega7", "GCN 5": "vega",
	} {
		if got, ok := Family(name); got != want || !ok {
			t.Errorf("Family(%q) = %q, %v, want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "AMD", "RDNA 9", "PTX", "cdna44"} {
		if got, ok := Family(name); ok {
			t.Errorf("Family(%q) = %q, want unknown", name, got)
		}
	}
}

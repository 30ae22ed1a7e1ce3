package amdxml

import (
	"bytes"
	"encoding/xml"
	"os"
	"reflect"
	"strings"
	"testing"
)

// referenceParse decodes a document with encoding/xml through the struct
// tags in schema.go, then applies the same trimming and derived values as
// the package's own reader. It is slow and reads the whole document; it is
// here as an independent check of the hand-written reader. It does not fill
// Line or Expression, and Descriptions must not hold markup.
func referenceParse(t *testing.T, data []byte) *Spec {
	t.Helper()
	var s Spec
	if err := xml.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	trimStrings(reflect.ValueOf(&s).Elem())
	numbers := func(n *Number) {
		if err := n.parse(); err != nil {
			t.Fatalf("reference: %v", err)
		}
	}
	fields := func(fs []Field) {
		for i := range fs {
			for j := range fs[i].Ranges {
				if p := fs[i].Ranges[j].Padding; p != nil {
					if p.Value.Radix == 0 {
						p.Value.Radix = 2
					}
					numbers(&p.Value)
				}
			}
			placeRanges(fs[i].Ranges)
		}
	}
	for i := range s.Encodings {
		e := &s.Encodings[i]
		numbers(&e.IdentifierMask)
		for j := range e.Identifiers {
			numbers(&e.Identifiers[j])
		}
		fields(e.Fields)
	}
	for i := range s.Instructions {
		for j := range s.Instructions[i].Encodings {
			numbers(&s.Instructions[i].Encodings[j].Opcode)
		}
	}
	for i := range s.OperandTypes {
		fields(s.OperandTypes[i].Fields)
	}
	for i := range s.DataFormats {
		for j := range s.DataFormats[i].Attributes {
			fields(s.DataFormats[i].Attributes[j].Fields)
		}
	}
	return &s
}

func trimStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strings.TrimSpace(v.String()))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				trimStrings(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			trimStrings(v.Index(i))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			trimStrings(v.Elem())
		}
	}
}

// withoutProvenance clears what referenceParse does not fill.
func withoutProvenance(s *Spec) *Spec {
	c := *s
	c.File = ""
	c.Encodings = append([]Encoding(nil), s.Encodings...)
	for i := range c.Encodings {
		c.Encodings[i].Line = 0
		c.Encodings[i].Conditions = append([]EncodingCondition(nil), c.Encodings[i].Conditions...)
		for j := range c.Encodings[i].Conditions {
			c.Encodings[i].Conditions[j].Expression = nil
		}
	}
	c.Instructions = append([]Instruction(nil), s.Instructions...)
	for i := range c.Instructions {
		c.Instructions[i].Line = 0
	}
	c.DataFormats = append([]DataFormat(nil), s.DataFormats...)
	for i := range c.DataFormats {
		c.DataFormats[i].Line = 0
	}
	c.OperandTypes = append([]OperandType(nil), s.OperandTypes...)
	for i := range c.OperandTypes {
		c.OperandTypes[i].Line = 0
	}
	return &c
}

func TestAgreesWithEncodingXML(t *testing.T) {
	inputs := map[string][]byte{"synthetic": syntheticSpec(300 << 10)}
	for _, name := range []string{"rich.xml", "small.xml"} {
		inputs[name] = fixture(t, name)
	}
	// The excerpt joins in when present; the other inputs are checked
	// without it.
	if path, ok := excerptFile(); ok {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs["excerpt"] = data
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			got, err := Parse(bytes.NewReader(data), name)
			if err != nil {
				t.Fatal(err)
			}
			want := referenceParse(t, data)
			if g := withoutProvenance(got); !reflect.DeepEqual(g, want) {
				t.Errorf("the reader and encoding/xml disagree on %s", name)
				diffSpecs(t, g, want)
			}
		})
	}
}

func diffSpecs(t *testing.T, got, want *Spec) {
	gv, wv := reflect.ValueOf(*got), reflect.ValueOf(*want)
	for i := 0; i < gv.NumField(); i++ {
		if !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
			t.Errorf("field %s differs:\n got  %+v\n want %+v", gv.Type().Field(i).Name, gv.Field(i).Interface(), wv.Field(i).Interface())
		}
	}
}

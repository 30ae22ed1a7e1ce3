package amdxml

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the reader. It must never panic,
// every failure must be an *Error naming the file, and reading the input
// through a 16-byte window must give the same result as through the usual
// one, so that tokens crossing the window's edge are handled alike.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"rich.xml", "small.xml", "markup.xml", "truncated.xml"} {
		f.Add(fixture(f, name))
	}
	for _, s := range []string{
		"<Spec/>",
		"\xEF\xBB\xBF<Spec><ISA/></Spec>",
		"<Spec><!-- c --><?pi x?><ISA><Encodings><Encoding Order='1'><EncodingIdentifiers><EncodingIdentifier Radix=\"36\">zz</EncodingIdentifier></EncodingIdentifiers></Encoding></Encodings></ISA></Spec>",
		"<Spec a=\"&#60;&#x3e;&amp;\"><![CDATA[x]]></Spec>",
		"<Spec><ISA><OperandTypes><OperandType IsPartitioned=\"1\"><OperandPredefinedValues><PredefinedValue><Value>-9</Value></PredefinedValue></OperandPredefinedValues></OperandType></OperandTypes></ISA></Spec>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, err := Parse(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "fuzz.xml" || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("error without a position: %v", err)
			}
		}
		small, err2 := parse(bytes.NewReader(data), "fuzz.xml", 16)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("usual window: %v; small window: %v", err, err2)
		}
		if !reflect.DeepEqual(whole, small) {
			t.Fatal("small-window parse differs")
		}
	})
}

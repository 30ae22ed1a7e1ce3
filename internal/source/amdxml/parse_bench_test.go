package amdxml

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// BenchmarkParse measures throughput on an invented document of a real
// file's size (the official files are 7-12 MB).
func BenchmarkParse(b *testing.B) {
	data := syntheticSpec(10 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data), "synthetic.xml"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingXML is the baseline: the same document decoded by
// encoding/xml through schema.go's struct tags.
func BenchmarkEncodingXML(b *testing.B) {
	data := syntheticSpec(10 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var s Spec
		if err := xml.Unmarshal(data, &s); err != nil {
			b.Fatal(err)
		}
	}
}

package listing_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
)

// TestStreamListsAsBuild: raw code over several pieces streams to the
// same instruction lines as the whole-input listing, without the lines a
// piece boundary would cut (the fixture family, random words).
func TestStreamListsAsBuild(t *testing.T) {
	fam := fixtureCodec(t)
	r := rand.New(rand.NewPCG(1, 2))
	code := make([]byte, 700<<10)
	for i := range code {
		code[i] = byte(r.Uint32())
	}
	var streamed bytes.Buffer
	listed, _, err := listing.Stream(&streamed, bytes.NewReader(code), int64(len(code)), "cdna4", fam, listing.Options{NoCollapse: true})
	if err != nil {
		t.Fatal(err)
	}
	in, err := listing.Parse(code, codeobj.Machines{})
	if err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	if err := listing.WriteText(&whole, listing.Build(in, "cdna4", fam, listing.Options{NoCollapse: true}), listing.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	instrLines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "  ") { // "  000048: words  text"; labels and comments differ
				f := strings.Fields(l)
				out = append(out, strings.Join(f[:2], " ")) // address and first word
			}
		}
		return out
	}
	a, b := instrLines(streamed.String()), instrLines(whole.String())
	if len(a) != listed || len(a) != len(b) {
		t.Fatalf("streamed %d lines (%d listed), whole %d", len(a), listed, len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("line %d: streamed %q, whole %q", i, a[i], b[i])
		}
	}
}

// TestBareCode: hex words, byte lists, comments and blank lines become
// their bytes; a line that is anything else stops the conversion.
func TestBareCode(t *testing.T) {
	var out bytes.Buffer
	n, ok, err := listing.BareCode(&out, strings.NewReader("0x160a04c1 ; a word\n\n[0x80, 0x02, 0x02, 0x7e]\n// note\nc1 04 0a 16"))
	want := []byte{0xc1, 0x04, 0x0a, 0x16, 0x80, 0x02, 0x02, 0x7e, 0xc1, 0x04, 0x0a, 0x16}
	if err != nil || !ok || n != int64(len(want)) || !bytes.Equal(out.Bytes(), want) {
		t.Errorf("BareCode = %d, %v, %v, % x; want % x", n, ok, err, out.Bytes(), want)
	}
	for _, in := range []string{"0x160a04c1\ns_nop 0\n", "000048: 160a04c1\n", strings.Repeat("0", 70<<10) + "\n"} {
		if _, ok, err := listing.BareCode(io.Discard, strings.NewReader(in)); ok || err != nil {
			t.Errorf("BareCode(%.30q) = %v, %v; want not bare", in, ok, err)
		}
	}
}

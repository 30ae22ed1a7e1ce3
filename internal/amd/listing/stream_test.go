package listing_test

import (
	"bytes"
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

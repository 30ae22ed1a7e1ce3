package listing_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codecache"
	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/store"
)

// benchCodec opens $GPUISA_DB for the in-process benchmarks.
func benchCodec(b *testing.B, arch string) listing.Codec {
	path := os.Getenv("GPUISA_DB")
	if path == "" {
		b.Skip("set GPUISA_DB to a database built with `gpuisa build`")
	}
	db, err := store.OpenPrepared(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	c := codecache.New(db)
	d, err := c.Decoder(context.Background(), arch)
	if err != nil {
		b.Fatal(err)
	}
	e, _ := c.Encoder(context.Background(), arch)
	return listing.Codec{Dec: d, Enc: e}
}

// BenchmarkListingText: parsing a file of llvm-mc byte lists, decoding
// and writing the listing, in process ($GPUISA_LISTING_INPUT, a file).
func BenchmarkListingText(b *testing.B) {
	in := os.Getenv("GPUISA_LISTING_INPUT")
	if in == "" {
		b.Skip("set GPUISA_LISTING_INPUT to a file of machine code")
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		b.Fatal(err)
	}
	fam := benchCodec(b, "cdna3")
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := listing.Parse(raw, codeobj.Machines{})
		if err != nil {
			b.Fatal(err)
		}
		l := listing.Build(p, "cdna3", fam, listing.Options{})
		if err := listing.WriteText(io.Discard, l, listing.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	_ = strings.TrimSpace
}

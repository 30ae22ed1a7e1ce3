package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gpuisa/gpuisa/internal/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// TestRealDocumentsReadBackWhole: every AMD instruction of the real model,
// written with its family's formats and read back, is the document the
// build gave, byte for byte, though the database keeps each encoding's
// layout and the instruction's operands only once (with the format, and
// in the encodings). It also holds the writer to leaving out most layouts:
// an encoding in a known format whose layout is not its format's is rare.
func TestRealDocumentsReadBackWhole(t *testing.T) {
	if decodetest.SourcesDir() == "" {
		t.Skip("shared/upstream not found (set GPUISA_SOURCES): no real model to store")
	}
	model, err := decodetest.Model()
	if err != nil {
		t.Fatal(err)
	}
	b := &store.Build{Info: isa.BuildInfo{Version: "test"}}
	want := map[string][]byte{}
	var archs []string
	for arch := range model {
		archs = append(archs, arch)
	}
	sort.Strings(archs)
	for _, arch := range archs {
		f := model[arch]
		b.Archs = append(b.Archs, f.Arch)
		for i := range f.Instrs {
			in := f.Instrs[i] // a copy: the shared model is not changed
			isa.FillLists(&in)
			doc, err := json.Marshal(&in)
			if err != nil {
				t.Fatal(err)
			}
			want[arch+"/"+in.Name] = doc
			b.Instructions = append(b.Instructions, &in)
		}
	}
	path := filepath.Join(t.TempDir(), "real.db")
	ctx := context.Background()
	if err := store.Write(ctx, path, b); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, bad := 0, 0
	for _, arch := range archs {
		all, err := s.Instructions(ctx, arch)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range all {
			n++
			got, _ := json.Marshal(in)
			if !bytes.Equal(got, want[arch+"/"+in.Name]) {
				if bad++; bad <= 3 {
					t.Errorf("%s %s reads back as\n%.600s\nwant\n%.600s", arch, in.Name, got, want[arch+"/"+in.Name])
				}
			}
		}
	}
	left, encs, err := store.StoredLayouts(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	// Today all but a few hundred encodings (those whose guide draws them
	// unlike their format) are left to their format.
	if encs == 0 || float64(left) < 0.9*float64(encs) {
		t.Errorf("%d of %d encodings stored without their layout, want at least 90%%", left, encs)
	}
	t.Logf("%d of %d encodings stored without their layout", left, encs)
	if n != len(want) {
		t.Errorf("%d documents read back, %d written", n, len(want))
	}
	if bad > 0 {
		t.Errorf("%d of %d documents differ from what was written", bad, n)
	}
	t.Logf("%d documents over %d families read back whole", n, len(archs))
}

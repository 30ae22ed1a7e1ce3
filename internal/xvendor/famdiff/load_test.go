package famdiff

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// memReader is a database with one AMD family and PTX, with or without
// the facts the build stores.
type memReader struct {
	archs  map[string]isa.Architecture
	insts  map[string][]*isa.Instruction
	extras map[string][]byte
}

func (m memReader) Arch(_ context.Context, id string) (isa.Architecture, error) {
	if a, ok := m.archs[id]; ok {
		return a, nil
	}
	return isa.Architecture{}, errs.NotFound(nil, "unknown architecture %q", id)
}

func (m memReader) Instructions(_ context.Context, arch string) ([]*isa.Instruction, error) {
	return m.insts[arch], nil
}

func (m memReader) Extra(_ context.Context, key string) ([]byte, error) {
	if b, ok := m.extras[key]; ok {
		return b, nil
	}
	return nil, errs.NotFound(nil, "no extra %q", key)
}

// TestFactsStoredOrDerived: Facts reads the facts the build stored and,
// from a database written before the build stored them, derives the same
// facts from the instructions.
func TestFactsStoredOrDerived(t *testing.T) {
	ctx := context.Background()
	db := memReader{
		archs: map[string]isa.Architecture{
			"rdna4": {ID: "rdna4", Name: "RDNA 4", Vendor: isa.VendorAMD, Targets: []string{"gfx1200"}},
			"ptx":   {ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA},
		},
		insts: map[string][]*isa.Instruction{
			"rdna4": {{Arch: "rdna4", Name: "v_max_num_f32", Vendor: isa.VendorAMD}},
			"ptx":   {{Arch: "ptx", Name: "max", Vendor: isa.VendorNVIDIA, PTXVersion: "1.0"}},
		},
		extras: map[string][]byte{},
	}
	// read loads both kinds of facts from db and checks they are db's.
	read := func(what string) (*Family, *PTX) {
		t.Helper()
		f := NewFacts(db)
		fam, err := f.Family(ctx, "rdna4")
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.PTX(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(fam.Instructions) != 1 || fam.Instructions[0].Name != "v_max_num_f32" || len(p.Instructions) != 1 || p.Instructions[0].Name != "max" {
			t.Errorf("%s facts: family %+v, PTX %+v", what, fam.Instructions, p.Instructions)
		}
		return fam, p
	}
	fam, p := read("derived")
	for key, v := range map[string]any{ExtraKey("rdna4"): fam, ExtraKey("ptx"): p} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		db.extras[key] = b
	}
	db.insts = nil // stored facts are read, not derived
	read("stored")
	db.extras[ExtraKey("ptx")] = []byte("{")
	if _, err := NewFacts(db).PTX(ctx); err == nil {
		t.Error("a damaged stored PTX document was accepted")
	}
}

// Package codecache keeps one decoder, encoder and notes table per AMD
// family, built on first use from the tables the build prepared (package
// codec) — or, for a database without them, from its instruction documents
// — and shared by the web server, the command line and the language server.
package codecache

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/codec"
	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/encode"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Source gives the prepared tables: store.Reader and store.Prepared have
// this method.
type Source interface {
	Extra(ctx context.Context, key string) ([]byte, error)
}

// DocSource is what a source without prepared tables (an older database,
// a test fake) must give instead: the family and its instruction documents.
type DocSource interface {
	Arch(ctx context.Context, id string) (isa.Architecture, error)
	Instructions(ctx context.Context, arch string) ([]*isa.Instruction, error)
}

// Cache builds each family's decoder, encoder and notes once, on first
// use. It is safe for concurrent use; the source must stay open while the
// cache is used.
type Cache struct {
	src Source
	mu  sync.Mutex
	fam map[string]*slot

	machOnce sync.Once
	mach     codeobj.Machines
	machErr  error
}

type slot struct {
	codecOnce sync.Once
	dec       *decode.Decoder
	enc       *encode.Encoder
	codecErr  error

	notesOnce sync.Once
	notes     *codec.Notes
	notesErr  error
}

// New makes a cache over src.
func New(src Source) *Cache { return &Cache{src: src, fam: map[string]*slot{}} }

func (c *Cache) slot(arch string) *slot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.fam[arch]
	if s == nil {
		s = &slot{}
		c.fam[arch] = s
	}
	return s
}

// familyID resolves a family id or gfx target to an AMD family id.
func familyID(arch string) (string, error) {
	info, ok := isa.LookupArch(arch)
	if !ok {
		return "", errs.NotFound(isa.AMDArchIDs(), "unknown AMD family or target %q", arch)
	}
	if info.Vendor != isa.VendorAMD {
		return "", errs.Invalid("%s has no machine code to decode", info.ID)
	}
	return info.ID, nil
}

// Decoder returns the family's decoder (arch: a family id or gfx target).
// The build does not use ctx's deadline: a cancelled request must not leave
// the family without a decoder for good.
func (c *Cache) Decoder(ctx context.Context, arch string) (*decode.Decoder, error) {
	id, err := familyID(arch)
	if err != nil {
		return nil, err
	}
	s := c.slot(id)
	s.codecOnce.Do(func() { s.dec, s.enc, s.codecErr = c.buildCodec(id, s) })
	return s.dec, s.codecErr
}

// Encoder returns the family's encoder, which shares its decoder.
func (c *Cache) Encoder(ctx context.Context, arch string) (*encode.Encoder, error) {
	if _, err := c.Decoder(ctx, arch); err != nil {
		return nil, err
	}
	id, _ := familyID(arch)
	return c.slot(id).enc, nil
}

// Notes returns the family's annotation table.
func (c *Cache) Notes(ctx context.Context, arch string) (*codec.Notes, error) {
	id, err := familyID(arch)
	if err != nil {
		return nil, err
	}
	s := c.slot(id)
	s.notesOnce.Do(func() { s.notes, s.notesErr = c.buildNotes(id, s) })
	return s.notes, s.notesErr
}

// Machines returns what e_flags mean, as the build read it from LLVM's
// AMDGPUUsage document.
func (c *Cache) Machines(ctx context.Context) (codeobj.Machines, error) {
	c.machOnce.Do(func() {
		b, err := c.src.Extra(context.Background(), codec.KeyMachines)
		if err != nil {
			c.machErr = fmt.Errorf("this database has no e_flags table (LLVM's AMDGPUUsage was not found when it was built: install llvm-22-doc and rebuild)")
			return
		}
		c.machErr = json.Unmarshal(b, &c.mach)
	})
	return c.mach, c.machErr
}

func (c *Cache) buildCodec(id string, s *slot) (*decode.Decoder, *encode.Encoder, error) {
	ctx := context.Background()
	var a isa.Architecture
	var ins []isa.Instruction
	if b, err := c.src.Extra(ctx, codec.CodecKey(id)); err == nil {
		t, err := codec.LoadTable(b)
		if err != nil {
			return nil, nil, err
		}
		a, ins = t.Arch, t.Instrs
	} else {
		arch, docs, err := c.documents(id, s)
		if err != nil {
			return nil, nil, err
		}
		a = arch
		ins = make([]isa.Instruction, len(docs))
		for i, in := range docs {
			ins[i] = codec.Facts(in)
		}
	}
	if a.Kind != "" && a.Kind != isa.KindNative {
		return nil, nil, errs.Invalid("%s has no machine code to decode", id)
	}
	d, err := decode.New(a, ins)
	if err != nil {
		return nil, nil, err
	}
	return d, encode.FromDecoder(d), nil
}

func (c *Cache) buildNotes(id string, s *slot) (*codec.Notes, error) {
	if b, err := c.src.Extra(context.Background(), codec.NotesKey(id)); err == nil {
		return codec.LoadNotes(b)
	}
	a, docs, err := c.documents(id, s)
	if err != nil {
		return nil, err
	}
	return codec.NotesOf(a, docs), nil
}

// documents reads the family's instruction documents for a source without
// prepared tables. They are not kept: the tables built from them are.
func (c *Cache) documents(id string, _ *slot) (isa.Architecture, []*isa.Instruction, error) {
	ds, ok := c.src.(DocSource)
	if !ok {
		return isa.Architecture{}, nil, fmt.Errorf("the database has no prepared tables for %s; rebuild it", id)
	}
	ctx := context.Background()
	a, err := ds.Arch(ctx, id)
	if err != nil {
		return a, nil, err
	}
	docs, err := ds.Instructions(ctx, id)
	return a, docs, err
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Prepared is a database opened for the tables a build prepared beside the
// model (Build.Extras, read by Extra): opening it reads nothing, so a
// command that starts, answers one question and exits (gpuisa decode of one
// word) pays for one row. Arch and Instructions open the whole database on
// first use, for the callers that need documents after all.
type Prepared struct {
	path string
	db   *sql.DB

	fullOnce sync.Once
	full     *DB
	fullErr  error
}

// OpenPrepared opens the database at path read-only, checking only that it
// exists and has this gpuisa's schema.
func OpenPrepared(path string) (*Prepared, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errs.NotFound(nil, "database %s does not exist; run `gpuisa build` first", path)
		}
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if version != SchemaVersion {
		db.Close()
		return nil, fmt.Errorf("open %s: schema version %d, this gpuisa reads %d: rebuild the database", path, version, SchemaVersion)
	}
	return &Prepared{path: path, db: db}, nil
}

// Extra returns a named table the build stored (see DB.Extra).
func (p *Prepared) Extra(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := p.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", "extra:"+key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.NotFound(nil, "this database has no %s; rebuild it with its sources", key)
	}
	return v, err
}

// Full returns the database opened as a Reader, opening it on first use.
func (p *Prepared) Full() (*DB, error) {
	p.fullOnce.Do(func() { p.full, p.fullErr = Open(p.path) })
	return p.full, p.fullErr
}

// Arch returns one family (from the whole database, opened on first use).
func (p *Prepared) Arch(ctx context.Context, id string) (isa.Architecture, error) {
	db, err := p.Full()
	if err != nil {
		return isa.Architecture{}, err
	}
	return db.Arch(ctx, id)
}

// Instructions returns a family's documents (from the whole database).
func (p *Prepared) Instructions(ctx context.Context, arch string) ([]*isa.Instruction, error) {
	db, err := p.Full()
	if err != nil {
		return nil, err
	}
	return db.Instructions(ctx, arch)
}

// Close closes the database and, when it was opened, the whole one.
func (p *Prepared) Close() error {
	err := p.db.Close()
	if p.full != nil {
		if ferr := p.full.Close(); err == nil {
			err = ferr
		}
	}
	return err
}

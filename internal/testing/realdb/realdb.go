// Package realdb gives the web and browser tests a real reference
// database: the one an environment variable names, else one built from the
// upstream sources at most once per test binary, into a temporary directory
// that Remove deletes; Open opens one for a test.
package realdb

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// DB is one real database of a test binary.
type DB struct {
	Env string // names a built database to use instead of building one

	once      sync.Once
	path, dir string
	err       error
}

// Path returns the database $Env names, else the one built (on the first
// call) from the upstream sources with opts, whose Sources and Out it
// fills in; "" when there is neither.
func (d *DB) Path(opts ingest.Options) (string, error) {
	d.once.Do(func() {
		if p := os.Getenv(d.Env); p != "" {
			d.path = p
			return
		}
		src := testenv.FindUpstream()
		if src == "" {
			return
		}
		if d.dir, d.err = os.MkdirTemp("", "gpuisa-realdb"); d.err != nil {
			return
		}
		opts.Sources, opts.Out = src, filepath.Join(d.dir, "gpuisa.db")
		if _, d.err = ingest.Run(context.Background(), opts); d.err == nil {
			d.path = opts.Out
		}
	})
	return d.path, d.err
}

// Remove deletes the database Path built, if it built one.
func (d *DB) Remove() {
	if d.dir != "" {
		os.RemoveAll(d.dir)
	}
}

// Open opens the database at path for a test; it is closed when tb ends.
func Open(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// manifestKey is the meta row where a build writes its manifest.
const manifestKey = "manifest"

// manifest is what a build wrote, table by table: how many rows and a
// checksum of their contents. SQLite's own checks see a page's structure,
// not its payload: random bytes over an overflow page of a document, or
// over a leaf whose cells still parse, pass integrity_check and would be served
// as wrong answers or wrong 404s. The manifest is what the rows must add up
// to, so a server can refuse such a file before it answers from it.
type manifest struct {
	// Tables maps a table's name to its sums; every table of the file is
	// listed, so a missing or extra table is damage too.
	Tables map[string]tableSum `json:"tables"`
}

type tableSum struct {
	Rows int64 `json:"rows"`
	// Sum adds up (mod 2^64) the first 8 bytes of each row's SHA-256, so
	// it does not depend on the order rows are stored in: VACUUM, which a
	// build runs after writing the manifest, may renumber rowids.
	Sum string `json:"sum"`
}

// queryer is what computing a manifest needs: a *sql.DB or a *sql.Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// computeManifest reads every row of every table (the manifest's own row
// excluded) and sums them. It streams: memory is one row at a time.
func computeManifest(ctx context.Context, q queryer) (manifest, error) {
	rows, err := q.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		return manifest{}, err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return manifest{}, err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return manifest{}, err
	}
	m := manifest{Tables: map[string]tableSum{}}
	for _, t := range tables {
		sum, err := sumTable(ctx, q, "main", t)
		if err != nil {
			return manifest{}, fmt.Errorf("table %s: %w", t, err)
		}
		m.Tables[t] = sum
	}
	return m, nil
}

// sumTable sums one table's rows (tableSum). Each value is hashed with its
// length, and NULL apart from the empty value, so that moving bytes from
// one column to the next changes the row's hash.
func sumTable(ctx context.Context, q queryer, schema, table string) (tableSum, error) {
	query := "SELECT * FROM " + quoteIdent(schema) + "." + quoteIdent(table)
	if table == "meta" {
		query += " WHERE key != '" + manifestKey + "'"
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return tableSum{}, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return tableSum{}, err
	}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	h := sha256.New()
	var n int64
	var total uint64
	var lenBuf [8]byte
	var digest [sha256.Size]byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return tableSum{}, err
		}
		h.Reset()
		for _, v := range vals {
			l := uint64(len(v))
			if v == nil {
				l = ^uint64(0)
			}
			binary.LittleEndian.PutUint64(lenBuf[:], l)
			h.Write(lenBuf[:])
			h.Write(v)
		}
		total += binary.LittleEndian.Uint64(h.Sum(digest[:0]))
		n++
	}
	if err := rows.Err(); err != nil {
		return tableSum{}, err
	}
	return tableSum{Rows: n, Sum: fmt.Sprintf("%016x", total)}, nil
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// attachedTableIntact says whether table of the attached database schema
// still adds up to that database's manifest.
func attachedTableIntact(ctx context.Context, db *sql.DB, schema, table string) bool {
	var doc string
	if err := db.QueryRowContext(ctx, "SELECT value FROM "+quoteIdent(schema)+".meta WHERE key = ?", manifestKey).Scan(&doc); err != nil {
		return false
	}
	var want manifest
	if json.Unmarshal([]byte(doc), &want) != nil {
		return false
	}
	got, err := sumTable(ctx, db, schema, table)
	return err == nil && got == want.Tables[table]
}

// writeManifest computes the manifest of the database being written and
// stores it in meta.
func writeManifest(ctx context.Context, db *sql.DB) error {
	m, err := computeManifest(ctx, db)
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	doc, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?)", manifestKey, string(doc))
	return err
}

// ErrNoManifest is Verify's note that the database predates manifests: it
// was checked by SQLite's integrity_check alone.
var ErrNoManifest = errors.New("the database has no manifest (built by an older gpuisa): only SQLite's integrity_check checked it")

// Verify checks the whole file before a server answers from it: SQLite's
// integrity_check over every page (b-tree structure, free list, record
// formats, and every index against its table: a damaged index would turn
// a lookup into a wrong 404), then every table against the build's
// manifest (row counts and content sums). It streams through the file
// twice: on a 355 MB database about 0.5 s for SQLite's check and 2.4 s for
// the sums, with a heap of about 16 MB (BenchmarkVerify; quick_check, which
// skips the index cross-check, saves only a tenth of SQLite's part). A
// database without a manifest (built before them) returns ErrNoManifest
// after passing integrity_check.
func (s *DB) Verify(ctx context.Context) error {
	if err := s.integrityCheck(ctx); err != nil {
		return err
	}
	var doc string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", manifestKey).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoManifest
	}
	if err != nil {
		return fmt.Errorf("reading the manifest: %w", err)
	}
	var want manifest
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		return fmt.Errorf("the manifest does not parse (%v): damaged", err)
	}
	got, err := computeManifest(ctx, s.db)
	if err != nil {
		return fmt.Errorf("reading every row: %w", err)
	}
	return compareManifests(want, got)
}

// integrityCheck runs PRAGMA integrity_check and returns its first
// findings.
func (s *DB) integrityCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA integrity_check(5)")
	if err != nil {
		return fmt.Errorf("SQLite's integrity_check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("SQLite's integrity_check: %w", err)
		}
		if line != "ok" {
			// Findings are lines, under a heading naming the schema.
			line = strings.TrimSpace(strings.TrimPrefix(line, "*** in database main ***"))
			problems = append(problems, strings.ReplaceAll(line, "\n", "; "))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("SQLite's integrity_check: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("SQLite's integrity_check: %s", strings.Join(problems, "; "))
	}
	return nil
}

// compareManifests names every table whose rows differ from the build's.
func compareManifests(want, got manifest) error {
	var problems []string
	names := make([]string, 0, len(want.Tables)+len(got.Tables))
	for t := range want.Tables {
		names = append(names, t)
	}
	for t := range got.Tables {
		if _, ok := want.Tables[t]; !ok {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	for _, t := range names {
		w, inWant := want.Tables[t]
		g, inGot := got.Tables[t]
		switch {
		case !inGot:
			problems = append(problems, fmt.Sprintf("table %s is missing", t))
		case !inWant:
			problems = append(problems, fmt.Sprintf("table %s is not in the manifest", t))
		case w.Rows != g.Rows:
			problems = append(problems, fmt.Sprintf("table %s has %d rows, the build wrote %d", t, g.Rows, w.Rows))
		case w.Sum != g.Sum:
			problems = append(problems, fmt.Sprintf("table %s's rows do not add up to the build's checksum", t))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the rows differ from the build's manifest: %s", strings.Join(problems, "; "))
	}
	return nil
}

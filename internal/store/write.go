package store

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gpuisa/gpuisa/internal/isa"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// SchemaVersion is the number of embedded migrations; Open refuses databases
// written with another schema.
const SchemaVersion = 6

// Build is everything one database holds.
type Build struct {
	Info         isa.BuildInfo
	Archs        []isa.Architecture
	Instructions []*isa.Instruction
	// Extras are named documents for tools that need more than the model
	// (the PTX checker's forms with template variables, the concept catalogue).
	Extras map[string][]byte
	// HashAs are the bytes an extra counts as in the build id where they
	// differ from the stored ones (the quality report without its run
	// counters: quality.Report.WithoutRunCounters).
	HashAs map[string][]byte
	// Answers, when set, renders the server's answers for the site's pages
	// from the database as written; Write stores them beside the rows
	// before the file is renamed into place, so a database and its
	// prerendered pages are always one generation.
	Answers AnswerFunc
	// AnswersBy, when set, is the identity Answers stamps on every answer
	// (its renderer's version). Write then reuses the answers of the
	// database already at its path when that renderer rendered them from
	// the same rows (the same 'build' row: its id hashes every document):
	// a page is a function of the rows and the renderer, so the copy is
	// byte for byte the page a render would give, at the cost of a copy.
	AnswersBy string
	// AnswersCache, when set with AnswersBy, is the page cache's directory:
	// Write keeps the answers it rendered there and reuses them for a
	// build of the same rows by the same renderer to any path
	// (keepAnswers).
	AnswersCache string
}

// Write writes b as a new database at path. It writes a temporary file in the
// same directory and renames it into place, so an interrupted build leaves the
// previous database untouched. Rows are written in sorted order and the build
// id is a hash of the content, so the same input gives the same database.
func Write(ctx context.Context, path string, b *Build) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	removeStaleTemps(path)
	tmp, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	// The lock marks the temporary file as in use until it is renamed, so
	// the next build of the same output removes it only if this one died.
	defer tmp.Close()
	if err := syscall.Flock(int(tmp.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return fmt.Errorf("locking %s: %w", tmpName, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmpName)
			os.Remove(tmpName + "-journal")
		}
	}()
	db, err := sql.Open("sqlite", "file:"+tmpName+"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	db.SetMaxOpenConns(1)
	if err := migrate(ctx, db); err != nil {
		return err
	}
	// b is not used after writeRows: the model it holds (gigabytes for a
	// full build) is garbage while the answers render from the file.
	answers, by, cacheDir := b.Answers, b.AnswersBy, b.AnswersCache
	if err := writeRows(ctx, db, b); err != nil {
		return err
	}
	if answers != nil {
		reused, err := reuseAnswers(ctx, db, path, cacheDir, by)
		if err != nil {
			return err
		}
		if !reused {
			if err := writeAnswers(ctx, db, tmpName, answers, by); err != nil {
				return err
			}
			if cacheDir != "" && by != "" {
				_ = keepAnswers(ctx, db, cacheDir, by) // only saves time (keepAnswers)
			}
		}
	}
	// The manifest is the last row written: it sums every other one.
	if err := writeManifest(ctx, db); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "VACUUM"); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	// CreateTemp makes the file private; a database is meant to be served.
	if err := os.Chmod(tmpName, 0o644); err != nil {
		return err
	}
	return os.Rename(tmpName, path)
}

func migrate(ctx context.Context, db *sql.DB) error {
	entries, err := migrations.ReadDir("migrations")
	if err != nil {
		return err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		text, err := migrations.ReadFile("migrations/" + e.Name())
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, string(text)); err != nil {
			return fmt.Errorf("migration %s: %w", e.Name(), err)
		}
	}
	_, err = db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion))
	return err
}

func writeRows(ctx context.Context, db *sql.DB, b *Build) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	insts := append([]*isa.Instruction(nil), b.Instructions...)
	sort.Slice(insts, func(i, j int) bool {
		if insts[i].Arch != insts[j].Arch {
			return insts[i].Arch < insts[j].Arch
		}
		return insts[i].Name < insts[j].Name
	})
	archs := append([]isa.Architecture(nil), b.Archs...)
	sort.Slice(archs, func(i, j int) bool { return archs[i].ID < archs[j].ID })

	hash := sha256.New()
	insArch, err := tx.PrepareContext(ctx, "INSERT INTO archs(id, ord, doc) VALUES(?,?,?)")
	if err != nil {
		return err
	}
	for _, a := range archs {
		isa.FillLists(&a)
		doc, err := json.Marshal(a)
		if err != nil {
			return err
		}
		hash.Write(doc)
		if _, err := insArch.ExecContext(ctx, a.ID, a.Order, string(doc)); err != nil {
			return fmt.Errorf("arch %s: %w", a.ID, err)
		}
	}
	insInst, err := tx.PrepareContext(ctx, "INSERT INTO instructions(arch, name, category, section, summary, formats, doc, doc_len, doc_crc, derived) VALUES(?,?,?,?,?,?,?,?,?,?)")
	if err != nil {
		return err
	}
	insName, err := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO names(arch, alias, name) VALUES(?,?,?)")
	if err != nil {
		return err
	}
	insText, err := tx.PrepareContext(ctx, "INSERT INTO search_text(arch, name, summary, body) VALUES(?,?,?,?)")
	if err != nil {
		return err
	}
	insSupport, err := tx.PrepareContext(ctx, "INSERT INTO support(arch, name, verdicts) VALUES(?,?,?)")
	if err != nil {
		return err
	}
	err = encodeDocs(insts, familyFormats(archs), func(i int, d encodedDoc) error {
		in := insts[i]
		hash.Write(d.doc)
		if _, err := insInst.ExecContext(ctx, in.Arch, in.Name, in.Category, in.Section, in.Summary, strings.Join(formatsOf(in), ","),
			d.packed, len(d.doc), int64(crc32.ChecksumIEEE(d.doc)), d.derived); err != nil {
			return fmt.Errorf("instruction %s/%s: %w", in.Arch, in.Name, err)
		}
		if support := supportOf(in); support != "" {
			if _, err := insSupport.ExecContext(ctx, in.Arch, in.Name, support); err != nil {
				return err
			}
		}
		body := strings.Join([]string{in.Description, in.Semantics, in.Notes, in.Category, in.Section}, "\n")
		_, err := insText.ExecContext(ctx, in.Arch, in.Name, in.Summary, body)
		return err
	})
	if err != nil {
		return err
	}
	// Aliases go in after every canonical name so a real instruction always
	// wins over another instruction's alias of the same spelling.
	for _, in := range insts {
		if _, err := insName.ExecContext(ctx, in.Arch, in.Name, in.Name); err != nil {
			return err
		}
	}
	for _, in := range insts {
		for _, al := range in.Aliases {
			if _, err := insName.ExecContext(ctx, in.Arch, strings.ToLower(al.Name), in.Name); err != nil {
				return err
			}
		}
	}
	info := b.Info
	if info.Counts == nil {
		info.Counts = map[string]int{}
		for _, in := range insts {
			info.Counts[in.Arch]++
		}
	}
	keys := make([]string, 0, len(b.Extras))
	for k := range b.Extras {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if h, ok := b.HashAs[k]; ok {
			hash.Write(h)
		} else {
			hash.Write(b.Extras[k])
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?)", "extra:"+k, string(b.Extras[k])); err != nil {
			return err
		}
	}
	if info.Provisional != "" {
		// Its pages say what is unverified: an ETag of the verified
		// database's same rows must not match them.
		hash.Write([]byte("provisional:" + info.Provisional))
	}
	info.ID = hex.EncodeToString(hash.Sum(nil))[:16]
	infoDoc, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('build', ?)", string(infoDoc)); err != nil {
		return err
	}
	return tx.Commit()
}

// ftsName is the name column of the search index: the mnemonic both whole
// and split at '_' and '.', so a word query ("max") finds v_max_f32 and
// max.f32 in the full-text pass too.
func ftsName(name string) string {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '.' })
	return name + " " + strings.Join(parts, " ")
}

// encodedDoc is an instruction's document as the API answers it (doc) and
// as stored: compressed, without the layouts derived encodings take from
// their formats (layout.go).
type encodedDoc struct {
	doc, packed []byte
	derived     int
}

// encodeDocs marshals and compresses the documents on every core and
// hands each to each in their order (the build's hash reads them in
// order), one call at a time. The workers run at most docsAhead documents
// ahead of each: all of them at once, with the target matrices, were a
// few hundred megabytes of JSON at a build's peak.
func encodeDocs(insts []*isa.Instruction, formats map[string]map[string]isa.Format, each func(int, encodedDoc) error) error {
	type slot struct {
		doc  encodedDoc
		err  error
		done chan struct{}
	}
	slots := make([]slot, len(insts))
	for i := range slots {
		slots[i].done = make(chan struct{})
	}
	ahead := make(chan struct{}, docsAhead)
	next := make(chan int)
	// failed stops the encoding once an error ends the write: the rest
	// would be encoded for nothing (all of a build's documents).
	var failed atomic.Bool
	go func() {
		for i := range insts {
			ahead <- struct{}{}
			next <- i
		}
		close(next)
	}()
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		go func() {
			// One compressor per worker: flate.NewWriter allocates about a
			// megabyte of tables.
			var buf bytes.Buffer
			zw, _ := flate.NewWriter(&buf, flate.BestSpeed)
			for i := range next {
				if !failed.Load() {
					slots[i].doc, slots[i].err = encodeDoc(insts[i], formats[insts[i].Arch], zw, &buf)
				}
				close(slots[i].done)
			}
		}()
	}
	var firstErr error
	for i := range slots {
		// Every slot is waited for, after an error too, so the feeder and
		// the workers finish.
		<-slots[i].done
		<-ahead
		switch {
		case firstErr != nil:
		case slots[i].err != nil:
			firstErr = fmt.Errorf("instruction %s/%s: %w", insts[i].Arch, insts[i].Name, slots[i].err)
		default:
			firstErr = each(i, slots[i].doc)
		}
		if firstErr != nil {
			failed.Store(true)
		}
		slots[i].doc = encodedDoc{}
	}
	return firstErr
}

// docsAhead bounds the documents encoded and not yet handed on.
const docsAhead = 256

// encodeDoc is one instruction's document, compressed with zw into buf.
func encodeDoc(in *isa.Instruction, formats map[string]isa.Format, zw *flate.Writer, buf *bytes.Buffer) (encodedDoc, error) {
	isa.FillLists(in) // lists are [], never null (the JSON contract)
	doc, err := json.Marshal(in)
	if err != nil {
		return encodedDoc{}, err
	}
	// The API's answer, newline included.
	doc = append(doc, '\n')
	stripped, derived, err := stripLayouts(in, formats)
	if err != nil {
		return encodedDoc{}, err
	}
	stored := doc
	if derived > 0 {
		if stored, err = json.Marshal(stripped); err != nil {
			return encodedDoc{}, err
		}
	}
	buf.Reset()
	zw.Reset(buf)
	if _, err = zw.Write(stored); err == nil {
		err = zw.Close()
	}
	return encodedDoc{doc: doc, packed: bytes.Clone(buf.Bytes()), derived: derived}, err
}

// decompress inflates an instruction document.
func decompress(packed []byte) ([]byte, error) {
	return inflate(make([]byte, 0, 4*len(packed)), packed)
}

// inflate appends packed, inflated, to dst. The decompressors are pooled:
// flate.NewReader allocates a 32 KB window and tables for every call, more
// than most documents weigh.
func inflate(dst, packed []byte) ([]byte, error) {
	zr := docReaders.Get().(io.ReadCloser)
	defer docReaders.Put(zr)
	if err := zr.(flate.Resetter).Reset(bytes.NewReader(packed), nil); err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(dst)
	_, err := buf.ReadFrom(zr)
	return buf.Bytes(), err
}

var docReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

func formatsOf(in *isa.Instruction) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range in.Encodings {
		if !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	return out
}

// tempPattern names a build's temporary file beside path.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// removeStaleTemps deletes the temporary files a killed build of the same
// output left behind: those no running build holds locked.
func removeStaleTemps(path string) {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), tempPattern(path)))
	for _, m := range matches {
		if strings.HasSuffix(m, "-journal") {
			continue
		}
		f, err := os.Open(m)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.Remove(m)
			os.Remove(m + "-journal")
		}
		f.Close()
	}
}

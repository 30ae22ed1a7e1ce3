package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/base/keepnewest"
)

// An Answer is what the server sends for one of the site's pages, made by
// the build from the database it belongs to (Build.Answers): the request
// target it answers (as the server keys its cache: "/amdgpu/cdna4/v_max_f32"),
// its Content-Type, its body gzip-compressed, and the identity of the
// program that rendered it (the same for every answer of a database: a
// server made by another program renders instead).
type Answer struct {
	Key, ContentType string
	Gzip             []byte
	Renderer         string
}

// AnswerFunc renders answers from r, a Reader over the database being
// written, and hands each to put, in any order (Write stores them in key
// order), one call at a time.
type AnswerFunc func(ctx context.Context, r Reader, put func(Answer) error) error

// maxAnswer bounds one stored answer: a page over it is rendered on demand.
const maxAnswer = 8 << 20

// writeAnswers runs b.Answers over the rows written to tmpName and stores
// what it returns, in key order (the same database gives the same file).
// The rows are complete and committed; the Reader is closed before the
// answers are written, so it never sees the file change under it.
// A renderer other than want (when set) is refused.
func writeAnswers(ctx context.Context, db *sql.DB, tmpName string, render AnswerFunc, want string) error {
	r, err := Open(tmpName)
	if err != nil {
		return err
	}
	var answers []Answer
	seen := map[string]bool{}
	renderer := ""
	err = render(ctx, r, func(a Answer) error {
		switch {
		case a.Key == "" || a.Key[0] != '/':
			return fmt.Errorf("answer key %q: want a request target", a.Key)
		case seen[a.Key]:
			return fmt.Errorf("answer %s rendered twice", a.Key)
		case a.Renderer == "" || (renderer != "" && a.Renderer != renderer):
			return fmt.Errorf("answer %s: renderer %q, want one renderer for every answer", a.Key, a.Renderer)
		case want != "" && a.Renderer != want:
			return fmt.Errorf("answer %s: renderer %q, want %q (Build.AnswersBy)", a.Key, a.Renderer, want)
		case len(a.Gzip) > maxAnswer:
			return nil
		}
		renderer = a.Renderer
		seen[a.Key] = true
		answers = append(answers, a)
		return nil
	})
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rendering answers: %w", err)
	}
	sort.Slice(answers, func(i, j int) bool { return answers[i].Key < answers[j].Key })
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, "INSERT INTO answers(key, content_type, gz) VALUES(?,?,?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('answers_renderer', ?)", renderer); err != nil {
		return err
	}
	for _, a := range answers {
		if _, err := ins.ExecContext(ctx, a.Key, a.ContentType, a.Gzip); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// reuseAnswers copies into db (whose rows are written) the answers that
// renderer rendered from the same rows: those of the database at prev, the
// file the build replaces, else those kept in the page cache (cacheDir,
// "" for none; keepAnswers). It reports whether it did; a missing, older,
// damaged or unreadable file is no error (the answers are then rendered).
func reuseAnswers(ctx context.Context, db *sql.DB, prev, cacheDir, renderer string) (bool, error) {
	if renderer == "" {
		return false, nil
	}
	if ok, err := reuseAnswersFrom(ctx, db, prev, renderer); ok || err != nil {
		return ok, err
	}
	if cacheDir == "" {
		return false, nil
	}
	file, err := answerCacheFile(ctx, db, cacheDir, renderer)
	if err != nil {
		return false, nil
	}
	ok, err := reuseAnswersFrom(ctx, db, file, renderer)
	if ok {
		keepnewest.Touch(file) // used: the newest, so pruning keeps it
	}
	return ok, err
}

// reuseAnswersFrom copies the answers of the database at prev into db
// when renderer rendered them from the same rows: the same schema, the
// same 'build' row (its id is a hash of every document and extra) and the
// same answers_renderer, and the answers still add up to prev's manifest.
func reuseAnswersFrom(ctx context.Context, db *sql.DB, prev, renderer string) (bool, error) {
	if _, err := os.Stat(prev); err != nil {
		return false, nil
	}
	if _, err := db.ExecContext(ctx, "ATTACH DATABASE ? AS prev", "file:"+prev+"?mode=ro"); err != nil {
		return false, nil
	}
	defer db.ExecContext(ctx, "DETACH DATABASE prev")
	var version int
	var same int
	err := db.QueryRowContext(ctx, "PRAGMA prev.user_version").Scan(&version)
	if err != nil || version != SchemaVersion {
		return false, nil
	}
	err = db.QueryRowContext(ctx, `SELECT count(*) FROM meta m, prev.meta p, prev.meta r
		WHERE m.key = 'build' AND p.key = 'build' AND m.value = p.value
		AND r.key = 'answers_renderer' AND r.value = ?`, renderer).Scan(&same)
	if err != nil || same != 1 {
		return false, nil
	}
	// The previous file is usually the one being served, and may have been
	// damaged since it was built: a copy of damaged answers would be
	// summed into the new manifest and served as valid.
	if !attachedTableIntact(ctx, db, "prev", "answers") {
		return false, nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('answers_renderer', ?)", renderer); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO answers(key, content_type, gz) SELECT key, content_type, gz FROM prev.answers ORDER BY key"); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// The page cache keeps the answers of the last builds under the cache
// directory, so a build of the same rows by the same renderer copies them
// whatever file it writes: rendering the site is most of a build whose
// oracles are cached. A page is a function of the rows and the renderer
// (the program's code, templates and assets: web.RendererID), and the key
// covers both: the 'build' row, whose id hashes every document and extra,
// and the renderer's identity. Another program or one changed row renders
// again. The newest files are kept up to keptAnswerBytes in all (a full
// site's answers are about 125 MB) and keptAnswerFiles in number, so the
// small databases of tests never push out a full build's.
const (
	keptAnswerBytes = 400 << 20
	keptAnswerFiles = 16
)

// answerCacheFile is the page cache's file for the answers renderer makes
// from db's rows.
func answerCacheFile(ctx context.Context, db *sql.DB, cacheDir, renderer string) (string, error) {
	var build string
	if err := db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'build'").Scan(&build); err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(renderer + "\x00" + build))
	return filepath.Join(cacheDir, "answers-"+hex.EncodeToString(h[:12])+".db"), nil
}

// keepAnswers stores db's answers (rendered, not reused) in the page cache
// as a small database of the same schema for the tables it holds: the
// 'build' and answers_renderer rows, the answers, and a manifest of them,
// so reuseAnswersFrom reads it as it reads a previous database. It writes
// a temporary file and renames it into place, then removes the oldest
// files past keptAnswerFiles or keptAnswerBytes. The cache only saves time: a build whose
// cache cannot be written is no failed build, so callers ignore the error.
func keepAnswers(ctx context.Context, db *sql.DB, cacheDir, renderer string) (err error) {
	file, err := answerCacheFile(ctx, db, cacheDir, renderer)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(cacheDir, ".answers-*.tmp")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer func() {
		if err != nil {
			os.Remove(tmpName)
		}
	}()
	if _, err := db.ExecContext(ctx, "ATTACH DATABASE ? AS keep", "file:"+tmpName); err != nil {
		return err
	}
	attached := true
	defer func() {
		if attached {
			db.ExecContext(ctx, "DETACH DATABASE keep")
		}
	}()
	for _, q := range []string{
		"CREATE TABLE keep.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
		"CREATE TABLE keep.answers (key TEXT PRIMARY KEY, content_type TEXT NOT NULL, gz BLOB NOT NULL)",
		"INSERT INTO keep.meta(key, value) SELECT key, value FROM meta WHERE key IN ('build', 'answers_renderer')",
		"INSERT INTO keep.answers(key, content_type, gz) SELECT key, content_type, gz FROM answers ORDER BY key",
		fmt.Sprintf("PRAGMA keep.user_version = %d", SchemaVersion),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	sum, err := sumTable(ctx, db, "keep", "answers")
	if err != nil {
		return err
	}
	doc, err := json.Marshal(manifest{Tables: map[string]tableSum{"answers": sum}})
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO keep.meta(key, value) VALUES(?, ?)", manifestKey, string(doc)); err != nil {
		return err
	}
	attached = false
	if _, err := db.ExecContext(ctx, "DETACH DATABASE keep"); err != nil {
		return err
	}
	if err := os.Rename(tmpName, file); err != nil {
		return err
	}
	keepnewest.Prune(filepath.Join(cacheDir, "answers-*.db"), file, keptAnswerFiles, keptAnswerBytes)
	return nil
}

// Answer returns the stored answer for a request target; errs.NotFound when
// the build stored none (a page it does not prerender, or a database built
// without answers).
func (s *DB) Answer(ctx context.Context, key string) (Answer, error) {
	s.rendererOnce.Do(func() {
		var v string
		if err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'answers_renderer'").Scan(&v); err == nil {
			s.renderer = v
		}
	})
	if s.renderer == "" {
		return Answer{}, errs.NotFound(nil, "this database stores no answers")
	}
	a := Answer{Key: key, Renderer: s.renderer}
	err := s.db.QueryRowContext(ctx, "SELECT content_type, gz FROM answers WHERE key = ?", key).Scan(&a.ContentType, &a.Gzip)
	if errors.Is(err, sql.ErrNoRows) {
		return Answer{}, errs.NotFound(nil, "no stored answer for %s", key)
	}
	return a, err
}

// AnswerCount is how many answers the build stored.
func (s *DB) AnswerCount(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM answers").Scan(&n)
	return n, err
}

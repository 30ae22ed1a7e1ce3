package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/gpuisa/gpuisa/internal/base/errs"
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

// reuseAnswers copies the answers of the database at prev into db (whose
// rows are written) when renderer rendered them from the same rows: the
// same schema, the same 'build' row (its id is a hash of every document
// and extra) and the same answers_renderer. It reports whether it did; a
// missing, older or unreadable previous file is no error (the answers are
// then rendered).
func reuseAnswers(ctx context.Context, db *sql.DB, prev, renderer string) (bool, error) {
	if renderer == "" {
		return false, nil
	}
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

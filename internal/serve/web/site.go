package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gpuisa/gpuisa/internal/store"
)

// Site serves the database file at a path, one generation at a time. A
// generation is one opened file with everything the server derived from it
// (build info, lists, decoders, rendered answers, ETags); every request is
// answered from the generation current when it arrived, so no answer mixes
// two databases. Site watches the path: when a build renames a new file into
// place, Site opens and validates it and swaps the whole generation at once,
// and the old one closes when its last request finishes. While the file at
// the path is missing, unreadable or invalid, the current generation keeps
// serving and /healthz answers 503 with the reason.
//
// A generation is served from a private copy of the file (store.OpenCopy),
// validated in full before its first answer (store.DB.Verify: SQLite's
// integrity_check and the build's manifest): a file written over in place, or
// damaged in the middle with its header intact, is refused while the
// generation already serving goes on answering from its own copy.
type Site struct {
	path string
	opts Options
	log  *slog.Logger

	cur atomic.Pointer[dbGeneration]
	// problem is why the file at the path is not what is served ("" when
	// it is).
	problem atomic.Pointer[string]
	// failed is the identity of a file that did not open, so a broken file
	// is reported once and retried only when the path changes again.
	failed store.FileID
	// validating names the new file being copied and validated ("" when
	// none is): /healthz says so while the current generation answers.
	validating atomic.Pointer[string]

	reloadMu sync.Mutex
	stop     chan struct{}
	stopOnce sync.Once
	watching sync.WaitGroup
}

// dbGeneration is one database file being served.
type dbGeneration struct {
	srv *server
	db  *store.DB
	// refs counts the requests using this generation, plus one while it is
	// the current one; the database closes when it drops to zero.
	refs atomic.Int64
}

// acquire takes a reference unless the generation is already closed.
func (g *dbGeneration) acquire() bool {
	for {
		n := g.refs.Load()
		if n <= 0 {
			return false
		}
		if g.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (g *dbGeneration) release() {
	if g.refs.Add(-1) == 0 {
		g.db.Close()
	}
}

// defaultWatchInterval is how often Site checks the path for a new file: a
// stat per second costs nothing and bounds how long a new build waits.
const defaultWatchInterval = time.Second

// Open serves the database at path. It fails when the file cannot be opened;
// afterwards changes at the path are picked up (see Site) every
// opts.WatchInterval.
func Open(path string, opts Options) (*Site, error) {
	s := &Site{path: path, opts: opts, stop: make(chan struct{})}
	s.log = newLogger(opts.Logger)
	ok := ""
	s.problem.Store(&ok)
	s.validating.Store(&ok)
	g, err := s.openGeneration()
	if err != nil {
		return nil, err
	}
	s.cur.Store(g)
	if opts.WatchInterval >= 0 {
		interval := opts.WatchInterval
		if interval == 0 {
			interval = defaultWatchInterval
		}
		s.watching.Add(1)
		go s.watch(interval)
	}
	return s, nil
}

// openGeneration opens a private copy of the file at the path and
// validates all of it before anything is derived from it: a page that
// fails later would be a 503, or a wrong 404 where damage reads as a
// missing row. A database built before manifests is served after SQLite's
// check alone, with a warning.
func (s *Site) openGeneration() (*dbGeneration, error) {
	db, err := store.OpenCopy(s.path)
	if databaseDamaged(err) {
		return nil, fmt.Errorf("database %s is damaged: %w", s.path, err)
	}
	if err != nil {
		return nil, err
	}
	start := time.Now()
	switch err := db.Verify(context.Background()); {
	case errors.Is(err, store.ErrNoManifest):
		s.log.Warn("database", "path", s.path, "validated", err)
	case err != nil:
		db.Close()
		return nil, fmt.Errorf("database %s is damaged: %w", s.path, err)
	default:
		s.log.Info("database validated", "path", s.path, "took", time.Since(start).Round(time.Millisecond))
	}
	srv, err := newServer(db, s.opts)
	if err != nil {
		db.Close()
		return nil, err
	}
	srv.health = s.healthProblem
	srv.healthNote = s.healthNote
	g := &dbGeneration{srv: srv, db: db}
	g.refs.Store(1)
	// What every kind of page needs from the database as a whole — the
	// search index, the concept catalogue, the quality report (about a
	// tenth of a second each) — is read off the request path right away;
	// a request that needs one before it is ready waits for that one load
	// (each runs once). Decoders load per family, on first use.
	g.acquire()
	go func() {
		defer g.release()
		if err := db.PrepareSearch(context.Background()); err != nil {
			s.log.Warn("building the search index", "err", err)
		}
		srv.conceptCatalogue()
		srv.qualityReport()
	}()
	return g, nil
}

// ServeHTTP answers r from the current generation.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for {
		g := s.cur.Load()
		if g.acquire() {
			defer g.release()
			g.srv.ServeHTTP(w, r)
			return
		}
		// g was swapped out and closed between Load and acquire: the new
		// current generation is already stored.
	}
}

// BuildID is the build id of the generation being served.
func (s *Site) BuildID() string { return s.cur.Load().srv.info.ID }

// Problem says why the file at the path is not being served ("" when it
// is): missing, unreadable, or not a valid database.
func (s *Site) Problem() string { return *s.problem.Load() }

func (s *Site) healthProblem() string { return s.Problem() }

// healthNote is what /healthz adds to its answer: a new file being
// validated.
func (s *Site) healthNote() string { return *s.validating.Load() }

// Close stops watching and closes the database once no request uses it.
func (s *Site) Close() error {
	s.stopOnce.Do(func() {
		close(s.stop)
		s.watching.Wait()
		s.cur.Load().release()
	})
	return nil
}

func (s *Site) watch(interval time.Duration) {
	defer s.watching.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.Reload()
		}
	}
}

// Reload checks the path now and swaps to the file found there when it is a
// new, valid database; the watcher calls it every interval.
func (s *Site) Reload() {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	cur := s.cur.Load()
	id, err := store.Stat(s.path)
	if err == nil {
		// Stat succeeds on a file this process may not open.
		if aerr := syscall.Access(s.path, syscall.F_OK|4 /* R_OK */); aerr != nil {
			err = fmt.Errorf("%s: %w", s.path, aerr)
		}
	}
	switch {
	case err != nil:
		s.setProblem(fmt.Sprintf("database file unavailable (%v); serving build %s opened before", err, cur.srv.info.ID))
		return
	case id == cur.db.FileID():
		s.setProblem("")
		return
	case id == s.failed:
		return // reported when it was first seen
	}
	note := fmt.Sprintf("validating a new database file at %s (%s); serving build %s", s.path, id, cur.srv.info.ID)
	s.validating.Store(&note)
	g, err := s.openGeneration()
	none := ""
	s.validating.Store(&none)
	if err != nil {
		if errors.Is(err, store.ErrChanging) {
			// Retried at the next tick, when the writer may be done.
			s.setProblem(fmt.Sprintf("database file %s is being written in place (%v); serving build %s from its private copy", s.path, err, cur.srv.info.ID))
			return
		}
		s.failed = id
		if old := cur.db.FileID(); id.Dev == old.Dev && id.Ino == old.Ino {
			// Written over in place (cp, not a rename): the served build
			// reads its own copy, so it is unharmed, but the file is not
			// what is served.
			s.setProblem(fmt.Sprintf("database file %s changed in place and was refused, not served (%v); serving build %s from its private copy", s.path, err, cur.srv.info.ID))
			return
		}
		s.setProblem(fmt.Sprintf("new database at %s not served (%v); serving build %s", s.path, err, cur.srv.info.ID))
		return
	}
	s.failed = store.FileID{}
	s.cur.Store(g)
	s.setProblem("")
	s.log.Info("serving a new database", "path", s.path, "build", g.srv.info.ID, "previous", cur.srv.info.ID)
	cur.release()
}

func (s *Site) setProblem(p string) {
	if old := s.problem.Load(); old != nil && *old == p {
		return
	}
	s.problem.Store(&p)
	if p != "" {
		s.log.Warn("database", "problem", p)
	} else {
		s.log.Info("database", "path", s.path, "status", "ok")
	}
}

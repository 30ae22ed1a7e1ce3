package lsp

import (
	"context"
	"sync"
	"time"

	"github.com/tliron/glsp"
)

// Edits are coalesced: the worker starts on a change once the client has
// sent none for settleDelay (a person typing pauses longer between keys,
// so each pause is diagnosed), and at the latest maxSettle after it began
// waiting, so that a stream of changes without pauses (a tool, a
// replace-all) still gets diagnostics now and then.
const (
	settleDelay = 30 * time.Millisecond
	maxSettle   = time.Second
)

// file is one open file: the latest text the client sent, and a worker
// that parses and diagnoses it off the read loop. An edit only replaces
// the text and wakes the worker, which takes the latest version when it
// gets to it: a burst of 10,000 changes is parsed and diagnosed a few
// times, not 10,000, and a 20 MB file is diagnosed while hovers on other
// files are answered. A newer version cancels the diagnosis of an older.
type file struct {
	uri, lang string
	notify    glsp.NotifyFunc

	mu        sync.Mutex
	text      string
	version   int32
	gen       uint64 // counts texts: one per open or change
	changedAt time.Time
	doc       *document // the latest parse, of text generation docGen
	docGen    uint64
	parsed    chan struct{} // closed once doc is the parse of the latest text
	ready     bool          // parsed is closed
	stopDiag  context.CancelFunc

	wake chan struct{} // one pending wake-up is enough
	done chan struct{} // closed when the file is closed
	once sync.Once
}

// openFile starts the worker of a newly opened file (none for a language
// the server does not know: nothing asks for its parse).
func (s *server) openFile(notify glsp.NotifyFunc, uri, lang, text string, version int32) *file {
	f := &file{uri: uri, lang: lang, notify: notify, text: text, version: version, gen: 1,
		parsed: make(chan struct{}), wake: make(chan struct{}, 1), done: make(chan struct{})}
	if lang != "" {
		f.poke()
		go f.run(s)
	}
	return f
}

// poke wakes the worker: to parse a new text, or to diagnose again after
// the settings changed.
func (f *file) poke() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// update replaces the text with edit's result.
func (f *file) update(edit func(string) string, version int32) {
	f.mu.Lock()
	f.text = edit(f.text)
	f.version = version
	f.gen++
	f.changedAt = time.Now()
	if f.ready {
		f.parsed, f.ready = make(chan struct{}), false
	}
	if f.stopDiag != nil {
		f.stopDiag()
	}
	f.mu.Unlock()
	f.poke()
}

// close stops the worker.
func (f *file) close() {
	f.once.Do(func() {
		close(f.done)
		f.mu.Lock()
		if f.stopDiag != nil {
			f.stopDiag()
		}
		f.mu.Unlock()
	})
}

// current waits for the parse of the latest text.
func (f *file) current(ctx context.Context) (*document, error) {
	f.mu.Lock()
	ch := f.parsed
	f.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-f.done:
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.doc, nil
}

// isCurrent reports whether d is the parse of the latest text.
func (f *file) isCurrent(d *document) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.doc == d && f.docGen == f.gen
}

func (f *file) run(s *server) {
	for {
		select {
		case <-f.wake:
		case <-f.done:
			return
		}
		f.settle()
		f.mu.Lock()
		text, version, gen, d := f.text, f.version, f.gen, f.doc
		stale := d == nil || f.docGen != gen
		ctx, cancel := context.WithCancel(context.Background())
		f.stopDiag = cancel
		f.mu.Unlock()
		if stale {
			d = parse(f.uri, f.lang, text, version)
			f.mu.Lock()
			if f.gen != gen {
				// A newer text came while parsing; its wake-up is pending.
				f.mu.Unlock()
				cancel()
				continue
			}
			f.doc, f.docGen = d, gen
			if !f.ready {
				close(f.parsed)
				f.ready = true
			}
			f.mu.Unlock()
		}
		s.publish(ctx, f, d)
		cancel()
	}
}

// settle waits while edits keep coming (see settleDelay).
func (f *file) settle() {
	start := time.Now()
	for {
		f.mu.Lock()
		since := time.Since(f.changedAt)
		f.mu.Unlock()
		if since >= settleDelay || time.Since(start) >= maxSettle {
			return
		}
		select {
		case <-time.After(settleDelay - since):
		case <-f.done:
			return
		}
	}
}

package web

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

// An answer is a 200 response rendered once and kept as bytes for the life
// of its generation (the database is read-only while served): gzip always,
// the plain body while a client that does not take gzip wants it, brotli
// once a background worker has made it. Its headers are ready-made values,
// so serving it is a map lookup and a write.
type answer struct {
	contentType, etag, cacheControl []string

	gz    []byte
	gzLen []string

	plain atomic.Pointer[encoded] // nil until a client wants identity
	br    atomic.Pointer[encoded] // nil until the worker has compressed it
	// brQueued makes sure one brotli job is queued per answer.
	brQueued atomic.Bool

	// ref is the CLOCK bit: set on every hit, cleared by the eviction hand.
	ref   atomic.Bool
	cache *answerCache
	// wireCache holds the fast path's response heads (see wire).
	wireCache atomic.Pointer[wireBlocks]
	// api: the answer is an API document, sent with the CORS header (cors).
	api bool
}

// encoded is one encoding of an answer's body with its Content-Length.
type encoded struct {
	body []byte
	len  []string
}

func newEncoded(b []byte) *encoded {
	return &encoded{body: b, len: []string{strconv.Itoa(len(b))}}
}

var (
	varyAcceptEncoding = []string{"Accept-Encoding"}
	encodingGzip       = []string{"gzip"}
	encodingBrotli     = []string{"br"}
)

// gzipLevel is the compression of kept answers: klauspost/compress's
// default level, about four times as fast as the standard library's default
// on a page (0.18 ms against 0.85 ms for 65 KB) for output 2% larger; its
// best level gains 4% more for six times the time.
const gzipLevel = gzip.DefaultCompression

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzipLevel)
	return w
}}

// gzipKept compresses b for an answer.
func gzipKept(b []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(b)/5 + 64)
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&buf)
	zw.Write(b)
	zw.Close()
	gzipWriters.Put(zw)
	return buf.Bytes()
}

// newAnswer keeps a rendered body. keepPlain keeps the uncompressed body
// too (the request that rendered it does not take gzip).
func newAnswer(contentType, etag, cacheControl string, body []byte, keepPlain bool) *answer {
	a := &answer{contentType: []string{contentType}, cacheControl: []string{cacheControl}}
	if etag != "" {
		a.etag = []string{etag}
	}
	a.gz = gzipKept(body)
	a.gzLen = []string{strconv.Itoa(len(a.gz))}
	if keepPlain {
		a.plain.Store(newEncoded(body))
	}
	return a
}

// newGzipAnswer keeps an answer that already is gzip (an instruction
// document as the build stored it).
func newGzipAnswer(contentType, etag, cacheControl string, gz []byte) *answer {
	a := &answer{contentType: []string{contentType}, cacheControl: []string{cacheControl}, gz: gz,
		gzLen: []string{strconv.Itoa(len(gz))}}
	if etag != "" {
		a.etag = []string{etag}
	}
	return a
}

// plainBody returns the uncompressed body, inflating and keeping it the
// first time it is asked for.
func (a *answer) plainBody() (*encoded, error) {
	if p := a.plain.Load(); p != nil {
		return p, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(a.gz))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	p := newEncoded(b)
	if a.plain.CompareAndSwap(nil, p) {
		a.cache.grow(len(b))
		return p, nil
	}
	return a.plain.Load(), nil
}

func (a *answer) cost(key string) int {
	n := len(key) + len(a.gz) + 256
	if p := a.plain.Load(); p != nil {
		n += len(p.body)
	}
	if b := a.br.Load(); b != nil {
		n += len(b.body)
	}
	return n
}

// answerCache keeps answers by request URI, bounded in bytes. Hits take a
// read lock and set the entry's CLOCK bit; inserts evict with the CLOCK
// hand (entries not hit since the hand last passed go first), so a hit never
// takes the write lock.
type answerCache struct {
	mu      sync.RWMutex
	limit   int64
	size    atomic.Int64
	entries map[string]*answer
	ring    []string // keys in insertion order, for the hand
	hand    int
}

// maxCacheKey bounds the URIs worth keeping (long search strings are not).
const maxCacheKey = 256

func newAnswerCache(limit int) *answerCache {
	if limit <= 0 {
		return nil
	}
	return &answerCache{limit: int64(limit), entries: map[string]*answer{}}
}

func (c *answerCache) get(key string) *answer {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	a := c.entries[key]
	c.mu.RUnlock()
	if a != nil && !a.ref.Load() {
		a.ref.Store(true)
	}
	return a
}

// getBytes is get for a key as bytes, without converting it.
func (c *answerCache) getBytes(key []byte) *answer {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	a := c.entries[string(key)]
	c.mu.RUnlock()
	if a != nil && !a.ref.Load() {
		a.ref.Store(true)
	}
	return a
}

// put keeps a under key unless the key is too long or the answer too large
// for the budget; it returns the answer to serve (an earlier one for the
// same key wins, so concurrent first requests share one).
func (c *answerCache) put(key string, a *answer) *answer {
	if c == nil || len(key) > maxCacheKey {
		return a
	}
	cost := int64(a.cost(key))
	if cost > c.limit/8 {
		return a
	}
	c.mu.Lock()
	if old, ok := c.entries[key]; ok {
		c.mu.Unlock()
		return old
	}
	a.cache = c
	a.api = strings.HasPrefix(key, "/api/")
	a.ref.Store(true) // a second chance before the hand takes it
	c.entries[key] = a
	c.ring = append(c.ring, key)
	c.size.Add(cost)
	c.evictLocked()
	c.mu.Unlock()
	return a
}

// grow accounts for a body added to a kept answer later (plain, brotli).
func (c *answerCache) grow(n int) {
	if c == nil {
		return
	}
	if c.size.Add(int64(n)) > c.limit {
		c.mu.Lock()
		c.evictLocked()
		c.mu.Unlock()
	}
}

func (c *answerCache) evictLocked() {
	for c.size.Load() > c.limit && len(c.ring) > 0 {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		key := c.ring[c.hand]
		a := c.entries[key]
		if a.ref.Load() {
			a.ref.Store(false)
			c.hand++
			continue
		}
		delete(c.entries, key)
		last := len(c.ring) - 1
		c.ring[c.hand] = c.ring[last]
		c.ring = c.ring[:last]
		c.size.Add(-int64(a.cost(key)))
	}
}

// len is the number of kept answers.
func (c *answerCache) len() int {
	if c == nil {
		return 0
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}

// Brotli is made off the request path by one worker, since it costs about
// ten times gzip in Go: clients get gzip until it is ready. The queue is
// bounded; answers that do not fit are queued again by a later request.
var (
	brotliOnce  sync.Once
	brotliQueue chan *answer
)

// brotliQuality balances size (about 10% below gzip's) against the worker's
// time.
const brotliQuality = 5

func (a *answer) queueBrotli() {
	if a.cache == nil || !a.brQueued.CompareAndSwap(false, true) {
		return
	}
	brotliOnce.Do(func() {
		brotliQueue = make(chan *answer, 1024)
		go func() {
			for a := range brotliQueue {
				a.makeBrotli()
			}
		}()
	})
	select {
	case brotliQueue <- a:
	default:
		a.brQueued.Store(false)
	}
}

func (a *answer) makeBrotli() {
	p, err := a.plainBody()
	if err != nil {
		return
	}
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, brotliQuality)
	w.Write(p.body)
	if w.Close() != nil || buf.Len() >= len(a.gz) {
		return // not worth it: gzip stays the best
	}
	a.br.Store(newEncoded(buf.Bytes()))
	a.cache.grow(buf.Len())
}

// codings is what a request's Accept-Encoding allows.
type codings struct{ gzip, br bool }

// acceptedCodings parses Accept-Encoding without allocating: a coding is
// accepted unless its q is zero; "*" stands for those not named.
func acceptedCodings(r *http.Request) codings { return acceptedIn(r.Header["Accept-Encoding"]) }

func acceptedIn[T string | []byte](values []T) codings {
	var c codings
	var named, star, starOK bool
	for _, v := range values {
		for len(v) > 0 {
			var part T
			if i := indexByte(v, ','); i >= 0 {
				part, v = v[:i], v[i+1:]
			} else {
				part, v = v, v[:0]
			}
			name, params := part, part[:0]
			if i := indexByte(part, ';'); i >= 0 {
				name, params = part[:i], part[i+1:]
			}
			ok := !qZero(params)
			switch n := trimSpace(name); {
			case eqFold(n, "gzip"), eqFold(n, "x-gzip"):
				c.gzip, named = ok, true
			case eqFold(n, "br"):
				c.br = ok
			case len(n) == 1 && n[0] == '*':
				star, starOK = true, ok
			}
		}
	}
	if star && starOK && !named {
		c.gzip = true
	}
	return c
}

func eqFold[T string | []byte](b T, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// qZero says whether parameters hold q=0 (q=0.0, q=0.00, ...).
func qZero[T string | []byte](params T) bool {
	p := trimSpace(params)
	if len(p) < 3 || (p[0] != 'q' && p[0] != 'Q') {
		return false
	}
	p = trimSpace(p[1:])
	if len(p) == 0 || p[0] != '=' {
		return false
	}
	p = trimSpace(p[1:])
	if len(p) == 0 || p[0] != '0' {
		return false
	}
	for i := 1; i < len(p); i++ {
		if p[i] != '.' && p[i] != '0' {
			return false
		}
	}
	return true
}

func indexByte[T string | []byte](s T, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

func trimSpace[T string | []byte](s T) T {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// sendAnswer writes a kept answer: 304 when the client holds its ETag,
// else the best encoding the client takes.
func (s *server) sendAnswer(w http.ResponseWriter, r *http.Request, a *answer) {
	h := w.Header()
	h["Content-Type"] = a.contentType
	h["Vary"] = varyAcceptEncoding
	h["Cache-Control"] = a.cacheControl
	if a.etag != nil {
		h["Etag"] = a.etag
		if inm := r.Header["If-None-Match"]; len(inm) > 0 && etagMatches(inm[0], a.etag[0]) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	c := acceptedCodings(r)
	var body []byte
	switch {
	case c.br && a.br.Load() != nil:
		b := a.br.Load()
		h["Content-Encoding"] = encodingBrotli
		h["Content-Length"] = b.len
		body = b.body
	case c.gzip:
		if c.br {
			a.queueBrotli()
		}
		h["Content-Encoding"] = encodingGzip
		h["Content-Length"] = a.gzLen
		body = a.gz
	default:
		p, err := a.plainBody()
		if err != nil {
			s.fail(w, r, err)
			return
		}
		h["Content-Length"] = p.len
		body = p.body
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// cacheKey is the key of r's answer: the request target as sent.
func cacheKey(r *http.Request) string {
	if u := r.RequestURI; u != "" && u[0] == '/' {
		return u
	}
	return r.URL.RequestURI()
}

// sendOK sends a rendered 200 answer, keeping it for later requests.
func (s *server) sendOK(w http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	plain := !acceptedCodings(r).gzip
	if s.cache == nil {
		s.send(w, r, response{status: http.StatusOK, contentType: contentType, body: body, etag: s.etag, cache: s.maxAge})
		return
	}
	a := s.cache.put(cacheKey(r), newAnswer(contentType, s.etag, s.maxAge, body, plain))
	s.sendAnswer(w, r, a)
}

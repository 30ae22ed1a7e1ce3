package web

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The fast path answers the requests a static file server would — GET or
// HEAD of a kept answer — without net/http: a small HTTP/1.1 loop reads the
// request head from the connection, finds the answer, and writes the
// ready-made header block and body in one writev. Anything else (another
// method, a request body, a header it does not recognise as harmless,
// HTTP/1.0, a key not kept yet) hands the connection, with every byte read
// so far, to net/http, which serves it from then on exactly as without the
// fast path. The fast path only answers what the net/http path would answer
// from the same cache with the same bytes (TestFastPathMatchesNetHTTP).

// Limits of the fast path, matching NewServer's.
const (
	fastHeadMax     = 8 << 10 // a longer request head goes to net/http (64 KiB there)
	fastIdleTimeout = 120 * time.Second
	fastHeadTimeout = 5 * time.Second
	fastWriteTimout = 30 * time.Second
)

// Listener wraps ln so that its connections are served by the fast path
// first; pass the result to an http.Server serving s (see NewServer).
// Close it (or shut the http.Server down) to stop both.
func (s *Site) Listener(ln net.Listener) net.Listener {
	l := &fastListener{Listener: ln, site: s, handoff: make(chan net.Conn), closed: make(chan struct{}),
		errs: make(chan error, 1)}
	go l.acceptLoop()
	return l
}

type fastListener struct {
	net.Listener
	site      *Site
	handoff   chan net.Conn
	errs      chan error
	closed    chan struct{}
	closeOnce sync.Once
	conns     sync.Map // *fastConn: connections in the fast loop
}

func (l *fastListener) acceptLoop() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			select {
			case l.errs <- err:
			case <-l.closed:
				return
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		go l.serve(c)
	}
}

// Accept returns the connections the fast path hands to net/http.
func (l *fastListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.handoff:
		return c, nil
	case err := <-l.errs:
		return nil, err
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

// Close stops accepting and closes the fast loop's connections once they
// are idle (a response being written is finished first).
func (l *fastListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() {
		close(l.closed)
		l.conns.Range(func(k, _ any) bool {
			k.(*fastConn).c.SetReadDeadline(time.Now())
			return true
		})
	})
	return err
}

// fastConn is one connection in the fast loop.
type fastConn struct {
	c    net.Conn
	br   *bufio.Reader
	bufs [6][]byte
	date []byte
}

// replayConn is a handed-off connection: the bytes the fast path read
// first, then the connection.
type replayConn struct {
	net.Conn
	r io.Reader
}

func (c *replayConn) Read(p []byte) (int, error) { return c.r.Read(p) }

var errHandOff = errors.New("hand off to net/http")

func (l *fastListener) serve(c net.Conn) {
	fc := &fastConn{c: c, br: bufio.NewReaderSize(c, fastHeadMax)}
	l.conns.Store(fc, true)
	defer l.conns.Delete(fc)
	for answered := false; ; answered = true {
		select {
		case <-l.closed:
			c.Close()
			return
		default:
		}
		// Between requests net/http waits IdleTimeout for four bytes and
		// closes quietly on less, then gives the head ReadHeaderTimeout;
		// the first request's head has ReadHeaderTimeout from the start,
		// so a connection that sends nothing is closed after it, not held
		// for the idle timeout.
		wait, deadline := 1, time.Now().Add(fastHeadTimeout)
		if answered {
			wait, deadline = 4, time.Now().Add(fastIdleTimeout)
		}
		c.SetReadDeadline(deadline)
		if _, err := fc.br.Peek(wait); err != nil {
			if answered || fc.br.Buffered() == 0 {
				c.Close()
				return
			}
		}
		if answered {
			c.SetReadDeadline(time.Now().Add(fastHeadTimeout))
		}
		head, err := readHead(fc.br)
		if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
			c.Close() // as net/http does when a head takes too long
			return
		}
		if err == nil {
			var keep bool
			keep, err = l.answer(fc, head)
			if err == nil {
				fc.br.Discard(len(head))
				if !keep {
					c.Close()
					return
				}
				continue
			}
		}
		if err != errHandOff && head != nil {
			c.Close() // the answer could not be written
			return
		}
		// errHandOff, or the client ended mid-head: net/http gets the
		// bytes and does what it does with them.
		l.handOff(fc)
		return
	}
}

// handOff gives the connection and what was read of it to net/http.
func (l *fastListener) handOff(fc *fastConn) {
	fc.c.SetDeadline(time.Time{})
	buffered, _ := fc.br.Peek(fc.br.Buffered())
	rc := &replayConn{Conn: fc.c, r: io.MultiReader(bytes.NewReader(bytes.Clone(buffered)), fc.c)}
	select {
	case l.handoff <- rc:
	case <-l.closed:
		fc.c.Close()
	}
}

// readHead returns the request head (up to and including the blank line)
// from the reader's buffer, reading more as needed. errHandOff: a head
// longer than the buffer, or lines ended by a bare LF.
func readHead(br *bufio.Reader) ([]byte, error) {
	scanned := 0
	for {
		buf, _ := br.Peek(br.Buffered())
		for i := scanned; i < len(buf); i++ {
			if buf[i] != '\n' {
				continue
			}
			if i == 0 || buf[i-1] != '\r' {
				return nil, errHandOff
			}
			if i >= 3 && buf[i-2] == '\n' && buf[i-3] == '\r' {
				return buf[:i+1], nil
			}
		}
		scanned = len(buf)
		if len(buf) >= br.Size() {
			return nil, errHandOff
		}
		if _, err := br.Peek(len(buf) + 1); err != nil {
			return nil, err
		}
	}
}

// fastRequest is what the fast path reads of a request head.
type fastRequest struct {
	head            bool // HEAD, not GET
	target          []byte
	acceptEncoding  [4][]byte
	nAcceptEncoding int
	ifNoneMatch     []byte
	hasIfNoneMatch  bool
	close           bool
	hosts           int
}

// parseHead reads a request head strictly; errHandOff for anything but a
// plain HTTP/1.1 GET or HEAD of an origin-form target without a body.
func parseHead(head []byte, req *fastRequest) error {
	line, rest, _ := bytes.Cut(head, []byte("\r\n"))
	switch {
	case bytes.HasPrefix(line, []byte("GET ")):
		line = line[4:]
	case bytes.HasPrefix(line, []byte("HEAD ")):
		line, req.head = line[5:], true
	default:
		return errHandOff
	}
	target, proto, ok := bytes.Cut(line, []byte(" "))
	if !ok || string(proto) != "HTTP/1.1" || len(target) == 0 || target[0] != '/' {
		return errHandOff
	}
	for _, c := range target {
		if c <= ' ' || c >= 0x7f {
			return errHandOff
		}
	}
	req.target = target
	for len(rest) > 2 {
		var field []byte
		field, rest, _ = bytes.Cut(rest, []byte("\r\n"))
		name, value, ok := bytes.Cut(field, []byte(":"))
		if !ok || len(name) == 0 {
			return errHandOff
		}
		// net/http's own checks: a field it would refuse goes to it.
		value = bytes.Trim(value, " \t")
		if !validFieldName(name) || !validFieldValue(value) {
			return errHandOff
		}
		switch {
		case eqFold(name, "host"):
			if !validHost(value) {
				return errHandOff
			}
			req.hosts++
		case eqFold(name, "accept-encoding"):
			if req.nAcceptEncoding == len(req.acceptEncoding) {
				return errHandOff
			}
			req.acceptEncoding[req.nAcceptEncoding] = value
			req.nAcceptEncoding++
		case eqFold(name, "if-none-match"):
			if !req.hasIfNoneMatch {
				req.ifNoneMatch, req.hasIfNoneMatch = value, true
			}
		case eqFold(name, "connection"):
			for _, tok := range bytes.Split(value, []byte(",")) {
				tok = bytes.Trim(tok, " \t")
				switch {
				case eqFold(tok, "close"):
					req.close = true
				case eqFold(tok, "keep-alive"):
				default:
					return errHandOff // upgrade and the like
				}
			}
		case eqFold(name, "content-length"), eqFold(name, "transfer-encoding"), eqFold(name, "expect"),
			eqFold(name, "upgrade"), eqFold(name, "http2-settings"), eqFold(name, "range"), eqFold(name, "if-range"):
			return errHandOff
		}
	}
	if req.hosts != 1 {
		return errHandOff // net/http answers a missing or repeated Host 400
	}
	return nil
}

// answer writes the kept answer for the request in head; errHandOff when
// there is none. keep says whether the connection stays open.
func (l *fastListener) answer(fc *fastConn, head []byte) (keep bool, err error) {
	var req fastRequest
	if err := parseHead(head, &req); err != nil {
		return false, err
	}
	g := l.site.cur.Load()
	if !g.acquire() {
		return false, errHandOff
	}
	defer g.release()
	s := g.srv
	a := s.cache.getBytes(req.target)
	if a == nil {
		// Not kept yet: render it as net/http would (the same handler,
		// the request as net/http's parser reads it). If that keeps an
		// answer, it is written from here; anything else (a redirect, a
		// 404, an answer not kept) goes to net/http, which answers it again.
		if a = s.renderForFastPath(head, fc.c); a == nil {
			return false, errHandOff
		}
	}
	w := a.wire(s)
	var block, body []byte
	switch {
	case req.hasIfNoneMatch && a.etag != nil && etagMatches(string(req.ifNoneMatch), a.etag[0]):
		block = w.notModified
	default:
		c := acceptedIn(req.acceptEncoding[:req.nAcceptEncoding])
		switch br := a.br.Load(); {
		case c.br && br != nil:
			block, body = w.br.Load().block(s, a, br.body, "br"), br.body
		case c.gzip:
			if c.br {
				a.queueBrotli()
			}
			block, body = w.gzip, a.gz
		default:
			p, err := a.plainBody()
			if err != nil {
				return false, errHandOff
			}
			block, body = w.plain.Load().block(s, a, p.body, ""), p.body
		}
	}
	if req.head {
		body = nil
	}
	fc.date = appendDate(fc.date[:0])
	bufs := net.Buffers(fc.bufs[:0])
	bufs = append(bufs, block, fc.date)
	if req.close {
		bufs = append(bufs, connectionClose)
	}
	bufs = append(bufs, crlf)
	if len(body) > 0 {
		bufs = append(bufs, body)
	}
	fc.c.SetWriteDeadline(time.Now().Add(fastWriteTimout))
	if _, err := bufs.WriteTo(fc.c); err != nil {
		return false, err
	}
	return !req.close, nil
}

var (
	crlf            = []byte("\r\n")
	connectionClose = []byte("Connection: close\r\n")
)

// dateCache holds the Date line of the current second.
var dateCache atomic.Pointer[dateLine]

type dateLine struct {
	sec  int64
	line []byte
}

func appendDate(b []byte) []byte {
	now := time.Now()
	d := dateCache.Load()
	if d == nil || d.sec != now.Unix() {
		line := now.UTC().AppendFormat([]byte("Date: "), http.TimeFormat)
		d = &dateLine{sec: now.Unix(), line: append(line, "\r\n"...)}
		dateCache.Store(d)
	}
	return append(b, d.line...)
}

// wireBlocks are an answer's response heads without Date and the final
// blank line, built once per answer: gzip and 304 when it is kept, plain
// and brotli when first needed (their lengths are known then).
type wireBlocks struct {
	gzip, notModified []byte
	plain, br         atomic.Pointer[lazyBlock]
}

type lazyBlock struct {
	once sync.Once
	b    []byte
}

func (lb *lazyBlock) block(s *server, a *answer, body []byte, encoding string) []byte {
	lb.once.Do(func() { lb.b = s.headBlock(a, http.StatusOK, encoding, len(body)) })
	return lb.b
}

func (a *answer) wire(s *server) *wireBlocks {
	if w := a.wireCache.Load(); w != nil {
		return w
	}
	w := &wireBlocks{gzip: s.headBlock(a, http.StatusOK, "gzip", len(a.gz)), notModified: s.headBlock(a, http.StatusNotModified, "", 0)}
	w.plain.Store(&lazyBlock{})
	w.br.Store(&lazyBlock{})
	if !a.wireCache.CompareAndSwap(nil, w) {
		return a.wireCache.Load()
	}
	return w
}

// headBlock writes the status line and the headers net/http would send for
// the answer (ServeHTTP's, sendAnswer's), sorted as net/http sorts them.
func (s *server) headBlock(a *answer, status int, encoding string, n int) []byte {
	h := http.Header{}
	for _, kv := range securityHeaders {
		h[kv[0]] = []string{kv[1]}
	}
	h[BuildHeader] = s.buildHeader
	if a.api {
		h["Access-Control-Allow-Origin"] = []string{"*"} // as cors sets it
	}
	h["Vary"] = varyAcceptEncoding
	h["Cache-Control"] = a.cacheControl
	if a.etag != nil {
		h["Etag"] = a.etag
	}
	if status == http.StatusOK {
		h["Content-Type"] = a.contentType
		h["Content-Length"] = []string{strconv.Itoa(n)}
		if encoding != "" {
			h["Content-Encoding"] = []string{encoding}
		}
	}
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 ")
	b.WriteString(strconv.Itoa(status))
	b.WriteByte(' ')
	b.WriteString(http.StatusText(status))
	b.WriteString("\r\n")
	for _, k := range keys {
		for _, v := range h[k] {
			b.WriteString(k)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteString("\r\n")
		}
	}
	return b.Bytes()
}

// The field checks net/http makes (golang.org/x/net/http/httpguts's
// ValidHeaderFieldName, ValidHeaderFieldValue and ValidHostHeader).

func validFieldName(b []byte) bool {
	return len(b) > 0 && alnumOr(b, "!#$%&'*+-.^_`|~")
}

func validFieldValue(b []byte) bool {
	for _, c := range b {
		if (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

func validHost(b []byte) bool {
	return alnumOr(b, "!$%&()*+,-.:;=['[]_~")
}

// alnumOr says whether every byte of b is an ASCII letter, a digit or one
// of punct.
func alnumOr(b []byte, punct string) bool {
	for _, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte(punct, c) >= 0:
		default:
			return false
		}
	}
	return true
}

// renderForFastPath runs the handler on the request in head, discarding
// the response, and returns the answer it kept, if any.
func (s *server) renderForFastPath(head []byte, c net.Conn) *answer {
	if s.cache == nil {
		return nil
	}
	r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
	if err != nil {
		return nil
	}
	r.RemoteAddr = c.RemoteAddr().String()
	s.ServeHTTP(&discardResponse{h: http.Header{}}, r)
	return s.cache.get(r.RequestURI)
}

// discardResponse is a ResponseWriter that keeps nothing.
type discardResponse struct{ h http.Header }

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardResponse) WriteHeader(int)             {}

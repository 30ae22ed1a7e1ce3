package amdxml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// scanner is a small, strict XML tokenizer for the subset of XML that AMD's
// ISA files use: elements, attributes, character data with the predefined
// and numeric character references, CDATA sections, comments and processing
// instructions. Document type declarations are refused. It exists because
// encoding/xml tokenizes these files at about 30 MB/s on our machines, and
// a 10 MB file per architecture times nine adds up; this one reads the
// input through a sliding window, finds delimiters with bytes.IndexByte and
// allocates only when a token crosses the window.
//
// Byte slices it hands out (name, attrs, text) stay valid until the next
// call to next.
type scanner struct {
	r    io.Reader
	file string
	rerr error // sticky read error; io.EOF once the input is exhausted

	buf      []byte
	pos, end int // unread input is buf[pos:end]

	// Line bookkeeping, done lazily: newlines before linePos are counted in
	// line, and lineStart is the buffer index where that line starts (it can
	// be negative after the window slides).
	line, linePos, lineStart int

	tokPos int // buffer index of the current token's first byte

	name       []byte
	attrs      []rawAttr
	text       []byte
	scratch    []byte // decoded attribute values and text
	pendingEnd bool   // a self-closing tag still owes its end token
	stack      []string
	names      interner // element names
	root       bool     // the root element has started
	started    bool     // the byte order mark check is done
}

type rawAttr struct{ name, value []byte }

// span is a piece of the scanner's scratch buffer.
type span struct{ start, end int }

type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokStart
	tokEnd
	tokText
)

const (
	initialWindow = 64 << 10
	maxToken      = 256 << 20 // one tag or text run larger than this is refused
)

// errNeedMore says the token at pos continues past end.
var errNeedMore = errors.New("need more input")

// newScanner reads r through a window of the given initial size; the window
// grows when one token does not fit.
func newScanner(r io.Reader, file string, window int) *scanner {
	return &scanner{r: r, file: file, buf: make([]byte, max(window, 16)), line: 1, names: interner{}}
}

// Error is a parse error at a place in an input file.
type Error struct {
	File      string
	Line, Col int
	Err       error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// position returns the line and column (in bytes, from 1) of buffer index i.
func (s *scanner) position(i int) (line, col int) {
	if i > s.linePos {
		chunk := s.buf[s.linePos:i]
		if n := bytes.Count(chunk, []byte{'\n'}); n > 0 {
			s.line += n
			s.lineStart = s.linePos + bytes.LastIndexByte(chunk, '\n') + 1
		}
		s.linePos = i
	}
	return s.line, i - s.lineStart + 1
}

func (s *scanner) errAt(i int, format string, args ...any) error {
	line, col := s.position(i)
	return &Error{File: s.file, Line: line, Col: col, Err: fmt.Errorf(format, args...)}
}

// tokenLine is the line where the current token starts.
func (s *scanner) tokenLine() int {
	line, _ := s.position(s.tokPos)
	return line
}

// fill slides the window to pos and reads more input; it reports false when
// no more input will come.
func (s *scanner) fill() (bool, error) {
	if s.rerr != nil {
		return false, nil
	}
	if s.pos > 0 {
		s.position(s.pos)
		n := copy(s.buf, s.buf[s.pos:s.end])
		s.linePos -= s.pos
		s.lineStart -= s.pos
		s.tokPos -= s.pos
		s.end = n
		s.pos = 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= maxToken {
			return false, s.errAt(s.pos, "a single token is longer than %d bytes", maxToken)
		}
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	// Read until the window is full: rescanning a long token after every
	// short read would cost time quadratic in its length.
	before := s.end
	for s.end < len(s.buf) {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.rerr = err
			if err != io.EOF {
				line, col := s.position(s.end)
				return false, &Error{File: s.file, Line: line, Col: col, Err: err}
			}
			break
		}
	}
	return s.end > before, nil
}

func (s *scanner) intern(b []byte) string { return s.names.intern(b) }

// next reads the next token: a start tag (name, attrs), an end tag (name),
// a run of character data (text, entities decoded) or the end of input.
// Comments and processing instructions are skipped. Start and end tags are
// checked to nest properly; end of input inside an element is an error.
func (s *scanner) next() (tokenKind, error) {
	if s.pendingEnd {
		s.pendingEnd = false
		s.stack = s.stack[:len(s.stack)-1]
		return tokEnd, nil
	}
	for {
		s.tokPos = s.pos
		kind, n, err := s.scan()
		if err == errNeedMore {
			more, ferr := s.fill()
			if ferr != nil {
				return tokEOF, ferr
			}
			if !s.started && (s.end-s.pos >= 3 || !more) {
				s.started = true
				if bytes.HasPrefix(s.buf[s.pos:s.end], []byte("\xEF\xBB\xBF")) {
					s.pos += 3
				}
			}
			if more {
				continue
			}
			if s.pos == s.end {
				if len(s.stack) > 0 {
					return tokEOF, s.errAt(s.end, "unexpected end of file inside <%s>", s.stack[len(s.stack)-1])
				}
				return tokEOF, nil
			}
			// Only text can run to the end of input; anything else is cut off.
			if s.buf[s.pos] != '<' {
				kind, n, err = s.scanText(true)
			} else {
				return tokEOF, s.errAt(s.end, "unexpected end of file in markup")
			}
		}
		if err != nil {
			return tokEOF, err
		}
		s.pos += n
		if kind == tokEOF { // skipped a comment or processing instruction
			continue
		}
		return kind, nil
	}
}

// scan tokenizes at pos. It returns the token kind (tokEOF for something
// skipped) and its length in bytes.
func (s *scanner) scan() (tokenKind, int, error) {
	b := s.buf[s.pos:s.end]
	if len(b) == 0 {
		return tokEOF, 0, errNeedMore
	}
	if b[0] != '<' {
		return s.scanText(false)
	}
	if len(b) < 2 {
		return tokEOF, 0, errNeedMore
	}
	switch b[1] {
	case '/':
		return s.scanEnd(b)
	case '?':
		i := bytes.Index(b[2:], []byte("?>"))
		if i < 0 {
			return tokEOF, 0, errNeedMore
		}
		return tokEOF, i + 4, nil
	case '!':
		return s.scanBang(b)
	}
	return s.scanStart(b)
}

func (s *scanner) scanText(atEOF bool) (tokenKind, int, error) {
	b := s.buf[s.pos:s.end]
	i := bytes.IndexByte(b, '<')
	if i < 0 {
		if !atEOF {
			return tokEOF, 0, errNeedMore
		}
		i = len(b)
	}
	raw := b[:i]
	if !utf8.Valid(raw) {
		return tokEOF, 0, s.errAt(s.pos, "invalid UTF-8 in character data")
	}
	if bytes.IndexByte(raw, '&') < 0 {
		s.text = raw
	} else {
		var err error
		s.scratch, err = s.decodeEntities(s.scratch[:0], raw, s.pos)
		if err != nil {
			return tokEOF, 0, err
		}
		s.text = s.scratch
	}
	return tokText, i, nil
}

func (s *scanner) scanBang(b []byte) (tokenKind, int, error) {
	switch {
	case bytes.HasPrefix(b, []byte("<!--")):
		i := bytes.Index(b[4:], []byte("-->"))
		if i < 0 {
			return tokEOF, 0, errNeedMore
		}
		return tokEOF, i + 7, nil
	case bytes.HasPrefix(b, []byte("<![CDATA[")):
		i := bytes.Index(b[9:], []byte("]]>"))
		if i < 0 {
			return tokEOF, 0, errNeedMore
		}
		if len(s.stack) == 0 {
			return tokEOF, 0, s.errAt(s.pos, "CDATA section outside the root element")
		}
		s.text = b[9 : 9+i]
		if !utf8.Valid(s.text) {
			return tokEOF, 0, s.errAt(s.pos, "invalid UTF-8 in CDATA section")
		}
		return tokText, i + 12, nil
	case len(b) < 9:
		return tokEOF, 0, errNeedMore
	}
	return tokEOF, 0, s.errAt(s.pos, "unsupported markup %q (document type declarations are refused)", clip(b, 9))
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// scanName reads a name at b[i:], returning its end.
func (s *scanner) scanName(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errNeedMore
	}
	if !isNameStart(b[i]) {
		return 0, s.errAt(s.pos+i, "expected a name, found %q", b[i])
	}
	j := i + 1
	for j < len(b) && isNameByte(b[j]) {
		j++
	}
	if j == len(b) {
		return 0, errNeedMore
	}
	return j, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func (s *scanner) scanEnd(b []byte) (tokenKind, int, error) {
	j, err := s.scanName(b, 2)
	if err != nil {
		return tokEOF, 0, err
	}
	name := b[2:j]
	k := skipSpace(b, j)
	if k == len(b) {
		return tokEOF, 0, errNeedMore
	}
	if b[k] != '>' {
		return tokEOF, 0, s.errAt(s.pos+k, "expected '>' to close </%s", name)
	}
	if len(s.stack) == 0 {
		return tokEOF, 0, s.errAt(s.pos, "unexpected end tag </%s>", name)
	}
	if top := s.stack[len(s.stack)-1]; top != string(name) {
		return tokEOF, 0, s.errAt(s.pos, "end tag </%s> does not match <%s>", name, top)
	}
	s.stack = s.stack[:len(s.stack)-1]
	s.name = name
	return tokEnd, k + 1, nil
}

func (s *scanner) scanStart(b []byte) (tokenKind, int, error) {
	j, err := s.scanName(b, 1)
	if err != nil {
		return tokEOF, 0, err
	}
	if len(s.stack) == 0 && s.sawRoot() {
		return tokEOF, 0, s.errAt(s.pos, "second root element <%s>", b[1:j])
	}
	name := b[1:j]
	s.attrs = s.attrs[:0]
	s.scratch = s.scratch[:0]
	// Attribute values that need decoding go to scratch; their slices are
	// taken only once scratch has stopped growing.
	var decoded [8]span
	decodedIdx := decoded[:0]
	i := j
	for {
		k := skipSpace(b, i)
		if k == len(b) {
			return tokEOF, 0, errNeedMore
		}
		switch {
		case b[k] == '>':
			s.finishStart(name, decodedIdx)
			return tokStart, k + 1, nil
		case b[k] == '/':
			if k+1 == len(b) {
				return tokEOF, 0, errNeedMore
			}
			if b[k+1] != '>' {
				return tokEOF, 0, s.errAt(s.pos+k, "expected '>' after '/' in <%s", name)
			}
			s.finishStart(name, decodedIdx)
			s.pendingEnd = true
			return tokStart, k + 2, nil
		case k == i:
			return tokEOF, 0, s.errAt(s.pos+k, "expected space, '>' or '/>' in <%s, found %q", name, b[k])
		}
		ne, err := s.scanName(b, k)
		if err != nil {
			return tokEOF, 0, err
		}
		q := skipSpace(b, ne)
		if q == len(b) {
			return tokEOF, 0, errNeedMore
		}
		if b[q] != '=' {
			return tokEOF, 0, s.errAt(s.pos+q, "expected '=' after attribute %s", b[k:ne])
		}
		q = skipSpace(b, q+1)
		if q == len(b) {
			return tokEOF, 0, errNeedMore
		}
		quote := b[q]
		if quote != '"' && quote != '\'' {
			return tokEOF, 0, s.errAt(s.pos+q, "attribute %s value is not quoted", b[k:ne])
		}
		e := bytes.IndexByte(b[q+1:], quote)
		if e < 0 {
			return tokEOF, 0, errNeedMore
		}
		val := b[q+1 : q+1+e]
		if bytes.IndexByte(val, '<') >= 0 {
			return tokEOF, 0, s.errAt(s.pos+q, "'<' in the value of attribute %s", b[k:ne])
		}
		if !utf8.Valid(val) {
			return tokEOF, 0, s.errAt(s.pos+q, "invalid UTF-8 in attribute %s", b[k:ne])
		}
		if bytes.IndexByte(val, '&') >= 0 {
			start := len(s.scratch)
			s.scratch, err = s.decodeEntities(s.scratch, val, s.pos+q+1)
			if err != nil {
				return tokEOF, 0, err
			}
			decodedIdx = append(decodedIdx, span{start, len(s.scratch)})
			val = nil // filled in by finishStart
		}
		s.attrs = append(s.attrs, rawAttr{name: b[k:ne], value: val})
		i = q + 1 + e + 1
	}
}

// finishStart points decoded attribute values into scratch and pushes the
// element.
func (s *scanner) finishStart(name []byte, decoded []span) {
	d := 0
	for i := range s.attrs {
		if s.attrs[i].value == nil && d < len(decoded) {
			s.attrs[i].value = s.scratch[decoded[d].start:decoded[d].end]
			d++
		}
	}
	s.name = name
	s.stack = append(s.stack, s.intern(name))
	s.root = true
}

func (s *scanner) sawRoot() bool { return s.root }

// attr returns the value of the current start tag's attribute called name.
func (s *scanner) attr(name string) ([]byte, bool) {
	for _, a := range s.attrs {
		if string(a.name) == name {
			return a.value, true
		}
	}
	return nil, false
}

// decodeEntities appends src to dst with character references replaced.
// at is src's buffer index, for error positions.
func (s *scanner) decodeEntities(dst, src []byte, at int) ([]byte, error) {
	for len(src) > 0 {
		i := bytes.IndexByte(src, '&')
		if i < 0 {
			return append(dst, src...), nil
		}
		dst = append(dst, src[:i]...)
		at += i
		src = src[i:]
		semi := bytes.IndexByte(src, ';')
		if semi < 0 || semi > 12 {
			return nil, s.errAt(at, "'&' does not start a character reference")
		}
		ref := src[1:semi]
		switch string(ref) {
		case "lt":
			dst = append(dst, '<')
		case "gt":
			dst = append(dst, '>')
		case "amp":
			dst = append(dst, '&')
		case "apos":
			dst = append(dst, '\'')
		case "quot":
			dst = append(dst, '"')
		default:
			r, ok := charRef(ref)
			if !ok {
				return nil, s.errAt(at, "unknown character reference &%s;", ref)
			}
			dst = utf8.AppendRune(dst, r)
		}
		at += semi + 1
		src = src[semi+1:]
	}
	return dst, nil
}

// charRef decodes "#123" or "#x7b" to a character allowed in XML.
func charRef(ref []byte) (rune, bool) {
	if len(ref) < 2 || ref[0] != '#' {
		return 0, false
	}
	digits, base := ref[1:], rune(10)
	if digits[0] == 'x' {
		digits, base = digits[1:], 16
	}
	if len(digits) == 0 || len(digits) > 8 {
		return 0, false
	}
	var r rune
	for _, c := range digits {
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = rune(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = rune(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = rune(c-'A') + 10
		default:
			return 0, false
		}
		r = r*base + d
	}
	ok := r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
	return r, ok
}

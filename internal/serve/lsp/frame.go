package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// frameStream is the LSP base protocol (Content-Length headers, then a
// JSON body) as a jsonrpc2.ObjectStream.
//
// It replaces jsonrpc2.VSCodeObjectCodec because that codec cannot
// survive a damaged frame: jsonrpc2.Conn closes the connection on any
// ReadObject error, and the codec returns one for a Content-Length that
// is short, negative or missing, for "\n" line endings and for a body
// that is not JSON — the server then exited 0 with one log line, or none
// (a short body is io.ErrUnexpectedEOF, which jsonrpc2 does not log). The
// codec also reads header lines of any length. So recovery has to happen
// inside ReadObject: a damaged frame is logged, answered when it was a
// request (with its id when the part that arrived names one, else with
// a null id as JSON-RPC asks for a parse error) and skipped, and reading
// goes on at the next header. Only the input's end (or a read error)
// ends the stream.
type frameStream struct {
	r   *bufio.Reader
	w   io.Writer
	c   io.Closer
	log io.Writer

	wmu sync.Mutex // one frame written at a time
	// lfOnly is set once a header ended in "\n" alone: accepted (several
	// clients write them), and logged once.
	lfOnly bool
}

// maxHeaderLine bounds one header line; a longer one is junk, skipped
// except for its last bytes (where the next frame's header may start).
const maxHeaderLine = 4096

// maxFrame bounds one message's body: the largest document the server
// parses, JSON-escaped (a tab or quote is two bytes), and the envelope.
// A longer body is read past without being kept.
const maxFrame = 2*maxDocument + 1<<20

// JSON-RPC error codes the stream answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

func newFrameStream(rw io.ReadWriteCloser, log io.Writer) *frameStream {
	return &frameStream{r: bufio.NewReaderSize(rw, maxHeaderLine), w: rw, c: rw, log: log}
}

// WriteObject writes one framed message.
func (f *frameStream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return f.writeFrame(data)
}

func (f *frameStream) writeFrame(data []byte) error {
	frame := make([]byte, 0, len(data)+32)
	frame = fmt.Appendf(frame, "Content-Length: %d\r\n\r\n", len(data))
	frame = append(frame, data...)
	f.wmu.Lock()
	defer f.wmu.Unlock()
	_, err := f.w.Write(frame)
	return err
}

// Close closes the connection.
func (f *frameStream) Close() error { return f.c.Close() }

// ReadObject reads the next well-formed message into v, skipping (and
// answering) damaged ones.
func (f *frameStream) ReadObject(v any) error {
	for {
		body, err := f.readFrame()
		if err != nil {
			return err
		}
		if body == nil {
			continue // skipped, and answered
		}
		if err := json.Unmarshal(body, v); err != nil {
			// Unmarshal checks the whole body is JSON before it decodes
			// any of it, so v is untouched when it is not.
			var syntax *json.SyntaxError
			if errors.As(err, &syntax) {
				f.reject(body, codeParseError, "the message body is not JSON")
			} else {
				f.reject(body, codeInvalidRequest, "the message is not a JSON-RPC 2.0 message: "+err.Error())
			}
			continue
		}
		return nil
	}
}

// readFrame reads one frame's headers and body; nil, nil is a frame it
// skipped. Bytes before a header (what a frame had beyond its
// Content-Length) and lines that are no header are skipped and logged.
func (f *frameStream) readFrame() ([]byte, error) {
	length := int64(-1)
	bad := ""        // why the headers give no usable length
	started := false // a header line was read
	for {
		line, skipped, err := f.readLine()
		if err != nil {
			if started && errors.Is(err, io.EOF) {
				f.logf("the input ended inside a message's headers")
			}
			return nil, err
		}
		if i := indexContentLength(line); i > 0 || skipped > 0 {
			// The previous frame was longer than it said, or junk came
			// in between: start this frame afresh at its header.
			if i < 0 {
				i = len(line)
			}
			f.logf("skipped %d bytes that belong to no message (was the previous Content-Length short?)", skipped+i)
			line, length, bad, started = line[i:], -1, "", false
			if line == "" {
				continue
			}
		}
		if line == "" {
			if !started {
				continue // blank lines between frames
			}
			break
		}
		started = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("header line %q has no colon", excerpt(line))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "content-length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				bad = fmt.Sprintf("Content-Length %q is not a length", excerpt(strings.TrimSpace(value)))
				length = -1
				continue
			}
			length, bad = n, ""
		}
		// Content-Type is utf-8 JSON, the only kind there is; other
		// headers mean nothing here.
	}
	if length < 0 {
		if bad == "" {
			bad = "the headers have no Content-Length"
		}
		return nil, f.skipUnframed(bad)
	}
	if length > maxFrame {
		return nil, f.skipLong(length)
	}
	body := make([]byte, length)
	if n, err := io.ReadFull(f.r, body); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			f.logf("the input ended %d bytes into a message of %d", n, length)
		}
		return nil, err
	}
	return body, nil
}

// readLine reads one header line without its "\r\n" or "\n". A line
// longer than maxHeaderLine is returned as its last part, with the
// number of bytes dropped before it.
func (f *frameStream) readLine() (string, int, error) {
	var carry []byte
	skipped := 0
	for {
		chunk, err := f.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Keep a tail in which a header ("Content-Length: 123")
			// can start; drop the rest.
			all := append(carry, chunk...)
			keep := min(len(all), 64)
			skipped += len(all) - keep
			carry = append([]byte(nil), all[len(all)-keep:]...)
			continue
		}
		if err != nil {
			return "", skipped, err
		}
		line := append(carry, chunk...)
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		} else if !f.lfOnly {
			f.lfOnly = true
			f.logf(`a header line ends in "\n" without "\r" (accepted; the protocol asks for "\r\n")`)
		}
		return string(line), skipped, nil
	}
}

// skipUnframed reads past the body of a frame whose length is unknown:
// one JSON value, read a byte at a time so that nothing after it is
// taken, bounded by maxFrame. If that is not JSON either, the bytes up
// to the next header are skipped by readFrame.
func (f *frameStream) skipUnframed(why string) error {
	br := &byteReader{r: f.r, left: maxFrame}
	var raw json.RawMessage
	if err := json.NewDecoder(br).Decode(&raw); err != nil {
		if br.err != nil && !errors.Is(br.err, errLimit) {
			return br.err // the input ended
		}
		f.reject(br.seen.Bytes(), codeParseError, why)
		return nil
	}
	f.reject(raw, codeInvalidRequest, why)
	return nil
}

// skipLong reads past a body longer than maxFrame, keeping its first
// bytes to find the message's id.
func (f *frameStream) skipLong(length int64) error {
	head := make([]byte, 4096)
	n, err := io.ReadFull(f.r, head)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(io.Discard, f.r, length-int64(n)); err != nil {
		return err
	}
	f.reject(head, codeInvalidRequest, fmt.Sprintf("the message is %d bytes, more than the %d the server reads", length, maxFrame))
	return nil
}

// reject logs a skipped message and, when it was a request (or its id
// cannot be known), answers it with an error.
func (f *frameStream) reject(body []byte, code int, why string) {
	id, hasID := topLevelID(body)
	f.logf("protocol error: %s; skipped the message %q", why, excerpt(string(body)))
	if !hasID && code != codeParseError {
		return // a notification: nothing to answer
	}
	if !hasID {
		id = json.RawMessage("null")
	}
	msg, _ := json.Marshal(why)
	resp := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, msg)
	if err := f.writeFrame(resp); err != nil {
		f.logf("answering a damaged message: %v", err)
	}
}

// topLevelID is the "id" of a JSON object, read as far as the body goes:
// a cut body still names its id when it came before the cut (clients
// write it before the params).
func topLevelID(body []byte) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		if k == "id" {
			if len(raw) > 0 && (raw[0] == '"' || raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
				return raw, true
			}
			return nil, false
		}
	}
	return nil, false
}

// indexContentLength is where "Content-Length:" starts in line, in any
// case, -1 for nowhere. (strings.ToLower would move the offsets of a line
// with non-ASCII bytes.)
func indexContentLength(line string) int {
	const h = "content-length:"
	for i := 0; i+len(h) <= len(line); i++ {
		if strings.EqualFold(line[i:i+len(h)], h) {
			return i
		}
	}
	return -1
}

// excerpt bounds what a log line quotes of the client's bytes.
func excerpt(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func (f *frameStream) logf(format string, args ...any) {
	fmt.Fprintf(f.log, "gpuisa lsp: "+format+"\n", args...)
}

var errLimit = errors.New("longer than a message may be")

// byteReader hands a json.Decoder one byte per Read, so that it takes no
// byte past the value it decodes; it keeps the first bytes it gave.
type byteReader struct {
	r    *bufio.Reader
	left int64
	seen bytes.Buffer
	err  error
}

func (b *byteReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		b.err = errLimit
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	c, err := b.r.ReadByte()
	if err != nil {
		b.err = err
		return 0, err
	}
	b.left--
	if b.seen.Len() < 4096 {
		b.seen.WriteByte(c)
	}
	p[0] = c
	return 1, nil
}

package lsp

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// fuzzConn is a connection whose input is the fuzzer's bytes and whose
// output (the stream's answers to damaged messages) is kept.
type fuzzConn struct {
	in  *bytes.Reader
	out bytes.Buffer
}

func (c *fuzzConn) Read(p []byte) (int, error)  { return c.in.Read(p) }
func (c *fuzzConn) Write(p []byte) (int, error) { return c.out.Write(p) }
func (c *fuzzConn) Close() error                { return nil }

// FuzzFrames: any bytes on the wire are read to their end without a panic;
// every message ReadObject returns is JSON, and every answer the stream
// writes to a damaged message is itself a well-formed frame.
func FuzzFrames(f *testing.F) {
	for _, seed := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}       ",
		"Content-Length: 10\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"x\"}",
		"Content-Length: -5\r\n\r\n{}",
		"\r\n\r\n{}",
		"Content-Length: 2\n\n{}",
		"Content-Length: 3\r\n\r\nabc",
		"Content-Type: x\r\nContent-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\n[]",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		conn := &fuzzConn{in: bytes.NewReader(data)}
		s := newFrameStream(conn, io.Discard)
		for n := 0; n <= len(data); n++ {
			var v json.RawMessage
			if err := s.ReadObject(&v); err != nil {
				break
			}
			if !json.Valid(v) {
				t.Fatalf("message %d is not JSON: %q", n, v)
			}
		}
		answers := newFrameStream(&fuzzConn{in: bytes.NewReader(conn.out.Bytes())}, io.Discard)
		for {
			var v json.RawMessage
			if err := answers.ReadObject(&v); err != nil {
				break
			}
		}
		if bytes.Contains(conn.out.Bytes(), []byte("Content-Length")) && !bytes.HasPrefix(conn.out.Bytes(), []byte("Content-Length: ")) {
			t.Fatalf("answers do not start with a frame header: %q", conn.out.Bytes())
		}
	})
}

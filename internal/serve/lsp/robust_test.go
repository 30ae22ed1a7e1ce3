package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
)

// The tests here speak to the server in-process over pipes, in raw
// frames, over the sample reference (webfake): they need no built
// database.

// pipeClient writes raw bytes to a server and reads its framed messages
// with jsonrpc2's own codec, which shares no code with the server's.
type pipeClient struct {
	t    *testing.T
	w    io.WriteCloser
	in   chan message // every message the server sent
	done chan struct{}
	logs *syncBuffer
}

type message struct {
	ID     json.RawMessage `json:"id"` // "null" for a null id, empty for none
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc2.Error `json:"error"`
	at     time.Time
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func sampleDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sample.db")
	if err := store.Write(context.Background(), path, webfake.Build()); err != nil {
		t.Fatalf("writing the sample database: %v", err)
	}
	return path
}

// startPipe serves on pipes and sends initialize and initialized.
func startPipe(t *testing.T, db string) *pipeClient {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	c := &pipeClient{t: t, w: fromClient, in: make(chan message, 1<<16), done: make(chan struct{}), logs: &syncBuffer{}}
	go func() {
		serve(Options{DB: db, Log: c.logs}, conn{toServer, fromServer})
		close(c.done)
	}()
	go func() {
		r := bufio.NewReader(toClient)
		for {
			var m message
			if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m); err != nil {
				close(c.in)
				return
			}
			m.at = time.Now()
			c.in <- m
		}
	}()
	t.Cleanup(func() {
		fromClient.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not end when its input did")
		}
		toClient.Close()
	})
	c.send(1, "initialize", map[string]any{"capabilities": map[string]any{}})
	c.answer(1)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *pipeClient) raw(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, s); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func request(id int, method string, params any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return string(b)
}

func (c *pipeClient) send(id int, method string, params any) {
	c.raw(frame(request(id, method, params)))
}

func (c *pipeClient) notify(method string, params any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	c.raw(frame(string(b)))
}

// next returns the next message that match accepts, failing after a
// minute; the messages it passes over are dropped.
func (c *pipeClient) next(what string, match func(message) bool) message {
	c.t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatalf("the server ended before %s\n%s", what, c.logs.String())
			}
			if match(m) {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no %s in a minute\n%s", what, c.logs.String())
		}
	}
}

// answer waits for the answer to request id.
func (c *pipeClient) answer(id int) message {
	c.t.Helper()
	want := fmt.Sprint(id)
	return c.next("answer to request "+want, func(m message) bool {
		return m.Method == "" && string(m.ID) == want
	})
}

func (c *pipeClient) open(uri, text string, version int) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "amdgpu", "version": version, "text": text}})
}

func (c *pipeClient) change(uri, text string, version int) {
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}}})
}

func hoverParams(uri string, line, char int) any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
}

type published struct {
	URI         string `json:"uri"`
	Version     *int   `json:"version"`
	Diagnostics []struct {
		Message string `json:"message"`
	} `json:"diagnostics"`
}

func (m message) diagnostics() (published, bool) {
	var p published
	if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &p) != nil {
		return p, false
	}
	return p, true
}

// TestDamagedFramesAreSkipped: each damaged frame the adversarial pass
// sent (issue 30) is logged and answered, or skipped, and the next good
// request is still answered; the server ends only when its input does.
func TestDamagedFramesAreSkipped(t *testing.T) {
	c := startPipe(t, sampleDB(t))
	probe := func(id int) {
		t.Helper()
		c.send(id, "textDocument/hover", hoverParams("file:///none.s", 0, 0))
		if m := c.answer(id); m.Error != nil {
			t.Fatalf("the good request after the damaged frame: %v", m.Error)
		}
	}
	errorFor := func(id string) message {
		t.Helper()
		return c.next("error answer with id "+id, func(m message) bool {
			return m.Method == "" && string(m.ID) == id && m.Error != nil
		})
	}
	hover := func(id int) string { return request(id, "textDocument/hover", hoverParams("file:///none.s", 0, 0)) }

	// Content-Length 10 bytes short: the body is cut, its id read from
	// what came; the 10 bytes left are skipped before the next header.
	body := hover(10)
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body)-10, body))
	if m := errorFor("10"); m.Error.Code != codeParseError {
		t.Errorf("short Content-Length: code %d, want %d", m.Error.Code, codeParseError)
	}
	probe(11)

	// A negative Content-Length, and none at all: the JSON value after
	// the headers is read past and its request refused.
	c.raw("Content-Length: -5\r\n\r\n" + hover(12))
	if m := errorFor("12"); m.Error.Code != codeInvalidRequest || !strings.Contains(m.Error.Message, "-5") {
		t.Errorf("negative Content-Length: %+v", m.Error)
	}
	probe(13)
	c.raw("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + hover(14))
	if m := errorFor("14"); !strings.Contains(m.Error.Message, "no Content-Length") {
		t.Errorf("missing Content-Length: %+v", m.Error)
	}
	probe(15)

	// "\n" line endings are accepted.
	body = hover(16)
	c.raw(fmt.Sprintf("Content-Length: %d\n\n%s", len(body), body))
	if m := c.answer(16); m.Error != nil {
		t.Errorf(`"\n" line endings: %v`, m.Error)
	}

	// A framed body that is not JSON: a parse error with a null id.
	c.raw(frame("this is not JSON"))
	m := errorFor("null")
	if m.Error.Code != codeParseError {
		t.Errorf("a body that is not JSON: code %d, want %d", m.Error.Code, codeParseError)
	}
	probe(17)

	// A header line far longer than any header, then a good frame.
	c.raw(strings.Repeat("x", 100000) + "\r\n")
	probe(18)

	// Junk with non-ASCII bytes that change length when lower-cased,
	// right before a header.
	c.raw("\xc4\xb0\xe2\x84\xaaİK")
	probe(19)

	select {
	case <-c.done:
		t.Fatal("the server ended")
	default:
	}
	logs := c.logs.String()
	for _, want := range []string{"protocol error", "skipped", `"\n"`, "not JSON"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not say %q:\n%s", want, logs)
		}
	}
}

// bigFile is about n bytes of AMDGPU assembly with a target.
func bigFile(n int) string {
	var b strings.Builder
	b.WriteString("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n")
	for b.Len() < n {
		b.WriteString("\tv_max_f32 v1, v2, v3\n\tv_mxa_f32 v1, v2, v3\n")
	}
	return b.String()
}

// TestHoverWhileABigFileIsDiagnosed: a hover on a small file is answered
// while a 20 MB file is still being parsed and diagnosed (the hover
// used to wait behind it: 18.7 s), and a request on the big file that
// the client cancels is answered as cancelled before its parse ends.
// The bound is the order of events, not a wall-clock number, so that a
// loaded machine does not fail it.
func TestHoverWhileABigFileIsDiagnosed(t *testing.T) {
	c := startPipe(t, sampleDB(t))
	c.open("file:///big.s", bigFile(20<<20), 1)
	c.send(2, "textDocument/hover", hoverParams("file:///big.s", 1, 3))
	c.notify("$/cancelRequest", map[string]any{"id": 2})
	c.open("file:///small.s", "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\tv_max_f32 v1, v2, v3\n", 1)
	sent := time.Now()
	c.send(3, "textDocument/hover", hoverParams("file:///small.s", 1, 3))
	var hover, cancelled, big message
	for hover.at.IsZero() || cancelled.at.IsZero() || big.at.IsZero() {
		m := c.next("hover, cancellation and the big file's diagnostics", func(message) bool { return true })
		switch p, ok := m.diagnostics(); {
		case ok && p.URI == "file:///big.s":
			big = m
		case string(m.ID) == "3":
			hover = m
		case string(m.ID) == "2":
			cancelled = m
		}
	}
	t.Logf("hover on the small file in %v; the big file diagnosed %v after the hover was sent", hover.at.Sub(sent), big.at.Sub(sent))
	if !strings.Contains(string(hover.Result), "v_max_f32") {
		t.Errorf("hover on the small file: %s %v", hover.Result, hover.Error)
	}
	if !hover.at.Before(big.at) {
		t.Errorf("the hover was answered %v after the big file's diagnostics: it waited for them", hover.at.Sub(big.at))
	}
	if cancelled.Error == nil || cancelled.Error.Code != codeRequestCancelled {
		t.Errorf("the cancelled hover was answered %s %v, want error %d", cancelled.Result, cancelled.Error, codeRequestCancelled)
	} else if !cancelled.at.Before(big.at) {
		t.Errorf("the cancelled hover was answered only after the big file was diagnosed")
	}
}

// TestEditsAreCoalesced: 10,000 full-text changes of a 900-line file sent
// as fast as the pipe takes them are diagnosed a few times, the last
// publication being the last version's (they used to be published
// 10,001 times).
func TestEditsAreCoalesced(t *testing.T) {
	c := startPipe(t, sampleDB(t))
	lines := make([]string, 900)
	for i := range lines {
		lines[i] = "\tv_max_f32 v1, v2, v3"
	}
	lines[0] = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\""
	const uri, edits = "file:///edited.s", 10000
	c.open(uri, strings.Join(lines, "\n"), 1)
	for v := 2; v <= edits+1; v++ {
		lines[v%899+1] = fmt.Sprintf("\tv_mxa_f32 v%d, v2, v3", v%256)
		c.change(uri, strings.Join(lines, "\n"), v)
	}
	count := 0
	c.next("the last version's diagnostics", func(m message) bool {
		p, ok := m.diagnostics()
		if !ok || p.URI != uri {
			return false
		}
		count++
		return p.Version != nil && *p.Version == edits+1
	})
	t.Logf("%d changes, %d publications", edits, count)
	if count > edits/100 {
		t.Errorf("%d publications for %d changes: edits were not coalesced", count, edits)
	}
}

// TestWithoutDatabase: with no database the server starts, says "no
// database at PATH: run gpuisa build" once in a message and once per
// file as a diagnostic, and answers requests with nothing instead of an
// error each.
func TestWithoutDatabase(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	c := startPipe(t, missing)
	want := "no database at " + missing + ": run gpuisa build"
	shown := 0
	for i, uri := range []string{"file:///a.s", "file:///b.s"} {
		c.open(uri, "\tv_max_f32 v1, v2, v3\n", 1)
		m := c.next("diagnostics of "+uri, func(m message) bool {
			if m.Method == "window/showMessage" && strings.Contains(string(m.Params), want) {
				shown++
			}
			p, ok := m.diagnostics()
			return ok && p.URI == uri
		})
		p, _ := m.diagnostics()
		if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, want) {
			t.Errorf("%s: diagnostics %+v, want one saying %q", uri, p.Diagnostics, want)
		}
		c.send(10+i, "textDocument/hover", hoverParams(uri, 0, 3))
		if a := c.answer(10 + i); a.Error != nil || string(a.Result) != "null" {
			t.Errorf("hover without a database: %s %v", a.Result, a.Error)
		}
	}
	if shown != 1 {
		t.Errorf("window/showMessage said %q %d times, want once", want, shown)
	}
}

// TestFullPublicationSaysWhereItStopped: past maxDiagnostics the last
// diagnostic says checking stopped, and where.
func TestFullPublicationSaysWhereItStopped(t *testing.T) {
	c := startPipe(t, sampleDB(t))
	var b strings.Builder
	b.WriteString("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n")
	for i := 0; i < maxDiagnostics+500; i++ {
		fmt.Fprintf(&b, "\tv_bogus_%d v1\n", i)
	}
	c.open("file:///many.s", b.String(), 1)
	m := c.next("diagnostics", func(m message) bool { _, ok := m.diagnostics(); return ok })
	p, _ := m.diagnostics()
	if len(p.Diagnostics) != maxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d and the one that says so", len(p.Diagnostics), maxDiagnostics)
	}
	last := p.Diagnostics[maxDiagnostics].Message
	if want := fmt.Sprintf("stopped after %d diagnostics: none from line %d on", maxDiagnostics, maxDiagnostics+2); !strings.Contains(last, want) {
		t.Errorf("last diagnostic %q, want it to say %q", last, want)
	}
}

// TestNotificationsRightAfterInitialize: a client that sends initialized
// and didOpen before initialize's answer has them handled (initialize
// runs on the read loop, the requests after it on their own goroutines).
func TestNotificationsRightAfterInitialize(t *testing.T) {
	db := sampleDB(t)
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	c := &pipeClient{t: t, w: fromClient, in: make(chan message, 64), done: make(chan struct{}), logs: &syncBuffer{}}
	go func() {
		serve(Options{DB: db, Log: c.logs}, conn{toServer, fromServer})
		close(c.done)
	}()
	go func() {
		r := bufio.NewReader(toClient)
		for {
			var m message
			if (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m) != nil {
				close(c.in)
				return
			}
			c.in <- m
		}
	}()
	defer func() { fromClient.Close(); <-c.done; toClient.Close() }()
	c.send(1, "initialize", map[string]any{"capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.open("file:///early.s", "\tv_mxa_f32 v1, v2, v3\n", 1)
	m := c.next("diagnostics of the file opened before initialize's answer", func(m message) bool { _, ok := m.diagnostics(); return ok })
	if p, _ := m.diagnostics(); len(p.Diagnostics) != 1 {
		t.Errorf("diagnostics %+v, want the unknown mnemonic", p.Diagnostics)
	}
	if logs := c.logs.String(); strings.Contains(logs, "not initialized") {
		t.Errorf("the server refused messages after initialize:\n%s", logs)
	}
}

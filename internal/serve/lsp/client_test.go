package lsp_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gpuisa/gpuisa/internal/cli"
	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// serveEnv makes the test binary, started again with it set, run
// `gpuisa lsp` itself: the tests speak to the real command over pipes.
const serveEnv = "GPUISA_LSP_TEST_SERVE"

func TestMain(m *testing.M) {
	if args := os.Getenv(serveEnv); args != "" {
		var argv []string
		if err := json.Unmarshal([]byte(args), &argv); err != nil {
			os.Exit(2)
		}
		os.Exit(cli.Main(argv, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The real database: GPUISA_LSP_DB or GPUISA_DB, else one built once from
// the upstream sources with the llvm-mc and ptxas found (their caches make
// it take seconds after the first build).
var (
	dbOnce sync.Once
	dbPath string
	dbErr  error
)

func realDB(t testing.TB) string {
	t.Helper()
	for _, env := range []string{"GPUISA_LSP_DB", "GPUISA_DB"} {
		if p := os.Getenv(env); p != "" {
			return p
		}
	}
	src := testenv.Upstream(t)
	dbOnce.Do(func() {
		dbPath, dbErr = realdb.Shared(ingest.Options{Sources: src, NoInstall: true})
	})
	if dbErr != nil {
		t.Fatalf("building the database: %v", dbErr)
	}
	return dbPath
}

// client is a language client speaking to a `gpuisa lsp` process.
type client struct {
	t     testing.TB
	cmd   *exec.Cmd
	conn  *jsonrpc2.Conn
	mu    sync.Mutex
	diags map[string][]protocol.Diagnostic
	// versions counts publications per file, so a test can wait for the
	// next one.
	versions map[string]int
	changed  chan struct{}
	stderr   *lockedBuffer
	started  time.Duration // spawn to initialize's answer
	closed   sync.Once
}

type lockedBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

// start runs `gpuisa lsp --db DB args...` and initializes it with the
// given initializationOptions.
func start(t testing.TB, db string, initOptions any, args ...string) *client {
	t.Helper()
	argv, _ := json.Marshal(append([]string{"lsp", "--db", db}, args...))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serveEnv+"="+string(argv))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, cmd: cmd, diags: map[string][]protocol.Diagnostic{}, versions: map[string]int{}, changed: make(chan struct{}, 1), stderr: &lockedBuffer{}}
	cmd.Stderr = c.stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stream := jsonrpc2.NewBufferedStream(pipes{out, in}, jsonrpc2.VSCodeObjectCodec{})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(c.close)
	var res protocol.InitializeResult
	root := "file:///tmp"
	params := protocol.InitializeParams{RootURI: &root, InitializationOptions: initOptions, Capabilities: protocol.ClientCapabilities{}}
	if err := c.conn.Call(context.Background(), "initialize", params, &res); err != nil {
		t.Fatalf("initialize: %v\n%s", err, c.stderr.String())
	}
	c.started = time.Since(t0)
	if err := c.conn.Notify(context.Background(), "initialized", struct{}{}); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Method == protocol.ServerTextDocumentPublishDiagnostics && req.Params != nil {
		var p protocol.PublishDiagnosticsParams
		if json.Unmarshal(*req.Params, &p) == nil {
			c.mu.Lock()
			c.diags[p.URI] = p.Diagnostics
			c.versions[p.URI]++
			c.mu.Unlock()
			select {
			case c.changed <- struct{}{}:
			default:
			}
		}
	}
	return nil, nil
}

func (c *client) close() { c.closed.Do(c.shutdown) }

func (c *client) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.conn.Call(ctx, "shutdown", nil, nil)
	c.conn.Notify(ctx, "exit", nil)
	c.conn.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v\n%s", method, err, c.stderr.String())
	}
}

// open opens a file and waits for its first diagnostics.
func (c *client) open(uri, lang, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.mu.Lock()
	before := c.versions[uri]
	c.mu.Unlock()
	err := c.conn.Notify(context.Background(), "textDocument/didOpen", protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: lang, Version: 1, Text: text}})
	if err != nil {
		c.t.Fatal(err)
	}
	return c.waitDiagnostics(uri, before+1)
}

// change replaces a file's text and waits for its diagnostics.
func (c *client) change(uri string, version int32, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.mu.Lock()
	before := c.versions[uri]
	c.mu.Unlock()
	err := c.conn.Notify(context.Background(), "textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: version},
		ContentChanges: []any{protocol.TextDocumentContentChangeEventWhole{Text: text}}})
	if err != nil {
		c.t.Fatal(err)
	}
	return c.waitDiagnostics(uri, before+1)
}

func (c *client) waitDiagnostics(uri string, n int) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		c.mu.Lock()
		got, d := c.versions[uri], c.diags[uri]
		c.mu.Unlock()
		if got >= n {
			return d
		}
		select {
		case <-c.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s\n%s", uri, c.stderr.String())
		}
	}
}

func pos(line, char int) protocol.Position {
	return protocol.Position{Line: uint32(line), Character: uint32(char)}
}

func docPos(uri string, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: p}
}

// hover returns the hover's Markdown ("" for none).
func (c *client) hover(uri string, p protocol.Position) string {
	var raw json.RawMessage
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: docPos(uri, p)}, &raw)
	var h struct {
		Contents protocol.MarkupContent `json:"contents"`
	}
	if string(raw) == "null" || json.Unmarshal(raw, &h) != nil {
		return ""
	}
	return h.Contents.Value
}

func (c *client) completion(uri string, p protocol.Position) []protocol.CompletionItem {
	var list struct {
		Items []protocol.CompletionItem `json:"items"`
	}
	c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: docPos(uri, p)}, &list)
	return list.Items
}

func (c *client) definition(uri string, p protocol.Position) []protocol.Location {
	var locs []protocol.Location
	c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: docPos(uri, p)}, &locs)
	return locs
}

func (c *client) references(uri string, p protocol.Position) []protocol.Location {
	var locs []protocol.Location
	c.call("textDocument/references", protocol.ReferenceParams{TextDocumentPositionParams: docPos(uri, p), Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &locs)
	return locs
}

func (c *client) signature(uri string, p protocol.Position) *protocol.SignatureHelp {
	var raw json.RawMessage
	c.call("textDocument/signatureHelp", protocol.SignatureHelpParams{TextDocumentPositionParams: docPos(uri, p)}, &raw)
	if string(raw) == "null" {
		return nil
	}
	var sh protocol.SignatureHelp
	if err := json.Unmarshal(raw, &sh); err != nil {
		c.t.Fatal(err)
	}
	return &sh
}

func (c *client) symbols(uri string) []protocol.DocumentSymbol {
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &syms)
	return syms
}

func (c *client) codeActions(uri string, r protocol.Range, diags []protocol.Diagnostic) []protocol.CodeAction {
	var acts []protocol.CodeAction
	c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: r, Context: protocol.CodeActionContext{Diagnostics: diags}}, &acts)
	return acts
}

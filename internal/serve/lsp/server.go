// Package lsp is gpuisa's language server for AMDGPU assembly and PTX: hover,
// completion, signature help, diagnostics, definitions, references,
// document symbols and code actions over the database (read-only), the PTX
// checker and llvm-mc's target verdicts. This file wires the protocol
// (glsp's handlers, over jsonrpc2 with the server's own framing in
// frame.go and its own concurrent dispatch in rpc.go); file.go keeps each
// open file and its diagnosing worker; each feature has its own file.
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Options configure a server.
type Options struct {
	DB  string // the database file
	Log io.Writer
	// Settings are defaults the client's settings override.
	Target string
	Verify bool
	URL    string
	// In and Out are the connection: standard input and output when nil.
	In  io.Reader
	Out io.Writer
}

// server is one connection's state.
type server struct {
	opts Options
	log  io.Writer

	ready   chan struct{} // closed when know (or loadErr) is set
	know    *knowledge
	loadErr error
	// announced says the database's absence once per connection.
	announced sync.Once

	mu       sync.Mutex
	files    map[string]*file
	settings settings
	verifier *verifier
}

// Run serves the protocol on stdin and stdout until the client exits or
// the input ends.
func Run(opts Options) error {
	if opts.In == nil || opts.Out == nil {
		return serve(opts, stdio{})
	}
	return serve(opts, conn{opts.In, opts.Out})
}

// serve speaks the protocol over rw (stdio, or a pipe in tests).
func serve(opts Options, rw io.ReadWriteCloser) error {
	s := newServer(opts)
	defer s.close()
	conn := jsonrpc2.NewConn(context.Background(), newFrameStream(rw, s.log), newDispatcher(s))
	<-conn.DisconnectNotify()
	return nil
}

// conn is a reader and a writer as one connection; closing it closes
// whichever of them can be.
type conn struct {
	io.Reader
	io.Writer
}

func (c conn) Close() error {
	if r, ok := c.Reader.(io.Closer); ok {
		r.Close()
	}
	if w, ok := c.Writer.(io.Closer); ok {
		return w.Close()
	}
	return nil
}

// stdio is standard input and output as one connection.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	os.Stdin.Close()
	return os.Stdout.Close()
}

func newServer(opts Options) *server {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.URL == "" {
		opts.URL = "http://localhost:8080"
	}
	s := &server{opts: opts, log: opts.Log, ready: make(chan struct{}), files: map[string]*file{},
		settings: settings{Target: opts.Target, Verify: opts.Verify, URL: opts.URL}}
	s.verifier = newVerifier(s)
	// The database opens while the client starts up: initialize answers
	// at once and the first request that needs data waits for it.
	go func() {
		t := time.Now()
		if _, err := os.Stat(opts.DB); errors.Is(err, os.ErrNotExist) {
			// The server still starts: an editor that runs it before the
			// first build shows this instead of "exited with code 2".
			s.loadErr = fmt.Errorf("no database at %s: run gpuisa build (or pass --db)", opts.DB)
		} else {
			s.know, s.loadErr = loadKnowledge(context.Background(), opts.DB)
		}
		if s.loadErr != nil {
			fmt.Fprintf(s.log, "gpuisa lsp: %v\n", s.loadErr)
		} else {
			fmt.Fprintf(s.log, "gpuisa lsp: database %s read in %v\n", opts.DB, time.Since(t))
		}
		close(s.ready)
		if s.loadErr == nil {
			// The PTX checker reads a ten-megabyte model: start on it now.
			go s.know.loadPTX(context.Background())
		}
	}()
	return s
}

func (s *server) close() {
	s.mu.Lock()
	for _, f := range s.files {
		f.close()
	}
	s.mu.Unlock()
	s.verifier.stop()
	<-s.ready
	if s.know != nil {
		s.know.close()
	}
}

// knowledge waits for the database.
func (s *server) knowledge(ctx context.Context) (*knowledge, error) {
	select {
	case <-s.ready:
		return s.know, s.loadErr
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// announce tells the user, once, that the database could not be read.
func (s *server) announce(notify glsp.NotifyFunc, err error) {
	s.announced.Do(func() {
		notify(protocol.ServerWindowShowMessage, protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: "gpuisa: " + err.Error()})
	})
}

// handler is the protocol's handlers for one message; ctx is the
// request's (cancelled by $/cancelRequest) and reaches the features.
func (s *server) handler(ctx context.Context) *protocol.Handler {
	h := &protocol.Handler{}
	*h = protocol.Handler{
		Initialize: func(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
			s.mu.Lock()
			if p.InitializationOptions != nil {
				parseSettings(p.InitializationOptions, &s.settings)
			}
			s.mu.Unlock()
			caps := h.CreateServerCapabilities()
			sync := protocol.TextDocumentSyncKindFull
			caps.TextDocumentSync = protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &sync}
			caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{".", "_", "%", " ", ","}}
			caps.SignatureHelpProvider = &protocol.SignatureHelpOptions{TriggerCharacters: []string{" ", ","}}
			caps.CodeActionProvider = protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}}
			version := "0"
			return protocol.InitializeResult{Capabilities: caps, ServerInfo: &protocol.InitializeResultServerInfo{Name: "gpuisa", Version: &version}}, nil
		},
		Initialized: func(gc *glsp.Context, _ *protocol.InitializedParams) error {
			go func() {
				if _, err := s.knowledge(context.Background()); err != nil {
					s.announce(gc.Notify, err)
				}
			}()
			return nil
		},
		Shutdown: func(*glsp.Context) error {
			s.verifier.stop()
			return nil
		},
		Exit:     func(*glsp.Context) error { return nil },
		SetTrace: func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		WorkspaceDidChangeConfiguration: func(_ *glsp.Context, p *protocol.DidChangeConfigurationParams) error {
			s.mu.Lock()
			parseSettings(p.Settings, &s.settings)
			for _, f := range s.files {
				f.poke()
			}
			s.mu.Unlock()
			return nil
		},
		TextDocumentDidOpen: func(gc *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
			td := p.TextDocument
			f := s.openFile(gc.Notify, td.URI, languageOf(td.URI, td.LanguageID), td.Text, td.Version)
			s.mu.Lock()
			if old := s.files[td.URI]; old != nil {
				old.close()
			}
			s.files[td.URI] = f
			s.mu.Unlock()
			return nil
		},
		TextDocumentDidChange: func(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
			s.mu.Lock()
			f := s.files[p.TextDocument.URI]
			s.mu.Unlock()
			if f == nil {
				return nil
			}
			f.update(func(text string) string {
				for _, ch := range p.ContentChanges {
					switch c := ch.(type) {
					case protocol.TextDocumentContentChangeEventWhole:
						text = c.Text
					case protocol.TextDocumentContentChangeEvent:
						if c.Range == nil {
							text = c.Text
						} else {
							text = applyChange(text, c)
						}
					}
				}
				return text
			}, p.TextDocument.Version)
			return nil
		},
		TextDocumentDidClose: func(gc *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
			s.mu.Lock()
			if f := s.files[p.TextDocument.URI]; f != nil {
				f.close()
			}
			delete(s.files, p.TextDocument.URI)
			s.mu.Unlock()
			gc.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
			return nil
		},
		TextDocumentHover: func(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
			d, c, k, err := s.lookup(ctx, p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return hover(ctx, k, d, c, s.url(), p.Position), nil
		},
		TextDocumentCompletion: func(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
			d, c, k, err := s.lookup(ctx, p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return complete(ctx, k, d, c, p.Position), nil
		},
		TextDocumentSignatureHelp: func(_ *glsp.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
			d, c, k, err := s.lookup(ctx, p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return signatureHelp(ctx, k, d, c, p.Position), nil
		},
		TextDocumentDefinition: func(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
			d, _, _, err := s.lookup(ctx, p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return definition(d, p.Position), nil
		},
		TextDocumentReferences: func(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
			d, _, _, err := s.lookup(ctx, p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return references(d, p.Position, p.Context.IncludeDeclaration), nil
		},
		TextDocumentDocumentSymbol: func(_ *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
			d, _, _, err := s.lookup(ctx, p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return documentSymbols(d), nil
		},
		TextDocumentCodeAction: func(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
			d, c, k, err := s.lookup(ctx, p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return codeActions(ctx, k, d, c, p), nil
		},
	}
	return h
}

var yes = true

// lookup waits for the parse of an open document's latest text and
// returns it with its context and the knowledge. Without a database it
// returns no document and no error: the user was told once (announce),
// and every hover failing again would only repeat it.
func (s *server) lookup(ctx context.Context, uri string) (*document, fileContext, *knowledge, error) {
	s.mu.Lock()
	f := s.files[uri]
	st := s.settings
	s.mu.Unlock()
	if f == nil || f.lang == "" {
		return nil, fileContext{}, nil, nil
	}
	d, err := f.current(ctx)
	if d == nil || err != nil {
		return nil, fileContext{}, nil, err
	}
	k, err := s.knowledge(ctx)
	if err != nil {
		return nil, fileContext{}, nil, ctx.Err()
	}
	return d, contextOf(d, st), k, nil
}

func (s *server) url() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.URL
}

// publish sends a document's diagnostics, unless a newer text came (ctx
// is then cancelled), and starts the assembler on it when gpuisa.verify
// is set.
func (s *server) publish(ctx context.Context, f *file, d *document) {
	k, err := s.knowledge(ctx)
	if ctx.Err() != nil {
		return
	}
	notify := f.notify
	if err != nil {
		s.announce(notify, err)
		diags := []protocol.Diagnostic{diag(d, 0, 0, 0, protocol.DiagnosticSeverityError, codeTarget, "gpuisa: "+err.Error(), nil)}
		notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Version: d.publishedVersion(), Diagnostics: diags})
		return
	}
	s.mu.Lock()
	st := s.settings
	s.mu.Unlock()
	c := contextOf(d, st)
	if c.lang == langAMD && c.family != "" && hasEncodings(d) {
		go k.decoder(context.Background(), c.family) // before the first hover on machine code
	}
	diags := diagnose(ctx, k, d, c)
	if ctx.Err() != nil || !f.isCurrent(d) {
		return
	}
	notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Version: d.publishedVersion(), Diagnostics: diags})
	if st.Verify {
		s.verifier.schedule(notify, d, c, diags)
	}
}

// current reports whether d is still the parse of its file's latest text.
func (s *server) current(d *document) bool {
	s.mu.Lock()
	f := s.files[d.uri]
	s.mu.Unlock()
	return f != nil && f.isCurrent(d)
}

// applyChange applies one incremental change (the server asks for full
// text, but clients may send ranges anyway).
func applyChange(text string, c protocol.TextDocumentContentChangeEvent) string {
	a, b := offsetOf(text, c.Range.Start), offsetOf(text, c.Range.End)
	if a > b {
		a, b = b, a
	}
	return text[:a] + c.Text + text[b:]
}

// offsetOf turns an LSP position (UTF-16 code units) into a byte offset.
func offsetOf(text string, p protocol.Position) int {
	off := 0
	for n := uint32(0); n < p.Line; n++ {
		k := strings.IndexByte(text[off:], '\n')
		if k < 0 {
			return len(text)
		}
		off += k + 1
	}
	units := uint32(0)
	for i, r := range text[off:] {
		if units >= p.Character || r == '\n' {
			return off + i
		}
		units += uint32(len(utf16.Encode([]rune{r})))
	}
	return len(text)
}

// Package lsp is gpuisa's language server for AMDGPU assembly and PTX: hover,
// completion, signature help, diagnostics, definitions, references,
// document symbols and code actions over the database (read-only), the PTX
// checker and llvm-mc's target verdicts. This file only wires the protocol
// (github.com/tliron/glsp over stdio); each feature has its own file.
package lsp

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	glspserver "github.com/tliron/glsp/server"
)

// Options configure a server.
type Options struct {
	DB  string // the database file
	Log io.Writer
	// Settings are defaults the client's settings override.
	Target string
	Verify bool
	URL    string
}

// server is one connection's state.
type server struct {
	opts Options
	log  io.Writer

	ready   chan struct{} // closed when know (or loadErr) is set
	know    *knowledge
	loadErr error

	mu       sync.Mutex
	docs     map[string]*document
	settings settings
	verifier *verifier
}

// Run serves the protocol on stdin and stdout until the client exits.
func Run(opts Options) error {
	s := newServer(opts)
	defer s.close()
	h := s.handler()
	srv := glspserver.NewServer(h, "gpuisa", false)
	return srv.RunStdio()
}

func newServer(opts Options) *server {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.URL == "" {
		opts.URL = "http://localhost:8080"
	}
	s := &server{opts: opts, log: opts.Log, ready: make(chan struct{}), docs: map[string]*document{},
		settings: settings{Target: opts.Target, Verify: opts.Verify, URL: opts.URL}}
	s.verifier = newVerifier(s)
	// The database opens while the client starts up: initialize answers
	// at once and the first request that needs data waits for it.
	go func() {
		t := time.Now()
		s.know, s.loadErr = loadKnowledge(context.Background(), opts.DB)
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
	<-s.ready
	if s.know != nil {
		s.know.close()
	}
}

// knowledge waits for the database.
func (s *server) knowledge() (*knowledge, error) {
	<-s.ready
	return s.know, s.loadErr
}

func (s *server) handler() *protocol.Handler {
	h := &protocol.Handler{}
	*h = protocol.Handler{
		Initialize: func(ctx *glsp.Context, p *protocol.InitializeParams) (any, error) {
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
		Initialized: func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown: func(*glsp.Context) error {
			s.verifier.stop()
			return nil
		},
		Exit:     func(*glsp.Context) error { return nil },
		SetTrace: func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		WorkspaceDidChangeConfiguration: func(ctx *glsp.Context, p *protocol.DidChangeConfigurationParams) error {
			s.mu.Lock()
			parseSettings(p.Settings, &s.settings)
			docs := make([]*document, 0, len(s.docs))
			for _, d := range s.docs {
				docs = append(docs, d)
			}
			s.mu.Unlock()
			for _, d := range docs {
				s.publish(ctx.Notify, d)
			}
			return nil
		},
		TextDocumentDidOpen: func(ctx *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
			td := p.TextDocument
			s.keep(ctx.Notify, parse(td.URI, languageOf(td.URI, td.LanguageID), td.Text, td.Version))
			return nil
		},
		TextDocumentDidChange: func(ctx *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
			s.mu.Lock()
			old := s.docs[p.TextDocument.URI]
			s.mu.Unlock()
			if old == nil {
				return nil
			}
			text := old.text
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
			s.keep(ctx.Notify, parse(old.uri, old.lang, text, p.TextDocument.Version))
			return nil
		},
		TextDocumentDidClose: func(ctx *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
			s.mu.Lock()
			delete(s.docs, p.TextDocument.URI)
			s.mu.Unlock()
			ctx.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
			return nil
		},
		TextDocumentHover: func(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
			d, c, k, err := s.lookup(p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return hover(context.Background(), k, d, c, s.url(), p.Position), nil
		},
		TextDocumentCompletion: func(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
			d, c, k, err := s.lookup(p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return complete(context.Background(), k, d, c, p.Position), nil
		},
		TextDocumentSignatureHelp: func(_ *glsp.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
			d, c, k, err := s.lookup(p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return signatureHelp(context.Background(), k, d, c, p.Position), nil
		},
		TextDocumentDefinition: func(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
			d, _, _, err := s.lookup(p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return definition(d, p.Position), nil
		},
		TextDocumentReferences: func(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
			d, _, _, err := s.lookup(p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return references(d, p.Position, p.Context.IncludeDeclaration), nil
		},
		TextDocumentDocumentSymbol: func(_ *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
			d, _, _, err := s.lookup(p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return documentSymbols(d), nil
		},
		TextDocumentCodeAction: func(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
			d, c, k, err := s.lookup(p.TextDocument.URI)
			if d == nil || err != nil {
				return nil, err
			}
			return codeActions(context.Background(), k, d, c, p), nil
		},
	}
	return h
}

var yes = true

// lookup returns an open document, its context and the knowledge.
func (s *server) lookup(uri string) (*document, fileContext, *knowledge, error) {
	s.mu.Lock()
	d := s.docs[uri]
	st := s.settings
	s.mu.Unlock()
	if d == nil || d.lang == "" {
		return nil, fileContext{}, nil, nil
	}
	k, err := s.knowledge()
	if err != nil {
		return nil, fileContext{}, nil, err
	}
	return d, contextOf(d, st), k, nil
}

func (s *server) url() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.URL
}

// publish sends a document's diagnostics, and starts the assembler on it
// when gpuisa.verify is set.
// keep makes d the open document of its URI and publishes its diagnostics.
func (s *server) keep(notify glsp.NotifyFunc, d *document) {
	s.mu.Lock()
	s.docs[d.uri] = d
	s.mu.Unlock()
	s.publish(notify, d)
}

func (s *server) publish(notify glsp.NotifyFunc, d *document) {
	if d.lang == "" {
		return
	}
	k, err := s.knowledge()
	if err != nil {
		notify(protocol.ServerWindowShowMessage, protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: "gpuisa: " + err.Error()})
		return
	}
	s.mu.Lock()
	st := s.settings
	s.mu.Unlock()
	c := contextOf(d, st)
	if c.lang == langAMD && c.family != "" && hasEncodings(d) {
		go k.decoder(context.Background(), c.family) // before the first hover on machine code
	}
	diags := diagnose(context.Background(), k, d, c)
	notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Version: d.publishedVersion(), Diagnostics: diags})
	if st.Verify {
		s.verifier.schedule(notify, d, c, diags)
	}
}

// current reports whether d is still the open version of its file.
func (s *server) current(d *document) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[d.uri] == d
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

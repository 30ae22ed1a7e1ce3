package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
)

// dispatcher hands jsonrpc2's messages to the protocol handlers.
//
// It takes the place of glsp's server, which answers one message at a
// time on jsonrpc2's read loop: a hover waited behind the opening of a
// 20 MB file. Here notifications still run in arrival order on the read
// loop (a didChange must follow its didOpen), but they only record text
// and wake the document's worker (file.go); requests each run on their
// own goroutine with a context that $/cancelRequest cancels.
type dispatcher struct {
	s *server

	// initialized is the protocol state glsp's Handler keeps; a Handler
	// is made per message (to carry its context), so it lives here.
	initialized atomic.Bool

	mu      sync.Mutex
	pending map[jsonrpc2.ID]*pendingRequest
}

type pendingRequest struct {
	cancel    context.CancelFunc
	cancelled bool // by the client
}

// codeRequestCancelled is LSP's answer to a request the client cancelled.
const codeRequestCancelled = -32800

func newDispatcher(s *server) *dispatcher {
	return &dispatcher{s: s, pending: map[jsonrpc2.ID]*pendingRequest{}}
}

// Handle implements jsonrpc2.Handler.
func (d *dispatcher) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Method == "$/cancelRequest" {
		d.cancel(req)
		return
	}
	if req.Method == "initialize" {
		// Inline: a client may send initialized and didOpen before the
		// answer, and those need the server initialized.
		result, err := d.call(ctx, conn, req)
		d.reply(ctx, conn, req, result, err, false)
		return
	}
	if req.Method == "exit" {
		// After shutdown glsp's Handler calls every message, exit too,
		// "not initialized": nothing to say.
		d.call(ctx, conn, req)
		conn.Close()
		return
	}
	if req.Notif {
		if _, err := d.call(ctx, conn, req); err != nil {
			fmt.Fprintf(d.s.log, "gpuisa lsp: %s: %v\n", req.Method, err)
		}
		return
	}
	rctx, cancel := context.WithCancel(ctx)
	p := &pendingRequest{cancel: cancel}
	d.mu.Lock()
	d.pending[req.ID] = p
	d.mu.Unlock()
	go func() {
		defer cancel()
		result, err := d.call(rctx, conn, req)
		d.mu.Lock()
		delete(d.pending, req.ID)
		cancelled := p.cancelled
		d.mu.Unlock()
		d.reply(ctx, conn, req, result, err, cancelled)
	}()
}

// reply answers a request: cancelled, failed or with its result.
func (d *dispatcher) reply(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request, result any, err error, cancelled bool) {
	switch {
	case cancelled:
		err = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: codeRequestCancelled, Message: "cancelled"})
	case err != nil:
		err = conn.ReplyWithError(ctx, req.ID, asRPCError(err))
	default:
		err = conn.Reply(ctx, req.ID, result)
	}
	if err != nil && err != jsonrpc2.ErrClosed {
		fmt.Fprintf(d.s.log, "gpuisa lsp: answering %s: %v\n", req.Method, err)
	}
}

// cancel cancels the request $/cancelRequest names, if it still runs.
func (d *dispatcher) cancel(req *jsonrpc2.Request) {
	if req.Params == nil {
		return
	}
	var p struct {
		ID jsonrpc2.ID `json:"id"`
	}
	if json.Unmarshal(*req.Params, &p) != nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if r := d.pending[p.ID]; r != nil {
		r.cancelled = true
		r.cancel()
	}
}

// call runs a message's handler, with ctx reaching the feature's work.
func (d *dispatcher) call(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	gc := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) {
			if err := conn.Notify(context.Background(), method, params); err != nil && err != jsonrpc2.ErrClosed {
				fmt.Fprintf(d.s.log, "gpuisa lsp: sending %s: %v\n", method, err)
			}
		},
		Call: func(method string, params, result any) {
			if err := conn.Call(ctx, method, params, result); err != nil {
				fmt.Fprintf(d.s.log, "gpuisa lsp: calling %s: %v\n", method, err)
			}
		},
	}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	h := d.s.handler(ctx)
	h.SetInitialized(d.initialized.Load())
	r, validMethod, validParams, err := h.Handle(gc)
	if req.Method == "initialize" || req.Method == "shutdown" {
		d.initialized.Store(h.IsInitialized())
	}
	switch {
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid params"
		if err != nil {
			msg = err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	}
	return r, err
}

func asRPCError(err error) *jsonrpc2.Error {
	if e, ok := err.(*jsonrpc2.Error); ok {
		return e
	}
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
}

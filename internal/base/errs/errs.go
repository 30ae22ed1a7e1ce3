// Package errs defines the few kinds of error gpuisa distinguishes — not
// found, invalid input, upstream parse error — and how each maps to a process
// exit status and an HTTP status, so the CLI and the server agree.
package errs

import (
	"errors"
	"fmt"
	"net/http"
)

// Kind classifies an error.
type Kind int

const (
	KindOther    Kind = iota
	KindNotFound      // unknown architecture, mnemonic, route
	KindInvalid       // bad user input (flags, query, hex)
	KindUpstream      // an upstream source could not be parsed
)

// Error is an error of a known kind. Suggestions are close matches offered to
// the user ("did you mean v_max_f32?").
type Error struct {
	Kind        Kind
	Msg         string
	Suggestions []string
	Err         error
}

func (e *Error) Error() string {
	msg := e.Msg
	if e.Err != nil {
		if msg == "" {
			msg = e.Err.Error()
		} else {
			msg += ": " + e.Err.Error()
		}
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// NotFound returns a not-found error with optional suggestions.
func NotFound(suggestions []string, format string, args ...any) error {
	return &Error{Kind: KindNotFound, Msg: fmt.Sprintf(format, args...), Suggestions: suggestions}
}

// Invalid returns an invalid-input error.
func Invalid(format string, args ...any) error {
	return &Error{Kind: KindInvalid, Msg: fmt.Sprintf(format, args...)}
}

// Upstream wraps a parse error of an upstream file with its position.
func Upstream(file string, line int, err error) error {
	return &Error{Kind: KindUpstream, Msg: fmt.Sprintf("%s:%d", file, line), Err: err}
}

// KindOf returns the kind of err (KindOther when it has none).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindOther
}

// SuggestionsOf returns the close matches attached to err, if any.
func SuggestionsOf(err error) []string {
	var e *Error
	if errors.As(err, &e) {
		return e.Suggestions
	}
	return nil
}

// ExitCode maps an error to the CLI's exit status: 0 for nil, 2 for not found
// and invalid input (the command-line contract), 3 for upstream parse errors,
// 1 otherwise.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	switch KindOf(err) {
	case KindNotFound, KindInvalid:
		return 2
	case KindUpstream:
		return 3
	}
	return 1
}

// HTTPStatus maps an error to an HTTP status.
func HTTPStatus(err error) int {
	if err == nil {
		return http.StatusOK
	}
	switch KindOf(err) {
	case KindNotFound:
		return http.StatusNotFound
	case KindInvalid:
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

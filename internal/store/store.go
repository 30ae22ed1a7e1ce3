// Package store keeps the merged reference in one SQLite database
// (modernc.org/sqlite, pure Go) and reads it back for the server, the CLI
// and the tools. A build writes a new file and renames it into place, so
// readers never see a half-written database; an opened DB stays bound to
// the file it opened. Search runs over an index built in memory from the
// file (textindex.go), ranked as FTS5's bm25() ranks.
package store

import (
	"context"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Reader is what the web server and the CLI need from a database. Handlers
// depend on this interface so they can be tested against a fake.
type Reader interface {
	// Info describes the build: id (for ETags), documents, counts.
	Info(ctx context.Context) (isa.BuildInfo, error)
	// Archs lists the families in display order (with Formats).
	Archs(ctx context.Context) ([]isa.Architecture, error)
	// Arch returns one family; unknown ids give an errs.NotFound with suggestions.
	Arch(ctx context.Context, id string) (isa.Architecture, error)
	// List returns the instructions of a family, sorted by name.
	List(ctx context.Context, arch string) ([]isa.Summary, error)
	// Instruction returns one instruction. name is matched case-insensitively,
	// through aliases, and with assembler suffixes (_e32, _e64, _sdwa, _dpp)
	// stripped; unknown names give errs.NotFound with close-match suggestions.
	Instruction(ctx context.Context, arch, name string) (*isa.Instruction, error)
	// Resolve returns the canonical (arch, name) for what a user typed, as
	// Instruction does, without loading the document.
	Resolve(ctx context.Context, arch, name string) (string, string, error)
	// Search ranks instructions: exact name, name prefix, typos, then full
	// text over summaries, descriptions and semantics. arch "" searches all.
	Search(ctx context.Context, q string, opts SearchOptions) ([]isa.SearchHit, error)
	// Instructions returns every instruction document of a family.
	Instructions(ctx context.Context, arch string) ([]*isa.Instruction, error)
	// InstructionDoc returns an instruction's JSON document as stored
	// (compressed, ready to send), resolving name as Instruction does.
	InstructionDoc(ctx context.Context, arch, name string) (Doc, error)
	// Extra returns a named document the build stored beside the model
	// (keys.go names them); errs.NotFound when absent.
	Extra(ctx context.Context, key string) ([]byte, error)
	// Answer returns the answer the build stored for a page's request
	// target (see Build.Answers); errs.NotFound when it stored none.
	Answer(ctx context.Context, key string) (Answer, error)
	// Close releases the database.
	Close() error
}

// SearchOptions narrows a search.
type SearchOptions struct {
	Arch  string // "" for every family
	Limit int    // 0 means 50
}

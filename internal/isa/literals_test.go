package isa

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// literalExempt are the places a family id or gfx target may be spelled
// as a string literal, and why. Everywhere else a per-family fact is read
// from the family table (ArchByID, LookupArch, a Trait), not keyed by id.
var literalExempt = map[string]string{
	"internal/isa/archs.go":           "the family table itself",
	"internal/source/":                "the upstream readers map the vendors' file and page names to family ids (each checks its mapping against the table in a test)",
	"internal/serve/web/webfake/":     "sample data: a fixture store of a few instructions of a few families",
	"internal/amd/decode/decodetest/": "sample data: a fixture family for the decoder's tests",
}

// gfxLiteral is a gfx target, or a prefix of one standing for a
// generation ("gfx12").
var gfxLiteral = regexp.MustCompile(`^gfx[0-9]+[a-z]?$`)

// TestNoFamilyLiterals parses every non-test Go file under internal/ and
// cmd/ and fails, naming file:line, where a string literal is a family id,
// a family alias or a gfx target outside literalExempt.
func TestNoFamilyLiterals(t *testing.T) {
	ids := map[string]bool{}
	for _, a := range archTable {
		if a.Vendor != VendorAMD {
			continue // "ptx" is also a vendor, a route and a file suffix
		}
		ids[a.ID] = true
		for _, al := range a.Aliases {
			ids[al] = true
		}
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	n := 0
	used := map[string]bool{}
	for _, dir := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			exempt := ""
			for p := range literalExempt {
				if rel == p || strings.HasSuffix(p, "/") && strings.HasPrefix(rel, p) {
					exempt = p
				}
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			n++
			ast.Inspect(f, func(nd ast.Node) bool {
				lit, ok := nd.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				if !ids[v] && !gfxLiteral.MatchString(v) {
					return true
				}
				if exempt != "" {
					used[exempt] = true
				} else {
					pos := fset.Position(lit.Pos())
					t.Errorf("%s:%d: %s: a family id or gfx target outside the family table; read the fact from isa (ArchByID, a Trait) instead", rel, pos.Line, lit.Value)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 100 {
		t.Fatalf("parsed only %d files: is the test run from internal/isa?", n)
	}
	for p := range literalExempt {
		if !used[p] {
			t.Errorf("literalExempt: %s spells no family id or target any more; drop it", p)
		}
	}
}

package codeshape

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is the most lines a function may span, signature to closing
// brace. The guideline is ~150; the test holds the line at 200.
const maxLines = 200

// allowed are the functions that may be longer, by "path/from/root.go
// Func" (a method as "Type.Method"), each with why. A switch over every
// case of an evaluator or syntax tree reads best whole; nothing else
// belongs here.
var allowed = map[string]string{}

func TestNoLongFunctions(t *testing.T) {
	root := moduleRoot(t)
	seen := map[string]bool{}
	var long []string
	for _, dir := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			for _, fn := range longFunctions(t, path) {
				key := filepath.ToSlash(rel) + " " + fn.name
				if _, ok := allowed[key]; ok {
					seen[key] = true
					continue
				}
				long = append(long, fmt.Sprintf("%s:%d: %s is %d lines", filepath.ToSlash(rel), fn.line, fn.name, fn.lines))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range long {
		t.Errorf("%s (over %d: split it into named steps)", l, maxLines)
	}
	for key := range allowed {
		if !seen[key] {
			t.Errorf("allowed %q is gone or no longer over %d lines: drop it from the allowlist", key, maxLines)
		}
	}
}

type function struct {
	name        string
	line, lines int
}

// longFunctions are the functions of a file over maxLines.
func longFunctions(t *testing.T, path string) []function {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []function
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start, end := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		if n := end - start + 1; n > maxLines {
			out = append(out, function{name: funcName(fd), line: start, lines: n})
		}
	}
	return out
}

// funcName is "Func", or "Type.Method" for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// moduleRoot is the directory of go.mod above the test's.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

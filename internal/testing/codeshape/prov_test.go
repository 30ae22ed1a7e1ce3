package codeshape

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestProvenanceFilesExist fails for a provenance that names one of
// gpuisa's own files (a Prov literal's File "internal/...") which does not
// exist: facts gpuisa writes itself cite the code that wrote them, and a
// move must carry the citation along.
func TestProvenanceFilesExist(t *testing.T) {
	root := moduleRoot(t)
	n := 0
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(nd ast.Node) bool {
			kv, ok := nd.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			key, ok := kv.Key.(*ast.Ident)
			lit, isLit := kv.Value.(*ast.BasicLit)
			if !ok || key.Name != "File" || !isLit || lit.Kind != token.STRING {
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			if !strings.HasPrefix(name, "internal/") {
				return true
			}
			n++
			if _, err := os.Stat(filepath.Join(root, name)); err != nil {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: provenance names %s, which does not exist", filepath.ToSlash(rel), fset.Position(lit.Pos()).Line, name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("found no provenance naming gpuisa's own files: the test no longer sees them")
	}
}

package codeshape

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxTopFolders is how many folders internal/ may hold at its top: the
// data flow (source, ingest, oracle, store, serve) and the domains between
// (isa, amd, ptx, xvendor), the commands, test support and generic helpers.
// A thirteenth means a new domain: name it in DESIGN.md first.
const maxTopFolders = 12

// TestFoldersSayWhatTheyOwn fails for a folder under internal/ or cmd/
// (testdata and folders of embedded files aside) whose Go files have no
// package comment, and for a folder of packages without a doc.go saying
// what the group owns.
func TestFoldersSayWhatTheyOwn(t *testing.T) {
	root := moduleRoot(t)
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			if path == filepath.Join(root, top) {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			if !holdsGo(path) {
				return filepath.SkipDir // embedded files (templates, migrations), no code
			}
			if !hasPackageComment(t, path) {
				t.Errorf("%s: no package comment (a doc.go saying what the folder owns)", filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestInternalTopLevel(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(moduleRoot(t), "internal"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) > maxTopFolders {
		t.Errorf("internal/ has %d folders (%s), more than %d: a new package belongs in one of the domains", len(dirs), strings.Join(dirs, " "), maxTopFolders)
	}
}

// holdsGo reports whether dir or a folder below it holds a Go file.
func holdsGo(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// hasPackageComment reports whether a non-test Go file of dir starts its
// package clause with a doc comment.
func hasPackageComment(t *testing.T, dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		pf, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if pf.Doc != nil && strings.TrimSpace(pf.Doc.Text()) != "" {
			return true
		}
	}
	return false
}

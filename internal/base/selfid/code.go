package selfid

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A result that depends on only part of the program (the pages depend on
// the renderer's packages, not on the build's steps) is kept under the
// identity of that part, so that a change elsewhere — a faster build
// step — keeps it. Go gives no per-package identity at run time, so the
// module's sources are hashed ahead of time into closures_gen.go (a test
// keeps it current: go test ./internal/base/selfid -run TestClosures
// -update), and a program that finds the module's sources on disk (the
// usual case, go run or go build in a checkout) holds the table to them:
// a closure whose files differ from the table's — edited and not yet
// re-hashed — falls back to ID, which changes with any change.

// A pkgSource is one package of the module as the table hashed it: its
// directory (relative to the module's root) and the SHA-256 of each
// non-test Go file and embedded file in it.
type pkgSource struct {
	Dir   string
	Files []fileSum
}

type fileSum struct{ Name, Sum string }

// modulePath is the module whose sources the table hashes.
const modulePath = "github.com/gpuisa/gpuisa"

// Roots are the packages whose results are kept under Code: the page
// renderer, the pseudocode's check against LLVM and the cross-vendor
// derivations. The table has the closure of each.
var Roots = []string{"internal/serve/web", "internal/oracle/semoracle", "internal/xvendor/semdiff"}

// isTest reports whether this program is a test binary (a variable for
// the test that checks what other programs get).
var isTest = testing.Testing

var (
	codeMu   sync.Mutex
	codeSeen = map[string]string{}
)

// Code is the identity of the code of root (one of Roots, a path relative
// to the module) and every package of the module it imports, with the
// module's requirements and the Go toolchain: the same across programs
// built from the same sources for those packages. A test binary (whose
// test files may change what the package does), a root not in the table,
// and sources on disk that differ from the table get ID instead.
func Code(root string) string {
	codeMu.Lock()
	defer codeMu.Unlock()
	if id, ok := codeSeen[root]; ok {
		return id
	}
	id := closureID(root, moduleRoot())
	codeSeen[root] = id
	return id
}

// closureID is Code's answer for root, with the module's sources at dir
// ("" when not found).
func closureID(root, dir string) string {
	pkgs, ok := closures[root]
	if !ok || isTest() {
		return ID()
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s/%s\x00", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, p := range pkgs {
		src := sources[p]
		if dir != "" && !sameOnDisk(filepath.Join(dir, filepath.FromSlash(src.Dir)), src) {
			return ID()
		}
		fmt.Fprintf(h, "%s\x00", src.Dir)
		for _, f := range src.Files {
			fmt.Fprintf(h, "%s\x00%s\x00", f.Name, f.Sum)
		}
	}
	return "src:" + hex.EncodeToString(h.Sum(nil))[:32]
}

// sameOnDisk reports whether dir holds the non-test Go files of src and
// nothing else ending in .go, and every file of src with its sum.
func sameOnDisk(dir string, src pkgSource) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	want := map[string]string{}
	for _, f := range src.Files {
		want[f.Name] = f.Sum
	}
	for _, e := range ents {
		if n := e.Name(); isSourceFile(n) {
			if _, ok := want[n]; !ok {
				return false // a file added since the table was made
			}
		}
	}
	for name, sum := range want {
		if fileSHA256(filepath.Join(dir, filepath.FromSlash(name))) != sum {
			return false
		}
	}
	return true
}

// generatedTable is the table's own file: made from the others, so not
// hashed (it would change with its own contents).
const generatedTable = "closures_gen.go"

// isSourceFile reports whether name is a Go file the package's code is
// compiled from (tests are not) other than the table.
func isSourceFile(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_") && name != generatedTable
}

// fileSHA256 is the hex SHA-256 of the file at path, "" when unreadable.
func fileSHA256(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// moduleRoot is the directory of this module's go.mod at or above the
// working directory, "" when there is none (an installed binary run
// elsewhere: the table is then trusted, as the test holds it to each
// commit's sources).
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if isModule(filepath.Join(dir, "go.mod")) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// isModule reports whether the go.mod at path declares modulePath.
func isModule(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == modulePath
		}
	}
	return false
}

// closurePackages lists the module's packages of a closure in order; the
// generator and the table agree on it.
func closurePackages(dirs []string) []string {
	out := slices.Clone(dirs)
	slices.Sort(out)
	return slices.Compact(out)
}

package selfid

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite closures_gen.go from the module's sources")

// TestClosuresCurrent holds closures_gen.go to the sources: a change to a
// package a root imports changes that root's Code only once the table is
// made again, and a stale table would keep results of older code.
func TestClosuresCurrent(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed to list the packages: %v", err)
	}
	srcs, clos := listClosures(t)
	got := generate(srcs, clos)
	const file = generatedTable
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		var changed []string
		for dir, src := range srcs {
			if !slices.Equal(src.Files, sources[dir].Files) {
				changed = append(changed, dir)
			}
		}
		slices.Sort(changed)
		t.Fatalf("%s is stale (changed: %s); run go test ./internal/base/selfid -run TestClosuresCurrent -update", file, strings.Join(changed, ", "))
	}
}

// TestCodeFollowsTheSources: the table's hash stands when the sources on
// disk are the table's, and a closure whose files differ gets ID.
func TestCodeFollowsTheSources(t *testing.T) {
	root := moduleRoot()
	if root == "" {
		t.Fatal("no module root above the test's directory")
	}
	src := sources["internal/base/selfid"]
	if !sameOnDisk(filepath.Join(root, "internal/base/selfid"), src) {
		t.Fatal("the table differs from the sources on disk (run TestClosuresCurrent -update)")
	}
	edited := pkgSource{Dir: src.Dir, Files: slices.Clone(src.Files)}
	edited.Files[0].Sum = strings.Repeat("0", 64)
	if sameOnDisk(filepath.Join(root, "internal/base/selfid"), edited) {
		t.Error("a file whose sum differs counts as the same")
	}
	fewer := pkgSource{Dir: src.Dir, Files: src.Files[1:]}
	if sameOnDisk(filepath.Join(root, "internal/base/selfid"), fewer) {
		t.Error("a file the table lacks counts as the same")
	}
	// In a test binary Code is ID: test files may change what a package does.
	for _, r := range Roots {
		if Code(r) != ID() {
			t.Errorf("Code(%s) in a test binary = %q, want ID", r, Code(r))
		}
		if id := closureIDOutsideTests(r, root); !strings.HasPrefix(id, "src:") {
			t.Errorf("closure of %s with the sources on disk = %q, want a src: hash", r, id)
		}
	}
	if a, b := closureIDOutsideTests(Roots[0], ""), closureIDOutsideTests(Roots[1], ""); a == b {
		t.Error("two roots with other closures share an identity")
	}
}

// closureIDOutsideTests is closureID as a program that is no test sees it.
func closureIDOutsideTests(root, dir string) string {
	isTest = func() bool { return false }
	defer func() { isTest = testing.Testing }()
	return closureID(root, dir)
}

type listedPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	EmbedFiles []string
	Module     *struct{ Path, Dir string }
}

// listClosures asks the go command for each root's dependencies and
// hashes the module's packages among them.
func listClosures(t *testing.T) (map[string]pkgSource, map[string][]string) {
	srcs := map[string]pkgSource{}
	clos := map[string][]string{}
	for _, root := range Roots {
		out, err := exec.Command("go", "list", "-deps", "-json", modulePath+"/"+root).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", root, err)
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		dirs := []string{"."}
		var modDir string
		for {
			var p listedPackage
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			if p.Standard || p.Module == nil || p.Module.Path != modulePath {
				continue
			}
			modDir = p.Module.Dir
			rel, err := filepath.Rel(p.Module.Dir, p.Dir)
			if err != nil {
				t.Fatal(err)
			}
			rel = filepath.ToSlash(rel)
			srcs[rel] = hashPackage(t, p.Dir, rel, p.EmbedFiles)
			dirs = append(dirs, rel)
		}
		srcs["."] = hashFiles(t, modDir, ".", []string{"go.mod", "go.sum"})
		clos[root] = closurePackages(dirs)
	}
	return srcs, clos
}

// hashPackage hashes the non-test Go files in dir and the files embedded.
func hashPackage(t *testing.T, dir, rel string, embeds []string) pkgSource {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if isSourceFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return hashFiles(t, dir, rel, append(names, embeds...))
}

func hashFiles(t *testing.T, dir, rel string, names []string) pkgSource {
	slices.Sort(names)
	src := pkgSource{Dir: rel}
	for _, n := range slices.Compact(names) {
		sum := fileSHA256(filepath.Join(dir, filepath.FromSlash(n)))
		if sum == "" {
			t.Fatalf("cannot read %s/%s", rel, n)
		}
		src.Files = append(src.Files, fileSum{n, sum})
	}
	return src
}

// generate writes the table as Go source.
func generate(srcs map[string]pkgSource, clos map[string][]string) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./internal/base/selfid -run TestClosuresCurrent -update; DO NOT EDIT.\n\npackage selfid\n\n")
	b.WriteString("// sources: the module's packages the roots import, by directory.\nvar sources = map[string]pkgSource{\n")
	dirs := make([]string, 0, len(srcs))
	for d := range srcs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		fmt.Fprintf(&b, "%q: {Dir: %q, Files: []fileSum{\n", d, d)
		for _, f := range srcs[d].Files {
			fmt.Fprintf(&b, "{%q, %q},\n", f.Name, f.Sum)
		}
		b.WriteString("}},\n")
	}
	b.WriteString("}\n\n// closures: each root's packages of the module, by directory.\nvar closures = map[string][]string{\n")
	for _, r := range Roots {
		fmt.Fprintf(&b, "%q: {", r)
		for i, d := range clos[r] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", d)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		panic(err)
	}
	return out
}

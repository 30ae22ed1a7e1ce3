// Package serve_test holds the test of the rule the serving packages keep:
// serving never imports ingest (the build pipeline) nor the readers of
// upstream documents; it reads what the build stored.
package serve_test

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/gpuisa/gpuisa/internal/"

// forbidden are the layers serving must not link.
var forbidden = []string{module + "ingest", module + "source/"}

// allowed are forbidden packages serving links, each with why.
var allowed = map[string]string{
	// The PTX model is built from the documentation's sections
	// (ptx.Build takes ptxdoc.Section), and the builder shares the
	// checker's grammar, so the model links the reader's types.
	module + "source/ptxdoc": "internal/ptx's Build takes its sections",
}

// TestServingNeverImportsIngest lists, with go list, what every package
// under internal/serve and internal/store links, and fails on ingest and
// the upstream readers.
func TestServingNeverImportsIngest(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./internal/serve/...", "./internal/store/...")
	cmd.Dir = "../.." // the module root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 5 {
		t.Fatalf("go list found %d serving and store packages", len(lines))
	}
	for _, line := range lines {
		deps := strings.Fields(line)
		pkg := strings.TrimPrefix(deps[0], module)
		for _, dep := range deps[1:] {
			if _, ok := allowed[dep]; !ok && isForbidden(dep) {
				t.Errorf("%s links %s: serving must not import the build or the upstream readers", pkg, strings.TrimPrefix(dep, module))
			}
		}
	}
}

func isForbidden(dep string) bool {
	for _, f := range forbidden {
		if strings.HasPrefix(dep, f) {
			return true
		}
	}
	return false
}

// buildCommands are the CLI's files that drive the pipeline (build; serve,
// which builds a missing database and verifies a provisional one in the
// background; verify); every other command reads a database and, like the
// server, must not reach into ingest.
var buildCommands = map[string]bool{"commands.go": true, "serve.go": true, "verify.go": true}

// TestReadCommandsNeverImportIngest parses the CLI's files and fails on a
// read command's file that imports ingest or an upstream reader.
func TestReadCommandsNeverImportIngest(t *testing.T) {
	dir := filepath.Join("..", "cli")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d CLI files (%v)", len(files), err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasSuffix(name, "_test.go") || buildCommands[name] {
			continue
		}
		pf, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range pf.Imports {
			if p := strings.Trim(im.Path.Value, `"`); isForbidden(p) {
				t.Errorf("internal/cli/%s imports %s: a read command must not import the build or the upstream readers", name, strings.TrimPrefix(p, module))
			}
		}
	}
}

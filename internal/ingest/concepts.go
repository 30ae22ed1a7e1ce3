package ingest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	catalogue "github.com/gpuisa/gpuisa/concepts"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// CatalogueFiles returns the concept catalogue: the files of dir when given,
// else the catalogue built into gpuisa.
func CatalogueFiles(dir string) (map[string][]byte, error) {
	if dir == "" {
		return catalogue.Files()
	}
	matches, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, errs.Invalid("no *.yaml concept files in %s", dir)
	}
	files := map[string][]byte{}
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			return nil, err
		}
		files[filepath.ToSlash(m)] = data
	}
	return files, nil
}

// applyConcepts loads and validates the catalogue against the merged
// instructions and links every instruction to its concepts. Any finding —
// a dangling instruction, an unknown architecture, a missing relation, a PTX
// mnemonic in no concept, a relation its operand types contradict — fails
// the build with file:line; in a partial build (sources left out, see
// Options.AllowPartial) the findings are returned as problems instead, since
// the catalogue names instructions of the sources that are missing.
func applyConcepts(dir string, insts []*isa.Instruction, prog Progress, partial bool) (*concepts.Catalogue, []byte, []string, error) {
	prog.Start("linking the concept catalogue", 1)
	defer prog.Done()
	files, err := CatalogueFiles(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	cat, err := concepts.LoadFiles(files)
	if err != nil {
		return nil, nil, nil, &errs.Error{Kind: errs.KindInvalid, Msg: "concept catalogue", Err: err}
	}
	ix := concepts.NewNameIndex(insts)
	var problems []string
	if findings := concepts.Validate(cat, ix); len(findings) > 0 {
		var lines []string
		for _, f := range findings {
			lines = append(lines, f.Error())
		}
		if !partial {
			return nil, nil, nil, &errs.Error{Kind: errs.KindInvalid, Msg: fmt.Sprintf("concept catalogue: %d problems:\n%s", len(findings), strings.Join(lines, "\n"))}
		}
		for _, l := range lines {
			problems = append(problems, "concept catalogue (partial sources): "+l)
		}
	}
	merge.ApplyConcepts(cat, insts, ix)
	text := map[string]string{}
	for k, v := range files {
		text[k] = string(v)
	}
	prog.Advance(1)
	data, err := json.Marshal(text)
	return cat, data, problems, err
}

// Package catalogue embeds the cross-vendor concept catalogue: the YAML
// files in this directory, authored by the gpuisa project, that say which AMD
// instructions correspond to which PTX instructions and how closely. The
// schema, loader and validator are in internal/xvendor/concepts.
package catalogue

import (
	"embed"
	"io/fs"
	"path"
)

//go:embed *.yaml
var files embed.FS

// Files returns the catalogue's files keyed by their repository path
// ("concepts/minmax.yaml"), so errors name the file a person edits.
func Files() (map[string][]byte, error) {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := files.ReadFile(e.Name())
		if err != nil {
			return nil, err
		}
		out[path.Join("concepts", e.Name())] = data
	}
	return out, nil
}

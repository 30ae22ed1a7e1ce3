// Package filecache keeps an oracle's answers (llvm-mc, ptxas) between
// builds: one gob file of key -> value per (tool version, target), written
// to a temporary file and renamed into place so a crash never leaves a
// half-written cache, and read back leniently (a damaged file costs one
// re-run, not a failed build).
package filecache

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Path returns dir/<version>/<name>.gob with both parts made plain file
// names.
func Path(dir, version, name string) string {
	return filepath.Join(dir, SafeName(version), SafeName(name)+".gob")
}

// SafeName keeps letters, digits, '.', '-' and '_' and replaces the rest,
// so a version string or option value makes a plain file name.
func SafeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Load reads the map at path; a missing or damaged file gives an empty map.
// path "" (caching off) gives an empty map too.
func Load[V any](path string) (map[string]V, error) {
	m := map[string]V{}
	if path == "" {
		return m, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	defer f.Close()
	if err := gob.NewDecoder(f).Decode(&m); err != nil {
		return map[string]V{}, nil
	}
	return m, nil
}

// Save writes m to path atomically; path "" does nothing.
func Save[V any](path string, m map[string]V) error {
	if path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := gob.NewEncoder(tmp).Encode(m); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("cache %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cache %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

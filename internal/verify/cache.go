package verify

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// targetCache is the cached outcomes of one (llvm-mc version, target,
// -mattr): a gob file of assembly -> Outcome. Each target has its own
// file, so parallel targets never write the same file.
type targetCache struct {
	path    string // "" when caching is off
	entries map[string]Outcome
}

func cacheFile(dir, version, target, mattr string) string {
	name := safeName(target)
	if mattr != "" {
		name += "_" + safeName(mattr)
	}
	return filepath.Join(dir, safeName(version), name+".gob")
}

// safeName keeps letters, digits, '.', '-' and '_' and replaces the rest,
// so a version string or -mattr value makes a plain file name.
func safeName(s string) string {
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

func loadCache(dir, version, target, mattr string) (*targetCache, error) {
	c := &targetCache{entries: map[string]Outcome{}}
	if dir == "" {
		return c, nil
	}
	c.path = cacheFile(dir, version, target, mattr)
	f, err := os.Open(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("verify: cache: %w", err)
	}
	defer f.Close()
	if err := gob.NewDecoder(f).Decode(&c.entries); err != nil {
		// A damaged cache costs one re-run, not a failed build.
		c.entries = map[string]Outcome{}
	}
	return c, nil
}

// save writes the cache to a temporary file and renames it into place, so
// a crash never leaves a half-written cache.
func (c *targetCache) save() error {
	if c.path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return fmt.Errorf("verify: cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("verify: cache: %w", err)
	}
	if err := gob.NewEncoder(tmp).Encode(c.entries); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("verify: cache %s: %w", c.path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("verify: cache %s: %w", c.path, err)
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		return fmt.Errorf("verify: cache: %w", err)
	}
	return nil
}

package verify

import (
	"fmt"

	"github.com/gpuisa/gpuisa/internal/filecache"
)

// targetCache is the cached outcomes of one (llvm-mc version, target,
// -mattr): assembly -> Outcome. Each target has its own file, so parallel
// targets never write the same file.
type targetCache struct {
	path    string // "" when caching is off
	entries map[string]Outcome
}

// Cache kinds: assembly answers, and disassembly answers (keyed by the
// encoding's bytes, Printed holding the text).
const (
	kindAsm    = ""
	kindDisasm = ".disasm"
)

func cacheFile(dir, version, target, mattr, kind string) string {
	name := target
	if mattr != "" {
		name += "_" + mattr
	}
	return filecache.Path(dir, version, name+kind)
}

func loadCache(dir, version, target, mattr, kind string) (*targetCache, error) {
	c := &targetCache{}
	if dir != "" {
		c.path = cacheFile(dir, version, target, mattr, kind)
	}
	m, err := filecache.Load[Outcome](c.path)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	c.entries = m
	return c, nil
}

// save writes the cache atomically.
func (c *targetCache) save() error {
	if err := filecache.Save(c.path, c.entries); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}

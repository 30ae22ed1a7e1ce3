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

func cacheFile(dir, version, target, mattr string) string {
	name := target
	if mattr != "" {
		name += "_" + mattr
	}
	return filecache.Path(dir, version, name)
}

func loadCache(dir, version, target, mattr string) (*targetCache, error) {
	c := &targetCache{}
	if dir != "" {
		c.path = cacheFile(dir, version, target, mattr)
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

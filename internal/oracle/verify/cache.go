package verify

import (
	"fmt"
	"sync"

	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
)

// targetCache is the cached outcomes of one (llvm-mc version, target,
// -mattr): assembly -> Outcome. Each target has its own file, so parallel
// targets never write the same file.
type targetCache struct {
	// mu is held by whoever reads or adds entries: a build runs several
	// batches over the same targets, and they share one loaded cache.
	mu      sync.Mutex
	path    string // "" when caching is off
	entries map[string]Outcome
}

// openCaches keeps each cache file loaded once per process (path ->
// *targetCache): decoding a target's file costs more than a batch of
// cache hits, and a build asks every target several times.
var openCaches sync.Map

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
	if dir == "" {
		return &targetCache{entries: map[string]Outcome{}}, nil
	}
	path := cacheFile(dir, version, target, mattr, kind)
	if open, ok := openCaches.Load(path); ok {
		return open.(*targetCache), nil
	}
	m, err := filecache.Load[Outcome](path)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	open, _ := openCaches.LoadOrStore(path, &targetCache{path: path, entries: m})
	return open.(*targetCache), nil
}

// save writes the cache atomically.
func (c *targetCache) save() error {
	if err := filecache.Save(c.path, c.entries); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}

// ReleaseCaches forgets the cache files loaded so far (openCaches): a
// build's are a few hundred megabytes of its heap, so it releases them
// once a stage has no more llvm-mc to run, and a later call loads a file
// again. It must not run while a call of this package is in flight: that
// call's additions would be saved beside a second copy of its file.
func ReleaseCaches() {
	openCaches.Clear()
}

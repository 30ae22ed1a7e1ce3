package ptxas

import (
	"fmt"
	"sync"

	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
)

// cacheFormat changes when the way outcomes are read from ptxas's messages
// changes, so old answers are not reused.
const cacheFormat = "r3"

// fileCache holds the outcomes of one (ptxas version, target), keyed by
// PTX ISA version and unit key. Jobs of several PTX versions for one
// target share it, hence the lock.
type fileCache struct {
	path    string
	mu      sync.Mutex
	entries map[string]Outcome
	dirty   bool
}

func (s *Session) cache(tool Tool, target string) (*fileCache, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mode := ""
	if s.ParseOnly {
		mode = "-parse"
	}
	key := tool.Version + "/" + target + mode
	if c, ok := s.caches[key]; ok {
		return c, nil
	}
	c := &fileCache{}
	if s.CacheDir != "" {
		c.path = filecache.Path(s.CacheDir, "ptxas-"+tool.Version, target+mode+"-"+cacheFormat)
	}
	m, err := filecache.Load[Outcome](c.path)
	if err != nil {
		return nil, fmt.Errorf("ptxas: %w", err)
	}
	c.entries = m
	s.caches[key] = c
	return c, nil
}

func (c *fileCache) get(key string) (Outcome, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.entries[key]
	return o, ok
}

func (c *fileCache) put(key string, o Outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = o
	c.dirty = true
}

func (c *fileCache) save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return nil
	}
	if err := filecache.Save(c.path, c.entries); err != nil {
		return fmt.Errorf("ptxas: %w", err)
	}
	c.dirty = false
	return nil
}

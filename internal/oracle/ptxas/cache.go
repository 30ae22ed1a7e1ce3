package ptxas

import (
	"fmt"
	"strings"
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
	c.shareMessages()
	s.caches[key] = c
	return c, nil
}

// shareMessages makes the outcomes that carry the same messages share one
// copy of them: a target's cache holds tens of thousands of outcomes but a
// few thousand distinct messages ("Feature 'x' requires .target sm_90 or
// higher"), and decoding gives each its own.
func (c *fileCache) shareMessages() {
	seen := map[string][]string{}
	share := func(msgs []string) []string {
		if len(msgs) == 0 {
			return nil
		}
		k := msgs[0] // most outcomes carry one message: no join
		if len(msgs) > 1 {
			k = strings.Join(msgs, "\x00")
		}
		if got, ok := seen[k]; ok {
			return got
		}
		seen[k] = msgs
		return msgs
	}
	for k, o := range c.entries {
		o.Errors, o.Warnings = share(o.Errors), share(o.Warnings)
		c.entries[k] = o
	}
}

// Release saves and drops every cache the session holds in memory (the
// next use reloads it): a build calls it when its PTX step is over.
func (s *Session) Release() error {
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, c := range s.caches {
		if err := c.save(); err != nil {
			return err
		}
		delete(s.caches, k)
	}
	return nil
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

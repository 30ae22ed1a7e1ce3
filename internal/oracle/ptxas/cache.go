package ptxas

import (
	"fmt"
	"strings"
	"sync"
	"time"

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
	// messages holds one copy of each distinct message list (shared).
	messages map[string][]string
	dirty    bool
	saved    time.Time // the last save; zero before the first
}

// saveEvery spaces a cache's saves while jobs keep adding to it: a save
// encodes the whole map (tens of thousands of outcomes), and a build runs
// hundreds of jobs per target (the version search's rounds), which saved
// after each job cost 28 CPU-s of a cold build. Release saves what is
// left; a crash loses at most this much of ptxas's work.
const saveEvery = 20 * time.Second

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
	c.entries, c.messages = m, map[string][]string{}
	c.shareMessages()
	s.caches[key] = c
	return c, nil
}

// shareMessages makes the outcomes that carry the same messages share one
// copy of them: a target's cache holds tens of thousands of outcomes but a
// few thousand distinct messages ("Feature 'x' requires .target sm_90 or
// higher"), and decoding gives each its own.
func (c *fileCache) shareMessages() {
	for k, o := range c.entries {
		o.Errors, o.Warnings = c.shared(o.Errors), c.shared(o.Warnings)
		c.entries[k] = o
	}
}

// shared returns the one copy of msgs the cache keeps. The first copy is
// cloned: a new outcome's messages are substrings of all of ptxas's
// output for its batch, which would otherwise stay in memory with them
// (115 MB at a cold build's peak).
func (c *fileCache) shared(msgs []string) []string {
	if len(msgs) == 0 {
		return nil
	}
	k := msgs[0] // most outcomes carry one message: no join
	if len(msgs) > 1 {
		k = strings.Join(msgs, "\x00")
	}
	if got, ok := c.messages[k]; ok {
		return got
	}
	kept := make([]string, len(msgs))
	for i, m := range msgs {
		kept[i] = strings.Clone(m)
	}
	c.messages[strings.Clone(k)] = kept
	return kept
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
	o.Errors, o.Warnings = c.shared(o.Errors), c.shared(o.Warnings)
	c.entries[key] = o
	c.dirty = true
}

// saveIfDue saves c when it has not been saved for saveEvery.
func (c *fileCache) saveIfDue() error {
	c.mu.Lock()
	due := c.dirty && time.Since(c.saved) >= saveEvery
	c.mu.Unlock()
	if !due {
		return nil
	}
	return c.save()
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
	c.dirty, c.saved = false, time.Now()
	return nil
}

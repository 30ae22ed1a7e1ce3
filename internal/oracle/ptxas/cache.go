package ptxas

import (
	"encoding/hex"
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
//
// A cold build keeps about a million outcomes in memory across the
// targets; as a map of strings to Outcome they were 150 MB of its peak
// live heap, and every collection walked them. They are kept packed
// (packedKey, packedOutcome: no pointers, so the collector skips the map)
// and unpacked when read or saved; the file keeps the plain form.
type fileCache struct {
	path    string
	mu      sync.Mutex
	entries map[packedKey]packedOutcome
	// other holds the outcomes of keys packKey cannot pack (none that
	// Unit.Key makes).
	other map[string]Outcome
	// lists holds one copy of each distinct message list (lists[id-1]),
	// listID its id by the messages joined.
	lists  [][]string
	listID map[string]uint32
	dirty  bool
	saved  time.Time // the last save; zero before the first
}

// A packedKey is a cache key "VERSION:KEY" as bytes: the PTX ISA version
// ("9.1") NUL-padded to four bytes, then the 12 bytes of the unit's key.
type packedKey [16]byte

// packKey packs key when it has that shape.
func packKey(key string) (packedKey, bool) {
	var k packedKey
	i := strings.IndexByte(key, ':')
	if i < 1 || i > 4 || len(key)-i-1 != 2*(len(k)-4) || strings.IndexByte(key[:i], 0) >= 0 {
		return k, false
	}
	copy(k[:4], key[:i])
	// Lower-case digits only, so the key comes back the same (String);
	// read in place: every lookup of a build's version search packs one.
	digits := key[i+1:]
	for j := range len(k) - 4 {
		hi, ok1 := lowerHex(digits[2*j])
		lo, ok2 := lowerHex(digits[2*j+1])
		if !ok1 || !ok2 {
			return k, false
		}
		k[4+j] = hi<<4 | lo
	}
	return k, true
}

// lowerHex is the value of a lower-case hex digit.
func lowerHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func (k packedKey) String() string {
	return strings.TrimRight(string(k[:4]), "\x00") + ":" + hex.EncodeToString(k[4:])
}

// A packedOutcome is an Outcome with its message lists as ids in the
// cache's lists (0: none).
type packedOutcome struct {
	flags            uint8
	errors, warnings uint32
}

const (
	packedOK = 1 << iota
	packedFatal
)

func (c *fileCache) pack(o Outcome) packedOutcome {
	p := packedOutcome{errors: c.listOf(o.Errors), warnings: c.listOf(o.Warnings)}
	if o.OK {
		p.flags |= packedOK
	}
	if o.Fatal {
		p.flags |= packedFatal
	}
	return p
}

func (c *fileCache) unpack(p packedOutcome) Outcome {
	return Outcome{OK: p.flags&packedOK != 0, Fatal: p.flags&packedFatal != 0, Errors: c.list(p.errors), Warnings: c.list(p.warnings)}
}

func (c *fileCache) list(id uint32) []string {
	if id == 0 {
		return nil
	}
	return c.lists[id-1]
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
	if err := c.load(); err != nil {
		return nil, err
	}
	s.caches[key] = c
	return c, nil
}

// load reads the cache's file (none: empty).
func (c *fileCache) load() error {
	m, err := filecache.Load[Outcome](c.path)
	if err != nil {
		return fmt.Errorf("ptxas: %w", err)
	}
	c.entries, c.other, c.listID = make(map[packedKey]packedOutcome, len(m)), map[string]Outcome{}, map[string]uint32{}
	for k, o := range m {
		c.store(k, o)
	}
	return nil
}

// listOf returns the id of the one copy of msgs the cache keeps (a
// target's cache holds tens of thousands of outcomes but a few thousand
// distinct messages: "Feature 'x' requires .target sm_90 or higher"). The
// first copy is cloned: a new outcome's messages are substrings of all of
// ptxas's output for its batch, which would otherwise stay in memory with
// them (115 MB at a cold build's peak).
func (c *fileCache) listOf(msgs []string) uint32 {
	if len(msgs) == 0 {
		return 0
	}
	k := msgs[0] // most outcomes carry one message: no join
	if len(msgs) > 1 {
		k = strings.Join(msgs, "\x00")
	}
	if id, ok := c.listID[k]; ok {
		return id
	}
	kept := make([]string, len(msgs))
	for i, m := range msgs {
		kept[i] = strings.Clone(m)
	}
	c.lists = append(c.lists, kept)
	id := uint32(len(c.lists))
	c.listID[strings.Clone(k)] = id
	return id
}

// store keeps o under key (the lock held).
func (c *fileCache) store(key string, o Outcome) {
	if k, ok := packKey(key); ok {
		c.entries[k] = c.pack(o)
		return
	}
	o.Errors, o.Warnings = c.list(c.listOf(o.Errors)), c.list(c.listOf(o.Warnings))
	c.other[key] = o
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
	if k, ok := packKey(key); ok {
		p, ok := c.entries[k]
		if !ok {
			return Outcome{}, false
		}
		return c.unpack(p), true
	}
	o, ok := c.other[key]
	return o, ok
}

func (c *fileCache) put(key string, o Outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store(key, o)
	c.dirty = true
}

// all yields every outcome in its plain form, as the file keeps them (the
// lock held).
func (c *fileCache) all(yield func(string, Outcome) bool) {
	for k, p := range c.entries {
		if !yield(k.String(), c.unpack(p)) {
			return
		}
	}
	for k, o := range c.other {
		if !yield(k, o) {
			return
		}
	}
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
	if err := filecache.SaveSeq(c.path, len(c.entries)+len(c.other), c.all); err != nil {
		return fmt.Errorf("ptxas: %w", err)
	}
	c.dirty, c.saved = false, time.Now()
	return nil
}

package web

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"sync"
)

// pageCache keeps rendered 200 answers by request URI. The database is
// read-only while it is served, so an answer stays right for the life of the
// handler; the cache is bounded in bytes and evicts the least recently used
// entries. Compressed bodies are made once, on the first gzip request.
type pageCache struct {
	mu      sync.Mutex
	limit   int
	size    int
	entries map[string]*list.Element
	lru     *list.List // front: most recently used
}

type cachedAnswer struct {
	key  string
	resp response
	once sync.Once
}

func newPageCache(limit int) *pageCache {
	if limit <= 0 {
		return nil
	}
	return &pageCache{limit: limit, entries: map[string]*list.Element{}, lru: list.New()}
}

// maxCacheKey bounds the URIs worth keeping (long search strings are not).
const maxCacheKey = 256

func (c *pageCache) get(key string) (*cachedAnswer, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cachedAnswer), true
}

func (c *pageCache) put(key string, resp response) {
	if c == nil || len(key) > maxCacheKey || resp.status != 200 {
		return
	}
	cost := len(key) + len(resp.body) + len(resp.body)/3 // room for the gzip body
	if cost > c.limit/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return
	}
	c.entries[key] = c.lru.PushFront(&cachedAnswer{key: key, resp: resp})
	c.size += cost
	for c.size > c.limit {
		old := c.lru.Back()
		a := old.Value.(*cachedAnswer)
		c.lru.Remove(old)
		delete(c.entries, a.key)
		c.size -= len(a.key) + len(a.resp.body) + len(a.resp.body)/3
	}
}

// gzipped returns the compressed body, compressing it on first use.
func (a *cachedAnswer) gzipped() []byte {
	a.once.Do(func() {
		if a.resp.gzipped != nil {
			return
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(a.resp.body)
		zw.Close()
		a.resp.gzipped = buf.Bytes()
	})
	return a.resp.gzipped
}

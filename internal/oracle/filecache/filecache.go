// Package filecache keeps an oracle's answers (llvm-mc, ptxas) between
// builds: one gob file of key -> value per (tool version, target), written
// to a temporary file and renamed into place so a crash never leaves a
// half-written cache, and read back leniently (a damaged file costs one
// re-run, not a failed build).
package filecache

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
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
	// The file is a sequence of maps (Save's chunks; older files hold
	// one): each is decoded into m, which gob adds to.
	dec := gob.NewDecoder(bufio.NewReader(f))
	for {
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return m, nil
		}
		if err != nil {
			return map[string]V{}, nil
		}
	}
}

// saveChunk bounds the entries encoded as one gob value: gob buffers a
// whole value before writing it, and one map of a target's ptxas outcomes
// was 80 MB of a cold build's peak heap.
const saveChunk = 4096

// Save writes m to path atomically; path "" does nothing.
func Save[V any](path string, m map[string]V) error {
	return SaveSeq(path, len(m), maps.All(m))
}

// SaveSeq is Save of the n entries seq yields (a cache that keeps its
// entries in another form in memory writes them without a map of them).
func SaveSeq[V any](path string, n int, seq iter.Seq2[string, V]) error {
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
	if err := encodeChunks(tmp, n, seq); err != nil {
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

// encodeChunks writes the n entries of seq as maps of at most saveChunk
// entries.
func encodeChunks[V any](w io.Writer, n int, seq iter.Seq2[string, V]) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := gob.NewEncoder(bw)
	chunk := make(map[string]V, min(n, saveChunk))
	written := false
	for k, v := range seq {
		chunk[k] = v
		if len(chunk) == saveChunk {
			if err := enc.Encode(chunk); err != nil {
				return err
			}
			clear(chunk)
			written = true
		}
	}
	if len(chunk) > 0 || !written {
		if err := enc.Encode(chunk); err != nil {
			return err
		}
	}
	return bw.Flush()
}

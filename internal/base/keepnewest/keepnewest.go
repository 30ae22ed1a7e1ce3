// Package keepnewest bounds a directory of cache files that only save
// time (kept pages, kept derivations): the newest files are kept, by
// modification time, and a file that is used again is touched so that it
// counts as new.
package keepnewest

import (
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Touch marks path as just used; a missing file is no error.
func Touch(path string) {
	now := time.Now()
	_ = os.Chtimes(path, now, now)
}

// Prune removes the files matching pattern (a filepath.Glob pattern) past
// the newest maxFiles, or past maxBytes in all (0: no byte limit), never
// keep (the file just written, counted first). Errors are ignored: a file
// left behind is only space.
func Prune(pattern, keep string, maxFiles int, maxBytes int64) {
	files, _ := filepath.Glob(pattern)
	type aged struct {
		path string
		mod  time.Time
		size int64
	}
	var all []aged
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			all = append(all, aged{f, st.ModTime(), st.Size()})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].path == keep || all[j].path == keep {
			return all[i].path == keep
		}
		return all[i].mod.After(all[j].mod)
	})
	var total int64
	for i, f := range all {
		total += f.size
		if f.path != keep && (i >= maxFiles || maxBytes > 0 && total > maxBytes) {
			os.Remove(f.path)
		}
	}
}

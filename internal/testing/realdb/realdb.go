// Package realdb gives tests a real reference database: the one an
// environment variable names, else one built from the upstream sources and
// shared by every test binary of the checkout that asks for the same build.
// A build is keyed by everything it reads — the module's Go sources, the
// upstream tree, the options, the tools found and the GPUISA_* environment —
// and kept in the user cache (gpuisa/testdb), so `go test ./...` builds each
// kind of database once, not once per package, and a second run with
// nothing changed builds none. Concurrent test binaries wait for the one
// building (a file lock) instead of building it too.
package realdb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// DB is one real database of a test binary.
type DB struct {
	Env string // names a built database to use instead of building one

	once sync.Once
	path string
	err  error
}

// Path returns the database $Env names, else the shared one built (on the
// first call, or found already built) from the upstream sources with opts,
// whose Sources and Out it fills in; "" when there is neither.
func (d *DB) Path(opts ingest.Options) (string, error) {
	d.once.Do(func() {
		if p := os.Getenv(d.Env); p != "" {
			d.path = p
			return
		}
		src := testenv.FindUpstream()
		if src == "" {
			return
		}
		opts.Sources = src
		d.path, d.err = Shared(opts)
	})
	return d.path, d.err
}

// Open opens the database at path for a test; it is closed when tb ends.
func Open(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// keep is how many shared databases the cache holds; older ones go.
const keep = 4

// Shared returns the path of a database built with opts (Sources set, Out
// ignored), building it unless a build with the same key is in the cache.
// Options with callbacks (Progress, Answers, Log) cannot be keyed: such a
// build is made once in a temporary directory of the process.
func Shared(opts ingest.Options) (string, error) {
	if opts.Progress != nil || opts.Answers != nil || opts.Log != nil {
		return "", fmt.Errorf("realdb: options with callbacks cannot be shared")
	}
	key, err := buildKey(opts)
	if err != nil {
		return "", err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "gpuisa", "testdb")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// One lock per key: a binary that needs the quick build does not wait
	// for another's verified one.
	unlock, err := lock(filepath.Join(dir, key+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	path := filepath.Join(dir, key+".db")
	if _, err := os.Stat(path); err == nil {
		now := time.Now()
		os.Chtimes(path, now, now) // most recently used: evicted last
		return path, nil
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	opts.Out = filepath.Join(tmp, "gpuisa.db")
	if _, err := ingest.Run(context.Background(), opts); err != nil {
		return "", err
	}
	if err := os.Rename(opts.Out, path); err != nil {
		return "", err
	}
	evict(dir, path)
	return path, nil
}

// lock takes an exclusive lock on path, waiting for another process's.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// evict removes all but the keep most recently used databases in dir
// (never just), and build directories a killed test left behind.
func evict(dir, just string) {
	ents, _ := os.ReadDir(dir)
	type db struct {
		path string
		used time.Time
	}
	var dbs []db
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if err != nil {
			continue
		}
		switch {
		case e.IsDir() && strings.HasPrefix(e.Name(), "build-") && time.Since(info.ModTime()) > time.Hour:
			os.RemoveAll(p)
		case strings.HasSuffix(e.Name(), ".lock") && time.Since(info.ModTime()) > 24*time.Hour:
			// The lock of a build long gone (its database evicted or
			// never made): no test binary of this code asks for it.
			if _, err := os.Stat(strings.TrimSuffix(p, ".lock") + ".db"); err != nil {
				os.Remove(p)
			}
		case strings.HasSuffix(e.Name(), ".db") && p != just:
			dbs = append(dbs, db{p, info.ModTime()})
		}
	}
	sort.Slice(dbs, func(i, j int) bool { return dbs[i].used.After(dbs[j].used) })
	for i := keep - 1; i < len(dbs); i++ {
		os.Remove(dbs[i].path)
	}
}

// buildKey hashes what a build with opts reads: the options, the module's
// Go sources (any change to the code may change the database), the
// upstream tree's names, sizes and times, the tools the build would find
// and the environment variables it reads.
func buildKey(opts ingest.Options) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "opts %q %q %q %q %v %v %v %v %q %q %q %q %q %q\n", opts.Sources, opts.LLVMDocDir, opts.LLVMProject,
		opts.CacheDir, opts.NoVerify, opts.AllowPartial, opts.NoPTXAS, opts.NoInstall, opts.PTXAS, opts.NVDisasm,
		opts.Timings, opts.SemResults, opts.PageCache, opts.Provisional)
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	if err := hashGoSources(h, root); err != nil {
		return "", err
	}
	if err := hashTreeStat(h, opts.Sources); err != nil {
		return "", err
	}
	for _, tool := range []string{"llvm-mc-22", "llvm-mc", "llvm-mca-22", "llvm-mca", "opt-22", "opt", "ptxas", "nvdisasm"} {
		fmt.Fprintf(h, "tool %s %s\n", tool, statOf(lookPath(tool)))
	}
	for _, p := range append([]string{"/usr/share/doc/llvm-22-doc"}, opts.PTXAS...) {
		fmt.Fprintf(h, "path %s %s\n", p, statOf(p))
	}
	if cache, err := os.UserCacheDir(); err == nil {
		venv := filepath.Join(cache, "gpuisa", "nvidia-venv")
		fmt.Fprintf(h, "venv %s\n", statOf(venv))
	}
	env := os.Environ()
	sort.Strings(env)
	for _, kv := range env {
		if strings.HasPrefix(kv, "GPUISA_") || strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			fmt.Fprintf(h, "env %s\n", kv)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

func lookPath(name string) string {
	p, _ := exec.LookPath(name)
	return p
}

func statOf(p string) string {
	if p == "" {
		return "-"
	}
	info, err := os.Stat(p)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%d %d", info.Size(), info.ModTime().UnixNano())
}

// moduleRoot is the directory of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("realdb: no go.mod above %s", dir)
		}
	}
}

// hashGoSources hashes the contents of every file of the module a build
// can read: go.mod, go.sum and the non-test files under cmd and internal
// (Go sources and the data they embed), not testdata or dot-folders, nor
// anything else at the top (a database a user built there).
func hashGoSources(h io.Writer, root string) error {
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := hashFile(h, root, filepath.Join(root, name)); err != nil {
			return err
		}
	}
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := e.Name()
			if e.IsDir() {
				if strings.HasPrefix(name, ".") || name == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, "_test.go") || !e.Type().IsRegular() {
				return nil
			}
			return hashFile(h, root, p)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func hashFile(h io.Writer, root, p string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	rel, _ := filepath.Rel(root, p)
	fmt.Fprintf(h, "file %s %d\n", rel, len(b))
	h.Write(b)
	return nil
}

// hashTreeStat hashes the names, sizes and modification times of the files
// under dir (the upstream tree: 17 MB, read by the build itself).
func hashTreeStat(h io.Writer, dir string) error {
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Stat(p) // follows links: the tree may be a farm of them
		if err != nil {
			return err
		}
		if !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			fmt.Fprintf(h, "src %s %d %d\n", rel, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
}

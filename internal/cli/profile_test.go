package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestProfilesAreWritten holds startProfiles to writing both profiles in
// pprof's format (gzip-compressed protocol buffers) and to skipping a
// profile whose file is "".
func TestProfilesAreWritten(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	stop, err := startProfiles(cpu, mem)
	if err != nil {
		t.Fatal(err)
	}
	keep := make([][]byte, 0, 64)
	for i := 0; i < 64; i++ {
		keep = append(keep, make([]byte, 1<<16))
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	_ = keep
	for _, f := range []string{cpu, mem} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: not a gzip-compressed pprof profile (%d bytes)", filepath.Base(f), len(b))
		}
	}
	stop, err = startProfiles("", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestBuildMemoryLimit: a build sets its soft heap limit unless
// $GOMEMLIMIT names one, which the runtime then keeps.
func TestBuildMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	limitBuildMemory()
	if got := debug.SetMemoryLimit(-1); got != buildMemoryLimit {
		t.Errorf("limit %d, want %d", got, buildMemoryLimit)
	}
	debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "2GiB")
	limitBuildMemory()
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Errorf("with GOMEMLIMIT set the limit became %d, want %d kept", got, old)
	}
}

// TestPageCacheDir: the page cache lives in the cache directory's pages/,
// and --no-page-cache or --no-prerender keep none.
func TestPageCacheDir(t *testing.T) {
	for _, tc := range []struct {
		f    buildFlags
		want string
	}{
		{buildFlags{cache: "/c"}, filepath.Join("/c", "pages")},
		{buildFlags{cache: "/c", noPageCache: true}, ""},
		{buildFlags{cache: "/c", noPrerender: true}, ""},
	} {
		if got := tc.f.pageCache(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
	if got := (&buildFlags{}).pageCache(); !strings.HasSuffix(got, string(filepath.Separator)+"pages") {
		t.Errorf("default page cache %q, want the user cache directory's pages/", got)
	}
}

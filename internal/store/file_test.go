package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenStaysOnItsFile: a DB reads the file it opened, whatever a build
// renames to the path later or whether the path is deleted, from every
// connection of its pool.
func TestOpenStaysOnItsFile(t *testing.T) {
	path := writeSample(t)
	s := openAt(t, path)
	ctx := context.Background()
	first, _ := s.Info(ctx)

	other := sampleBuild()
	other.Instructions = other.Instructions[:2] // cdna4 v_max_f32 and v_max_f16 only
	writeAt(t, path, other)
	if id, _ := Stat(path); id == s.FileID() {
		t.Fatal("the new file has the old file's identity")
	}
	check := func(when string) {
		t.Helper()
		// More concurrent reads than the pool keeps open, so that new
		// connections are opened after the path changed.
		errc := make(chan error, 64)
		for i := 0; i < 64; i++ {
			go func() {
				_, err := s.Instruction(ctx, "cdna4", "v_fma_f32") // not in the new file
				errc <- err
			}()
		}
		for i := 0; i < 64; i++ {
			if err := <-errc; err != nil {
				t.Fatalf("%s: %v", when, err)
			}
		}
		var n int
		if err := s.db.QueryRow("SELECT count(*) FROM instructions").Scan(&n); err != nil || n != 5 {
			t.Errorf("%s: %d instructions (%v), want the old file's 5", when, n, err)
		}
	}
	check("after a new file was renamed to the path")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	check("after the path was deleted")
	if info, _ := s.Info(ctx); info.ID != first.ID {
		t.Errorf("build id changed from %s to %s", first.ID, info.ID)
	}
}

// TestOpenRejectsIncompleteFiles: a truncated, padded, empty or foreign file
// is an error naming the problem, before SQLite reads it.
func TestOpenRejectsIncompleteFiles(t *testing.T) {
	good, err := os.ReadFile(writeSample(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"empty":     {nil, "shorter than a SQLite header"},
		"truncated": {good[:len(good)/2], "truncated"},
		"last page": {good[:len(good)-1], "truncated"},
		"padded":    {append(append([]byte(nil), good...), make([]byte, 4096)...), "truncated or overwritten"},
		"text":      {bytes.Repeat([]byte("not a database\n"), 100), "not a SQLite database"},
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".db")
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(p)
		if err == nil {
			s.Close()
			t.Errorf("%s: opened", name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %q does not say %q and name the file", name, err, c.want)
		}
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

// TestWriteRemovesStaleTemps: a build killed mid-write leaves its temporary
// file; the next build of the same output removes it, but not the file of a
// build still running (which holds its lock).
func TestWriteRemovesStaleTemps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ref.db")
	stale := filepath.Join(filepath.Dir(path), ".ref.db.tmp-111")
	running := filepath.Join(filepath.Dir(path), ".ref.db.tmp-222")
	otherOutput := filepath.Join(filepath.Dir(path), ".other.db.tmp-333")
	for _, p := range []string{stale, stale + "-journal", running, otherOutput} {
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(running)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	writeAt(t, path, sampleBuild())
	for p, want := range map[string]bool{stale: false, stale + "-journal": false, running: true, otherOutput: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists=%v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// TestInstructionDocIsTheAPIDocument: the stored document is json.Marshal of
// the instruction plus a newline, and its gzip form inflates to it.
func TestInstructionDocIsTheAPIDocument(t *testing.T) {
	s := openSample(t)
	ctx := context.Background()
	d, err := s.InstructionDoc(ctx, "RDNA4", "v_max_f32") // through the alias
	if err != nil {
		t.Fatal(err)
	}
	if d.Arch != "rdna4" || d.Name != "v_max_num_f32" {
		t.Errorf("resolved to %s/%s", d.Arch, d.Name)
	}
	in, err := s.Instruction(ctx, "rdna4", "v_max_num_f32")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(in)
	want = append(want, '\n')
	got, err := d.JSON()
	if err != nil || !bytes.Equal(got, want) || d.Len != len(want) {
		t.Errorf("stored document differs from json.Marshal of the instruction (%v)", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(d.Gzip()))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr) // checks the CRC and length
	if err != nil || !bytes.Equal(unzipped, want) {
		t.Errorf("gzip form: %v", err)
	}
}

// TestOpenCopyKeepsItsBytes: a DB opened with OpenCopy reads the bytes the
// file had when it opened, whatever is written over the file in place
// later (another build's bytes, a truncated copy, random bytes in the
// middle), from every connection of its pool, and still verifies.
func TestOpenCopyKeepsItsBytes(t *testing.T) {
	path := writeBuild(t, paddedBuild(1<<20))
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenCopy(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	first, _ := s.Info(ctx)
	other, err := os.ReadFile(writeSample(t))
	if err != nil {
		t.Fatal(err)
	}
	middle := append([]byte(nil), good...)
	for i := len(middle) / 3; i < 2*len(middle)/3; i++ {
		middle[i] ^= 0x5a
	}
	for name, data := range map[string][]byte{"another build": other, "truncated": good[:len(good)/2], "damaged middle": middle} {
		// In place: the same inode, as cp writes it.
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		errc := make(chan error, 64)
		for i := 0; i < 64; i++ {
			go func() {
				_, err := s.Instruction(ctx, "cdna4", "v_fma_f32")
				errc <- err
			}()
		}
		for i := 0; i < 64; i++ {
			if err := <-errc; err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if err := s.Verify(ctx); err != nil {
			t.Errorf("%s: the copy does not verify: %v", name, err)
		}
		if info, _ := s.Info(ctx); info.ID != first.ID {
			t.Errorf("%s: build id changed from %s to %s", name, first.ID, info.ID)
		}
	}
	if id, _ := Stat(path); id == s.FileID() {
		t.Error("the file written over has the identity of the one copied")
	}
}

// TestOpenCopyRefusesAFileBeingWritten: a file whose identity changes while
// it is copied (here its modification time, as any write changes it) is
// ErrChanging, never a DB over a copy that may mix two files.
func TestOpenCopyRefusesAFileBeingWritten(t *testing.T) {
	path := writeBuild(t, paddedBuild(4<<20))
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		base := time.Now()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.Chtimes(path, base, base.Add(time.Duration(i)*time.Millisecond))
		}
	}()
	defer func() { close(stop); <-done }()
	for try := 0; try < 100; try++ {
		s, err := OpenCopy(path)
		if errors.Is(err, ErrChanging) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	t.Error("100 copies of a file changing all the while, none refused")
}

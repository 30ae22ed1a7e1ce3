package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// paddedBuild is the sample build with an extra of n incompressible bytes
// (base64 of random bytes, marked at both ends), so the file is large
// enough to damage in the middle with its header intact.
func paddedBuild(n int) *Build {
	b := sampleBuild()
	r := rand.New(rand.NewPCG(1, 2))
	raw := make([]byte, n*3/4)
	for i := range raw {
		raw[i] = byte(r.Uint32())
	}
	b.Extras["padding"] = []byte("<<padding:" + base64.StdEncoding.EncodeToString(raw) + ">>")
	return b
}

// TestVerifyAcceptsWhatWriteWrote: the manifest a build writes is what
// the rows add up to, after VACUUM.
func TestVerifyAcceptsWhatWriteWrote(t *testing.T) {
	for name, b := range map[string]*Build{"sample": sampleBuild(), "padded": paddedBuild(1 << 20)} {
		s := writeOpen(t, b)
		if err := s.Verify(context.Background()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// damage writes data over the file at path at off, in place.
func damage(t *testing.T, path string, off int64, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(data, off); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyRefusesDamagedMiddles: a file whose header is intact but whose
// middle is damaged opens (the header and the first pages are fine) and
// fails Verify. Random bytes over whole pages are what quick_check sees;
// a document's bytes changed inside an overflow page keep every page well
// formed, and only the manifest's sums see them.
func TestVerifyRefusesDamagedMiddles(t *testing.T) {
	b := paddedBuild(2 << 20)
	padding := b.Extras["padding"]
	good, err := os.ReadFile(writeBuild(t, b))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	random := make([]byte, 256<<10)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	mid := int64(len(good)/2) &^ 4095
	// 32 bytes from the middle of the padding, found whole in the file, lie
	// inside one of its overflow pages (not across the pointer to the next
	// one); the middle 8 of them are changed.
	needle := padding[len(padding)/2 : len(padding)/2+32]
	at := bytes.Index(good, needle)
	if at < 0 {
		t.Fatal("the padding is not in the file")
	}
	payload := int64(at + 12)
	for name, c := range map[string]struct {
		off  int64
		data []byte
		want string
	}{
		"random pages":       {mid, random, ""},
		"a document's bytes": {payload, []byte("!damage!"), "meta's rows do not add up"},
	} {
		path := filepath.Join(t.TempDir(), "ref.db")
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
		damage(t, path, c.off, c.data)
		s, err := Open(path)
		if err != nil {
			t.Fatalf("%s: the damage is past what Open reads: %v", name, err)
		}
		err = s.Verify(context.Background())
		s.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s at %d: Verify %v, want an error saying %q", name, c.off, err, c.want)
		}
	}
}

// TestVerifySeesEditedRows: a row changed, deleted or added through SQLite
// itself (a well-formed file with other contents) fails the manifest,
// naming the table; a database without a manifest says so.
func TestVerifySeesEditedRows(t *testing.T) {
	for name, c := range map[string]struct{ sql, want string }{
		"edited":   {"UPDATE instructions SET summary = 'other' WHERE name = 'v_fma_f32'", "instructions's rows do not add up"},
		"deleted":  {"DELETE FROM names WHERE arch = 'rdna4' AND alias = 'v_max_f32'", "names has 5 rows, the build wrote 6"},
		"added":    {"CREATE TABLE extra(x)", "extra is not in the manifest"},
		"dropped":  {"DROP TABLE support", "support is missing"},
		"manifest": {"DELETE FROM meta WHERE key = 'manifest'", ErrNoManifest.Error()},
	} {
		path := writeSample(t)
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(c.sql); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		db.Close()
		s := openAt(t, path)
		if err := s.Verify(context.Background()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Verify %v, want %q", name, err, c.want)
		}
	}
}

// BenchmarkVerify measures what a server does to a new database file
// before serving it, on a database grown to $GPUISA_VERIFY_MB megabytes
// (32 unless set) of instructions with incompressible descriptions: the
// private copy (OpenCopy), SQLite's integrity_check, the manifest's sums,
// and Verify (both); quick_check is measured for comparison. Each reports
// its time and the heap it allocated at its largest.
//
//	GPUISA_VERIFY_MB=300 go test ./internal/store -run '^$' -bench Verify -benchtime 2x
func BenchmarkVerify(b *testing.B) {
	mb := 32
	if v, err := strconv.Atoi(os.Getenv("GPUISA_VERIFY_MB")); err == nil && v > 0 {
		mb = v
	}
	build := sampleBuild()
	r := rand.New(rand.NewPCG(5, 6))
	raw := make([]byte, 6<<10)
	// Each instruction stores its description twice: in its (deflated)
	// document and in search_text, about 14 KB in all.
	for i := 0; i < mb<<20/(14<<10); i++ {
		for j := range raw {
			raw[j] = byte(r.Uint32())
		}
		build.Instructions = append(build.Instructions, &isa.Instruction{Arch: "cdna4", Name: fmt.Sprintf("v_grown_%06d", i),
			Vendor: isa.VendorAMD, Kind: isa.KindNative, Summary: "grown", Description: base64.StdEncoding.EncodeToString(raw)})
	}
	path := writeBuild(b, build)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	s := openAt(b, path)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"copy", func() error {
			cp, err := OpenCopy(path)
			if err == nil {
				err = cp.Close()
			}
			return err
		}},
		{"quick_check", func() error { return s.db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(new(string)) }},
		{"integrity_check", func() error { return s.integrityCheck(ctx) }},
		{"manifest", func() error { _, err := computeManifest(ctx, s.db); return err }},
		{"verify", func() error { return s.Verify(ctx) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var peak uint64
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				done := make(chan struct{})
				sampled := make(chan uint64)
				go func() { sampled <- heapPeak(done) }()
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
				close(done)
				if p := <-sampled; p > before.HeapInuse && p-before.HeapInuse > peak {
					peak = p - before.HeapInuse
				}
			}
			b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
			b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
		})
	}
}

// heapPeak samples the in-use heap every few milliseconds until done and
// returns the largest value seen.
func heapPeak(done <-chan struct{}) uint64 {
	var peak uint64
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapInuse)
		select {
		case <-done:
			return peak
		case <-t.C:
		}
	}
}

// TestVerifyRefusesEveryEditedName: a name changed in the file's bytes, in
// any of the places it is stored (the instructions and names tables, the
// search text, the index of instructions by name), fails Verify: a table's
// copy fails the manifest, the index's copy (where a lookup would find
// nothing: a wrong 404) fails integrity_check.
func TestVerifyRefusesEveryEditedName(t *testing.T) {
	good, err := os.ReadFile(writeSample(t))
	if err != nil {
		t.Fatal(err)
	}
	name := []byte("v_min_f32")
	n := 0
	for off := bytes.Index(good, name); off >= 0; off = next(good, name, off) {
		n++
		path := filepath.Join(t.TempDir(), "ref.db")
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
		damage(t, path, int64(off)+4, []byte("o")) // v_mio_f32
		s, err := Open(path)
		if err != nil {
			continue // refused already
		}
		if err := s.Verify(context.Background()); err == nil {
			t.Errorf("the name changed at offset %d passed Verify", off)
		}
		s.Close()
	}
	if n < 4 {
		t.Errorf("the name is stored %d times; want it in the tables and the index", n)
	}
}

// next returns the offset of the next occurrence of sub in b after off, or -1.
func next(b, sub []byte, off int) int {
	i := bytes.Index(b[off+1:], sub)
	if i < 0 {
		return -1
	}
	return off + 1 + i
}

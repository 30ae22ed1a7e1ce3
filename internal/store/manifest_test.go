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

// BenchmarkVerify measures Verify on a database grown to
// $GPUISA_VERIFY_MB megabytes (32 unless set) of instructions with
// incompressible descriptions; it reports the file size and the heap
// Verify allocated at its largest.
//
//	GPUISA_VERIFY_MB=300 go test ./internal/store -run '^$' -bench Verify -benchtime 3x
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
	b.ResetTimer()
	var peak uint64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		done := make(chan struct{})
		sampled := make(chan uint64)
		go func() { sampled <- heapPeak(done) }()
		start := time.Now()
		if err := s.Verify(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms/verify")
		close(done)
		if p := <-sampled; p > before.HeapInuse && p-before.HeapInuse > peak {
			peak = p - before.HeapInuse
		}
	}
	b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
	b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
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

package listing

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

// TestEntryStaysSmall: a listing holds an Entry per instruction, and the
// passes over all of them (branches, padding, counts) read only the first
// cache line's fields.
func TestEntryStaysSmall(t *testing.T) {
	var e Entry
	if n := unsafe.Sizeof(e); n > 112 {
		t.Errorf("Entry is %d bytes, more than 112", n)
	}
	hot := map[string]uintptr{
		"Addr": unsafe.Offsetof(e.Addr) + unsafe.Sizeof(e.Addr), "Target": unsafe.Offsetof(e.Target) + unsafe.Sizeof(e.Target),
		"more": unsafe.Offsetof(e.more) + unsafe.Sizeof(e.more), "err": unsafe.Offsetof(e.err) + unsafe.Sizeof(e.err), "Text": unsafe.Offsetof(e.Text) + unsafe.Sizeof(e.Text),
		"Repeat": unsafe.Offsetof(e.Repeat) + unsafe.Sizeof(e.Repeat), "How": unsafe.Offsetof(e.How) + 1,
		"Func": unsafe.Offsetof(e.Func) + 1, "Padding": unsafe.Offsetof(e.Padding) + 1,
	}
	for name, end := range hot {
		if end > 64 {
			t.Errorf("Entry.%s ends at byte %d, past the first cache line", name, end)
		}
	}
}

// TestEditCopiesSharedNotes: entries copied from one another share what
// few have until one is written.
func TestEditCopiesSharedNotes(t *testing.T) {
	a := Entry{}
	a.edit().targetLabel = ".LBB0_1"
	b := a
	b.edit().targetLabel = ".LBB0_2"
	if a.TargetLabel() != ".LBB0_1" || b.TargetLabel() != ".LBB0_2" {
		t.Errorf("labels %q and %q, want .LBB0_1 and .LBB0_2", a.TargetLabel(), b.TargetLabel())
	}
}

func TestRoomFor(t *testing.T) {
	for _, c := range []struct{ rest, done, n, lo, hi int }{
		{rest: 1000, done: 16384, n: 2048, lo: 125, hi: 251},          // 8 bytes an instruction: the rest's 125 and an eighth
		{rest: 1 << 20, done: 16384, n: 4096, lo: 262144, hi: 262145}, // a word each: never more than the rest can hold
		{rest: 1000, done: 16384, n: 1000, lo: 250, hi: 250},          // at least a quarter of what is there
		{rest: 100, done: 16384, n: 1000, lo: 26, hi: 26},             // no more than the rest holds
		{rest: 40, done: 0, n: 0, lo: 11, hi: 11},                     // nothing seen: a word each
	} {
		got := roomFor(c.rest, c.done, c.n)
		if got < c.lo || got > c.hi {
			t.Errorf("roomFor(%d, %d, %d) = %d, want %d..%d", c.rest, c.done, c.n, got, c.lo, c.hi)
		}
	}
}

// TestDecodeCodeTextsAndGrowth: code denser past its first piece than in
// it (the entries grow past the estimate) and with texts longer than its
// arena's first room (the arena moves), each entry is what decoding its
// word alone gives.
func TestDecodeCodeTextsAndGrowth(t *testing.T) {
	a, ins := decodetest.Fixture()
	d, err := decode.New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	// Instructions of the fixture family by length, the long-texted ones
	// of each length apart.
	var wide, narrow, wordy [][]byte
	for len(wide) < 200 || len(narrow) < 200 || len(wordy) < 50 {
		w := make([]byte, 16)
		for i := range w {
			w[i] = byte(r.Uint32())
		}
		text, n, err := d.AppendText(nil, w, 0)
		if err != nil {
			continue
		}
		switch {
		case len(text) > 7*n && len(wordy) < 50:
			wordy = append(wordy, w[:n])
		case n >= 8 && len(wide) < 200:
			wide = append(wide, w[:n])
		case n == 4 && len(narrow) < 200:
			narrow = append(narrow, w[:n])
		}
	}
	var code []byte
	for len(code) < 3*entrySample {
		code = append(code, wide[r.IntN(len(wide))]...)
	}
	for len(code) < 12*entrySample {
		code = append(code, narrow[r.IntN(len(narrow))]...)
		for range 3 {
			code = append(code, wordy[r.IntN(len(wordy))]...)
		}
	}
	es := decodeCode(d, code, 0x100, 7, Options{}, nil)
	off, texts := 0, 0
	for i := range es {
		e := &es[i]
		want, n, err := d.AppendText(nil, code, off)
		if err != nil || e.Addr != int64(0x100+off) || e.Text != string(want) || len(e.Bytes) != n || e.Src != 7 {
			t.Fatalf("entry %d at 0x%x: %q (%d bytes, line %d), alone 0x%x %q (%d bytes, %v)", i, e.Addr, e.Text, len(e.Bytes), e.Src, 0x100+off, want, n, err)
		}
		off += n
		texts += len(e.Text)
	}
	if texts <= 6*len(code) {
		t.Errorf("texts of %d bytes for %d of code: the arena never moved", texts, len(code))
	}
	if off != len(code) {
		t.Errorf("entries cover %d bytes of %d", off, len(code))
	}
}

// TestDecodeSplitAsStraight: decoding code in two halves at once gives the
// entries decoding it straight through does, wherever the middle falls in
// an instruction (random words of the fixture family, several lengths).
func TestDecodeSplitAsStraight(t *testing.T) {
	a, ins := decodetest.Fixture()
	d, err := decode.New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, size := range []int{8, 100, 4 << 10, 130 << 10, 300<<10 + 12} {
		code := make([]byte, size)
		for i := range code {
			code[i] = byte(r.Uint32())
		}
		for _, opts := range []Options{{}} {
			want, _ := decodeRange(d, code, 0, len(code), 0x40, 3, opts, nil)
			got := decodeSplit(d, code, 0x40, 3, nil)
			if len(got) != len(want) {
				t.Fatalf("%d bytes %+v: %d entries split, %d straight", size, opts, len(got), len(want))
			}
			for i := range want {
				g, w := &got[i], &want[i]
				if g.Addr != w.Addr || g.Text != w.Text || g.Err() != w.Err() || g.Target != w.Target || len(g.Bytes) != len(w.Bytes) || g.Src != w.Src {
					t.Fatalf("%d bytes %+v, entry %d: split 0x%x %q %q, straight 0x%x %q %q", size, opts, i, g.Addr, g.Text, g.Err(), w.Addr, w.Text, w.Err())
				}
			}
		}
	}
}

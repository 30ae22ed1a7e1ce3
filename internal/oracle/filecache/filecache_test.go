package filecache

import (
	"encoding/gob"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestSaveLoadRoundTripsInChunks(t *testing.T) {
	path := Path(t.TempDir(), "tool 1.0", "sm_90/x")
	m := map[string][]string{}
	for i := 0; i < 2*saveChunk+7; i++ {
		m["k"+strconv.Itoa(i)] = []string{"message", strconv.Itoa(i)}
	}
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := Load[[]string](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(m) {
		t.Fatalf("loaded %d entries, saved %d", len(got), len(m))
	}
	for k, v := range m {
		if g := got[k]; len(g) != 2 || g[1] != v[1] {
			t.Fatalf("%s: loaded %q, saved %q", k, g, v)
		}
	}
	empty := Path(t.TempDir(), "v", "empty")
	if err := Save(empty, map[string]int{}); err != nil {
		t.Fatal(err)
	}
	if got, err := Load[int](empty); err != nil || len(got) != 0 {
		t.Errorf("empty map: %v, %v", got, err)
	}
}

// A cache written as one gob map (before chunks) still loads; a damaged
// one loads empty (one re-run, not a failed build).
func TestLoadReadsOneMapFilesAndForgivesDamage(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.gob")
	f, err := os.Create(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := gob.NewEncoder(f).Encode(map[string]int{"a": 1, "b": 2}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, err := Load[int](old); err != nil || len(got) != 2 || got["b"] != 2 {
		t.Errorf("one-map file: %v, %v", got, err)
	}
	bad := filepath.Join(dir, "bad.gob")
	os.WriteFile(bad, []byte("not gob at all"), 0o644)
	if got, err := Load[int](bad); err != nil || len(got) != 0 {
		t.Errorf("damaged file: %v, %v; want an empty map", got, err)
	}
}

package keepnewest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPrune keeps the file just written and the newest others up to the
// file and byte limits; a touched file counts as new.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i, name := range []string{"a", "b", "c", "d"} {
		p := filepath.Join(dir, "k-"+name)
		if err := os.WriteFile(p, make([]byte, 10), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Minute) // a oldest, d newest
		os.Chtimes(p, mod, mod)
	}
	Touch(filepath.Join(dir, "k-a")) // used again: the newest
	Prune(filepath.Join(dir, "k-*"), filepath.Join(dir, "k-b"), 3, 0)
	want := map[string]bool{"k-b": true, "k-a": true, "k-d": true}
	got, _ := filepath.Glob(filepath.Join(dir, "k-*"))
	if len(got) != len(want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	for _, p := range got {
		if !want[filepath.Base(p)] {
			t.Errorf("kept %s", p)
		}
	}
	Prune(filepath.Join(dir, "k-*"), filepath.Join(dir, "k-d"), 10, 15)
	if got, _ := filepath.Glob(filepath.Join(dir, "k-*")); len(got) != 1 || filepath.Base(got[0]) != "k-d" {
		t.Errorf("a 15-byte limit kept %v, want k-d alone", got)
	}
}

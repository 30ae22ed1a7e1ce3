package ptxas

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestCacheKeepsOutcomes: outcomes put in a cache, packed or not, read
// back as they were, from memory and after a save and a load.
func TestCacheKeepsOutcomes(t *testing.T) {
	u := Unit{Entry: ".visible .entry $U() { ret; }"}
	want := map[string]Outcome{
		"9.1:" + u.Key():   {OK: true},
		"10.0:" + u.Key():  {Errors: []string{"Feature 'x' requires .target sm_90 or higher"}, Fatal: true},
		"8.7:" + u.Key():   {Errors: []string{"a", "b"}, Warnings: []string{"w"}},
		"7.0:" + "ABCDEF":  {OK: true, Warnings: []string{"w"}}, // not Unit.Key's shape: kept unpacked
		"12345:" + u.Key(): {Errors: []string{"a", "b"}},
	}
	path := filepath.Join(t.TempDir(), "cache")
	c := &fileCache{path: path, entries: map[packedKey]packedOutcome{}, other: map[string]Outcome{}, listID: map[string]uint32{}}
	for k, o := range want {
		c.put(k, o)
	}
	if len(c.other) != 2 || len(c.entries) != 3 {
		t.Errorf("packed %d, unpacked %d; want 3 and 2", len(c.entries), len(c.other))
	}
	if len(c.lists) != 3 {
		t.Errorf("%d message lists kept, want 3 (each distinct list once)", len(c.lists))
	}
	check := func(c *fileCache, when string) {
		for k, o := range want {
			got, ok := c.get(k)
			if !ok || !reflect.DeepEqual(got, o) {
				t.Errorf("%s: %s = %+v, %v; want %+v", when, k, got, ok, o)
			}
		}
		if _, ok := c.get("9.1:" + Unit{Entry: "other"}.Key()); ok {
			t.Errorf("%s: a key never put is found", when)
		}
	}
	check(c, "in memory")
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	loaded := &fileCache{path: path}
	if err := loaded.load(); err != nil {
		t.Fatal(err)
	}
	check(loaded, "after a save and a load")
}

func TestPackKeyRoundTrips(t *testing.T) {
	key := "9.1:" + Unit{Entry: "x"}.Key()
	k, ok := packKey(key)
	if !ok || k.String() != key {
		t.Fatalf("packKey(%q) = %v %v, String %q", key, k, ok, k.String())
	}
	for _, bad := range []string{"", ":", "9.1", "9.1:abc", "12345:" + Unit{}.Key(), "9.1:" + "ZZ" + Unit{}.Key()[2:], "9.1:ABCDEF0123456789abcdef01"} {
		if _, ok := packKey(bad); ok {
			t.Errorf("packKey(%q) packed", bad)
		}
	}
}

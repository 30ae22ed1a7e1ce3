package verify

import "testing"

// TestReleaseCaches: a cache file is loaded once per process until
// ReleaseCaches, after which the next use loads it again (and what was
// saved to it reads back).
func TestReleaseCaches(t *testing.T) {
	dir := t.TempDir()
	a, err := loadCache(dir, "v1", "gfx950", "", kindAsm)
	if err != nil {
		t.Fatal(err)
	}
	a.entries["v_nop"] = Outcome{Supported: true}
	if err := a.save(); err != nil {
		t.Fatal(err)
	}
	if b, _ := loadCache(dir, "v1", "gfx950", "", kindAsm); b != a {
		t.Errorf("a second use loaded the file again")
	}
	ReleaseCaches()
	c, err := loadCache(dir, "v1", "gfx950", "", kindAsm)
	if err != nil {
		t.Fatal(err)
	}
	if c == a {
		t.Errorf("after ReleaseCaches the loaded cache was kept")
	}
	if !c.entries["v_nop"].Supported {
		t.Errorf("the saved outcome did not read back: %+v", c.entries)
	}
}

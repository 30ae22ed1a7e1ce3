package lazyre

import (
	"sync"
	"testing"
)

// TestLazy: nothing compiles until first use; concurrent first uses
// compile once and agree with regexp.
func TestLazy(t *testing.T) {
	r := New(`^(v|s)(\d+)$`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			if m := r.FindStringSubmatch("v12"); len(m) != 3 || m[2] != "12" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		})
	}
	wg.Wait()
	if r.MatchString("x1") || !r.MatchString("s0") || r.String() != `^(v|s)(\d+)$` {
		t.Error("methods disagree with regexp")
	}
}

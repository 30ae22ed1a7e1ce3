package ingest

import (
	"context"
	"testing"
	"time"
)

// TestGateIsFast: the gate runs on every build; on the real tree it reads
// every source and parses the guides and PTX sections once (about 1 s on
// two cores).
func TestGateIsFast(t *testing.T) {
	src := upstreamDir(t)
	start := time.Now()
	gaps, err := checkSources(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	d := time.Since(start)
	t.Logf("gate on the real tree: %v, %d gaps", d, len(gaps))
	if d > 10*time.Second {
		t.Errorf("the gate took %v", d)
	}
}

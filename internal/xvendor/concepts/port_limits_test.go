package concepts

import (
	"strings"
	"testing"
)

// TestPortRefusesHostileLines: port on issue 13's quadratic case answers
// "unknown" with the limit at once (it took 15 s before the bound).
func TestPortRefusesHostileLines(t *testing.T) {
	r := Port(&Catalogue{}, "add"+strings.Repeat(".s32", 30000)+" d, a, b;", Target{})
	if !r.Unknown || !strings.Contains(r.Gap, "may have here") {
		t.Errorf("port: unknown=%v gap=%q, want the limit", r.Unknown, r.Gap)
	}
}

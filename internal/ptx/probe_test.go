package ptx

import (
	"os"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	if os.Getenv("PTX_PROBE") == "" {
		t.Skip()
	}
	_, instrs, _ := realDocs(t)
	c := NewChecker(instrs)
	for _, l := range strings.Split(os.Getenv("PTX_PROBE"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		r := c.Check(l)
		t.Logf("%-60s valid=%v %s | %s %s %v", l, r.Valid, r.Reason, r.PTXVersion, r.MinTarget, r.RaisedBy)
	}
}

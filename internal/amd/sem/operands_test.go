package sem

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestEverySourceOperand: each source the request form offers (S0 to S3)
// reaches the program: read when given, named when missing, refused when
// the program does not read it.
func TestEverySourceOperand(t *testing.T) {
	var ie *InputError
	for i := 0; i < 4; i++ {
		name := fmt.Sprintf("S%d", i)
		in := Compile("cdna3", "v_test_u32", fmt.Sprintf("D0.u32 = %s.u32 + 1U", name))
		resp, err := Evaluate(in, Request{Sources: map[string][]string{name: {"41"}}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := resp.Lanes[0].Outputs[0].Value; got != "42" {
			t.Errorf("D0 = %s + 1 with %s = 41: %s", name, name, got)
		}
		if _, err := Evaluate(in, Request{Sources: map[string][]string{}}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "no value given for "+name) {
			t.Errorf("%s left out: %v", name, err)
		}
		other := fmt.Sprintf("S%d", (i+1)%4)
		_, err = Evaluate(in, Request{Sources: map[string][]string{name: {"1"}, other: {"1"}}})
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "does not read "+other) {
			t.Errorf("%s given to a program reading only %s: %v", other, name, err)
		}
	}
	// Two sources missing: both named.
	in := Compile("cdna3", "v_test_u32", "D0.u32 = S0.u32 + S1.u32 + S2.u32")
	if _, err := Evaluate(in, Request{Sources: map[string][]string{"S1": {"1"}}}); err == nil || !strings.Contains(err.Error(), "no value given for S0, S2") {
		t.Errorf("S0 and S2 left out: %v", err)
	}
}

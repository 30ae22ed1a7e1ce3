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

// TestStateInputs: SCC, VCC and M0 read before the program writes them
// are inputs like a source (not silently 0); written first, they are not.
func TestStateInputs(t *testing.T) {
	var ie *InputError
	for _, c := range []struct {
		src, want string // want: the input it needs, "" for none
		req       Request
		d0        string
	}{
		{"D0.u32 = VCC.u64[laneId] ? S1.u32 : S0.u32", "VCC", Request{VCC: "0x1"}, "2"},
		{"D0.u32 = SCC ? S1.u32 : S0.u32", "SCC", Request{SCC: "0"}, "1"},
		{"D0.u32 = S0.u32 + M0.u32 + S1.u32", "M0", Request{M0: "4"}, "7"},
		{"SCC = S0.u32 > S1.u32;\nD0.u32 = SCC ? S0.u32 : S1.u32", "", Request{}, "2"},
		{"tmp = S0.u32;\nSCC = 1'1U;\nD0.u32 = SCC ? tmp : S1.u32", "", Request{}, "1"},
	} {
		in := Compile("cdna3", "v_test_u32", c.src)
		if !in.Executable() {
			t.Fatalf("%q: %v %v", c.src, in.Err, in.Info.Problems)
		}
		srcs := map[string][]string{"S0": {"1"}, "S1": {"2"}}
		_, err := Evaluate(in, Request{Sources: srcs})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.want != "" && (!errors.As(err, &ie) || !strings.Contains(err.Error(), "no value given for "+c.want)):
			t.Errorf("%q without %s: %v", c.src, c.want, err)
		}
		c.req.Sources = srcs
		resp, err := Evaluate(in, c.req)
		if err != nil {
			t.Errorf("%q with %+v: %v", c.src, c.req, err)
			continue
		}
		if got := resp.Lanes[0].Outputs[0].Value; got != c.d0 {
			t.Errorf("%q: D0 = %s, want %s", c.src, got, c.d0)
		}
	}
}

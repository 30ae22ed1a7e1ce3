package decode

import "testing"

func TestLooksLikeMachineCode(t *testing.T) {
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"0x160a04c1", true},
		{"160a04c1", true},
		{"0x160A04C1 7e020280", true},
		{"[0xc1,0x04,0x0a,0x16]", true},
		{"0xc1, 0x04, 0x0a, 0x16", true},
		{"[0xc1,0x04,0x0a]", false}, // not a whole dword
		{"v_max_f32", false},
		{"deadbee", false},
		{"fused multiply add", false},
		{"0x160a04c1 0xc1", false}, // words and bytes mixed
		{"", false},
		{"[]", false},
	} {
		if got := LooksLikeMachineCode(c.q); got != c.want {
			t.Errorf("LooksLikeMachineCode(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

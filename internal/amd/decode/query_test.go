package decode

import (
	"strings"
	"testing"
)

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

// Machine code typed beside a family, target or product is decoded there;
// a query that is machine code alone, or has a family given apart, keeps
// it, and words that are no machine code are no decoding.
func TestScopedMachineCode(t *testing.T) {
	scope := func(q string) (string, string) {
		if rest, ok := strings.CutSuffix(q, " gfx942"); ok {
			return "cdna3", rest
		}
		return "", q
	}
	for _, c := range []struct{ q, arch, wantCode, wantArch string }{
		{"0xbf810000 gfx942", "", "0xbf810000", "cdna3"},
		{"0xbf810000", "", "0xbf810000", ""},
		{"0xbf810000 gfx942", "rdna3", "0xbf810000 gfx942", "rdna3"},
		{"v_max_f32 gfx942", "", "v_max_f32 gfx942", ""},
	} {
		code, arch := ScopedMachineCode(c.q, c.arch, scope)
		if code != c.wantCode || arch != c.wantArch {
			t.Errorf("ScopedMachineCode(%q, %q) = %q, %q; want %q, %q", c.q, c.arch, code, arch, c.wantCode, c.wantArch)
		}
	}
}

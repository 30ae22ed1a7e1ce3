package asmtext

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"v0", []string{"v0"}},
		{" v5, -1, v2 clamp mul:2", []string{"v5", "-1", "v2 clamp mul:2"}},
		{"v[0:1], s[2:3], v4 op_sel:[0,1] neg_lo:[1, 0]", []string{"v[0:1]", "s[2:3]", "v4 op_sel:[0,1] neg_lo:[1, 0]"}},
		{"s0, hwreg(HW_REG_MODE, 0, 4)", []string{"s0", "hwreg(HW_REG_MODE, 0, 4)"}},
		{"v1,", []string{"v1", ""}},
		{"v1], v2", []string{"v1], v2"}}, // unbalanced: no comma is outside
	} {
		if got := Split(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Split(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("v0, v1, v2 op_sel:[0,1]")
	f.Add("s0, hwreg(1, 2, 3)")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		parts := Split(s)
		n := 0
		for _, p := range parts {
			n += len(p)
		}
		if n > len(s) {
			t.Fatalf("Split(%q) gives more text than it was given: %q", s, parts)
		}
	})
}

func TestBytes(t *testing.T) {
	if got := FormatBytes([]byte{0xc1, 0x04, 0x0a, 0x16}); got != "0xc1,0x04,0x0a,0x16" {
		t.Errorf("FormatBytes gives %q", got)
	}
	if got := FormatBytes(nil); got != "" {
		t.Errorf("FormatBytes(nil) gives %q", got)
	}
	for in, want := range map[string][]byte{
		"0xc1,0x04,0x0a,0x16":     {0xc1, 0x04, 0x0a, 0x16},
		" [0x01, 0x02] ":          {0x01, 0x02},
		"0xc1,0x04,0x0a,0x16,0x1": {0xc1, 0x04, 0x0a, 0x16, 0x01},
	} {
		if got, ok := ParseBytes(in); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseBytes(%q) = %x, %v; want %x", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "[]", "0x100", "0x01,,0x02", "zz"} {
		if got, ok := ParseBytes(bad); ok {
			t.Errorf("ParseBytes(%q) = %x, want false", bad, got)
		}
	}
}

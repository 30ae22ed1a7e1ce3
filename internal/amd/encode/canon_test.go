package encode

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

// canonNumbersByRegexp is canonNumbers as regular expressions say it; the
// hand-written scanner must agree with it.
func canonNumbersByRegexp(s string) string {
	s = regexp.MustCompile(`\b(v\d+)\.l\b`).ReplaceAllString(s, "$1")
	s = regexp.MustCompile(`\b(0x[0-9a-f]+|[0-9]+)\b`).ReplaceAllStringFunc(s, func(tok string) string {
		v, err := strconv.ParseUint(tok, 0, 64)
		if err != nil {
			return tok
		}
		return strconv.FormatUint(v, 10)
	})
	return regexp.MustCompile(` offset:0\b`).ReplaceAllString(s, "")
}

func TestCanonNumbersAsRegexp(t *testing.T) {
	in := []string{
		"s_addk_i32 s2, 0x0", "v_mov_b32 v1.l, 0x10", "v1.l", "v1.l0", "xv1.l", "v1.h", "s_load_b32 s1, s[2:3], s4 offset:0x0",
		"offset:0", " offset:0", " offset:01", " offset:0x0 offset:0", "017 08 0x 0x1F 0x1fg 12ab _12 a_1 -1 1.0 0.5e3",
		"18446744073709551616 0xffffffffffffffffff", "global_load_dword v1, v[2:3], off offset:-16", "ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,\"01pip\")",
		"", "0", "v", "v12", "v12.l", "buffer_load v1, off, s[4:7], 0 offen offset:4095",
	}
	cases, err := decodetest.Cases()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		in = append(in, strings.ToLower(c.Asm))
	}
	for _, s := range in {
		if got, want := canonNumbers(s), canonNumbersByRegexp(s); got != want {
			t.Errorf("canonNumbers(%q) = %q, the regular expressions give %q", s, got, want)
		}
	}
}

func FuzzCanonNumbers(f *testing.F) {
	for _, s := range []string{"s_addk_i32 s2, 0x0", "v1.l offset:0", "017 0x1f 1.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 256 {
			return
		}
		if got, want := canonNumbers(s), canonNumbersByRegexp(s); got != want {
			t.Errorf("canonNumbers(%q) = %q, the regular expressions give %q", s, got, want)
		}
	})
}

// regRe is the register syntax matchReg reads.
var regRe = regexp.MustCompile(`^(v|s|ttmp|a)(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?$`)

func TestMatchRegAsRegexp(t *testing.T) {
	in := []string{"v1", "v255", "s[2:3]", "a[0:15]", "ttmp4", "ttmp[4:7]", "v1.l", "v1.h", "v1.x", "vcc", "s", "v", "v[1:", "v[1:2", "v[:2]",
		"v[1:2].l", "v[1:2]x", "exec", "sa1", "a", "a12", "s12.h", "v01", "ttmp", "v[12:13]]", "m0", "0", ""}
	for _, s := range in {
		want := regRe.FindStringSubmatch(s)
		got, ok := matchReg(s)
		if ok != (want != nil) || (ok && got != [6]string(want)) {
			t.Errorf("matchReg(%q) = %q, %v; regRe gives %q", s, got, ok, want)
		}
	}
}

func FuzzMatchReg(f *testing.F) {
	for _, s := range []string{"v1", "s[2:3]", "ttmp[4:7].l", "a12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := regRe.FindStringSubmatch(s)
		got, ok := matchReg(s)
		if ok != (want != nil) || (ok && got != [6]string(want)) {
			t.Errorf("matchReg(%q) = %q, %v; regRe gives %q", s, got, ok, want)
		}
	})
}

func TestIsNormal(t *testing.T) {
	for _, s := range []string{"", "v_max_f32 v5, -1, v2", "v_max_f32  v5", " v", "v ", "V_MAX", "a ,b", "a,b", "a, b", "a,", "s_nop 0 ; x",
		"global_load_dword v1, v[2:3], off offset:-16", "x\tY", ",", ", ,", "a , b", ",0", "0,"} {
		if isNormal(s) && normalizeSlow(s) != s {
			t.Errorf("isNormal(%q), but normalize gives %q", s, normalizeSlow(s))
		}
	}
}

func FuzzIsNormal(f *testing.F) {
	for _, s := range []string{"v_max_f32 v5, -1, v2", "a, b", "a ,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if isNormal(s) && normalizeSlow(s) != s {
			t.Errorf("isNormal(%q), but normalize gives %q", s, normalizeSlow(s))
		}
	})
}

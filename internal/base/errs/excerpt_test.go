package errs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestExcerpt: short text is quoted as it is; longer text by its start,
// whole characters only, marked as cut.
func TestExcerpt(t *testing.T) {
	if got := Excerpt("v_max_f32 v5, -1, v2"); got != "v_max_f32 v5, -1, v2" {
		t.Errorf("short text: %q", got)
	}
	for _, s := range []string{strings.Repeat("é", 100), strings.Repeat("x", excerptMax-1) + "é" + "yyyy", strings.Repeat("[", 4<<20)} {
		if x := Excerpt(s); !utf8.ValidString(x) || len(x) > excerptMax+3 || !strings.HasSuffix(x, "...") || !strings.HasPrefix(s, strings.TrimSuffix(x, "...")) {
			t.Errorf("Excerpt(%.60q) = %q; want at most %d bytes of its start, whole characters, and ...", s, x, excerptMax)
		}
	}
}

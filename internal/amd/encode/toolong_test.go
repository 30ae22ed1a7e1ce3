package encode

import (
	"errors"
	"strings"
	"testing"
)

// TestTooLongTextIsNotQuoted: a text longer than MaxText is refused
// before any encoding is tried, and the error quotes only its start (a
// 50 MB line had been quoted whole, four times); at MaxText the encoder
// tries as usual.
func TestTooLongTextIsNotQuoted(t *testing.T) {
	a, ins := fixture()
	e, err := New(a, ins)
	if err != nil {
		t.Fatal(err)
	}
	long := "v_max_f32 v5, -1, " + strings.Repeat("v2", 1<<20)
	_, err = e.Encode(long)
	var tooLong *TooLongError
	if !errors.As(err, &tooLong) || tooLong.Len != len(long) || len(err.Error()) > 200 || !strings.HasPrefix(tooLong.Start, "v_max_f32 v5") {
		t.Errorf("Encode of %d bytes: %.300v; want a TooLongError quoting only the start", len(long), err)
	}
	atCap := "v_max_f32 v5, -1, v2" + strings.Repeat(" ", MaxText-len("v_max_f32 v5, -1, v2"))
	if b, err := e.Encode(atCap); err != nil || len(b) == 0 {
		t.Errorf("Encode of %d bytes (the cap, trailing blanks): %v; want it encoded", len(atCap), err)
	}
}
